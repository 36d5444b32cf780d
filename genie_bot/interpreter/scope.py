"""What names, attributes and calls mean while code runs.

The evaluator never touches Python objects reflectively: reading a name, an attribute or
calling something all go through a :class:`Scope`. The base class knows plain data
(records as dicts, strings, lists, dates) and the explicitly exposed :class:`SafeFunction`
objects; the runtime subclasses it to give ``self`` and worksheet names their meaning.
"""

from __future__ import annotations

import datetime as dt
import re
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from . import costs
from .costs import MAX_SEQUENCE, TooLarge
from .errors import InterpreterError

MAX_RANGE = 10_000
MAX_STRFTIME = 200


@dataclass(frozen=True)
class SafeFunction:
    """A Python callable deliberately exposed to interpreted code under ``name``.

    ``cost``, given the same arguments, bounds the work of the call before it is made (and
    raises :class:`~.costs.TooLarge` to refuse it). Without one, the function is the
    runtime's own (an API, ``say``, a constructor): its arguments leave the interpreter, so
    each must be a value of bounded size.
    """

    name: str
    fn: Callable[..., Any]
    cost: Callable[..., int] | None = None

    def __repr__(self) -> str:
        return f"<function {self.name}>"


def _capped(value: Any) -> Any:
    if isinstance(value, (str, list, tuple, dict)) and len(value) > MAX_SEQUENCE:
        raise TooLarge(f"value is too large (more than {MAX_SEQUENCE} items)")
    return value


def _safe_range(*args: int) -> range:
    if not all(isinstance(a, int) and not isinstance(a, bool) for a in args):
        raise InterpreterError("range() takes whole numbers")
    r = range(*args)
    if len(r) > MAX_RANGE:
        raise InterpreterError(f"range() is too large (at most {MAX_RANGE} items)")
    return r


def _safe_sum(items: Any, start: Any = 0) -> Any:
    """``sum`` of numbers only: adding lists or tuples copies the total once per item."""
    if type(start) not in (int, float, bool):
        raise InterpreterError("sum() adds numbers only")
    return sum(items, start)


def _sized(fn: Callable[..., Any]) -> Callable[..., Any]:
    return lambda *a, **k: _capped(fn(*a, **k))


def _length(value: Any, *_: Any, **__: Any) -> int:
    return len(value) if isinstance(value, (str, list, tuple, dict, range)) else 1


def _items_cost(*args: Any, **_: Any) -> int:
    """min/max over one iterable or several arguments; sorted."""
    return costs.sort_cost(args[0] if len(args) == 1 else list(args))


def _str_cost(value: Any = "", *_: Any) -> int:
    return costs.str_length(value).cost


def _list_cost(value: Any = (), *_: Any) -> int:
    return costs.sequence_length(_length(value)) * costs.ITEM_COST


def _dict_cost(value: Any = (), **kwargs: Any) -> int:
    return costs.measure([value, kwargs], what="dict() argument").cost


def _sum_cost(items: Any = (), *_: Any) -> int:
    return _length(items) * costs.ITEM_COST


def _free(*_: Any, **__: Any) -> int:
    return 1


def _int_cost(value: Any = 0, *_: Any) -> int:
    return _length(value) if isinstance(value, str) else 1


# each built-in with the bound of its work, known before it runs
_COSTED: dict[str, tuple[Callable[..., Any], Callable[..., int]]] = {
    "len": (len, _free), "str": (_sized(str), _str_cost), "int": (int, _int_cost), "float": (float, _int_cost),
    "bool": (bool, _free), "abs": (abs, _free), "round": (round, _free),
    "min": (min, _items_cost), "max": (max, _items_cost), "sum": (_safe_sum, _sum_cost),
    "any": (any, _sum_cost), "all": (all, _sum_cost), "sorted": (_sized(sorted), _items_cost),
    "list": (_sized(list), _list_cost), "dict": (_sized(dict), _dict_cost), "range": (_safe_range, _free),
}
BUILTINS: dict[str, SafeFunction] = {name: SafeFunction(name, fn, cost) for name, (fn, cost) in _COSTED.items()}


def _replace_cost(text: str, old: Any = "", new: Any = "", count: Any = -1) -> int:
    if not (isinstance(old, str) and isinstance(new, str) and isinstance(count, int)):
        return len(text)
    found = text.count(old)
    if count >= 0:
        found = min(found, count)
    return costs.sequence_length(len(text) + found * max(len(new) - len(old), 0), "replace() result")


def _join_cost(separator: str, items: Any = (), *_: Any) -> int:
    if not isinstance(items, (list, tuple, str, dict)):
        return 1  # join itself refuses it
    length = costs.sequence_length(sum(map(len, items)) + len(separator) * max(len(items) - 1, 0), "join() result")
    return length + len(items) * costs.ITEM_COST


def _case_cost(text: str, *_: Any) -> int:
    """Upper and lower case may turn one character into three (``'ﬃ'.upper()``); the result is
    checked for length once made."""
    return 3 * len(text)


def _scan_cost(text: str, *args: Any, **_: Any) -> int:
    return len(text) + sum(len(a) for a in args if isinstance(a, (str, tuple))) + 1


def _split_cost(text: str, separator: Any = None, *_: Any, **__: Any) -> int:
    """Each part is a new string."""
    parts = text.count(separator) + 1 if isinstance(separator, str) and separator else len(text) // 2 + 1
    return len(text) + parts * costs.ITEM_COST


_STRFTIME_PADDING = re.compile(r"%[-_0^#]*\d")


def _strftime_cost(_: Any, template: Any = "", *__: Any) -> int:
    """Each directive is at most a few dozen characters, but C library widths (``%999999999Y``) are not."""
    if isinstance(template, str):
        if len(template) > MAX_STRFTIME:
            raise TooLarge(f"strftime() format is too long (at most {MAX_STRFTIME} characters)")
        if _STRFTIME_PADDING.search(template):
            raise TooLarge("strftime() widths are not allowed")
    return 64 * MAX_STRFTIME


def _list_scan_cost(items: list, item: Any = None, *_: Any) -> int:
    """``index`` and ``count``; the item must be small, as ``index`` repeats it in its error."""
    return len(items) * costs.measure(item).cost + 1


_METHOD_COSTS: dict[str, Callable[..., int]] = {
    "str.replace": _replace_cost, "str.join": _join_cost,
    **{f"str.{m}": _case_cost for m in ("lower", "upper", "title", "capitalize", "casefold")},
    **{f"str.{m}": _scan_cost for m in ("strip", "lstrip", "rstrip", "startswith", "endswith", "count", "find",
                                         "isdigit", "isalpha")},
    "str.split": _split_cost,
    "list.index": _list_scan_cost, "list.count": _list_scan_cost, "list.append": _free,
    **{f"{kind}.strftime": _strftime_cost for kind in ("date", "datetime", "time")},
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
    dt.timedelta: frozenset({"total_seconds"}),
}
_DATA_ATTRIBUTES: dict[type, frozenset[str]] = {
    dt.date: frozenset({"year", "month", "day"}),
    dt.datetime: frozenset({"year", "month", "day", "hour", "minute", "second"}),
    dt.time: frozenset({"hour", "minute", "second"}),
    dt.timedelta: frozenset({"days", "seconds"}),  # "(value - self.first_day).days <= 90"
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
                return SafeFunction(f"dict.{attr}", getattr(obj, attr), _free)
            raise InterpreterError(f"record has no field '{attr}'")
        for kind in type(obj).__mro__:
            if attr in _DATA_ATTRIBUTES.get(kind, ()):
                return getattr(obj, attr)
            if attr in _METHODS.get(kind, ()):
                name = f"{kind.__name__}.{attr}"
                cost = _METHOD_COSTS.get(name, _free)
                return SafeFunction(name, _sized(getattr(obj, attr)), lambda *a, **k: cost(obj, *a, **k))
        raise InterpreterError(f"'{type(obj).__name__}' value has no attribute '{attr}'")

    def set_attr(self, obj: Any, attr: str, value: Any) -> None:
        raise InterpreterError(f"cannot set attribute '{attr}' here")

    # -- calls -----------------------------------------------------------------------------
    def call(self, func: Any, args: list[Any], kwargs: dict[str, Any]) -> Any:
        if not isinstance(func, SafeFunction):
            raise InterpreterError(f"'{type(func).__name__}' value is not callable")
        try:
            return func.fn(*args, **kwargs)
        except InterpreterError:
            raise
        except (TypeError, ValueError, KeyError, IndexError, AttributeError, ArithmeticError) as exc:
            raise InterpreterError(f"{func.name}() failed: {costs.error_text(exc)}") from None
