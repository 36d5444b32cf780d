"""How a simulated user types a value: dates in many forms, times like "7:30pm" or "8", numbers
as digits or words, enum values in their own words, and the sloppiness of real typing (typos in
words but not in codes, lowercase, missing punctuation).

Every phrasing here is written as a person would type it; none is taken from the agents'
conversation tests or from the parser.
"""

from __future__ import annotations

import datetime as dt
import random
import re
from dataclasses import dataclass

NUMBER_WORDS = ["zero", "one", "two", "three", "four", "five", "six", "seven", "eight", "nine", "ten", "eleven",
                "twelve"]
WEEKDAYS = ["monday", "tuesday", "wednesday", "thursday", "friday", "saturday", "sunday"]
MONTHS = ["january", "february", "march", "april", "may", "june", "july", "august", "september", "october",
          "november", "december"]
MONTH_ABBR = ["jan", "feb", "mar", "apr", "may", "jun", "jul", "aug", "sept", "oct", "nov", "dec"]


def ordinal(n: int) -> str:
    suffix = "th" if 10 <= n % 100 <= 20 else {1: "st", 2: "nd", 3: "rd"}.get(n % 10, "th")
    return f"{n}{suffix}"


def say_date(value: dt.date, today: dt.date, rng: random.Random) -> str:
    """One of the ways people write ``value`` on ``today``; relative forms only where they are unambiguous."""
    delta = (value - today).days
    forms = [f"{MONTH_ABBR[value.month - 1]} {value.day}", f"{MONTHS[value.month - 1]} {ordinal(value.day)}",
             f"{value.month}/{value.day}", f"{value.day} {MONTH_ABBR[value.month - 1]}",
             f"{MONTHS[value.month - 1]} {value.day}, {value.year}", value.isoformat()]
    weekday = WEEKDAYS[value.weekday()]
    if delta == 0:
        forms += ["today"] * 3
    elif delta == 1:
        forms += ["tomorrow"] * 3
    elif delta == -1:
        forms += ["yesterday"] * 3
    elif 2 <= delta <= 6:
        forms += [f"this {weekday}", weekday, f"on {weekday}", f"in {delta} days"]
    elif -6 <= delta <= -2:
        forms += [f"last {weekday}", f"{-delta} days ago", f"on {weekday}"]
    elif delta == 7 or delta == -7:
        forms += ["in a week" if delta > 0 else "a week ago", f"{'next' if delta > 0 else 'last'} {weekday}"]
    elif 8 <= delta <= 13 and value.isocalendar()[1] == (today + dt.timedelta(days=7)).isocalendar()[1]:
        forms += [f"{weekday} next week"]
        if value.weekday() <= today.weekday():  # "next friday" on a monday could mean this week's
            forms += [f"next {weekday}"]
    if value.month == today.month and value.year == today.year and delta != 0:
        forms += [f"the {ordinal(value.day)}"]
    return rng.choice(forms)


def say_time(value: dt.time, rng: random.Random) -> str:
    hour12 = value.hour % 12 or 12
    half = "am" if value.hour < 12 else "pm"
    minutes = f":{value.minute:02d}" if value.minute else ""
    forms = [f"{hour12}{minutes}{half}", f"{hour12}{minutes} {half}", f"{value.hour:02d}:{value.minute:02d}",
             f"{hour12}{minutes}{half.upper()}"]
    if value.minute:
        forms += [f"{hour12}.{value.minute:02d}{half}"]
    if value.minute == 30:
        forms += [f"half past {hour12}"] if value.hour >= 17 else []
    if value.minute == 0 and 17 <= value.hour <= 21:
        forms += [str(hour12), f"{hour12} o'clock"]  # a dinner time without am/pm
    if value.hour == 12 and value.minute == 0:
        forms += ["noon"]
    if value.minute == 30 and 17 <= value.hour <= 21:
        forms += [f"{hour12}:30"]
    return rng.choice(forms)


def say_number(value: int, rng: random.Random) -> str:
    return NUMBER_WORDS[value] if value < len(NUMBER_WORDS) and rng.random() < 0.35 else str(value)


def course_code_forms(code: str, rng: random.Random) -> str:
    """``CS224V`` as students write it: "cs 224v", "CS224V", "cs224v"."""
    match = re.fullmatch(r"([A-Za-z]+)\s*(\d+[A-Za-z]?)", code)
    if not match:
        return code
    dept, number = match.groups()
    return rng.choice([f"{dept} {number}", f"{dept.lower()} {number.lower()}", f"{dept}{number}",
                       f"{dept.lower()}{number.lower()}"])


def typo(word: str, rng: random.Random) -> str:
    """A slip of the fingers: two letters swapped, one dropped or one doubled."""
    if len(word) < 5 or not word.isalpha():
        return word
    i = rng.randrange(1, len(word) - 1)
    kind = rng.randrange(3)
    if kind == 0:
        return word[:i] + word[i + 1] + word[i] + word[i + 2:]
    if kind == 1:
        return word[:i] + word[i + 1:]
    return word[:i] + word[i] + word[i:]


@dataclass(frozen=True)
class Style:
    """How one user types, for the whole conversation."""

    lowercase: bool
    drops_punctuation: bool
    typo_rate: float
    """The chance that a message gets a typo in one of its ordinary words."""
    chatty: float
    """The chance of volunteering facts not asked for yet."""

    @classmethod
    def draw(cls, rng: random.Random) -> "Style":
        return cls(rng.random() < 0.6, rng.random() < 0.5, rng.choice([0.0, 0.15, 0.3]), rng.choice([0.2, 0.5, 0.8]))


@dataclass(frozen=True)
class Piece:
    """Part of a message; a protected piece (a name, a code, an email, free text) never gets a typo."""

    text: str
    protected: bool = False


def render(pieces: list[Piece], style: Style, rng: random.Random) -> str:
    """The message as this user would type it."""
    texts = [p.text for p in pieces]
    if rng.random() < style.typo_rate:
        candidates = [(i, m) for i, p in enumerate(pieces) if not p.protected
                      for m in re.finditer(r"[A-Za-z]{5,}", p.text)]
        if candidates:
            i, match = rng.choice(candidates)
            text = texts[i]
            texts[i] = text[:match.start()] + typo(match.group(), rng) + text[match.end():]
    if style.drops_punctuation:
        texts = [t if p.protected else t.replace(",", "") for p, t in zip(pieces, texts)]
    message = re.sub(r"\s+", " ", "".join(texts)).strip()
    if style.lowercase:
        message = message.lower()
    if style.drops_punctuation and not pieces[-1].protected:
        message = re.sub(r"[?!.]+$", "", message)
    return message
