"""Values far from what their field expects, asked back once before they reach a summary.

A value the field's validation accepts may still be a misreading: a booking more than a year
ahead (a number read as a year), a party of 200. Such a value is asked back once, in the words of
the field ("Just to confirm: your date of the reservation is ...? Is that right?"), like a field
declared ``confirm: true``; yes keeps it, no asks for it again. A bound the builder declared
(``validation: max``) says what the field expects, and then nothing is asked back.
"""

from __future__ import annotations

import datetime as dt
import re
from typing import Any

from ..language import english
from ..spec import Field

DAYS_AHEAD = 366
"""A date further ahead than this (about a year) is asked back, unless the field's bounds allow it."""
MAX_PARTY = 20
"""A count of people larger than this is asked back, unless the field declares its own maximum."""


def implausible(f: Field, value: Any, today: dt.date) -> bool:
    """Whether ``value`` is far from what ``f`` expects (see the module docstring)."""
    bounds = f.validation
    if isinstance(value, (dt.date, dt.datetime)) and f.type.kind in ("date", "datetime"):
        day = value.date() if isinstance(value, dt.datetime) else value
        declared = bounds is not None and isinstance(bounds.maximum, dt.date)
        return not declared and (day - today).days > DAYS_AHEAD
    if isinstance(value, int) and not isinstance(value, bool) and f.type.kind == "int":
        declared = bounds is not None and bounds.maximum is not None
        return not declared and _counts_people(f) and value > MAX_PARTY
    return False


def _counts_people(f: Field) -> bool:
    words = set(f.counts) | set(f.name.lower().split("_")) | set(re.findall(r"[a-z]+", f.description.lower()))
    return bool(words & set(english.PERSON_NOUNS))
