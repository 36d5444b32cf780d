"""The chosen readings, written as a parse: statements for the interpreter and what to tell the user.

Values of one instance become ``instance.field = value``; values of a task not started become its
constructor (``book_appointment_0 = BookAppointment(visit_type='Root canal', ...)``), and values of a
worksheet nested in an open one not made yet become the constructor of its field
(``courses_to_take_0.course_1_details = Course(course_name='cs 229')``). A value a field holds
already is said again (``# said again: ...``), not set. A value too close to call against another
reading of the same words is not written: the parse asks which was meant.
"""

from __future__ import annotations

import dataclasses
from dataclasses import dataclass, field
from typing import Any

from ...acts import formal_value
from ...parse import SAID_AGAIN, Parse
from ...responders.display import display_value, join_words
from ...responders.templates import which_one
from ...responders.wording import label
from .context import NEW, Context, Target
from .proposals import LINES, PROBLEM, START, VALUE, Proposal
from .resolver import Choice
from .slots import SameAs


@dataclass
class _Node:
    """A constructor being written: its worksheet, its values, and the constructors nested in it."""

    worksheet: str
    values: dict[str, Any] = field(default_factory=dict)
    nested: dict[str, "_Node"] = field(default_factory=dict)

    def written(self) -> str:
        args = [f"{name}={formal_value(value)}" for name, value in self.values.items()]
        args += [f"{name}={node.written()}" for name, node in self.nested.items()]
        return f"{self.worksheet}({', '.join(args)})"


def written(ctx: Context, choice: Choice) -> Parse:
    chosen = list(choice.chosen) or _refused(choice)
    questions = []
    for p, (rival, _) in choice.rivals.items():
        chosen.remove(p)
        questions.append(_which(ctx, p, rival))
    chosen = _with_values_said_as_others(ctx, chosen)
    statements: list[str] = []
    roots: dict[str, _Node] = {}
    for target, value in _implied(ctx, chosen):
        _place(ctx, target, value, False, roots, statements)
    for p in chosen:
        if p.does == VALUE and p.target is not None:
            _place(ctx, p.target, p.value, "same value" in p.features, roots, statements)
        elif p.does == START and p.worksheet is not None:
            roots.setdefault(f"{NEW}{p.worksheet}", _Node(p.worksheet))
        elif p.does == LINES:
            statements.extend(p.lines)
    statements = _constructors(ctx, roots) + statements
    statements = sorted(statements, key=_order)
    reasons = [p.reason for p in chosen if p.reason] + questions
    understood = not questions and all(p.understood for p in chosen) and bool(chosen)
    if not understood:
        return Parse("\n".join(s for s in statements if s.startswith("answer(")), understood=False,
                     reason=reasons[0] if reasons else None)
    corrected = tuple(p.target.key for p in chosen if p.target is not None and "changes a value" in p.features)
    answers = bool(chosen) and all(p.answers for p in chosen if p.does != PROBLEM)
    margins = [m for p, m in choice.margins.items() if p not in choice.rivals]
    return Parse("\n".join(dict.fromkeys(statements)), reason=reasons[0] if reasons else None, corrected=corrected,
                 answers_question=answers, unplaced=_unplaced(ctx, chosen), margin=min(margins) if margins else None)


def _unplaced(ctx: Context, chosen: list[Proposal]) -> tuple[str, ...]:
    """The values the message gives that no chosen reading explains (a date said with a request the agent
    cannot place anywhere): the reply names them instead of dropping them silently."""
    claimed = frozenset().union(*(p.claims for p in chosen))
    out: dict[tuple[int, int], str] = {}
    for e in ctx.analysis.entities:
        if e.usable and not ctx.tokens_in([e.span]) & claimed and not any(
                s < e.end and e.start < t for s, t in out):
            out[e.span] = e.text
    return tuple(out.values())


def _refused(choice: Choice) -> list[Proposal]:
    """When nothing else is read: the best value the message gives a task in progress that its checks refuse
    ("a date in the past"), so that the runtime tells why and asks that field again, rather than the user
    being told they were not understood."""
    refused = [p for p in choice.scores if p.does == VALUE and p.target is not None and p.target.exists
               and "refused" in p.features]
    return [max(refused, key=lambda p: (choice.scores[p], p.key))] if refused else []


def _with_values_said_as_others(ctx: Context, chosen: list[Proposal]) -> list[Proposal]:
    """Values said as another field's ("same place") take that field's value: given in the same message, or
    held; without either they are left out."""
    given = {p.target.key: p.value for p in chosen if p.target is not None and p.does == VALUE
             and not isinstance(p.value, SameAs)}
    out = []
    for p in chosen:
        if isinstance(p.value, SameAs):
            owner, _, name = p.value.key.rpartition(".")
            held = ctx.state.instances[owner].values.get(name) if owner in ctx.state.instances else None
            value = given.get(p.value.key, held)
            if value is None:
                continue
            p = dataclasses.replace(p, value=value)
        out.append(p)
    return out


def _implied(ctx: Context, chosen: list[Proposal]) -> list[tuple[Target, Any]]:
    """Values a chosen value says too: a field that applies only when another holds a value gives that
    value ("sent it by email on oct 30": the form was submitted), when one way makes it apply and no
    chosen reading gives that field."""
    given = {p.target.key for p in chosen if p.target is not None}
    out: dict[str, tuple[Target, Any]] = {}
    for p in chosen:
        if p.does != VALUE or p.target is None or len(p.target.needs) != 1:
            continue
        for owner, name, value in p.target.needs[0]:
            key = f"{owner}.{name}"
            if key in given or key in out:
                continue
            worksheet = _worksheet_of(ctx, owner)
            f = ctx.spec.tasks[worksheet].fields.get(name) if worksheet else None
            if worksheet is None or f is None:
                continue
            current = ctx.state.instances[owner].values.get(name) if owner in ctx.state.instances else None
            if current != value:
                out[key] = (Target(owner, worksheet, f), value)
    return list(out.values())


def _worksheet_of(ctx: Context, owner: str) -> str | None:
    """The worksheet of an instance, of a task not started, or of a part not made yet."""
    if owner.startswith(NEW):
        return owner.split(".")[0][len(NEW):] if "." not in owner else _nested_worksheet(ctx, owner)
    if owner in ctx.state.instances:
        return ctx.state.instances[owner].worksheet
    return _nested_worksheet(ctx, owner)


def _nested_worksheet(ctx: Context, owner: str) -> str | None:
    first, *path = owner.split(".")
    worksheet = first[len(NEW):] if first.startswith(NEW) else ctx.state.instances[first].worksheet
    for name in path:
        worksheet = ctx.spec.tasks[worksheet].fields[name].type.referenced() or ""
    return worksheet or None


def _place(ctx: Context, target: Target, value: Any, same: bool, roots: dict[str, _Node], statements: list[str]) -> None:
    if target.exists:
        if same:
            statements.append(f"{SAID_AGAIN}{target.key}")
        else:
            statements.append(f"{target.key} = {formal_value(value)}")
        return
    owner, *path = target.owner.split(".")
    if owner.startswith(NEW):
        node = roots.setdefault(owner, _Node(owner[len(NEW):]))
    else:
        instance = ctx.state.instances[owner]
        first = path.pop(0)
        worksheet = ctx.spec.tasks[instance.worksheet].fields[first].type.referenced() or ""
        node = roots.setdefault(f"{owner}.{first}", _Node(worksheet))
    for name in path:
        worksheet = ctx.spec.tasks[node.worksheet].fields[name].type.referenced() or ""
        node = node.nested.setdefault(name, _Node(worksheet))
    node.values[target.field.name] = value


def _constructors(ctx: Context, roots: dict[str, _Node]) -> list[str]:
    out = []
    taken: list[str] = []
    for owner, node in roots.items():
        if owner.startswith(NEW):
            name = ctx.state.new_instance_name(node.worksheet, avoid=taken)
            taken.append(name)
            out.append(f"{name} = {node.written()}")
        else:
            out.append(f"{owner} = {node.written()}")
    return out


def _order(statement: str) -> int:
    """Changes and answers first, tasks started next, questions for the knowledge base last."""
    if statement.startswith("answer("):
        return 3
    if statement.startswith("#"):
        return 2
    return 1 if " = " in statement and "(" in statement.split(" = ", 1)[1][:40] else 0


def _which(ctx: Context, p: Proposal, rival: Proposal) -> str:
    """The question that asks which of two readings of the same words was meant."""
    assert p.target is not None and rival.target is not None
    if p.target.key == rival.target.key:  # in the order they were said: "either 9503 or 1596"
        said_first = sorted((p, rival), key=lambda q: min(q.claims, default=0))
        shown = [display_value(q.value, p.target.field, ctx.state) for q in said_first]
        return f"Did you mean {join_words(shown, 'or')}?"
    labels = [f"the {_lower(label(t.field))}" for t in (p.target, rival.target)]
    if labels[0] == labels[1]:  # the same field of two parts: "the grading option (CS 106A) or ... (CS 229)"
        labels = [f"{said}{which_one(ctx.spec, ctx.state, t.owner, t.field)}"
                  for said, t in zip(labels, (p.target, rival.target))]
    if "changes a value" in p.features or "changes a value" in rival.features:
        return f"Which should change: {join_words(labels, 'or')}?"
    said = display_value(p.value, p.target.field, ctx.state)
    return f"Is {said} {join_words(labels, 'or')}?"


def _lower(text: str) -> str:
    return text[:1].lower() + text[1:]
