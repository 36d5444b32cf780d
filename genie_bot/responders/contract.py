"""The turn contract: every message in a task changes something the reply names, or the reply says it did not.

A misreading that nobody sees is the worst kind: the user confirms a summary that holds a value
they never meant. So after every message the reply accounts for what the message did, whichever
responder (templates or an LLM) phrased it and whichever parser read it:

- each value the message set or changed is named ("Got it: the time is now 7:45 PM."), except the
  plain answer to the question just asked (moving on to the next question says it was taken) and
  values a summary in the same reply shows, where they are marked as changed;
- a message that changed nothing gets a word about it rather than the same question or summary
  again in silence: at a summary, how to say a change, in the summary's own labels.

:func:`accounted` is applied where a turn's reply is assembled (``Agent``), so no path can skip it.
"""

from __future__ import annotations

import re
from collections.abc import Collection
from dataclasses import dataclass
from typing import Any

from ..acts import Act, AskField, AskForConfirmation, AskForFieldConfirmation, Report, Say
from ..language import english
from ..language.tokens import phrase_pattern
from ..language.words import content_words
from ..parse import ALREADY_HANDLED, CHIT_CHAT, NOTHING_SAID, SAID_AGAIN, Parse
from ..runtime.turn import Update
from ..spec import NA, AgentSpec, Field, InstanceRef
from ..state import DialogueState, WorksheetInstance
from .display import display_value, join_words, quoted, shown_fields
from .unplaced import NOT_CONTENT, not_placed
from .wording import label, task_phrase

GOT_IT = "Got it"
HAD_ALREADY = "I have that already"
NOTHING_CHANGED = "I didn't find a change in {said}."
NO_ANSWER = "I didn't get an answer to my question from {said}."
YOU_ARE_WELCOME = "You're welcome!"
ON_IT = "Sure, we're on it."
ALREADY_ON = "I'm already on your request to {task}."
LETS = "Sure, let's {task}."
UNCLEAR_REQUEST = "I couldn't tell what you need from {said}."
_THANKS = re.compile(phrase_pattern(english.THANKS), re.I)
_PROGRESS = re.compile(phrase_pattern(english.PROGRESS_QUESTIONS), re.I)
_CLAUSE_LABEL = re.compile(phrase_pattern(english.CLAUSE_LABEL_LEADS), re.I)
QUOTED_VALUE_WORDS = 3
"""Text this long is quoted when it is named back: it is the user's own words."""


@dataclass(frozen=True)
class Change:
    """A value a turn set or changed: where, the field, and its new value (None: asked again)."""

    instance: str
    field: Field
    value: Any
    old: Any = None


def accounted(spec: AgentSpec, before: DialogueState, after: DialogueState, acts: list[Act], user_text: str,
              parse: Parse, update: Update, reply: str) -> str:
    """``reply`` with what the turn contract requires that it does not say yet, said first."""
    said = []
    shown = _summarised(spec, acts, after)
    checked = {(a.instance, a.field) for a in acts if isinstance(a, AskForFieldConfirmation)}  # asked back: named
    changed = changes(spec, before, after, update.assigned, parse)
    untold = [c for c in changed if c.instance not in shown and (c.instance, c.field.name) not in checked
              and not _named_in(reply, c, spec, after)]
    if len(untold) == 1 and not _several(untold[0].value) and _moved_past(spec, before, acts, untold[0]):
        untold = []  # "a pizza": the next question is the one after the dish, which says it was taken
    again = _said_again(spec, after, parse)
    if untold:
        said.append(_naming(spec, after, untold))
    elif not changed and again and not any(_named_in(reply, c, spec, after) for c in again):
        said.append(_naming(spec, after, again, HAD_ALREADY))
    elif not changed and not update.set_aside and _silent(before, after, acts, parse):
        said.append(_nothing_done(spec, before, after, acts, user_text, parse))
    if update.set_aside:
        said.append(_taken_out(spec, before, update.set_aside))
    left_out = not_placed(spec, after, parse, "\n".join((*said, reply)))
    if left_out:
        said.append(left_out)
    return "\n\n".join(p for p in (*said, reply) if p)


def changes(spec: AgentSpec, before: DialogueState, after: DialogueState, assigned: Collection[tuple[str, str]],
            parse: Parse) -> list[Change]:
    """The values of the user's fields this turn set or changed, other than the plain answer to the
    question asked (and the confirmations, which the reply itself answers)."""
    asked = _asked(before)
    out: list[Change] = []
    for name, field_name in dict.fromkeys(assigned):
        instance = after.instances.get(name)
        f = spec.tasks[instance.worksheet].fields.get(field_name) if instance else None
        if instance is None or f is None or f.kind != "input" or f.type.kind == "confirm":
            continue
        new = instance.values.get(field_name)
        if (name, field_name) == asked and parse.answers_question and not _several(new):
            continue  # a list of several is named all the same: the user sees each item taken
        old = before.instances[name].values.get(field_name) if name in before.instances else None
        if new != old and not isinstance(new, InstanceRef) and new != NA:
            out.append(Change(name, f, new, None if old == NA else old))
    return out


def _several(value: Any) -> bool:
    return isinstance(value, list) and len(value) > 1


def revised(before: DialogueState, assigned: Collection[tuple[str, str]]) -> list[tuple[str, str]]:
    """Of the values a turn set, those a summary marks as changed: values that had another value, or
    any value once the user has seen the summary (the first summary shows everything as new)."""
    seen = {a.instance for a in before.last_acts if isinstance(a, AskForConfirmation)}
    roots = {before.root_of(before.instances[n]).name for n in seen if n in before.instances}
    out = []
    for name, field_name in assigned:
        instance = before.instances.get(name)
        had = instance is not None and instance.values.get(field_name) is not None
        root = before.root_of(instance).name if instance is not None else None
        if had or root in roots or name in seen:
            out.append((name, field_name))
    return out


def changed_paths(after: DialogueState, root: str, assigned: Collection[tuple[str, str]]) -> frozenset[tuple[str, ...]]:
    """The paths of field names from ``root`` down to each value this turn changed in it (course_1's
    units in a list of courses: ``("course_1_details", "course_num_units")``): what its summary marks."""
    out = set()
    for name, field_name in assigned:
        path, instance = [field_name], after.instances.get(name)
        while instance is not None and instance.name != root and instance.parent:
            path.insert(0, instance.parent[1])
            instance = after.instances.get(instance.parent[0])
        if instance is not None and instance.name == root:
            out.add(tuple(path))
    return frozenset(out)


def _moved_past(spec: AgentSpec, before: DialogueState, acts: list[Act], change: Change) -> bool:
    """Whether the reply goes on to a later question of the same task than the one the value answers,
    as it does after a plain answer: the value was taken where it was expected."""
    question = next((a for a in acts if isinstance(a, AskField)), None)
    if question is None or question.instance != change.instance or change.value is None or change.old is not None:
        return False
    previous = next((a for a in reversed(before.last_acts) if a.is_question), None)
    if previous is not None and previous.formal() == question.formal():
        return False  # the same question again: the value went somewhere else
    instance = before.instances.get(change.instance)
    worksheet = spec.tasks[instance.worksheet] if instance else next(
        (ws for ws in spec.tasks.values() if change.field.name in ws.fields and ws.fields[change.field.name] is change.field), None)
    order = list(worksheet.fields) if worksheet else []
    return question.field in order and change.field.name in order and order.index(change.field.name) < order.index(question.field)


def _asked(state: DialogueState) -> tuple[str | None, str | None]:
    question = next((a for a in reversed(state.last_acts) if a.is_question), None)
    return getattr(question, "instance", None), getattr(question, "field", None)


def _summarised(spec: AgentSpec, acts: list[Act], after: DialogueState) -> set[str]:
    """Instances whose values a summary in the reply shows (it marks what changed): the task a
    confirmation shows, or the list a check question shows ("is this list of courses correct?")."""
    out = set()
    for act in acts:
        instance = after.instances.get(getattr(act, "instance", None) or "")
        if instance is None:
            continue
        f = spec.tasks[instance.worksheet].fields.get(act.field) if isinstance(act, AskField) else None
        if isinstance(act, AskForConfirmation) or (f is not None and f.type.kind == "confirm"):
            out |= {instance.name, *(i.name for i in after.descendants(instance))}
    return out


def _named_in(reply: str, change: Change, spec: AgentSpec, state: DialogueState) -> bool:
    """Whether the reply already names the change (an LLM's reply may have): the new value and a word
    of the field's label are in one of its sentences that is not a question."""
    if change.value is None:
        return False
    shown = display_value(change.value, change.field, state, spec).lower()
    for said in _STATEMENT.findall(reply.lower()):  # a question names no change ("How was the form submitted?")
        if shown and shown in said and any(w in said for w in label(change.field).lower().split() if len(w) > 3):
            return True
    return False


_STATEMENT = re.compile(r"[^.!?\n]+(?:[.!](?=\s|$)|\n|$)")
"""A sentence of a reply that is not a question (its ending kept, so a question is left out)."""


def _said_again(spec: AgentSpec, state: DialogueState, parse: Parse) -> list[Change]:
    """The values the message gave again as their fields hold them (the parser's remarks say which)."""
    out = []
    for line in parse.statements.splitlines():
        name, _, field_name = line.removeprefix(SAID_AGAIN).partition(".")
        instance = state.instances.get(name) if line.startswith(SAID_AGAIN) else None
        f = spec.tasks[instance.worksheet].fields.get(field_name) if instance else None
        if instance is not None and f is not None and instance.values.get(field_name) is not None:
            out.append(Change(name, f, instance.values[field_name]))
    return out


def _naming(spec: AgentSpec, state: DialogueState, changed: list[Change], lead: str = GOT_IT) -> str:
    """"Got it: the time is now 7:45 PM, and the number of people is 4." (or, for values said again,
    "I have that already: the date is Friday, December 4, 2026."). Values of several parts of one
    kind (two courses) are said part by part: "CS 106B (grading option: Letter) and CS 224W"."""
    groups: dict[str, list[Change]] = {}
    for change in changed:
        groups.setdefault(change.instance, []).append(change)
    kinds = {state.instances[n].worksheet for n in groups if n in state.instances}
    if len(groups) > 1 and len(kinds) < len(groups) and all(c.value is not None for c in changed):
        parts = []
        for name, part in groups.items():
            instance = state.instances.get(name)
            first = next((f for f in spec.tasks[instance.worksheet].fields.values()
                          if f.kind == "input" and instance.values.get(f.name) is not None), None) if instance else None
            if instance is not None and first is not None and part[0].field is not first:  # "5 units for 106a"
                named, rest = display_value(instance.values[first.name], first, state, spec), part
            else:
                named, rest = _shown(spec, state, part[0]), part[1:]
            details = ", ".join(f"{_label(c)}: {_shown(spec, state, c)}" for c in rest)
            parts.append(named + (f" ({details})" if details else ""))
        return f"{lead}: {join_words(parts)}."
    said = []
    for change in changed:
        named, shown = _label(change), _shown(spec, state, change)
        if change.value is None:
            said.append(f"I'll ask for the {named} again")
        elif _CLAUSE_LABEL.match(named):  # "what you need help with: Troubleshoot", "anything else: a note"
            said.append(f"{named}: {'now ' if change.old is not None else ''}{shown}")
        else:
            verb = "are" if isinstance(change.value, (list, tuple)) and len(change.value) > 1 else "is"
            said.append(f"the {named} {verb} {'now ' if change.old is not None else ''}{shown}")
    return f"{lead}: {join_words(said)}."


def _label(change: Change) -> str:
    named = label(change.field)
    return named[:1].lower() + named[1:]


def _shown(spec: AgentSpec, state: DialogueState, change: Change) -> str:
    shown = display_value(change.value, change.field, state, spec)
    if change.field.type.kind == "str" and len(shown.split()) >= QUOTED_VALUE_WORDS:
        shown = f"“{shown}”"  # what the user said, as said
    return shown


def _taken_out(spec: AgentSpec, before: DialogueState, set_aside: list[tuple[str, str, Any]]) -> str:
    """"I've taken out what no longer applies: the details of the enrollment problem."""
    labels = []
    for name, field_name, _ in set_aside:
        instance = before.instances.get(name)
        f = spec.tasks[instance.worksheet].fields.get(field_name) if instance else None
        if f is not None:
            text = label(f)
            labels.append(text[:1].lower() + text[1:])
    return f"I've taken out what no longer applies: {join_words(labels)}." if labels else ""


def _silent(before: DialogueState, after: DialogueState, acts: list[Act], parse: Parse) -> bool:
    """Whether the turn changed nothing and the reply would only say again what was said before."""
    if not parse.understood or parse.reason or not acts or parse.statements.strip() == NOTHING_SAID:
        return False  # the reply says it did not understand, or why; a bare mention is greeted
    if before.turn == 0 and parse.statements.strip() == CHIT_CHAT:
        return False  # "hi" as the first message: the greeting answers it
    if any(isinstance(a, (Report, Say)) or getattr(a, "reason", None) for a in acts):
        return False
    if not any(i.open for i in after.instances.values()):
        return False
    before_questions = [a.formal() for a in before.last_acts if a.is_question]
    return [a.formal() for a in acts if a.is_question] == before_questions and _same_values(before, after)


def _same_values(before: DialogueState, after: DialogueState) -> bool:
    return all(before.instances.get(name) is not None and before.instances[name].values == i.values
               and before.instances[name].status == i.status for name, i in after.instances.items())


def _nothing_done(spec: AgentSpec, before: DialogueState, after: DialogueState, acts: list[Act], user_text: str,
                  parse: Parse) -> str:
    """What to say when a message changed nothing and the same question comes again (as the first
    message, the question may not have been seen yet: what was not understood is the request)."""
    if parse.statements.strip() == CHIT_CHAT:
        return YOU_ARE_WELCOME if _THANKS.search(user_text) else NO_ANSWER.format(said=quoted(user_text) or "that")
    if parse.statements.strip() == ALREADY_HANDLED:
        if asks_progress(user_text):
            return ON_IT
        if not _beyond_the_task(spec, after, user_text):  # "book a table" while booking one
            root = _task_in_progress(after)
            task = task_phrase(spec.tasks.get(root.worksheet) if root else None)
            untouched = before.turn == 0 or (root is not None and all(v is None for v in root.values.values()))
            return (LETS if untouched else ALREADY_ON).format(task=task)  # the greeting's task, first asked for
    summary = next((a for a in acts if isinstance(a, AskForConfirmation)), None)
    if summary is not None:
        labels = _first_label(spec, after, summary.instance)
        example = f" To change something, say for example “change the {labels} to …”." if labels else ""
        return f"{NOTHING_CHANGED.format(said=quoted(user_text) or 'that')}{example} To go ahead, say yes."
    if before.turn == 0:
        return UNCLEAR_REQUEST.format(said=quoted(user_text) or "that")
    return NO_ANSWER.format(said=quoted(user_text) or "that")


def asks_progress(user_text: str) -> bool:
    """Whether the message asks how the request is going ("any update?"): "Sure, we're on it." answers it."""
    return _PROGRESS.search(user_text) is not None


def _task_in_progress(state: DialogueState) -> WorksheetInstance | None:
    """The open task the user asked for again."""
    return next((state.root_of(i) for i in state.instances.values() if i.open), None)


def _beyond_the_task(spec: AgentSpec, state: DialogueState, user_text: str) -> bool:
    """Whether the message says more than a request for the open task: words its description, phrase
    and examples do not use ("i meant pls add a note that we'd like a table outside")."""
    task_words: set[str] = set()
    for instance in state.instances.values():
        ws = spec.tasks.get(state.root_of(instance).worksheet) if instance.open else None
        if ws is not None:
            task_words |= content_words(" ".join((ws.description, ws.phrase or "", *ws.examples)))
    return bool(content_words(user_text) - task_words - NOT_CONTENT)


def _first_label(spec: AgentSpec, state: DialogueState, name: str) -> str | None:
    """The label of a field the summary of ``name`` shows on a line of its own, in lower case, for an
    example of a change: a nested task's fields are lifted into the summary, items of a list are not."""
    instance = state.instances.get(name)
    if instance is None:
        return None
    ws = spec.tasks[instance.worksheet]
    kinds = [f.type.ref for f in ws.fields.values() if isinstance(instance.values.get(f.name), InstanceRef)]
    for f in shown_fields(ws):
        value = instance.values.get(f.name)
        if isinstance(value, InstanceRef):
            found = _first_label(spec, state, value.name) if kinds.count(f.type.ref) == 1 else None
            if found:
                return found
            continue
        text = label(f)
        if f.type.kind != "confirm" and value not in (None, NA) and not _CLAUSE_LABEL.match(text):
            return text[:1].lower() + text[1:]
    return None
