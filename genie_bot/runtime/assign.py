"""Typed assignment of a value to a field: the single path every state change takes.

Parser statements and worksheet actions both end here, so coercion, validation, nested
instances, confirmation resets and the freeze of submitted worksheets behave the same
whoever writes the value.
"""

from __future__ import annotations

import datetime as dt
import re
import reprlib
from typing import Any

from ..errors import GenieError
from ..interpreter import Evaluator, InterpreterError, TooLarge
from ..spec import NA, Code, CoercionError, Field, FieldType, InstanceRef, TaskWorksheet, coerce
from ..state import DialogueState, InstanceStatus, WorksheetInstance
from .reading import NewInstance, WorksheetReader, snap_field_name
from .turn import Rejection, Turn


class AssignmentError(GenieError):
    """The value does not fit the field; the message is the reason shown to the user."""


def assign_field(turn: Turn, instance: WorksheetInstance, f: Field, value: Any) -> bool:
    """Set ``instance.<f>`` to ``value``; record a rejection instead when it does not fit.

    Returns whether the stored value changed. A worksheet instance has one place: put into this
    field, it leaves the field that held it, and one this field held before is dropped.
    """
    try:
        turn.measure(value)  # before anything copies, compares or stores it (charged to the run's work)
    except TooLarge as exc:
        turn.update.rejected.append(Rejection(instance.name, f.name, reprlib.repr(value), exc.reason))
        return False
    try:
        stored = typed_value(turn, instance, f, f.type, value)
        if instance.values.get(f.name) == stored and stored is not None:
            return False
        check_validation(turn, instance, f, stored)
        _check_not_submitted(turn, instance)
        moved = [turn.state.instances[ref.name] for ref in _refs(stored)]
        for child in moved:
            _check_movable(turn, child, (instance.name, f.name))
    except (AssignmentError, CoercionError) as exc:
        turn.update.rejected.append(Rejection(instance.name, f.name, value, str(exc)))
        return False
    previous = instance.values.get(f.name)
    for child in moved:
        _take_out(turn, child, (instance.name, f.name))
    if stored is None:
        instance.values.pop(f.name, None)
    else:
        instance.values[f.name] = stored
    for child in moved:
        child.parent = (instance.name, f.name)
    _release_replaced(turn, previous, stored)
    mark_changed(turn, instance, f.name)
    turn.update.assigned.append((instance.name, f.name))
    return True


def check_again_where_read(turn: Turn, instance: WorksheetInstance, changed: str) -> None:
    """The checks of the instance's other fields that read ``changed`` must hold with its new value.

    A check belongs to the field it is declared on: when a value of another field it reads breaks
    it, that value is kept (the user just gave it) and the field of the check is emptied, with a
    rejection that asks it again with the check's message. A room for 2 chosen before the party
    grew to 4 is asked again.
    """
    ws = turn.worksheet(instance)
    if instance.values.get(changed) is None:
        return  # emptied: the checks that read it wait for its next value
    for g in ws.fields.values():
        held = instance.values.get(g.name)
        if g.name == changed or held is None or held == NA or changed not in read_fields(ws, g):
            continue
        try:
            check_validation(turn, instance, g, held)
        except AssignmentError as exc:
            reason = str(exc) if g.validation and g.validation.message else \
                f"That does not go with {_described(ws.fields[changed])}."
            del instance.values[g.name]
            _release_replaced(turn, held, None)
            mark_changed(turn, instance, g.name)
            turn.update.assigned.append((instance.name, g.name))
            turn.update.rejected.append(Rejection(instance.name, g.name, held, reason))


def read_fields(ws: TaskWorksheet, f: Field) -> frozenset[str]:
    """The other fields of ``ws`` that ``f``'s validation expression reads (``self.guests``, ``self.room.seats``)."""
    expression = f.validation.expression if f.validation else None
    if expression is None:
        return frozenset()
    return frozenset(name for name in expression.names if name in ws.fields and name not in (f.name, "value"))


def _described(f: Field) -> str:
    return f.description or f"the {f.name.replace('_', ' ')}"


def _refs(value: Any) -> list[InstanceRef]:
    """The worksheet instances a field's value holds."""
    items = value if isinstance(value, list) else [value]
    return [item for item in items if isinstance(item, InstanceRef)]


def _check_movable(turn: Turn, child: WorksheetInstance, slot: tuple[str, str]) -> None:
    """An instance held by a submitted worksheet stays where it is: that is what was submitted."""
    owner = turn.state.instances.get(child.parent[0]) if child.parent and child.parent != slot else None
    if owner is not None and in_submitted(turn, owner):
        raise AssignmentError(SUBMITTED_REASON)


def _take_out(turn: Turn, child: WorksheetInstance, slot: tuple[str, str]) -> None:
    """Take ``child`` out of the field that holds it, unless that is ``slot``: no instance is
    reachable from two fields."""
    if child.parent != slot:
        _vacate(turn, child)


def _vacate(turn: Turn, child: WorksheetInstance, decline: bool = False) -> None:
    """Remove ``child`` from the field that holds it: the field is empty again (asked again), or
    declined ("NA"); a list loses the item."""
    owner = turn.state.instances.get(child.parent[0]) if child.parent else None
    if owner is None or child.parent is None:
        return
    field_name = child.parent[1]
    held = owner.values.get(field_name)
    ref = InstanceRef(child.name)
    if isinstance(held, list) and ref in held:
        owner.values[field_name] = [item for item in held if item != ref]
    elif held == ref and decline:
        owner.values[field_name] = NA
    elif held == ref:
        del owner.values[field_name]
    else:
        return
    mark_changed(turn, owner, field_name)
    turn.update.assigned.append((owner.name, field_name))


def _release_replaced(turn: Turn, previous: Any, stored: Any) -> None:
    """Drop the instances ``previous`` held that ``stored`` no longer holds; each one's name now
    denotes the instance put in its place, if there is one (the LLM's ``x.g = v`` after ``p.f = x_1``)."""
    kept = _refs(stored)
    old = previous if isinstance(previous, list) else [previous]
    new = stored if isinstance(stored, list) else [stored]
    for index, ref in enumerate(old):
        if isinstance(ref, InstanceRef) and ref not in kept:
            successor = new[index] if index < len(new) else None
            release(turn, ref, successor if isinstance(successor, InstanceRef) and successor not in old else None)


def release(turn: Turn, ref: InstanceRef, replacement: InstanceRef | None) -> None:
    """A nested instance taken out of its field is dropped with what is nested in it, unless
    another field still holds it; a submitted one stays as it was submitted.

    Otherwise it would stay open with nobody to ask it for: ``main.courses_to_take =
    courses_to_take_1`` leaves the first list of courses behind.
    """
    state = turn.state
    child = state.instances.get(ref.name)
    if child is None or child.discarded or _held(state, ref) or _submitted(turn, child):
        return
    child.replaced_by = replacement.name if replacement is not None else None
    for item in [child, *state.descendants(child)]:
        if item is child or not (item.discarded or _held(state, InstanceRef(item.name)) or _submitted(turn, item)):
            item.status = InstanceStatus.DROPPED


def _submitted(turn: Turn, instance: WorksheetInstance) -> bool:
    return instance.actions_done and turn.worksheet(instance).needs_confirmation


def _held(state: DialogueState, ref: InstanceRef) -> bool:
    return any(ref in _refs(v) for i in state.instances.values() if not i.discarded for v in i.values.values())


def mark_changed(turn: Turn, instance: WorksheetInstance, field_name: str) -> None:
    """Bookkeeping after a value changed: confirmations that covered it no longer hold.

    That includes the worksheets it is nested in: a changed course invalidates the confirmed
    course list and the enrollment summary that contains it.
    """
    if field_name in instance.confirmed_fields:
        instance.confirmed_fields.remove(field_name)
    instance.touched = turn.state.tick()
    if turn.worksheet(instance).fields[field_name].kind != "input":
        return  # results and internal values are not what the user confirmed
    if field_name in instance.changed:
        instance.changed.remove(field_name)
    instance.changed.append(field_name)
    current: WorksheetInstance | None = instance
    while current is not None and not current.discarded:  # a cancelled or dropped task is never reopened
        instance = current
        if instance.status == InstanceStatus.PROPOSED:
            instance.status = InstanceStatus.ACTIVE
        else:
            instance.confirmed = None
            _clear_confirm_fields(turn, instance, field_name)
        if instance.actions_done:  # a worksheet without side effects re-runs with the new values
            instance.actions_done = False
            instance.status = InstanceStatus.ACTIVE
        if instance.parent is None:
            break
        parent_name, field_name = instance.parent
        parent = turn.state.instances.get(parent_name)
        if parent is not None and turn.worksheet(parent).fields[field_name].kind != "input":
            break  # internal bookkeeping nested in a worksheet is not what its user confirmed
        if parent is not None and field_name in parent.confirmed_fields:
            parent.confirmed_fields.remove(field_name)
        current = parent


def _clear_confirm_fields(turn: Turn, instance: WorksheetInstance, changed: str) -> None:
    """A changed value needs a fresh confirmation: forget the answer to the worksheet's confirm
    field (the user confirmed the details as they were: "Confirm all the course details")."""
    ws = turn.worksheet(instance)
    for f in confirm_fields(ws):
        if f.name != changed and f.name in instance.values:
            del instance.values[f.name]


def confirm_fields(ws: TaskWorksheet) -> list[Field]:
    """Input fields of type ``confirm``: in a side-effecting worksheet they hold its confirmation."""
    return [f for f in ws.fields.values() if f.type.kind == "confirm" and f.kind == "input"]


CANCELLED_REASON = "That request was cancelled; start a new one instead."
"""Said only of an instance the user cancelled (``exitws``, a declined proposal)."""
SUBMITTED_REASON = "That was already submitted and cannot be changed; start a new one instead."
DROPPED_REASON = "That is no longer part of the conversation."


def _within(state: DialogueState, instance: WorksheetInstance, outer: WorksheetInstance) -> bool:
    """Whether ``instance`` is ``outer`` or nested in it."""
    current: WorksheetInstance | None = instance
    for _ in range(len(state.instances)):
        if current is None:
            return False
        if current is outer:
            return True
        current = state.instances.get(current.parent[0]) if current.parent else None
    return False


def _check_not_submitted(turn: Turn, instance: WorksheetInstance) -> None:
    if instance.status == InstanceStatus.ABANDONED:
        raise AssignmentError(CANCELLED_REASON)
    if instance.status == InstanceStatus.DROPPED:
        raise AssignmentError(DROPPED_REASON)
    if in_submitted(turn, instance):
        raise AssignmentError(SUBMITTED_REASON)


def in_submitted(turn: Turn, instance: WorksheetInstance) -> bool:
    """Whether the instance, or one it is nested in, was submitted (its side-effecting API ran)."""
    return submitted_task(turn, instance) is not None


def submitted_task(turn: Turn, instance: WorksheetInstance) -> WorksheetInstance | None:
    """The outermost of the instance and those it is nested in that was submitted, if one was."""
    current: WorksheetInstance | None = instance
    found = None
    for _ in range(len(turn.state.instances)):
        if current is None:
            break
        if _submitted(turn, current):
            found = current
        current = turn.state.instances.get(current.parent[0]) if current.parent else None
    return found


def typed_value(turn: Turn, instance: WorksheetInstance, f: Field, ftype: FieldType, value: Any) -> Any:
    """``value`` coerced to ``ftype`` ("NA" for a decline, nested instances created); AssignmentError if it cannot be."""
    if value is None:
        return None
    if _is_na(value, ftype):
        if f.required and f.kind == "input":
            raise AssignmentError("This one is required, so I can't skip it.")
        return NA
    if ftype.kind == "list" and ftype.item is not None:
        items = value if isinstance(value, (list, tuple)) else [value]
        typed = [typed_value(turn, instance, f, ftype.item, item) for item in items]
        return [item for i, item in enumerate(typed) if not isinstance(item, InstanceRef) or item not in typed[:i]]
    if ftype.is_ref and ftype.ref is not None:
        return _reference(turn, instance, f, ftype.ref, value)
    return coerce(ftype, value, f.values, turn.today)


def _is_na(value: Any, ftype: FieldType) -> bool:
    """"NA" declines a field; spelt in any case it does so for fields that cannot hold text."""
    return value == NA or (isinstance(value, str) and ftype.kind != "str" and value.strip().upper() == NA)


def _reference(turn: Turn, instance: WorksheetInstance, f: Field, worksheet: str, value: Any) -> Any:
    spec = turn.spec
    if worksheet in spec.knowledge:
        return _record(turn, worksheet, value)
    if isinstance(value, InstanceRef):
        target = turn.state.instances.get(value.name)
        if target is None or target.worksheet != worksheet:
            raise AssignmentError(f"{value.name} is not a {worksheet}")
        if target.discarded:
            raise AssignmentError(CANCELLED_REASON if target.status == InstanceStatus.ABANDONED else DROPPED_REASON)
        if _within(turn.state, instance, target):
            raise AssignmentError(f"{value.name} cannot hold itself")
        return value
    if isinstance(value, NewInstance):
        if value.worksheet != worksheet:
            raise AssignmentError(f"{f.name} takes a {worksheet}, not a {value.worksheet}")
        current = turn.state.resolve(instance.values.get(f.name))
        if isinstance(current, WorksheetInstance) and not current.discarded:
            child = current
        else:  # nothing is created inside an instance that cannot change (it would hold it, and be changed by it)
            _check_not_submitted(turn, instance)
            child = turn.new_instance(worksheet, parent=(instance.name, f.name))
        fill_instance(turn, child, value.kwargs)
        return InstanceRef(child.name)
    raise AssignmentError(f"{f.name} takes a {worksheet}")


def fill_instance(turn: Turn, instance: WorksheetInstance, kwargs: dict[str, Any]) -> None:
    """Assign constructor keyword arguments to an instance's fields (names snapped)."""
    ws = turn.worksheet(instance)
    for name, value in kwargs.items():
        f = ws.fields.get(name) or ws.fields[snap_field_name(ws.fields, name, ws.name)]
        assign_field(turn, instance, f, value)


def _record(turn: Turn, worksheet: str, value: Any) -> dict[str, Any]:
    """A knowledge record: a dict, or a constructor naming columns, completed from the last answer: the
    whole row, also when the answer showed only some of its columns."""
    if isinstance(value, NewInstance):
        value = value.kwargs
    if not isinstance(value, dict):
        kb = turn.spec.knowledge[worksheet]
        key = kb.primary_key or next(iter(kb.columns), None)
        if key is None:
            raise AssignmentError(f"expected a {worksheet} record")
        value = {key: value}
    answer = turn.state.answer
    shown = answer.result if answer and isinstance(answer.result, list) else []
    for rows in (answer.records.get(worksheet, []) if answer else [], shown):
        matches = [row for row in rows if isinstance(row, dict) and all(_same(row.get(k), v) for k, v in value.items())]
        if len(matches) == 1:
            return dict(matches[0])
    return dict(value)


def _same(a: Any, b: Any) -> bool:
    if isinstance(a, str) and isinstance(b, str):
        return a.strip().lower() == b.strip().lower()
    return a == b


def check_validation(turn: Turn, instance: WorksheetInstance, f: Field, value: Any) -> None:
    """Raise AssignmentError with the worksheet's message when ``value`` breaks the field's validation."""
    rule = f.validation
    if rule is None or value is None or value == NA:
        return
    message = rule.message
    low, high = (_bound(turn, b, value) for b in (rule.minimum, rule.maximum))
    if low is not None and value < low:
        raise AssignmentError(message or _out_of_range(turn, low, "on or after", "at least"))
    if high is not None and value > high:
        raise AssignmentError(message or _out_of_range(turn, high, "on or before", "at most"))
    if rule.pattern is not None and not re.fullmatch(rule.pattern, str(value)):
        raise AssignmentError(message or "That does not have the expected format.")
    if rule.expression is not None and not _waits(turn, instance, f, rule.expression):
        scope = WorksheetReader(turn, instance)
        scope.names["value"] = value
        try:
            ok = Evaluator(scope).evaluate(rule.expression.tree)
        except InterpreterError as exc:
            raise AssignmentError(message or f"That could not be checked: {exc.reason}") from None
        if not ok:
            raise AssignmentError(message or "That is not a valid answer here.")


def _waits(turn: Turn, instance: WorksheetInstance, f: Field, expression: Code) -> bool:
    """Whether ``f``'s check waits: a field it reads is empty, or declined and the check does not say what
    a decline means (it names no ``NA``). It runs when that field is given (:func:`check_again_where_read`)."""
    declined_read = NA in expression.names
    return any(instance.values.get(name) is None or (instance.values.get(name) == NA and not declined_read)
               for name in read_fields(turn.worksheet(instance), f))


def _bound(turn: Turn, bound: Any, value: Any) -> Any:
    """A min/max comparable with ``value``: "today" is the conversation's day; None when not comparable."""
    if bound == "today":
        bound = turn.today
    if isinstance(value, dt.datetime) and isinstance(bound, dt.date) and not isinstance(bound, dt.datetime):
        return dt.datetime.combine(bound, dt.time(0, 0)) if bound is not None else None
    if isinstance(value, bool) or bound is None:
        return None
    if isinstance(value, (int, float)) and isinstance(bound, (int, float)):
        return bound
    return bound if isinstance(value, dt.date) and isinstance(bound, dt.date) else None


def _out_of_range(turn: Turn, bound: Any, date_words: str, number_words: str) -> str:
    """The default reason for a value beyond a bound: "It must be on or before today." """
    if isinstance(bound, dt.date):
        day = bound.date() if isinstance(bound, dt.datetime) else bound
        return f"It must be {date_words} {'today' if day == turn.today else day.strftime('%B %-d, %Y')}."
    return f"It must be {number_words} {bound:g}."


def abandon(turn: Turn, instance: WorksheetInstance) -> None:
    """``exitws``: drop an instance and everything nested in it.

    The parent field that held it is declined ("NA") when optional, or cleared when required
    (a list loses the item), so the parent neither waits on a dead child nor silently counts it
    as filled; a parent that was complete is open again. A submitted parent keeps what it submitted.
    """
    for item in [instance, *turn.state.descendants(instance)]:
        item.status = InstanceStatus.ABANDONED
    if instance.parent is None or instance.parent[0] not in turn.state.instances:
        return
    parent, field_name = turn.state.instances[instance.parent[0]], instance.parent[1]
    if not parent.discarded and not in_submitted(turn, parent):
        _vacate(turn, instance, decline=not turn.worksheet(parent).fields[field_name].required)
