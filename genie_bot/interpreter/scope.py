"""What names, attributes and calls mean while code runs.

The evaluator never touches Python objects reflectively: reading a name, an attribute or
calling something all go through a :class:`Scope`. The base class knows plain data
(records as dicts, strings, lists, dates) and the explicitly exposed :class:`SafeFunction`
objects; the runtime subclasses it to give ``self`` and worksheet names their meaning.
"""

from __future__ import annotations

import datetime as dt
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from .errors import InterpreterError

MAX_SEQUENCE = 100_000
MAX_RANGE = 10_000


@dataclass(frozen=True)
class SafeFunction:
    """A Python callable deliberately exposed to interpreted code under ``name``."""

    name: str
    fn: Callable[..., Any]

    def __repr__(self) -> str:
        return f"<function {self.name}>"


def _capped(value: Any) -> Any:
    if isinstance(value, (str, list, tuple, dict)) and len(value) > MAX_SEQUENCE:
        raise InterpreterError(f"value is too large (more than {MAX_SEQUENCE} items)")
    return value


def _safe_range(*args: int) -> range:
    if not all(isinstance(a, int) and not isinstance(a, bool) for a in args):
        raise InterpreterError("range() takes whole numbers")
    r = range(*args)
    if len(r) > MAX_RANGE:
        raise InterpreterError(f"range() is too large (at most {MAX_RANGE} items)")
    return r


def _sized(fn: Callable[..., Any]) -> Callable[..., Any]:
    return lambda *a, **k: _capped(fn(*a, **k))


BUILTINS: dict[str, SafeFunction] = {
    name: SafeFunction(name, fn)
    for name, fn in {
        "len": len, "str": _sized(str), "int": int, "float": float, "bool": bool, "abs": abs, "round": round,
        "min": min, "max": max, "sum": sum, "any": any, "all": all, "sorted": _sized(sorted),
        "list": _sized(list), "dict": _sized(dict), "range": _safe_range,
    }.items()
}

RECORD_METHODS = frozenset({"get", "keys", "values", "items"})
"""Methods of knowledge records (dicts) available to worksheet code."""

# Methods callable on plain values; anything else (format, __class__, mro...) is refused.
_METHODS: dict[type, frozenset[str]] = {
    str: frozenset({"lower", "upper", "strip", "lstrip", "rstrip", "title", "capitalize", "startswith",
                    "endswith", "replace", "split", "join", "count", "find", "isdigit", "isalpha", "casefold"}),
    list: frozenset({"index", "count", "append"}),
    dict: RECORD_METHODS,
    dt.date: frozenset({"isoformat", "weekday", "isoweekday", "strftime"}),
    dt.datetime: frozenset({"isoformat", "weekday", "isoweekday", "strftime", "date", "time"}),
    dt.time: frozenset({"isoformat", "strftime"}),
}
_DATA_ATTRIBUTES: dict[type, frozenset[str]] = {
    dt.date: frozenset({"year", "month", "day"}),
    dt.datetime: frozenset({"year", "month", "day", "hour", "minute", "second"}),
    dt.time: frozenset({"hour", "minute", "second"}),
}


class Scope:
    """Names visible to code, plus the rules for attributes and calls on plain data."""

    def __init__(self, names: dict[str, Any] | None = None, functions: dict[str, SafeFunction] | None = None):
        self.names: dict[str, Any] = dict(names or {})
        self.functions: dict[str, SafeFunction] = {**BUILTINS, **(functions or {})}

    # -- names -------------------------------------------------------------------------
    def lookup(self, name: str) -> Any:
        if name in self.names:
            return self.names[name]
        if name in self.functions:
            return self.functions[name]
        raise InterpreterError(f"unknown name '{name}'")

    def assign_name(self, name: str, value: Any) -> None:
        self.names[name] = value

    # -- attributes ----------------------------------------------------------------------
    def get_attr(self, obj: Any, attr: str) -> Any:
        if isinstance(obj, dict):
            if attr in obj:
                return obj[attr]
            if attr in _METHODS[dict]:
                return SafeFunction(f"dict.{attr}", getattr(obj, attr))
            raise InterpreterError(f"record has no field '{attr}'")
        for kind in type(obj).__mro__:
            if attr in _DATA_ATTRIBUTES.get(kind, ()):
                return getattr(obj, attr)
            if attr in _METHODS.get(kind, ()):
                method = getattr(obj, attr)
                return SafeFunction(f"{kind.__name__}.{attr}", _sized(method))
        raise InterpreterError(f"'{type(obj).__name__}' value has no attribute '{attr}'")

    def set_attr(self, obj: Any, attr: str, value: Any) -> None:
        raise InterpreterError(f"cannot set attribute '{attr}' here")

    # -- calls -----------------------------------------------------------------------------
    def call(self, func: Any, args: list[Any], kwargs: dict[str, Any]) -> Any:
        if not isinstance(func, SafeFunction):
            raise InterpreterError(f"'{func}' is not callable")
        try:
            return func.fn(*args, **kwargs)
        except InterpreterError:
            raise
        except (TypeError, ValueError, KeyError, IndexError, AttributeError, ArithmeticError) as exc:
            raise InterpreterError(f"{func.name}() failed: {exc}") from None
