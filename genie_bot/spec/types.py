"""Field types of the worksheet language and the coercion of values into them.

Values live in their natural Python form (``datetime.date`` for dates, ``str`` for enum
members, :class:`InstanceRef` for a nested worksheet, ``dict`` for a knowledge record).
Coercion is deliberately forgiving about representation ("4", 4.0 and 4 are the same int;
"yes" is True; "2026-11-27" and "next Friday" are dates) and strict about meaning: a value
that cannot be read as the type raises :class:`CoercionError` with a reason a user can act on.
"""

from __future__ import annotations

import datetime as dt
import re
from dataclasses import dataclass
from typing import Any

from ..errors import GenieError
from ..names import closest

BASE_TYPES = ("str", "int", "float", "bool", "date", "time", "datetime", "confirm", "enum")
NA = "NA"
"""The value a field takes when the user declines to give it."""

_TRUE_WORDS = {"true", "yes", "y", "yeah", "yep", "sure", "ok", "okay", "correct", "right", "confirm", "confirmed"}
_FALSE_WORDS = {"false", "no", "n", "nope", "nah", "incorrect", "wrong", "cancel"}


@dataclass(frozen=True)
class InstanceRef:
    """A field value that points at another worksheet instance of the dialogue state."""

    name: str

    def __str__(self) -> str:
        return self.name


@dataclass(frozen=True)
class FieldType:
    """A parsed type expression: a base type, ``list[T]``, or a worksheet's name."""

    kind: str
    item: "FieldType | None" = None
    ref: str | None = None

    def __str__(self) -> str:
        if self.kind == "list":
            return f"list[{self.item}]"
        return self.ref if self.kind == "ref" and self.ref else self.kind

    @property
    def is_ref(self) -> bool:
        return self.kind == "ref"

    @property
    def is_boolean(self) -> bool:
        return self.kind in ("bool", "confirm")

    def referenced(self) -> str | None:
        """The worksheet this type refers to, looking through lists."""
        if self.kind == "list":
            return self.item.referenced() if self.item else None
        return self.ref


class TypeSyntaxError(GenieError, ValueError):
    pass


def parse_type(text: str) -> FieldType:
    """Parse ``int``, ``list[date]``, ``Course``...; worksheet names are checked later."""
    text = text.strip()
    match = re.fullmatch(r"list\s*\[\s*(.+?)\s*\]", text)
    if match:
        return FieldType("list", item=parse_type(match.group(1)))
    if text in BASE_TYPES:
        return FieldType(text)
    if re.fullmatch(r"[A-Za-z][A-Za-z0-9_]*", text):
        return FieldType("ref", ref=text)
    raise TypeSyntaxError(f"'{text}' is not a type")


class CoercionError(GenieError, ValueError):
    """A value that cannot be read as the field's type; the message is shown to the user."""


def coerce(ftype: FieldType, value: Any, enum_values: tuple[str, ...] = (), today: dt.date | None = None) -> Any:
    """Return ``value`` converted to ``ftype`` or raise :class:`CoercionError`."""
    kind = ftype.kind
    if kind == "list" and ftype.item is not None:
        items = value if isinstance(value, (list, tuple)) else [value]
        return [coerce(ftype.item, item, enum_values, today) for item in items]
    if kind == "str":
        if isinstance(value, (dict, list, InstanceRef)):
            raise CoercionError("expected text")
        return value if isinstance(value, str) else _plain_text(value)
    if kind == "int":
        return _to_int(value)
    if kind == "float":
        return _to_float(value)
    if kind in ("bool", "confirm"):
        return to_bool(value)
    if kind == "enum":
        return snap_enum(value, enum_values)
    if kind in _TEMPORAL:
        return _to_temporal(kind, value, today)
    raise CoercionError(f"cannot coerce to {ftype}")  # refs are resolved by the state, not here


def _plain_text(value: Any) -> str:
    if isinstance(value, bool):
        return "yes" if value else "no"
    if isinstance(value, (dt.date, dt.time)):
        return value.isoformat()
    return str(value)


def _to_int(value: Any) -> int:
    if isinstance(value, bool):
        raise CoercionError("expected a whole number")
    if isinstance(value, int):
        return value
    if isinstance(value, float) and value.is_integer():
        return int(value)
    if isinstance(value, str) and re.fullmatch(r"\s*[-+]?\d+(\.0*)?\s*", value):
        return int(float(value))
    raise CoercionError(f"'{value}' is not a whole number")


def _to_float(value: Any) -> float:
    if isinstance(value, bool):
        raise CoercionError("expected a number")
    if isinstance(value, (int, float)):
        return float(value)
    if isinstance(value, str):
        try:
            return float(value.replace(",", "").strip())
        except ValueError:
            pass
    raise CoercionError(f"'{value}' is not a number")


def to_bool(value: Any) -> bool:
    """Read a yes/no answer; raise :class:`CoercionError` when it is neither."""
    if isinstance(value, bool):
        return value
    if isinstance(value, (int, float)) and value in (0, 1):
        return bool(value)
    if isinstance(value, str):
        word = value.strip().lower().rstrip(".!")
        if word in _TRUE_WORDS:
            return True
        if word in _FALSE_WORDS:
            return False
    raise CoercionError(f"'{value}' is not a yes or no")


def snap_enum(value: Any, values: tuple[str, ...]) -> str:
    """Return the enum member ``value`` names: exact, case-insensitive, or unambiguously close."""
    if not isinstance(value, str):
        value = _plain_text(value)
    if value in values:
        return value
    folded = {v.lower(): v for v in values}
    if value.strip().lower() in folded:
        return folded[value.strip().lower()]
    match = closest(value, values) or _word_prefix_match(value, values)
    if match is not None:
        return match
    raise CoercionError(f"'{value}' is not one of: {', '.join(values)}")


def _word_prefix_match(value: str, values: tuple[str, ...]) -> str | None:
    """The one member whose words begin with the value's ('Credit' for 'Credit/No Credit') or
    begin the value's ('Letter grade' for 'Letter'); None when no member or several do."""
    words = re.findall(r"\w+", value.lower())
    if not words:
        return None
    found = []
    for member in values:
        member_words = re.findall(r"\w+", member.lower())
        shorter = min(len(words), len(member_words))
        if shorter and words[:shorter] == member_words[:shorter]:
            found.append(member)
    return found[0] if len(found) == 1 else None


def _parse_natural(text: str, today: dt.date | None) -> dt.datetime | None:
    """Read a relative or absolute date/time expression ("next Friday at 7pm") with dateparser."""
    import dateparser  # imported lazily: it is slow to import and rarely needed

    base = dt.datetime.combine(today or dt.date.today(), dt.time(12, 0))
    settings = {"RELATIVE_BASE": base, "PREFER_DATES_FROM": "future", "RETURN_AS_TIMEZONE_AWARE": False}
    return dateparser.parse(text, settings=settings, languages=["en"])


_TEMPORAL: dict[str, tuple[type, Any, Any, str]] = {
    # kind: (Python type, parse ISO text, take from a datetime, how the error names it)
    "date": (dt.date, dt.date.fromisoformat, dt.datetime.date, "a date"),
    "time": (dt.time, dt.time.fromisoformat, dt.datetime.time, "a time"),
    "datetime": (dt.datetime, dt.datetime.fromisoformat, lambda d: d, "a date and time"),
}


def _to_temporal(kind: str, value: Any, today: dt.date | None) -> Any:
    """ISO text, a natural expression ("next Friday at 7pm") or a compatible value, as ``kind``."""
    target, from_iso, from_datetime, what = _TEMPORAL[kind]
    if isinstance(value, dt.datetime):
        return from_datetime(value)
    if type(value) is target:
        return value
    if kind == "datetime" and isinstance(value, dt.date):
        return dt.datetime.combine(value, dt.time(0, 0))
    if isinstance(value, str):
        try:
            return from_iso(value.strip())
        except ValueError:
            parsed = _parse_natural(value, today)
            if parsed:
                return from_datetime(parsed)
    raise CoercionError(f"'{value}' is not {what} I understand")
