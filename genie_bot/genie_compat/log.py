"""The reference Genie's conversation logs (``frontend/data/user_conversation/<id>/conversation.json``).

A log is a JSON list with one object per turn: ``user`` (the message), ``user_target`` (the
parse the reference executed, one statement per line), ``system_action`` (its agent acts),
``turn_context`` (what the turn created or changed, with knowledge results as
``answer.result = ...`` and an API result as ``main.result = ...``), ``global_context`` (the
whole state after the turn) and ``bot`` (the reply). This module reads them into
:class:`ReferenceTurn` objects; it does not judge them.
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from ..errors import GenieError
from .text import GenieObject, Query, call_parts, parse_context, resolve, split_top_level

QUESTION_ACTS = ("AskField", "AskForFieldConfirmation")
START_VARIABLE = "main"
"""The reference's name for the instance of the first worksheet of its spec."""


class GenieLogError(GenieError, ValueError):
    """A file that is not a reference conversation log."""


@dataclass(frozen=True)
class ReferenceAct:
    """One act of ``system_action``: its type, and for questions the instance variable and field."""

    kind: str
    instance: str | None
    field: str | None
    text: str


@dataclass(frozen=True)
class ReferenceApiCall:
    """A backend API the reference called in a turn, with the instance it ran for."""

    function: str
    instance: str
    result: Any
    arguments: dict[str, Any]
    """The instance's fields at that turn, nested worksheets as dicts (unset ones left out)."""


@dataclass
class ReferenceTurn:
    index: int
    user: str
    statements: str
    acts: list[ReferenceAct]
    answers: list[tuple[str, Any]]
    """(question, logged result) of each knowledge query of the turn; a result of None: not run."""
    api_calls: list[ReferenceApiCall]
    variables: dict[str, Any] = field(repr=False)
    """The state after the turn (``global_context``), variable -> value."""

    @property
    def question(self) -> ReferenceAct | None:
        """The question the reference asked this turn (it asks at most one)."""
        return next((a for a in self.acts if a.kind in QUESTION_ACTS), None)

    def worksheet_of(self, variable: str, start: str | None) -> str | None:
        """The worksheet class of a variable of this turn's state (``main`` is ``start``)."""
        value = self.variables.get(variable)
        if isinstance(value, GenieObject):
            return value.cls
        return start if variable == START_VARIABLE else None


def read_log(path: Path) -> list[ReferenceTurn]:
    """Read one ``conversation.json``; :class:`GenieLogError` if it is not one."""
    try:
        data = json.loads(Path(path).read_text(encoding="utf-8"))
    except json.JSONDecodeError as exc:
        raise GenieLogError(f"{path}: not JSON: {exc.msg}") from None
    if not isinstance(data, list) or not all(isinstance(t, dict) and "user" in t for t in data):
        raise GenieLogError(f"{path}: expected a list of turns, each with at least a \"user\" key")
    return [_turn(i, t) for i, t in enumerate(data)]


def _turn(index: int, raw: dict[str, Any]) -> ReferenceTurn:
    local = parse_context(raw.get("turn_context") or "")
    variables = parse_context(raw.get("global_context") or "")
    acts = [_act(str(a)) for a in raw.get("system_action") or []]
    answers = [(value.question, local.get(f"{name}.result")) for name, value in local.items()
               if isinstance(value, Query)]
    calls = []
    for act in acts:
        if act.kind == "Report" and act.field is not None:
            instance = act.instance or START_VARIABLE
            arguments = resolve(local.get(instance, variables.get(instance)), {**variables, **local})
            calls.append(ReferenceApiCall(act.field, instance, local.get(f"{instance}.result"),
                                          _plain(arguments) if isinstance(arguments, GenieObject) else {}))
    return ReferenceTurn(index, str(raw.get("user", "")), raw.get("user_target") or "", acts, answers, calls, variables)


def _act(text: str) -> ReferenceAct:
    """``AskField(course_1, grade_type, The desired ...)``; ``Report(fn(...), main.result)`` is an
    API report (field: the function, instance: whose ``.result``), ``Report(answer, ...)`` a query's."""
    parts = call_parts(text)
    if parts is None:
        return ReferenceAct("?", None, None, text)
    kind, args = parts
    if kind in QUESTION_ACTS:
        items = split_top_level(args, limit=2)
        return ReferenceAct(kind, items[0] if items else None, items[1] if len(items) > 1 else None, text)
    if kind == "Report":
        items = split_top_level(args)
        call = call_parts(items[0]) if items else None
        if call is not None:
            instance = items[1].removesuffix(".result") if len(items) > 1 and items[1].endswith(".result") else None
            return ReferenceAct(kind, instance, call[0], text)
    return ReferenceAct(kind, None, None, text)


def _plain(obj: GenieObject) -> dict[str, Any]:
    """Fields of a resolved instance as plain dicts, unset ones left out."""
    def plain(value: Any) -> Any:
        if isinstance(value, GenieObject):
            return _plain(value)
        if isinstance(value, list):
            return [plain(v) for v in value]
        return value
    return {k: plain(v) for k, v in obj.fields.items() if v is not None}
