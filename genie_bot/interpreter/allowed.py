"""Every built-in and method interpreted code may call, each with the model of its cost.

The allow-list and the price list are one table: a callable is allowed because it has a cost
model, a function of the call's arguments that bounds its work (in the units of
:mod:`.costs`, about a character copied or compared) before it runs, or refuses it
(:class:`~.costs.TooLarge`) when that work or its result would be too large. What has no
model is not callable. A model must price what the C code underneath does while holding the
GIL, since nothing interrupts it once called: hashing a key (``get``), the digits of a power of
ten (``round(1, -10**8)``), every prefix of a tuple (``startswith``), the bits of a parsed
integer (``int('f' * 99990, 16)``), the characters to strip (``strip``).
"""

from __future__ import annotations

import datetime as dt
import math
import re
from collections.abc import Callable
from functools import partial
from typing import Any

from . import costs
from .costs import MAX_INT_BITS, MAX_SEQUENCE, TooLarge
from .errors import InterpreterError
from .functions import SafeFunction

MAX_RANGE = 10_000
MAX_STRFTIME = 200
STRIP_CHARS_PER_UNIT = 64
"""Characters to strip checked per unit of work: each character of the text is looked up among
them at memchr speed."""

Cost = Callable[..., int]


def _capped(value: Any) -> Any:
    if isinstance(value, (str, list, tuple, dict)) and len(value) > MAX_SEQUENCE:
        raise TooLarge(f"value is too large (more than {MAX_SEQUENCE} items)")
    return value


def _sized(fn: Callable[..., Any]) -> Callable[..., Any]:
    return lambda *a, **k: _capped(fn(*a, **k))


def _length(value: Any) -> int:
    return len(value) if isinstance(value, (str, list, tuple, dict, range)) else 1


def _free(*_: Any, **__: Any) -> int:
    """Constant work whatever the arguments (a number's absolute value, a date's weekday)."""
    return 1


# -- built-ins ---------------------------------------------------------------------------------------
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


def _items_cost(*args: Any, **_: Any) -> int:
    """min/max over one iterable or several arguments; sorted."""
    return costs.sort_cost(args[0] if len(args) == 1 else list(args))


def _str_cost(value: Any = "", *_: Any, **__: Any) -> int:
    return costs.str_length(value).cost


def _list_cost(value: Any = (), *_: Any, **__: Any) -> int:
    return costs.sequence_length(_length(value)) * costs.ITEM_COST


def _dict_cost(value: Any = (), **kwargs: Any) -> int:
    return costs.measure([value, kwargs], what="dict() argument").cost


def _iteration_cost(items: Any = (), *_: Any, **__: Any) -> int:
    return _length(items) * costs.ITEM_COST


def _int_cost(value: Any = 0, base: Any = 10, *_: Any, **__: Any) -> int:
    """Parsing text: its digits, and the bits of the number they make (a huge number costs every
    later operation on it)."""
    if not isinstance(value, str):
        return 1
    digits = len(value.strip())
    radix = base if isinstance(base, int) and 2 <= base <= 36 else 36  # base 0: the prefix tells
    if digits * math.log2(radix) > MAX_INT_BITS:
        raise TooLarge(f"int() of {digits} digits would be too large (at most {MAX_INT_BITS} bits)")
    return len(value) + 1


def _float_cost(value: Any = 0.0, *_: Any, **__: Any) -> int:
    return len(value) + 1 if isinstance(value, str) else 1


ROUND_DIGITS_SQUARED_PER_UNIT = 150
"""Rounding a whole number to ``-n`` digits computes ``10 ** n`` and divides by it (schoolbook
division, quadratic in the digits): ``round(1, -1233)``, the largest allowed, takes about 10 µs,
as long as copying some 10,000 characters."""


def _round_cost(number: Any = 0, ndigits: Any = None, *_: Any, **__: Any) -> int:
    """Rounding a whole number to ``-n`` digits: quadratic in the longer of ``n`` and the number; a
    float's digits are bounded."""
    if isinstance(number, int) and isinstance(ndigits, int) and ndigits < 0:
        if -ndigits * math.log2(10) > MAX_INT_BITS:
            raise TooLarge(f"round() to {ndigits} digits is too large (at most {MAX_INT_BITS} bits)")
        digits = max(-ndigits, costs.int_digits(number))
        return digits + digits * digits // ROUND_DIGITS_SQUARED_PER_UNIT
    return 1


_BUILTIN_TABLE: dict[str, tuple[Callable[..., Any], Cost]] = {
    "len": (len, _free), "bool": (bool, _free), "abs": (abs, _free),
    "str": (_sized(str), _str_cost), "int": (int, _int_cost), "float": (float, _float_cost),
    "round": (round, _round_cost),
    "min": (min, _items_cost), "max": (max, _items_cost), "sorted": (_sized(sorted), _items_cost),
    "sum": (_safe_sum, _iteration_cost), "any": (any, _iteration_cost), "all": (all, _iteration_cost),
    "list": (_sized(list), _list_cost), "dict": (_sized(dict), _dict_cost), "range": (_safe_range, _free),
}
BUILTINS: dict[str, SafeFunction] = {name: SafeFunction(name, fn, cost) for name, (fn, cost) in _BUILTIN_TABLE.items()}


# -- methods of text -------------------------------------------------------------------------------
def _case_cost(text: str, *_: Any) -> int:
    """Upper and lower case may turn one character into three (``'ﬃ'.upper()``); the result is
    checked for length once made."""
    return 3 * len(text)


def _scan_cost(text: str, *args: Any, **_: Any) -> int:
    """One pass over the text per argument text (``count``, ``find``: a linear search)."""
    return len(text) + sum(len(a) for a in args if isinstance(a, str)) + 1


def _strip_cost(text: str, chars: Any = None, *_: Any) -> int:
    """Each character of the text, up to the first kept one, is looked for among ``chars``."""
    among = len(chars) if isinstance(chars, str) else 1
    return len(text) + len(text) * among // STRIP_CHARS_PER_UNIT + 1


def _affix_cost(text: str, affix: Any = "", *_: Any) -> int:
    """``startswith``/``endswith``: each candidate of a tuple is compared, up to the text's length."""
    candidates = affix if isinstance(affix, tuple) else (affix,)
    try:
        compared = min(sum(map(len, candidates)), len(candidates) * len(text))  # at C speed: 10**5 candidates
    except TypeError:
        compared = 0  # not text: the call refuses it at the first such candidate
    return compared + len(candidates) * costs.ITEM_COST


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


# -- methods of lists and records ----------------------------------------------------------------------
def _list_scan_cost(items: list, item: Any = None, *_: Any) -> int:
    """``index`` and ``count`` compare each item; the item must be small, as ``index`` repeats it in its error."""
    return len(items) * costs.measure(item).cost + 1


def _key_cost(record: dict, key: Any = None, *_: Any) -> int:
    """A lookup hashes its key: the whole key, however deep (``{}.get(((1,) * 10**5,) * 10**5)``)."""
    return costs.measure(key, what="key").cost


def _copy_cost(record: dict, *_: Any) -> int:
    return len(record) * costs.ITEM_COST


RECORD_VIEWS = ("keys", "values", "items")
"""Record methods that return lists (copies), so that code may loop over them and measure them."""

METHODS: dict[type, dict[str, Cost]] = {
    str: {
        **dict.fromkeys(("lower", "upper", "title", "capitalize", "casefold"), _case_cost),
        **dict.fromkeys(("strip", "lstrip", "rstrip"), _strip_cost),
        **dict.fromkeys(("startswith", "endswith"), _affix_cost),
        **dict.fromkeys(("count", "find", "isdigit", "isalpha"), _scan_cost),
        "replace": _replace_cost, "join": _join_cost, "split": _split_cost,
    },
    list: {"index": _list_scan_cost, "count": _list_scan_cost, "append": _free},
    dict: {"get": _key_cost, **dict.fromkeys(RECORD_VIEWS, _copy_cost)},
    dt.datetime: {**dict.fromkeys(("isoformat", "weekday", "isoweekday", "date", "time"), _free),
                  "strftime": _strftime_cost},
    dt.date: {**dict.fromkeys(("isoformat", "weekday", "isoweekday"), _free), "strftime": _strftime_cost},
    dt.time: {"isoformat": _free, "strftime": _strftime_cost},
    dt.timedelta: {"total_seconds": _free},
}
"""The methods callable on plain values, each with its cost model; anything else (``format``,
``__class__``, ``mro``...) is refused."""

RECORD_METHODS = frozenset(METHODS[dict])
"""Methods of knowledge records (dicts) available to worksheet code."""

DATA_ATTRIBUTES: dict[type, frozenset[str]] = {
    dt.datetime: frozenset({"year", "month", "day", "hour", "minute", "second"}),
    dt.date: frozenset({"year", "month", "day"}),
    dt.time: frozenset({"hour", "minute", "second"}),
    dt.timedelta: frozenset({"days", "seconds"}),  # "(value - self.first_day).days <= 90"
}


def method(obj: Any, attr: str) -> SafeFunction | None:
    """Method ``attr`` of ``obj`` bound with its cost model, or None if it is not on the allow-list."""
    for kind in type(obj).__mro__:
        cost = METHODS.get(kind, {}).get(attr)
        if cost is None:
            continue
        bound = getattr(obj, attr)
        fn = (lambda: list(bound())) if kind is dict and attr in RECORD_VIEWS else _sized(bound)
        return SafeFunction(f"{kind.__name__}.{attr}", fn, partial(cost, obj))
    return None


def data_attribute(obj: Any, attr: str) -> bool:
    """Whether ``attr`` is a plain data attribute of ``obj`` (a date's ``year``)."""
    return any(attr in DATA_ATTRIBUTES.get(kind, ()) for kind in type(obj).__mro__)
