"""After a submission: a change to what was submitted starts a new request in the same message,
and a turn that comes to nothing says what was submitted.

What a task's side-effecting API received stays as it was submitted (``in_submitted``: the
record of what was sent). A user who writes "make that 4 units" or "add CS 161 too" after the
enrollment went through means a new request like the last one with that change: the parser
names the submitted instances (``course.course_num_units = 4``), and the runtime makes the
change in a copy of the submitted task, a new open task holding the same values but not what
the submission produced (its outputs, its confirmation). The names of the submitted instances
denote their copies from then on, so the rest of the output and the next ones change the new
request. The policy asks to confirm it as any submission; nothing is sent before that.

Once nothing is open, a message that comes to nothing ("am i enrolled now?" read as a question
the knowledge sources cannot answer, a statement refused) is answered with what was submitted
(:class:`~genie_bot.acts.Submitted`), so the user learns where things stand and how to go on.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from ..acts import Report, Submitted
from ..spec import InstanceRef
from ..state import InstanceStatus, WorksheetInstance
from .assign import confirm_fields, submitted_task
from .reading import holds
from .turn import Turn

FOLLOW_UP_TEXT = "That was submitted already, so this is a new request made from it; nothing is sent until you confirm."


def follow_up(turn: Turn, instance: WorksheetInstance) -> WorksheetInstance:
    """The copy of ``instance`` in a new request made from the submitted task it is in (or is).

    ``instance`` itself, where the change is refused, when that task is nested in another one (what
    holds it decides), or when ``instance`` sits in a field that does not apply (a course slot the
    user turned down): no new request would send anything else.
    """
    submitted = submitted_task(turn, instance)
    if submitted is None or submitted.parent is not None or instance.discarded or \
            not _applies_in(turn, instance, submitted):
        return instance
    copies: dict[str, str] = {}
    _copy(turn, submitted, None, copies)
    state = turn.state
    for alias, target in list(state.aliases.items()):
        if target in copies:
            state.aliases[alias] = copies[target]
    state.aliases.update(copies)
    turn.update.follow_ups.append((submitted.name, copies[submitted.name]))
    return state.instances[copies[instance.name]] if instance.name in copies else instance


def _applies_in(turn: Turn, instance: WorksheetInstance, outer: WorksheetInstance) -> bool:
    """Whether every field holding ``instance``, up to ``outer``, applies."""
    current = instance
    for _ in range(len(turn.state.instances)):  # no longer than the instances, whatever a stored state holds
        if current is outer or current.parent is None:
            break
        owner = turn.state.instances.get(current.parent[0])
        if owner is None or not holds(turn, owner, turn.worksheet(owner).fields[current.parent[1]].predicate):
            return False
        current = owner
    return True


def _copy(turn: Turn, original: WorksheetInstance, parent: tuple[str, str] | None, copies: dict[str, str]) -> str:
    """A copy of ``original`` and the live instances nested in it; its name. A worksheet with a side
    effect is copied without what running it gave (its outputs, its confirmation): it runs again."""
    ws = turn.worksheet(original)
    again = ws.needs_confirmation
    copy = turn.new_instance(original.worksheet, parent=parent)
    copies[original.name] = copy.name
    skipped = {f.name for f in ws.fields.values() if f.kind == "output" or f in confirm_fields(ws)} if again else set()
    for name, value in original.values.items():
        if name not in skipped:
            copy.values[name] = _copied(turn, value, (copy.name, name), copies)
    copy.confirmed_fields = [name for name in original.confirmed_fields if name not in skipped]
    copy.changed = list(original.changed)
    if not again:
        copy.status, copy.actions_done, copy.result = original.status, original.actions_done, original.result
        copy.confirmed = original.confirmed
    copy.touched = turn.state.tick()
    return copy.name


def _copied(turn: Turn, value: Any, slot: tuple[str, str], copies: dict[str, str]) -> Any:
    if isinstance(value, list):
        return [_copied(turn, item, slot, copies) for item in value]
    child = turn.state.resolve(value) if isinstance(value, InstanceRef) else None
    if isinstance(child, WorksheetInstance):
        return InstanceRef(_copy(turn, child, slot, copies))
    return value


def what_was_submitted(turn: Turn, summary: Callable[[WorksheetInstance], dict[str, Any]]) -> Submitted | None:
    """The latest submitted task, said when this turn asked nothing, left no task open and came to
    nothing: its knowledge question found nothing, or a statement or value was refused."""
    state = turn.state
    if turn.has_question() or any(i.open and i.parent is None for i in state.instances.values()):
        return None
    if any(isinstance(a, Report) and not a.query_or_instance.startswith("answer(") for a in turn.acts):
        return None  # a submission this turn says what it did
    found_nothing = any(isinstance(a, Report) and _nothing(a.result) for a in turn.acts)
    if not (found_nothing or turn.update.errors or turn.update.rejected):
        return None
    submitted = [i for i in state.instances.values() if i.parent is None and i.status == InstanceStatus.COMPLETED
                 and i.actions_done and turn.worksheet(i).needs_confirmation]
    if not submitted:
        return None
    latest = max(submitted, key=lambda i: i.touched)
    return Submitted(latest.name, latest.worksheet, summary(latest))


def _nothing(result: Any) -> bool:
    """A knowledge result with nothing in it: none, no rows, or an error."""
    return result is None or result == [] or (isinstance(result, dict) and set(result) == {"error"})
