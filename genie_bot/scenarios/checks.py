"""Checking one turn of a conversation test against its ``expect:`` block."""

from __future__ import annotations

import datetime as dt
from typing import Any

from ..acts import Act
from ..runtime.executor import ApiRequest
from ..spec import InstanceRef
from ..state import DialogueState


def check_turn(expect: dict[str, Any], acts: list[Act], reply: str, state: DialogueState, errors: int,
               calls: list[ApiRequest], side_effects: int) -> list[str]:
    """The problems of one turn (empty when it went as expected).

    ``calls`` are the API calls made in this turn, ``side_effects`` the side-effecting calls made
    so far in the conversation.
    """
    problems = []
    if "acts" in expect:
        wanted = list(expect["acts"])
        got = [a.formal() for a in acts]
        if len(wanted) != len(acts) or not all(act_matches(p, a) for p, a in zip(wanted, acts)):
            problems.append(f"acts: expected {wanted}, got {got}")
    for text in _as_list(expect.get("says")):
        if str(text).lower() not in reply.lower():
            problems.append(f"reply should contain {text!r}; reply was {reply!r}")
    for text in _as_list(expect.get("not_says")):
        if str(text).lower() in reply.lower():
            problems.append(f"reply should not contain {text!r}; reply was {reply!r}")
    for path, wanted in (expect.get("state") or {}).items():
        actual = state_value(state, str(path))
        if not same_value(actual, wanted):
            problems.append(f"state {path}: expected {wanted!r}, got {actual!r}")
    if "submissions" in expect and side_effects != expect["submissions"]:
        problems.append(f"submissions: expected {expect['submissions']}, got {side_effects}")
    if "api_calls" in expect:
        problems.extend(_check_calls(list(expect["api_calls"]), calls))
    if "errors" in expect and errors != expect["errors"]:
        problems.append(f"errors: expected {expect['errors']}, got {errors}")
    return problems


def _check_calls(wanted: list[Any], calls: list[ApiRequest]) -> list[str]:
    made = [f"{c.function}({', '.join(f'{k}={v!r}' for k, v in c.args.items())})" for c in calls]
    if len(wanted) != len(calls):
        return [f"api_calls: expected {len(wanted)} call(s), got {made}"]
    problems = []
    for item, call in zip(wanted, calls):
        function, args = (item, {}) if isinstance(item, str) else next(iter(item.items()))
        if call.function != function:
            problems.append(f"api_calls: expected a call of {function}, got {call.function}")
            continue
        for name, value in (args or {}).items():
            if not contains(call.args.get(name), value):
                problems.append(f"api_calls: {function} got {name}={call.args.get(name)!r}, expected {value!r}")
    return problems


def act_matches(pattern: str, act: Act) -> bool:
    """``AskField``, ``AskField course_0``, ``AskField grade_type`` or ``AskField course_0.grade_type``."""
    kind, _, target = str(pattern).partition(" ")
    if kind != act.kind:
        return False
    if not target:
        return True
    instance = getattr(act, "instance", None) or getattr(act, "query_or_instance", None)
    field_name = getattr(act, "field", None)
    if "." in target:
        return f"{instance}.{field_name}" == target
    return target in (instance, field_name, getattr(act, "worksheet", None))


_MISSING = object()


def state_value(state: DialogueState, path: str) -> Any:
    """``main_0.courses.course_0.course_name``: a value, following nested instances; a number picks an
    item of a list, from 0 (``order_0.pizzas.1.size``)."""
    name, *attributes = path.split(".")
    current: Any = state.instances.get(name, _MISSING)
    for attribute in attributes:
        if isinstance(current, InstanceRef):
            current = state.instances.get(current.name, _MISSING)
        if current is _MISSING or current is None:
            return None
        if isinstance(current, list):
            current = current[int(attribute)] if attribute.isdigit() and int(attribute) < len(current) else None
            continue
        if hasattr(current, "values") and isinstance(current.values, dict):
            if attribute in ("status", "confirmed", "result", "worksheet"):
                current = getattr(current, attribute)
            else:
                current = current.values.get(attribute)
        elif isinstance(current, dict):
            current = current.get(attribute)
        else:
            return None
    return None if current is _MISSING else current


def same_value(actual: Any, wanted: Any) -> bool:
    """Equality as a test author writes it: dates and times may be given as ISO strings."""
    if isinstance(actual, (dt.date, dt.time)) and isinstance(wanted, str):
        return actual.isoformat() == wanted
    return actual == wanted


def contains(actual: Any, wanted: Any) -> bool:
    """``wanted`` is ``actual`` or, for mappings, a subset of it (the arguments an API received)."""
    if isinstance(wanted, dict) and isinstance(actual, dict):
        return all(contains(actual.get(k), v) for k, v in wanted.items())
    return same_value(actual, wanted)


def _as_list(value: Any) -> list:
    if value is None:
        return []
    return value if isinstance(value, list) else [value]
