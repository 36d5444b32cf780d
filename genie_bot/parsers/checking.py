"""Keeping the statements of a parse that apply, one by one, and measuring what they change.

An LLM (a small one especially) writes a block in which one line may be broken: a syntax
error, an unknown field, a value of the wrong kind. Parsed as one block, one bad line would
discard the good ones. Here the block is cut into statements (a statement may span lines:
lines are gathered until they make a complete statement, as an interactive interpreter
does, with :mod:`codeop`, which compiles and never runs), each is tried in turn on a
throw-away copy of the state, and only those the interpreter applies without error are kept.

The *effect* of the kept statements counts what they would change: values assigned or
rejected, confirmations, tasks created, started or dropped, knowledge queries. A parse with
no effect (``# nothing yet``, ``main_0 = Main()`` for the task that already exists) says
nothing the agent can act on.
"""

from __future__ import annotations

import codeop
import datetime as dt
import textwrap
import warnings
from dataclasses import dataclass, field
from typing import Any

from ..runtime.statements import apply_statements
from ..runtime.turn import Turn, Update
from ..spec import AgentSpec, InstanceRef
from ..state import DialogueState
from .repair import NoIO


@dataclass
class Checked:
    """The statements kept from a parse, what they change, and why the others were dropped."""

    chunks: list[str] = field(default_factory=list)
    update: Update = field(default_factory=Update)
    effect: int = 0
    dropped: list[str] = field(default_factory=list)
    """One error per statement dropped (syntax or interpreter)."""
    values: dict[tuple[str, str], Any] = field(default_factory=dict)
    """(instance, field) -> the value the kept statements give it."""
    free_text: set[tuple[str, str]] = field(default_factory=set)
    """The (instance, field) of ``values`` that take any text (a rule-based reading may be the leftovers)."""

    @property
    def statements(self) -> str:
        return "\n".join(self.chunks)

    def badness(self) -> tuple[int, int]:
        """Fewer statements dropped first, then more effect."""
        return len(self.dropped), -self.effect


def split_statements(text: str) -> tuple[list[str], list[str]]:
    """(complete statements, in order; an error for each piece that is not valid Python)."""
    chunks: list[str] = []
    errors: list[str] = []
    buffer: list[str] = []
    for line in text.splitlines():
        if not buffer and (not line.strip() or line.lstrip().startswith("#")):
            continue
        buffer.append(line)
        source = textwrap.dedent("\n".join(buffer))  # a block indented as a whole is still statements
        try:
            with warnings.catch_warnings():
                warnings.simplefilter("ignore")
                complete = codeop.compile_command(source + "\n", "<parser>", "exec")
        except (SyntaxError, ValueError, OverflowError) as exc:
            errors.append(f"{source.strip()}: syntax error: {getattr(exc, 'msg', exc)}")
            buffer = []
            continue
        if complete is not None:
            chunks.append(source)
            buffer = []
    if buffer:
        errors.append(f"{chr(10).join(buffer).strip()}: syntax error: the statement is not complete")
    return chunks, errors


def check(spec: AgentSpec, state: DialogueState, chunks: list[str], today: dt.date,
          dropped: list[str] | None = None) -> Checked:
    """The chunks that apply without error, one after the other, and the effect of those kept."""
    trial = _turn(spec, state, today)
    kept, dropped = [], list(dropped or [])
    for chunk in chunks:
        before = len(trial.update.errors)
        apply_statements(trial, chunk)
        if len(trial.update.errors) > before:
            dropped.extend(trial.update.errors[before:])
            del trial.update.errors[before:]
        else:
            kept.append(chunk)
    final = _turn(spec, state, today)  # the kept ones alone: a dropped statement may have changed something
    apply_statements(final, "\n".join(kept))
    values = {(i, f): _value(final, i, f) for i, f in final.update.assigned}
    free_text = {(i, f) for i, f in values if _free_text(spec, final, i, f)}
    return Checked(kept, final.update, effect(state, final), dropped, values, free_text)


def check_text(spec: AgentSpec, state: DialogueState, text: str, today: dt.date) -> Checked:
    chunks, syntax_errors = split_statements(text)
    return check(spec, state, chunks, today, syntax_errors)


def effect(before: DialogueState, turn: Turn) -> int:
    """How many changes the turn's statements made (a rejected value counts: the user gave one)."""
    u = turn.update
    after = turn.state.instances
    created = sum(1 for name in after if name not in before.instances)
    changed = sum(1 for name, i in before.instances.items() if name in after and after[name].status != i.status)
    return (len(u.assigned) + len(u.field_confirmations) + len(u.rejected) + len(u.declined) + len(u.cancel_requests)
            + len(u.cancelled) + int(u.new_query) + created + changed)


def says_less(parse: Checked, other: Checked, state: DialogueState) -> bool:
    """Whether ``other`` gives every value ``parse`` gives, the same, and more: the details of a task
    ``parse`` started without them (a weak model's ``student_task = 'External Test Credits'`` for
    "my AP credits are missing"). The more must be fields of tasks ``state`` does not have yet, with
    fixed options or typed values: the rules read leftovers of a message as free text, and may
    spread one answer over tasks that exist ("letter" for every course)."""
    more = other.values.keys() - parse.values.keys()
    return bool(more) and parse.values.keys() <= other.values.keys() and not more & other.free_text and \
        all(_new_task(state, key, other.values[key]) for key in more) and \
        all(other.values[k] == v for k, v in parse.values.items())


def _value(turn: Turn, instance: str, name: str) -> Any:
    found = turn.state.instances.get(instance)
    return found.values.get(name) if found else None


def _new_task(state: DialogueState, key: tuple[str, str], value: Any) -> bool:
    """A field of a task ``state`` does not have, or the link to one."""
    return key[0] not in state.instances or (isinstance(value, InstanceRef) and value.name not in state.instances)


def _free_text(spec: AgentSpec, turn: Turn, instance: str, name: str) -> bool:
    found = turn.state.instances.get(instance)
    ws = spec.tasks.get(found.worksheet) if found else None
    f = ws.fields.get(name) if ws else None
    return f is None or (f.type.kind == "str" and not f.values)


def _turn(spec: AgentSpec, state: DialogueState, today: dt.date) -> Turn:
    return Turn(spec, state.copy(), NoIO(), today, dt.datetime.combine(today, dt.time(12)))
