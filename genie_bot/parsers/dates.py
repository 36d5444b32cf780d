"""Dates and times in a message, with every reading they allow.

"november 3" is last November 3 or next; "saturday" the last or the next one; "8:30" is
morning or evening. This module does not choose: it lists the readings, nearest first, and
the field's own constraints choose (``runtime.checks.first_accepted``): a submission date
cannot be in the future, a booking cannot be in the past, a restaurant open from 17:00 takes
8:30 as 20:30. dateparser reads the dates; common typos and shorthand of date words are
mended first ("tomorow", "wendesday", "tmrw").
"""

from __future__ import annotations

import datetime as dt
import re
from dataclasses import dataclass
from functools import lru_cache

from rapidfuzz import fuzz, process
from rapidfuzz.distance import OSA

from ..language import english
from ..language.words import part_of_day, without_pronoun_one
from .relative_dates import relative_dates

DATE_WORDS = english.DATE_WORDS
ABBREVIATIONS = english.DATE_SHORTHAND
TYPO_SCORE = 85
MIN_TYPO_LENGTH = 6
ACTIVE_HOURS = (9, 22)
"""Without a constraint, an hour with no am/pm is read in these hours first: "at 8" is 8 pm, "at 10" 10 am."""

_CLOCK = re.compile(r"\b(?P<hour>[01]?\d|2[0-3])(?:[:.](?P<minute>[0-5]\d))?\s*(?P<half>[ap])\.?\s*m\b\.?|"
                    r"\b(?P<hour24>[01]?\d|2[0-3])[:.h](?P<minute24>[0-5]\d)\b|\b(?P<word>noon|midday|midnight)\b|"
                    r"\b(?:at|around|about|by|before|after)\s+(?P<bare>1[0-2]|[1-9])(?![:.h]?\d|\s*[ap]\.?\s*m\b)(?:\s*(?:o'?clock|ish))?\b|"
                    r"\b(?P<ish>1[0-2]|[1-9])\s*(?:o'?clock|ish)\b|"
                    r"\b(?P<part>half|quarter)\s+(?P<side>past|after|to|before)\s+(?P<of>1[0-2]|[1-9])\b", re.I)
_WHOLE_HOUR = re.compile(r"^\s*(?:at\s+|around\s+|maybe\s+|umm?\s+|say\s+)*(?P<hour>1[0-2]|[1-9])\s*[.!?]*\s*$", re.I)
_RIGHT_NOW = re.compile(r"\b(now|asap|as soon as possible|immediately|straight away|right away)\b", re.I)
_VAGUE = re.compile(r"^(?:(this|next|last|the) (week|month|year|weekend)|(?:(?:in|during|early|late|mid|by|around|"
                    r"the end of|the start of|the beginning of)\s+)*(?:jan|feb|mar|apr|may|jun|jul|aug|sep|sept|oct|nov|dec)"
                    r"[a-z]*\.?(?:\s+(?:of\s+)?\d{4})?)$", re.I)
"""A period, not a day: "next week", "in august", "early march 2026"."""
_DAY_OF_MONTH = re.compile(r"\b(?:the\s+)?(?P<day>[12]?\d|3[01])(?:st|nd|rd|th)\b", re.I)
_MONTH = re.compile(r"\b(jan|feb|mar|apr|may|jun|jul|aug|sep|oct|nov|dec)[a-z]*\b|\d\s*[/-]\s*\d", re.I)
_WORD = re.compile(r"[A-Za-z]+")
_COUNT_BEFORE_DAY = re.compile(r"\b((?:\d+|one|two|three|four|five|six|seven|eight|nine|ten|eleven|twelve)\s+)"
                               r"((?:today|tonight|tomorrow|yesterday|next|this|last|on|mon|tue|wed|thu|fri|sat|sun)[a-z]*)\b",
                               re.I)
_CODE = re.compile(r"\b[A-Za-z]+-?\d{3,}\w*")
"""Letters and then three digits or more: a code ("PF-204817", "CS107"), no part of a date."""
_ACRONYM_DAY = re.compile(r"\b(?:MON|TUE|WED|THU|FRI|SAT|SUN)\b")

_COUNT_AFTER_DAY = re.compile(r"\b((?:today|tonight|tomorrow|(?:mon|tues|wednes|thurs|fri|satur|sun)day|\d{1,2}(?:st|nd|rd|th))"
                              r"[\s,;]+(?:(?:for|at)\s+)*)"
                              r"(\d+)(?!\d|\s*(?:st|nd|rd|th)\b|\s*[/.-]\s*\d|\s*(?:jan|feb|mar|apr|may|jun|jul|aug|sep|oct|nov|dec))",
                              re.I)
"""A number right after a day that is no part of it: "saturday 7pm, 2 of us", "january 22nd at 20:45 1 person"
(the time already blanked)."""


@dataclass(frozen=True)
class Found:
    """A date or time in the text: its readings, nearest first, and where it was said."""

    readings: tuple
    start: int
    end: int
    vague: bool = False
    """A period, not a day ("next week", "in august"): its reading is only good for saying it cannot be."""


def mend_typos(text: str) -> tuple[str, list[int]]:
    """Date words misspelt by a letter or two or abbreviated, mended ("tomorow", "tmrw" -> "tomorrow"), and for each
    position of the mended text the position of the original it comes from."""
    out: list[str] = []
    where: list[int] = []
    last = 0
    for match in _WORD.finditer(text):
        word = match.group(0)
        best = None
        if len(word) >= MIN_TYPO_LENGTH and word.lower() not in DATE_WORDS:
            best = _swapped(word.lower()) or process.extractOne(word.lower(), DATE_WORDS, scorer=fuzz.ratio,
                                                                score_cutoff=TYPO_SCORE)
        replacement = ABBREVIATIONS.get(word.lower()) or (best[0] if best else word)
        out.append(text[last:match.start()])
        where.extend(range(last, match.start()))
        out.append(replacement)
        where.extend(min(match.start() + i, match.end() - 1) for i in range(len(replacement)))
        last = match.end()
    out.append(text[last:])
    where.extend(range(last, len(text) + 1))
    return "".join(out), where


def _swapped(word: str) -> tuple[str, float, int] | None:
    """The date word ``word`` is with two neighbouring letters swapped ("frdiay", "sudnay"), as extractOne gives it."""
    found = next((w for w in DATE_WORDS if sorted(w) == sorted(word) and OSA.distance(w, word) == 1), None)
    return (found, 100.0, DATE_WORDS.index(found)) if found else None


MAX_SEARCHED_CHARS = 300
"""dateparser's cost grows fast with the text: a long message is searched clause by clause, and
only the clauses that talk about a date, each cut to this length."""
MAX_SEARCHED_CLAUSES = 4


def find_dates(text: str, today: dt.date) -> tuple[Found, ...]:
    """Calendar dates in ``text`` (see ``_find_dates``), at a bounded cost whatever its length."""
    if len(text) <= MAX_SEARCHED_CHARS:
        return _find_dates(text, today)
    found: list[Found] = []
    clauses = [m for m in re.finditer(r"[^.!?;\n]+", text) if _DATE_TALK.search(m.group(0))][:MAX_SEARCHED_CLAUSES]
    for clause in clauses:
        piece = clause.group(0)[:MAX_SEARCHED_CHARS]
        found.extend(Found(f.readings, clause.start() + f.start, clause.start() + f.end, f.vague)
                     for f in _find_dates(piece, today))
    return tuple(found)


@lru_cache(maxsize=256)
def _find_dates(text: str, today: dt.date) -> tuple[Found, ...]:
    """Calendar dates in ``text`` ("next friday", "november 3", "the 3rd"), with both readings of
    dates that do not say which year or which week, nearest to ``today`` first. Times of day are
    read apart ("saturday at 8" is no February 8), and a count before or after a day is no part of
    it ("a table for 2 tomorrow", "saturday 7pm, 2 of us")."""
    for found in find_times(text):
        text = text[:found.start] + " " * (found.end - found.start) + text[found.end:]
    text = _CODE.sub(lambda m: " " * len(m.group(0)), text)  # "PF-204817" is a member number, no year
    text = without_pronoun_one(_ACRONYM_DAY.sub(lambda m: " " * len(m.group(0)), text))  # "SAT" is a test, not a
    # Saturday; "the thursday one" is no day one
    text = _COUNT_BEFORE_DAY.sub(lambda m: " " * len(m.group(1)) + m.group(2), text)
    mended, where = mend_typos(text)
    mended = _COUNT_AFTER_DAY.sub(lambda m: m.group(1) + " " * len(m.group(2)), mended)
    counted = []  # read by calendar arithmetic, not by dateparser (which takes "the day after tomorrow" for tomorrow)
    for days, start, end in relative_dates(mended, today):
        if days:
            counted.append(Found(days, where[start], where[end - 1] + 1))
        mended = mended[:start] + " " * (end - start) + mended[end:]
    readings: dict[str, list[dt.date]] = {}
    for _ in range(MAX_YEAR_RETRIES):
        readings = _dateparser_readings(mended, today)
        count = _count_read_as_year(mended, readings, today)
        if count is None:
            break
        start, end = count
        mended = mended[:start] + " " * (end - start) + mended[end:]  # "dec 4 at 7pm, 12 people": 12 is no year
    out = []
    for phrase, values in readings.items():
        start = max(mended.find(phrase), 0)
        day_alone = _DAY_OF_MONTH.search(phrase) if not _MONTH.search(phrase) else None
        if day_alone:  # "on the 3rd": a day of this month, or of the month before or after
            values = _days_of_month(int(day_alone.group("day")), today)
        end = where[start + len(phrase) - 1] + 1 if phrase else where[start]
        out.append(Found(tuple(sorted(values, key=lambda d: abs((d - today).days))), where[start], end,
                         vague=bool(_VAGUE.match(phrase.strip()))))
    return tuple(sorted(out + counted, key=lambda f: f.start))


MAX_YEAR_RETRIES = 3
_NUMERIC_DATE = re.compile(r"\b\d{1,2}\s*([/.-])\s*\d{1,2}\s*\1\s*\d{2}\b")
"""A date written in numbers with a two-digit year ("3/15/62"): its last number is its year."""
_FOUR_DIGITS = re.compile(r"(?<!\d)\d{4}(?!\d)|'\d\d\b")
_LAST_NUMBER = re.compile(r"\d+(?!.*\d)")


def _dateparser_readings(text: str, today: dt.date) -> dict[str, list[dt.date]]:
    """dateparser's phrases and their readings, looked for in the future and in the past. dateparser
    is imported on the first text with date wording: it takes about half a second to load, which a
    bot answering "hi" or a command line printing its help should not pay."""
    if not _DATE_WORDING.search(text):
        return {}
    from dateparser.search import search_dates

    base = dt.datetime.combine(today, dt.time(12, 0))
    readings: dict[str, list[dt.date]] = {}
    for prefer in ("future", "past"):
        settings = {"RELATIVE_BASE": base, "PREFER_DATES_FROM": prefer, "RETURN_AS_TIMEZONE_AWARE": False}
        try:
            phrases = search_dates(text, languages=["en"], settings=settings) or []
        except (ValueError, OverflowError):
            phrases = []
        for phrase, value in phrases:
            if _is_date_phrase(phrase):
                readings.setdefault(phrase, [])
                if value.date() not in readings[phrase]:
                    readings[phrase].append(value.date())
    return readings


def _count_read_as_year(text: str, readings: dict[str, list[dt.date]], today: dt.date) -> tuple[int, int] | None:
    """Where a number that dateparser took for a year was said, when no year was written (a year is a
    year only with four digits or an apostrophe: "dec 4 at 7pm, 12 people" is no December 4, 2012)."""
    for phrase, values in readings.items():
        far = any(abs(value.year - today.year) > 1 for value in values)
        said = re.search(r"\s*".join(map(re.escape, phrase.split())), text) if far else None
        number = _LAST_NUMBER.search(said.group(0)) if said else None
        if said and number and not _FOUR_DIGITS.search(phrase) and not _NUMERIC_DATE.search(phrase):
            # (dateparser says the phrase with its spaces made one; "3/15/62" writes its year)
            return said.start() + number.start(), said.start() + number.end()
    return None


def _is_date_phrase(phrase: str) -> bool:
    """Not a bare number or a clock time alone, and saying a date in words a person would use
    (dateparser reads "we" in "can we do 7pm" as Wednesday)."""
    p = phrase.strip()
    return not (re.fullmatch(r"\d+", p) or re.fullmatch(r"\d{1,2}([:.]\d\d)?\s*([ap]\.?m\.?)?", p, re.I)
                or re.fullmatch(r"(at|on|in|by)\s+\d+", p, re.I)) and bool(_DATE_WORDING.search(p))


_DATE_WORDING = re.compile(r"\d|\b(jan|feb|mar|apr|may|jun|jul|aug|sep|oct|nov|dec|mon|tue|wed|thu|fri|sat|sun)[a-z]*\b|"
                           r"\b(today|tonight|tomorrow|yesterday|now|week|weeks|month|months|year|years|weekend|fortnight|"
                           r"days?|ago)\b", re.I)


def _days_of_month(day: int, today: dt.date) -> list[dt.date]:
    """"the 3rd": this month's, last month's or next month's 3rd."""
    out = []
    for months in (-1, 0, 1):
        month = (today.month - 1 + months) % 12 + 1
        year = today.year + (today.month - 1 + months) // 12
        try:
            out.append(dt.date(year, month, day))
        except ValueError:
            continue
    return out


def find_times(text: str, now: dt.time | None = None) -> tuple[Found, ...]:
    """Times of day ("7pm", "19:00", "noon", "at 8", "8:30"), each with its readings: an hour
    without am/pm has two, the one within active hours first."""
    out = []
    for match in _CLOCK.finditer(text):
        out.append(Found(_by_part_of_day(_clock_readings(match), text), match.start(), match.end()))
    if not out and now is not None:
        right_now = _RIGHT_NOW.search(text)
        if right_now:
            out.append(Found((now,), right_now.start(), right_now.end()))
    return tuple(out)


def _by_part_of_day(readings: list[dt.time], text: str) -> tuple[dt.time, ...]:
    """"tonight at 9" is 21:00, "9 in the morning" 9:00: the part of the day said (or a word the agent
    says implies one: "dinner") chooses the reading."""
    part = part_of_day(text) if len(readings) > 1 else None
    if part in ("afternoon", "evening"):
        return tuple(sorted(readings, key=lambda t: t.hour < 12))
    if part == "morning":
        return tuple(sorted(readings, key=lambda t: t.hour >= 12))
    return tuple(readings)


def whole_hour(text: str) -> tuple[dt.time, ...]:
    """The readings of a reply that is only an hour ("7", "around 8") to a question about a time."""
    match = _WHOLE_HOUR.match(text)
    return tuple(_hour_readings(int(match.group("hour")), 0)) if match else ()


def _clock_readings(match: re.Match) -> list[dt.time]:
    if match.group("word"):
        return [dt.time(0 if match.group("word").lower() == "midnight" else 12, 0)]
    if match.group("hour24"):
        hour, minute = int(match.group("hour24")), int(match.group("minute24"))
        return [dt.time(hour, minute)] if hour >= 13 or hour == 0 else _hour_readings(hour, minute)
    if match.group("half"):
        hour = int(match.group("hour")) % 12 + (12 if match.group("half").lower() == "p" else 0)
        return [dt.time(hour, int(match.group("minute") or 0))]
    if match.group("part"):  # "half past 7", "quarter to 8"
        minutes = 30 if match.group("part").lower() == "half" else 15
        before = match.group("side").lower() in ("to", "before")
        hour = int(match.group("of")) - (1 if before else 0)
        return _hour_readings(hour or 12, 60 - minutes if before else minutes)
    return _hour_readings(int(match.group("bare") or match.group("ish")), 0)


def _hour_readings(hour: int, minute: int) -> list[dt.time]:
    """8:30 -> [20:30, 8:30]: both halves of the day, the one within active hours first."""
    if hour == 0 or hour > 12:
        return [dt.time(hour % 24, minute)]
    readings = [dt.time(hour % 12, minute), dt.time(hour % 12 + 12, minute)]
    return sorted(readings, key=lambda t: not (ACTIVE_HOURS[0] <= t.hour < ACTIVE_HOURS[1]))


def mentions_date(text: str) -> bool:
    """Whether the text talks about a calendar date (a month, a weekday, a d/m/y date, a birth year)."""
    return bool(_DATE_TALK.search(mend_typos(text)[0]))


_DATE_TALK = re.compile(
    r"\b(jan(uary)?|feb(ruary)?|mar(ch)?|apr(il)?|june?|july?|aug(ust)?|sept?(ember)?|oct(ober)?|nov(ember)?|"
    r"dec(ember)?)\b|\b(mon|tues|wednes|thurs|fri|satur|sun)day\b|"
    r"\b(today|tonight|tomorrow|yesterday|(next|this|last) (week|month|year))\b|\d\s*/\s*\d|\b\d{4}-\d\d?-\d\d?\b|"
    r"\b(next|this|last|on|coming|by|until|till|for)\s+(mon|tues?|weds?|thu|thurs?|fri|sat|sun)\b|"
    r"\b(born|birth\w*|year)\b", re.I)
