"""What a parser's value gives: placeholders and unasked confirmations are not answers.

LLM parsers fill every argument of a constructor, whether the user said it or not:
``StudentInfo(student_name='Ann', student_id='', ...)``, ``CoursesToTake(..., course_2_details=None,
confirm=False)``, ``Course(..., course_num_units=0)``. ``''`` and ``None`` there mean "not
given" (the field stays to be asked), ``'None'`` anywhere (the reference's rendering of an unset
field), and so does a value for a ``confirm`` field when the agent did not just ask for that
confirmation: a confirmation is the user's answer to a summary
they were shown, never a parser's guess. The reference Genie treats them the same way
(docs/genie-compatibility.md). A ``0`` is a value, as there, unless the field's bounds rule
it out: then it is a placeholder too, not a mistake to tell the user about.
"""

from __future__ import annotations

from typing import Any

from ..acts import AskField, AskForConfirmation, AskForFieldConfirmation
from ..names import closest
from ..spec import Field
from .reading import NewInstance
from .turn import Turn


PLACEHOLDER_TEXT = "None"
"""How the reference Genie shows an unset field in the state it gives its LLM
(``course_1_details: Course = 'None'``), which the LLM copies back."""


def is_placeholder(value: Any) -> bool:
    """``None``, a string with nothing in it, or the string ``'None'``."""
    return value is None or (isinstance(value, str) and value.strip() in ("", PLACEHOLDER_TEXT))


def is_confirmation_field(f: Field) -> bool:
    return f.type.kind == "confirm" and f.kind == "input"


def confirmation_asked(turn: Turn, worksheet: str, f: Field) -> bool:
    """Whether the agent's previous turn asked the confirmation a value of ``worksheet.f`` answers.

    A worksheet whose completion runs a side effect takes it only in answer to its own
    confirmation (the summary, or the question on that field); any other confirm field, in
    answer to any confirmation question, as the reference Genie does.
    """
    own_only = turn.spec.tasks[worksheet].needs_confirmation
    state = turn.state
    for act in state.last_acts:
        if isinstance(act, AskForConfirmation):
            if act.worksheet == worksheet or not own_only:
                return True
        elif isinstance(act, (AskField, AskForFieldConfirmation)):
            asked = state.instances.get(act.instance)
            if asked is None:
                continue
            asked_field = turn.worksheet(asked).fields.get(act.field)
            if own_only and (asked.worksheet, act.field) != (worksheet, f.name):
                continue
            if isinstance(act, AskForFieldConfirmation) or (asked_field is not None and
                                                            is_confirmation_field(asked_field)):
                return True
    return False


def given(turn: Turn, value: NewInstance) -> NewInstance:
    """The constructor without its placeholders and unasked confirmations (nested ones too)."""
    ws = turn.spec.tasks.get(value.worksheet)
    if ws is None:
        return value
    kwargs: dict[str, Any] = {}
    for name, argument in value.kwargs.items():
        f = ws.fields.get(name) or ws.fields.get(closest(name, ws.fields) or "")
        if is_placeholder(argument) or (f is not None and _zero_out_of_bounds(f, argument)):
            continue
        if f is not None and is_confirmation_field(f) and not confirmation_asked(turn, ws.name, f):
            continue
        kwargs[name] = given_value(turn, argument)
    return NewInstance(value.worksheet, kwargs)


def _zero_out_of_bounds(f: Field, value: Any) -> bool:
    """``0`` for a field whose ``min``/``max`` exclude it (units from 1 to 5)."""
    rule = f.validation
    if rule is None or isinstance(value, bool) or not isinstance(value, (int, float)) or value != 0:
        return False
    low, high = rule.minimum, rule.maximum
    return (isinstance(low, (int, float)) and low > 0) or (isinstance(high, (int, float)) and high < 0)


def given_value(turn: Turn, value: Any) -> Any:
    """``value`` with the placeholders of any constructor in it removed."""
    if isinstance(value, NewInstance):
        return given(turn, value)
    if isinstance(value, list):
        return [given_value(turn, item) for item in value]
    return value
