"""Dates, times and lengths of time in a message, with every reading they allow.

"november 3" is last November 3 or next; "saturday" the last or the next one; "8:30" is morning
or evening. Nothing is chosen here: the readings are listed nearest first and the field's own
constraints choose (``runtime.checks.first_accepted``). dateparser reads the dates; what it
misreads is read by calendar arithmetic first (:mod:`.relative_dates`: "the day after tomorrow",
"last night", "3 days ago"); typos and chat shorthand of date words are mended ("tomorow",
"tmrw"); a time, a code or a count said beside a day is no part of it ("saturday at 8", "on
friday PF-204817", "a table for 2 tomorrow").
"""

from __future__ import annotations

import datetime as dt
import re
from functools import lru_cache

from rapidfuzz import fuzz, process
from rapidfuzz.distance import OSA

from ....language import english
from ....language.tokens import phrase_pattern
from ....language.words import part_of_day, without_pronoun_one
from .contacts import street_type
from .model import DATE, DURATION, TIME, Entity
from .relative_dates import relative_dates

TYPO_SCORE = 85
MIN_TYPO_LENGTH = 6
ACTIVE_HOURS = (9, 22)
"""Without a constraint, an hour with no am/pm is read in these hours first: "at 8" is 8 pm, "at 10" 10 am."""
MAX_SEARCHED_CHARS = 300
"""dateparser's cost grows fast with the text: a long message is searched clause by clause, and only
the clauses that talk about a date, each cut to this length."""
MAX_SEARCHED_CLAUSES = 4
MAX_YEAR_RETRIES = 3

_WORDS = lambda phrases: phrase_pattern(phrases)  # noqa: E731 - a short name for the patterns below
_MONTH_NAMES = _WORDS((*english.MONTHS, *english.MONTH_ABBREVIATIONS, "sept"))
_WEEKDAY_NAMES = _WORDS((*english.WEEKDAYS, *english.WEEKDAY_ABBREVIATIONS, *english.DATE_SHORTHAND))
_UNITS = _WORDS((*english.DURATION_UNITS, *(u + 's' for u in english.DURATION_UNITS)))
_CLOCK = re.compile(
    r"(?<![\w:.])(?P<hour>[01]?\d|2[0-3])(?:[:.](?P<minute>[0-5]\d))?\s*(?P<half>[ap])\.?\s*m\b\.?"
    r"|(?<![\w:.])(?P<hour24>[01]?\d|2[0-3])[:.h](?P<minute24>[0-5]\d)(?![\d.])"
    rf"|(?P<word>{_WORDS(english.CLOCK_WORDS)})"
    rf"|(?P<lead>{_WORDS(english.TIME_LEADS)})\s+(?P<bare>1[0-2]|[1-9])(?![:.h]?\d|\s*[ap]\.?\s*m\b|\s+{_UNITS})"
    rf"(?:\s*(?:{_WORDS(english.CLOCK_SUFFIXES)}))?(?![\w'’])"
    rf"|(?<![\w.])(?P<ish>1[0-2]|[1-9])\s*(?:{'|'.join(map(re.escape, english.CLOCK_SUFFIXES))})(?![\w'’])"
    rf"|(?P<part>{_WORDS(english.CLOCK_FRACTIONS)})\s+(?P<side>{_WORDS((*english.PAST_THE_HOUR, *english.TO_THE_HOUR))})"
    r"\s+(?P<of>1[0-2]|[1-9])\b", re.I)
_WHOLE_HOUR = re.compile(rf"^\s*(?:(?:{_WORDS((*english.TIME_LEADS, *english.FILLERS, 'maybe', 'say'))})\s+)*"
                         r"(?P<hour>1[0-2]|[1-9])\s*[.!?]*\s*$", re.I)
_PERIOD = re.compile(rf"^(?:(?:{_WORDS(english.RELATIVE_WEEKS)}|the)\s+{_WORDS(english.PERIOD_WORDS)}"
                     rf"|(?:(?:{_WORDS(english.PERIOD_LEADS)})\s+)*{_MONTH_NAMES}\.?(?:\s+(?:of\s+)?\d{{4}})?)$", re.I)
"""A period, not a day: "next week", "in august", "early march 2026"."""
_WEEKDAY_ALONE = re.compile(rf"^{_WEEKDAY_NAMES}\.?$", re.I)
"""A weekday said alone ("friday", "wed"): the coming one first, the one just past next."""
_EVERY_WEEK = re.compile(rf"^(?:s\b|\s+(?:{_WORDS(w + 's' for w in english.PARTS_OF_DAY)}))", re.I)
"""After a weekday, a plural that makes it every week ("tuesdays", "tuesday mornings"): no one day."""
_NAMES_A_WEEKDAY = re.compile(_WEEKDAY_NAMES, re.I)
_DAY_OF_MONTH = re.compile(r"\b(?:the\s+)?(?P<day>[12]?\d|3[01])(?:st|nd|rd|th)\b", re.I)
_MONTH = re.compile(rf"{_MONTH_NAMES}|\d\s*[/-]\s*\d", re.I)
_WORD = re.compile(r"[A-Za-z]+")
_COUNT_WORDS = _WORDS(w for w, n in english.NUMBER_WORDS.items() if 1 <= n <= 12 and w not in english.VAGUE_NUMBER_WORDS)
_DAY_LEADS = _WORDS((*english.DAY_WORDS, *english.RELATIVE_WEEKS, "on", *english.WEEKDAY_ABBREVIATIONS))
_STREET_ORDINAL = re.compile(r"\b\d+(?:st|nd|rd|th)\s+(?P<type>[A-Za-z]+)\b\.?", re.I)
"""A street ("5th st", "20th ave") is no day of the month."""
_COUNT_BEFORE_DAY = re.compile(rf"((?:\d+|{_COUNT_WORDS})\s+)(?={_DAY_LEADS}|(?:{'|'.join(english.WEEKDAY_ABBREVIATIONS)})[a-z]*\b)",
                               re.I)
"""A count right before a day is no part of it: "a table for 2 tomorrow"."""
_COUNT_AFTER_DAY = re.compile(
    rf"((?:{_WORDS((*english.DAY_WORDS, *english.WEEKDAYS))}|\d{{1,2}}(?:st|nd|rd|th))(?:[\s,;]+(?:for|at)\b)*[\s,;]+)"
    rf"(\d+)(?!\d|\s*(?:st|nd|rd|th)\b|\s*[/.-]\s*\d|\s*{_MONTH_NAMES})", re.I)
"""A number right after a day that is no part of it: "saturday 7pm, 2 of us" (the time already blanked)."""
_CODE = re.compile(r"\b[A-Za-z]+-?\d{3,}\w*")
"""Letters and then three digits or more: a code ("PF-204817", "CS107"), no part of a date."""
_ACRONYM_DAY = re.compile(rf"\b(?:{'|'.join(a.upper() for a in english.WEEKDAY_ABBREVIATIONS)})\b")
"""A weekday written in capitals is an acronym ("the SAT"), not a day."""
_JOINED_DAYS = re.compile(rf"(?<=[a-z])(\s+(?:and|or|&)\s+)(?={_WORDS((*english.DAY_WORDS, *english.WEEKDAYS))})", re.I)
"""Two days joined ("today and tomorrow"): dateparser would read them as one."""
_EDGE_WORDS = re.compile(rf"^(?:\s*{_WORDS(english.DATE_PHRASE_EDGES)}\s*)+|(?:\s*{_WORDS(english.DATE_PHRASE_EDGES)}\s*)+$|^\s+|\s+$",
                         re.I)
"""Prepositions dateparser keeps at the edges of a phrase ("from dec 21", "wednesday at"): no part of the date."""
_NUMERIC_DATE = re.compile(r"\b\d{1,2}\s*([/.-])\s*\d{1,2}\s*\1\s*\d{2}\b")
"""A date written in numbers with a two-digit year ("3/15/62"): its last number is its year."""
_FOUR_DIGITS = re.compile(r"(?<!\d)\d{4}(?!\d)|'\d\d\b")
_LAST_NUMBER = re.compile(r"\d+(?!.*\d)")
_DATE_WORDING = re.compile(rf"\d|{_MONTH_NAMES}|{_WEEKDAY_NAMES}|\b(?:{'|'.join(english.WEEKDAY_STEMS)})day\b|"
                           rf"{_WORDS((*english.DAY_WORDS, *english.PERIOD_WORDS, *(w + 's' for w in english.PERIOD_WORDS), 'day', 'days', *english.AGO_WORDS))}",
                           re.I)
_DURATION = re.compile(
    rf"(?:(?P<count>\d+(?:\.\d+)?|{_COUNT_WORDS}|an?|{_WORDS(english.HALF_WORDS)})\s+(?:an?\s+)?)?"
    rf"(?P<unit>{_WORDS((*english.DURATION_UNITS, *(u + 's' for u in english.DURATION_UNITS)))})"
    rf"(?:\s*(?:{_WORDS(english.DURATION_TAILS)}))?(?![\w'’])", re.I)


def find(text: str, today: dt.date) -> list[Entity]:
    """The dates, times and lengths of time of ``text`` (dates first, then times, then lengths). A bare hour
    ("about 8", "at 4") is a time over its number alone, beside the number it also is (the slots choose)."""
    dates = [Entity(DATE, f.start, f.end, f.readings, text[f.start:f.end], vague=f.vague) for f in find_dates(text, today)]
    times = []
    for f in find_times(text):
        start = f.start
        if f.vague:
            digits = re.search(r"\d+", text[f.start:f.end])
            start = f.start + digits.start() if digits else f.start
            end = f.start + digits.end() if digits else f.end
        else:
            end = f.end
        times.append(Entity(TIME, start, end, f.readings, text[start:end], vague=f.vague))
    return dates + times + _durations(text, dates)


class Found:
    """A date or time in the text: its readings, nearest first, and where it was said."""

    __slots__ = ("readings", "start", "end", "vague")

    def __init__(self, readings: tuple, start: int, end: int, vague: bool = False):
        self.readings = readings
        self.start = start
        self.end = end
        self.vague = vague
        """A period, not a day ("next week"), or an hour said bare ("at 4")."""


def mend_typos(text: str) -> tuple[str, list[int]]:
    """Date words misspelt by a letter or two or abbreviated, mended ("tomorow", "tmrw" -> "tomorrow"), and for
    each position of the mended text the position of the original it comes from."""
    out: list[str] = []
    where: list[int] = []
    last = 0
    for match in _WORD.finditer(text):
        word = match.group(0)
        best = None
        if len(word) >= MIN_TYPO_LENGTH and word.lower() not in english.DATE_WORDS:
            best = _swapped(word.lower()) or process.extractOne(word.lower(), english.DATE_WORDS, scorer=fuzz.ratio,
                                                                score_cutoff=TYPO_SCORE)
        replacement = english.DATE_SHORTHAND.get(word.lower()) or (best[0] if best else word)
        out.append(text[last:match.start()])
        where.extend(range(last, match.start()))
        out.append(replacement)
        where.extend(min(match.start() + i, match.end() - 1) for i in range(len(replacement)))
        last = match.end()
    out.append(text[last:])
    where.extend(range(last, len(text) + 1))
    return "".join(out), where


def _swapped(word: str) -> tuple[str, float, int] | None:
    """The date word ``word`` is with two neighbouring letters swapped ("frdiay"), as extractOne gives it."""
    found = next((w for w in english.DATE_WORDS if sorted(w) == sorted(word) and OSA.distance(w, word) == 1), None)
    return (found, 100.0, english.DATE_WORDS.index(found)) if found else None


def find_dates(text: str, today: dt.date) -> tuple[Found, ...]:
    """Calendar dates in ``text`` (see ``_find_dates``), at a bounded cost whatever its length."""
    if len(text) <= MAX_SEARCHED_CHARS:
        return _find_dates(text, today)
    found: list[Found] = []
    clauses = [m for m in re.finditer(r"[^.!?;\n]+", text) if _DATE_WORDING.search(m.group(0))][:MAX_SEARCHED_CLAUSES]
    for clause in clauses:
        piece = clause.group(0)[:MAX_SEARCHED_CHARS]
        found.extend(Found(f.readings, clause.start() + f.start, clause.start() + f.end, f.vague)
                     for f in _find_dates(piece, today))
    return tuple(found)


def _blank(text: str, start: int, end: int) -> str:
    return text[:start] + " " * (end - start) + text[end:]


@lru_cache(maxsize=256)
def _find_dates(text: str, today: dt.date) -> tuple[Found, ...]:
    """Calendar dates in ``text`` ("next friday", "november 3", "the 3rd", "3 days ago"), with every
    reading of a date that does not say which year or which week, nearest to ``today`` first."""
    original = text
    for found in find_times(text):
        text = _blank(text, found.start, found.end)
    text = _CODE.sub(lambda m: " " * len(m.group(0)), text)
    text = _STREET_ORDINAL.sub(lambda m: " " * len(m.group(0)) if street_type(m.group("type")) else m.group(0), text)
    text = _ACRONYM_DAY.sub(lambda m: " " * len(m.group(0)), text)
    text = without_pronoun_one(text)  # "the thursday one" is no day one
    text = _COUNT_BEFORE_DAY.sub(lambda m: " " * len(m.group(1)), text)
    mended, where = mend_typos(text)
    mended = _COUNT_AFTER_DAY.sub(lambda m: m.group(1) + " " * len(m.group(2)), mended)
    mended = _JOINED_DAYS.sub(lambda m: " ;" + " " * (len(m.group(1)) - 2), mended)
    counted = []  # read by calendar arithmetic, not by dateparser
    for days, start, end in relative_dates(mended, today):
        if days:
            counted.append(Found(days, where[start], where[end - 1] + 1))
        mended = _blank(mended, start, end)
    readings: dict[str, list[dt.date]] = {}
    for _ in range(MAX_YEAR_RETRIES):
        readings = _dateparser_readings(mended, today)
        count = _count_read_as_year(mended, readings, today)
        if count is None:
            break
        mended = _blank(mended, *count)  # "dec 4 at 7pm, 12 people": 12 is no year
    out = []
    at = 0
    for phrase, values in readings.items():
        place = _where(mended, phrase, at) or _where(mended, phrase, 0)
        if place is None:
            continue
        start, at = place
        phrase = mended[start:at]
        day_alone = _DAY_OF_MONTH.search(phrase) if not _MONTH.search(phrase) else None
        if day_alone:  # "on the 3rd": a day of this month, or of the month before or after
            values = _days_of_month(int(day_alone.group("day")), today)
            if not _NAMES_A_WEEKDAY.search(phrase):  # "4 at on the 3rd": the day's own words only
                start, phrase = start + day_alone.start(), day_alone.group(0)
        inner = _trimmed(phrase)
        phrase_start = start + phrase.find(inner) if inner else start
        phrase_end = phrase_start + len(inner) if inner else start + len(phrase.rstrip())
        end = where[phrase_end - 1] + 1 if phrase_end > phrase_start else where[start]
        weekday = bool(_WEEKDAY_ALONE.match(inner.strip()))  # "on friday" is the coming one, unless refused
        every_week = weekday and bool(_EVERY_WEEK.match(original[end:]))  # "tuesdays", "tuesday mornings"
        out.append(Found(tuple(sorted(values, key=lambda d: (weekday and d < today, abs((d - today).days)))),
                         where[phrase_start], end, vague=bool(_PERIOD.match(phrase.strip())) or every_week))
    return tuple(sorted(out + counted, key=lambda f: f.start))


def _trimmed(phrase: str) -> str:
    """The phrase without the prepositions, signs and clauses without a day that dateparser keeps at its edges
    ("saturday , of" for "saturday 7pm, 2 of us", the time and the count blanked: "saturday")."""
    while True:
        head, comma, tail = phrase.rpartition(",")
        inner = _EDGE_WORDS.sub("", head if comma and not _DATE_WORDING.search(tail) else phrase).strip(" ,;")
        if inner == phrase:
            return inner
        phrase = inner


def _where(text: str, phrase: str, at: int) -> tuple[int, int] | None:
    """Where dateparser's phrase is in the text it was given, from ``at``: it joins the words of a phrase
    with single spaces where the text has blanks (a time taken out: "at 7:30pm on the 3rd")."""
    found = re.compile(r"\s+".join(map(re.escape, phrase.split()))).search(text, at)
    return found.span() if found else None


def _dateparser_readings(text: str, today: dt.date) -> dict[str, list[dt.date]]:
    """dateparser's phrases and their readings, looked for in the future and in the past. dateparser
    is imported on the first text with date wording: it takes about half a second to load."""
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
    year only with four digits or an apostrophe, or as the last number of "3/15/62"), or four digits no year
    could be."""
    for phrase, values in readings.items():
        said = re.search(r"\s*".join(map(re.escape, phrase.split())), text)
        if said is None:
            continue
        digits = next((m for m in _FOUR_DIGITS.finditer(said.group(0)) if m.group(0).isdigit()
                       and not PLAUSIBLE_YEARS[0] <= int(m.group(0)) <= PLAUSIBLE_YEARS[1]), None)
        if digits:  # "now, 5380" (a PIN said after "now") is no year
            return said.start() + digits.start(), said.start() + digits.end()
        far = any(abs(value.year - today.year) > 1 for value in values)
        number = _LAST_NUMBER.search(said.group(0)) if far else None
        if number and not _FOUR_DIGITS.search(phrase) and not _NUMERIC_DATE.search(phrase):
            return said.start() + number.start(), said.start() + number.end()
    return None


PLAUSIBLE_YEARS = (1900, 2199)
"""Four digits outside these are a code or a count, not a year."""


def _is_date_phrase(phrase: str) -> bool:
    """Not a bare number, a clock time alone or a length of time alone ("twice a day", "2 weeks": dateparser
    reads them as a day from today), and saying a date in words a person would use (dateparser reads "we"
    in "can we do 7pm" as Wednesday)."""
    p = phrase.strip()
    return not (re.fullmatch(r"\d+", p) or re.fullmatch(r"\d{1,2}([:.]\d\d)?\s*([ap]\.?m\.?)?", p, re.I)
                or re.fullmatch(r"[a-z]+\s+\d+", p, re.I) and not _MONTH.search(p)
                or _LENGTH_ALONE.fullmatch(p)) and bool(_DATE_WORDING.search(p))


_LENGTH_ALONE = re.compile(rf"(?:\d+|{_WORDS(english.NUMBER_WORDS)})\s+{_UNITS}(?:\s+{_WORDS(english.DATE_PHRASE_EDGES)})*",
                           re.I)
"""A count and a unit, perhaps with a preposition after it ("a day on weekdays"): with none before it ("in 2 days")
or after the unit ("3 days ago"), a length of time."""


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


def find_times(text: str) -> tuple[Found, ...]:
    """Times of day ("7pm", "19:00", "noon", "at 8", "8:30"), each with its readings: an hour
    without am/pm has two, the one within active hours first (or the part of the day said first)."""
    return tuple(Found(_by_part_of_day(_clock_readings(m), text), m.start(), m.end(),
                       vague=bool(m.group("bare") or m.group("ish")))
                 for m in _CLOCK.finditer(text))


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
    return _by_part_of_day(_hour_readings(int(match.group("hour")), 0), text) if match else ()


def hour_readings(hour: int) -> tuple[dt.time, ...]:
    """The readings of a bare hour ("4": 4 PM first, within active hours, then 4 AM)."""
    return tuple(_hour_readings(hour, 0)) if 0 <= hour <= 23 else ()


def _clock_readings(match: re.Match) -> list[dt.time]:
    if match.group("word"):
        return [dt.time(english.CLOCK_WORDS[match.group("word").lower()], 0)]
    if match.group("hour24"):
        hour, minute = int(match.group("hour24")), int(match.group("minute24"))
        return [dt.time(hour, minute)] if hour >= 13 or hour == 0 else _hour_readings(hour, minute)
    if match.group("half"):
        hour = int(match.group("hour")) % 12 + (12 if match.group("half").lower() == "p" else 0)
        return [dt.time(hour, int(match.group("minute") or 0))]
    if match.group("part"):  # "half past 7", "quarter to 8"
        minutes = english.CLOCK_FRACTIONS[match.group("part").lower()]
        before = match.group("side").lower() in english.TO_THE_HOUR
        hour = int(match.group("of")) - (1 if before else 0)
        return _hour_readings(hour or 12, 60 - minutes if before else minutes)
    return _hour_readings(int(match.group("bare") or match.group("ish")), 0)


def _hour_readings(hour: int, minute: int) -> list[dt.time]:
    """8:30 -> [20:30, 8:30]: both halves of the day, the one within active hours first."""
    if hour == 0 or hour > 12:
        return [dt.time(hour % 24, minute)]
    readings = [dt.time(hour % 12, minute), dt.time(hour % 12 + 12, minute)]
    return sorted(readings, key=lambda t: not (ACTIVE_HOURS[0] <= t.hour < ACTIVE_HOURS[1]))


def _durations(text: str, dates: list[Entity]) -> list[Entity]:
    """Lengths of time ("3 nights", "an hour", "half an hour", "30 minutes"), in minutes; none inside a date
    ("3 days ago" is a day)."""
    out = []
    for match in _DURATION.finditer(text):
        if any(d.start <= match.start() and match.end() <= d.end for d in dates):
            continue
        unit = match.group("unit").lower()
        unit = unit if unit in english.DURATION_UNITS else unit[:-1]
        count_said = (match.group("count") or "").lower()
        if not count_said and len(match.group(0).split()) == 1:
            continue  # "day" alone is no length of time
        count = (float(count_said) if count_said[:1].isdigit() else english.HALF_WORDS.get(count_said)
                 or english.NUMBER_WORDS.get(count_said, 1))
        out.append(Entity(DURATION, match.start(), match.end(), float(count) * english.DURATION_UNITS[unit],
                          match.group(0)))
    return out
