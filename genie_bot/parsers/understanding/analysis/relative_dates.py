"""Dates said through another day, which dateparser misreads, read here by calendar arithmetic.

dateparser takes "the day after tomorrow" for tomorrow, "a week from today" for a week ago, "the
first monday of december" for December 23, "wednesday next week" for this Wednesday, and "last
night" for no day at all; it finds no day in "june 12 to 14" after other words ("reserve r05 june
12 to 14"), and reads "jun 16-18" as a day of 2118. Each such phrase is read here (all the readings
it allows, as ``dates`` expects) and blanked before dateparser sees the text; a range of days of a
month is two dates, each where its day is said.
"""

from __future__ import annotations

import datetime as dt
import re
from collections.abc import Callable

from ....language import english
from ....language.tokens import phrase_pattern

WEEKDAYS = english.WEEKDAYS
_MONTHS = english.MONTH_ABBREVIATIONS
_COUNTS = {**{w: n for w, n in english.NUMBER_WORDS.items() if n <= 10 and w not in english.VAGUE_NUMBER_WORDS},
           "a": 1, "an": 1, **english.ROUGH_COUNTS}
_ORDINALS = {**{w: i + 1 for w, i in english.ORDINAL_INDEX.items() if i >= 0}, "last": -1}
_DAYS = "|".join(WEEKDAYS)

_WEEKS = "|".join(english.RELATIVE_WEEKS)
_DAY_OF_A_WEEK = re.compile(rf"\b(?:(?:on\s+)?(?P<day>{_DAYS})\s+(?:of\s+)?(?P<week>{_WEEKS}) week|"
                            rf"(?P<week2>{_WEEKS}) week(?:\s+on)?\s+(?P<day2>{_DAYS}))\b", re.I)
_ANCHORS = "|".join((*english.DAY_WORDS, "now", *WEEKDAYS))
_FROM_A_DAY = re.compile(rf"\b(?:the\s+)?(?:(?P<count>\d{{1,2}}|{'|'.join(_COUNTS)})\s+)?(?P<unit>day|week)s?\s+"
                         rf"(?P<side>{'|'.join(english.DAYS_AFTER + english.DAYS_BEFORE)})\s+(?P<anchor>{_ANCHORS})\b", re.I)
_PART_OF_A_DAY = re.compile(phrase_pattern(english.PARTS_OF_TODAY), re.I)
_NTH_DAY_OF_MONTH = re.compile(rf"\b(?:the\s+)?(?P<nth>{'|'.join(_ORDINALS)})\s+(?P<day>{_DAYS})\s+(?:of|in)\s+"
                               rf"(?P<month>(?:{'|'.join(_MONTHS)})[a-z]*)\.?(?:\s+(?P<year>\d{{4}}))?\b", re.I)


def relative_dates(text: str, today: dt.date) -> list[tuple[tuple[dt.date, ...], int, int]]:
    """(readings, start, end) of each such phrase in ``text``, readings nearest to ``today`` first
    (none for a day that does not exist: "the fifth monday of february"); phrases do not overlap."""
    found: list[tuple[tuple[dt.date, ...], int, int]] = []
    for pattern, read in _READERS:
        for match in pattern.finditer(text):
            readings = read(match, today)
            if not any(start < match.end() and match.start() < end for _, start, end in found):
                found.append((readings, match.start(), match.end()))
    for pattern, read_range in ((_DAYS_OF_A_MONTH, _days_of_a_month), (_WEEKDAY_RANGE, _weekday_range),
                                (_DAYS_OF_MONTH_RANGE, _days_of_month_range)):
        for match in pattern.finditer(text):
            if not any(start < match.end() and match.start() < end for _, start, end in found):
                found += read_range(match, today)
    return sorted(found, key=lambda f: f[1])


_MONTH_NAME = "|".join(sorted((*english.MONTHS, *_MONTHS, "sept"), key=len, reverse=True))
_DAY = r"(?:[12]?\d|3[01])(?:st|nd|rd|th)?"
_DAYS_OF_A_MONTH = re.compile(
    rf"\b(?P<month>{_MONTH_NAME})\.?\s+(?:the\s+)?(?P<first>{_DAY})\b(?:\s*(?:{phrase_pattern(english.RANGE_ENDS)}|[-–])\s*"
    rf"(?:the\s+)?(?:(?P<month2>{_MONTH_NAME})\.?\s+)?(?P<second>{_DAY})\b)?(?!\s*(?::\d|[ap]\.?m\b|%|\d)|,?\s*\d{{4}})", re.I)


def _days_of_a_month(match: re.Match, today: dt.date) -> list[tuple[tuple[dt.date, ...], int, int]]:
    """"june 12", "june 12 to 14", "jun 16-18", "june 30 to july 2": each day where it is said (the first with
    its month), in the nearest year that has it, this one or the next when the first day has passed; the second
    day after the first."""
    month = _month_number(match.group("month"))
    first = _in_nearest_year(month, _day_number(match.group("first")), today)
    out = [(first, match.start(), match.end("first"))]
    if match.group("second"):
        second_month = _month_number(match.group("month2")) if match.group("month2") else month
        days = [d for d in (_date_or_none(d.year + (second_month < month), second_month,
                                          _day_number(match.group("second"))) for d in first) if d is not None]
        out.append((tuple(days), match.start("month2") if match.group("month2") else match.start("second"),
                    match.end("second")))
    return out


_WEEKDAY_NAME = "|".join(sorted((*WEEKDAYS, *english.WEEKDAY_ABBREVIATIONS, "tues", "thur", "thurs"), key=len,
                               reverse=True))
_WEEKDAY_RANGE = re.compile(rf"\b(?P<first>{_WEEKDAY_NAME})\.?\s*(?:{phrase_pattern(english.RANGE_ENDS)}|[-–])\s*"
                            rf"(?P<second>{_WEEKDAY_NAME})\b\.?", re.I)


def _weekday_range(match: re.Match, today: dt.date) -> list[tuple[tuple[dt.date, ...], int, int]]:
    """"sat to mon", "fri-sun", "from friday through sunday": the coming first day (today if it is that day),
    and the first second day after it."""
    first_day = _weekday_number(match.group("first"))
    second_day = _weekday_number(match.group("second"))
    first = today + dt.timedelta(days=(first_day - today.weekday()) % 7)
    second = first + dt.timedelta(days=(second_day - first_day) % 7 or 7)
    return [((first,), match.start("first"), match.end("first")), ((second,), match.start("second"), match.end("second"))]


_ORDINAL_DAY = r"(?:[12]?\d|3[01])(?:st|nd|rd|th)"
_DAYS_OF_MONTH_RANGE = re.compile(rf"\b(?:the\s+)?(?P<first>{_ORDINAL_DAY})\s*(?:{phrase_pattern(english.RANGE_ENDS)}|[-–])\s*"
                                  rf"(?:the\s+)?(?P<second>{_ORDINAL_DAY})\b", re.I)


def _days_of_month_range(match: re.Match, today: dt.date) -> list[tuple[tuple[dt.date, ...], int, int]]:
    """"from the 19th to the 21st": the first day in this month, the next or the last (nearest first), the second
    day in the first's month, or in the month after when it is not later."""
    first_day, second_day = _day_number(match.group("first")), _day_number(match.group("second"))
    months = [(today.year + (today.month + k - 1) // 12, (today.month + k - 1) % 12 + 1) for k in (0, 1, -1)]
    firsts = sorted((d for d in (_date_or_none(y, m, first_day) for y, m in months) if d),
                    key=lambda d: abs((d - today).days))
    seconds = [d for d in (_date_or_none(f.year + (f.month == 12 and second_day <= first_day),
                                         f.month % 12 + 1 if second_day <= first_day else f.month, second_day)
                           for f in firsts) if d]
    return [(tuple(firsts), match.start("first"), match.end("first")),
            (tuple(seconds), match.start("second"), match.end("second"))]


def _weekday_number(name: str) -> int:
    return english.WEEKDAY_ABBREVIATIONS.index(name[:3].lower())


def _month_number(name: str) -> int:
    return _MONTHS.index(name[:3].lower()) + 1


def _day_number(said: str) -> int:
    """The day of "19th" or "19" (the patterns only match a day that starts with its digits)."""
    return int(said.lower().rstrip("stndrh"))


def _in_nearest_year(month: int, day: int, today: dt.date) -> tuple[dt.date, ...]:
    """The day in this year and the next, the nearer first (last year's too when it is within a month past)."""
    days = [d for d in (_date_or_none(y, month, day) for y in (today.year - 1, today.year, today.year + 1)) if d]
    return tuple(sorted(days, key=lambda d: abs((d - today).days)))


def _date_or_none(year: int, month: int, day: int) -> dt.date | None:
    try:
        return dt.date(year, month, day)
    except ValueError:
        return None


def _day_of_a_week(match: re.Match, today: dt.date) -> tuple[dt.date, ...]:
    """"wednesday next week": the Wednesday of the week (Monday to Sunday) after this one."""
    day = WEEKDAYS.index((match.group("day") or match.group("day2")).lower())
    week = {"last": -1, "this": 0, "next": 1}[(match.group("week") or match.group("week2")).lower()]
    monday = today - dt.timedelta(days=today.weekday()) + dt.timedelta(weeks=week)
    return (monday + dt.timedelta(days=day),)


def _from_a_day(match: re.Match, today: dt.date) -> tuple[dt.date, ...]:
    """"the day after tomorrow", "two weeks from today", "a week from friday" (the coming Friday)."""
    anchor = match.group("anchor").lower()
    if anchor in WEEKDAYS:
        base = today + dt.timedelta(days=(WEEKDAYS.index(anchor) - today.weekday()) % 7)
    else:
        base = today + dt.timedelta(days={"tomorrow": 1, "yesterday": -1}.get(anchor, 0))
    count = match.group("count")
    days = (int(count) if count and count.isdigit() else _COUNTS.get((count or "one").lower(), 1)) * (
        7 if match.group("unit").lower() == "week" else 1)
    return (base + dt.timedelta(days=-days if match.group("side").lower() in english.DAYS_BEFORE else days),)


def _part_of_a_day(match: re.Match, today: dt.date) -> tuple[dt.date, ...]:
    """"last night" is yesterday, "this morning" today, "tomorrow evening" tomorrow."""
    return (today + dt.timedelta(days=english.PARTS_OF_TODAY[" ".join(match.group(0).lower().split())]),)


def _nth_day_of_month(match: re.Match, today: dt.date) -> tuple[dt.date, ...]:
    """"the first monday of december": in the given year, else the nearest such day before and after today."""
    month = _MONTHS.index(match.group("month")[:3].lower()) + 1
    weekday = WEEKDAYS.index(match.group("day").lower())
    nth = _ORDINALS[match.group("nth").lower()]
    years = [int(match.group("year"))] if match.group("year") else [today.year - 1, today.year, today.year + 1]
    days = [d for d in (_nth_weekday(year, month, weekday, nth) for year in years) if d is not None]
    if not match.group("year"):
        past = [d for d in days if d < today][-1:]
        days = past + [d for d in days if d >= today][:1]
    return tuple(sorted(days, key=lambda d: abs((d - today).days)))


def _nth_weekday(year: int, month: int, weekday: int, nth: int) -> dt.date | None:
    """The ``nth`` (or with -1 the last) ``weekday`` of the month, or None when the month has no such day."""
    if not 1 <= year <= 9998:
        return None
    if nth < 0:
        end = dt.date(year + month // 12, month % 12 + 1, 1) - dt.timedelta(days=1)
        return end - dt.timedelta(days=(end.weekday() - weekday) % 7)
    first = dt.date(year, month, 1)
    day = first + dt.timedelta(days=(weekday - first.weekday()) % 7 + 7 * (nth - 1))
    return day if day.month == month else None


_READERS: tuple[tuple[re.Pattern, Callable[[re.Match, dt.date], tuple[dt.date, ...]]], ...] = (
    (_DAY_OF_A_WEEK, _day_of_a_week), (_FROM_A_DAY, _from_a_day), (_NTH_DAY_OF_MONTH, _nth_day_of_month),
    (_PART_OF_A_DAY, _part_of_a_day))
