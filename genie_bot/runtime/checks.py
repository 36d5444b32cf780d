"""Read-only questions a parser asks the runtime: would this value be accepted for this field?

The rule parser reads "november 3" for a date that cannot be in the future as the past
November 3, and "8:30" for a restaurant open in the evening as 8:30 pm, by asking the field's
own type and validation which reading it accepts. Nothing here changes the state.
"""

from __future__ import annotations

import datetime as dt
from typing import Any

from ..spec import AgentSpec, CoercionError, Field
from ..state import DialogueState, WorksheetInstance
from .assign import AssignmentError, check_validation, typed_value
from .executor import LocalApiExecutor
from .turn import Turn


def value_problem(spec: AgentSpec, state: DialogueState, instance: WorksheetInstance, f: Field, value: Any,
                  today: dt.date) -> str | None:
    """Why ``value`` would be refused for ``instance.<f>`` (its type or its validation), or None.

    ``instance`` may be one the parser is about to create (not in the state yet). Fields whose
    type is a worksheet or a table are not checked here (assigning them creates instances).
    """
    if f.type.is_ref:
        return None
    turn = Turn(spec, state, LocalApiExecutor(spec), today, dt.datetime.combine(today, dt.time(12, 0)))
    try:
        check_validation(turn, instance, f, typed_value(turn, instance, f, f.type, value))
    except (AssignmentError, CoercionError) as exc:
        return str(exc)
    return None


def first_accepted(spec: AgentSpec, state: DialogueState, instance: WorksheetInstance, f: Field,
                   candidates: tuple[Any, ...] | list[Any], today: dt.date) -> Any:
    """The first reading of a value the field accepts, else the first one (its refusal tells the user why)."""
    for candidate in candidates:
        if value_problem(spec, state, instance, f, candidate, today) is None:
            return candidate
    return candidates[0] if candidates else None
