"""Typed value extraction from free text: the rule-based parser's vocabulary.

Each extractor returns the value it found or ``None``; none of them guesses. They are shared
by the rule-based parser and by the LLM parser's omission repair.
"""

from __future__ import annotations

import datetime as dt
import re
from typing import Any

from rapidfuzz import fuzz, process

from ..spec import Field

YES = {"yes", "y", "yeah", "yep", "yup", "sure", "ok", "okay", "correct", "right", "confirm", "confirmed", "definitely",
       "absolutely", "please do", "go ahead", "do it", "sounds good", "that's right", "that is right", "of course",
       "submit", "submit it", "book it", "true", "affirmative", "perfect", "great", "yes please"}
NO = {"no", "n", "nope", "nah", "not really", "don't", "do not", "negative", "false", "wrong", "incorrect",
      "no thanks", "no thank you", "not now", "i don't think so", "never mind"}
DECLINE = re.compile(r"^(skip( it| this)?|pass|i (don'?t|do not) know|no idea|not sure|i'?d rather not( say)?|"
                     r"rather not( say)?|prefer not to( say)?|none|nothing|no comment|n/?a|not applicable|"
                     r"nothing else|no,? that'?s (it|all)|that'?s all)[.!]*$", re.I)
NUMBER_WORDS = {"zero": 0, "one": 1, "a": 1, "an": 1, "single": 1, "two": 2, "couple": 2, "pair": 2, "three": 3,
                "four": 4, "five": 5, "six": 6, "seven": 7, "eight": 8, "nine": 9, "ten": 10, "eleven": 11,
                "twelve": 12, "dozen": 12, "thirteen": 13, "fourteen": 14, "fifteen": 15, "sixteen": 16,
                "seventeen": 17, "eighteen": 18, "nineteen": 19, "twenty": 20, "thirty": 30, "forty": 40, "fifty": 50}
_WORD = re.compile(r"[a-z']+")


def normalise(text: str) -> str:
    return re.sub(r"\s+", " ", text.strip().lower())


def yes_no(text: str) -> bool | None:
    """True/False for a clear yes or no (leading words count: "yes, submit it"), else None."""
    t = normalise(text).strip(".!?, ")
    if t in YES:
        return True
    if t in NO:
        return False
    first = re.split(r"[,.!;]| but ", t, maxsplit=1)[0].strip()
    if first in YES:
        return True
    if first in NO:
        return False
    words = t.split()
    if words and words[0] in ("yes", "yeah", "yep", "sure", "ok", "okay", "correct"):
        return True
    if words and words[0] in ("no", "nope", "nah"):
        return False
    return None


def declines(text: str) -> bool:
    return bool(DECLINE.match(normalise(text).strip(" .!")))


def numbers(text: str) -> list[float]:
    """Numbers written with digits or words ("four", "twenty two", "a couple")."""
    out: list[float] = [float(m.replace(",", "")) for m in re.findall(r"(?<![\w.])-?\d[\d,]*(?:\.\d+)?", text)]
    words = _WORD.findall(normalise(text))
    i = 0
    while i < len(words):
        word = words[i]
        if word in NUMBER_WORDS and word not in ("a", "an"):
            value = NUMBER_WORDS[word]
            if value >= 20 and i + 1 < len(words) and words[i + 1] in NUMBER_WORDS and NUMBER_WORDS[words[i + 1]] < 10:
                value += NUMBER_WORDS[words[i + 1]]
                i += 1
            out.append(float(value))
        i += 1
    return out


def number_for(text: str, f: Field | None = None) -> float | None:
    """The single number in ``text`` or, with several, the one followed by a word of the field's name."""
    found = numbers(text)
    if len(found) == 1:
        return found[0]
    if f is not None:
        keywords = _field_words(f)
        for match in re.finditer(r"(\d+(?:\.\d+)?|[a-z]+)\s+([a-z]+)", normalise(text)):
            head, noun = match.groups()
            if noun.rstrip("s") in keywords or noun in keywords:
                value = numbers(head)
                if value:
                    return value[0]
    return None


def number_with_noun(text: str, f: Field) -> float | None:
    """A number directly followed by one of the field's words ("4 people", "three units")."""
    keywords = _field_words(f)
    for match in re.finditer(r"(\d+(?:\.\d+)?|[a-z]+(?: [a-z]+)?)\s+([a-z]+)", normalise(text)):
        head, noun = match.groups()
        if noun in keywords or noun.rstrip("s") in keywords:
            value = numbers(head.split()[-1]) or numbers(head)
            if value:
                return value[-1]
    return None


_STOP = {"the", "of", "a", "an", "to", "for", "in", "is", "are", "and", "or", "number", "what", "which", "whether"}


def _field_words(f: Field) -> set[str]:
    words = set(f.name.lower().split("_")) | set(_WORD.findall(f.description.lower()))
    words = {w.rstrip("s") for w in words} | words
    if {"people", "person", "party", "guest"} & words:
        words |= {"people", "person", "persons", "guests", "guest", "of us", "adults", "party"}
    return words - _STOP


def enum_value(text: str, f: Field, threshold: int = 85) -> str | None:
    """The enum member ``text`` names: exact, contained, or a clear fuzzy match of value or description."""
    t = normalise(text).strip(" .!?")
    values = list(f.values)
    for v in values:
        if t == v.lower():
            return v
    contained = [v for v in values if re.search(rf"(?<!\w){re.escape(v.lower())}(?!\w)", t)]
    if len(contained) == 1:
        return contained[0]
    if len(contained) > 1:
        return max(contained, key=len) if len({len(c) for c in contained}) == len(contained) else None
    choices = {v: f"{v} {f.value_descriptions.get(v, '')}".lower() for v in values}
    scored = process.extract(t, choices, scorer=fuzz.token_set_ratio, limit=2)
    if not scored:
        return None
    best = scored[0]
    runner_up = scored[1][1] if len(scored) > 1 else 0
    if best[1] >= threshold and best[1] - runner_up >= 10:
        return best[2]
    partial = [(v, fuzz.partial_ratio(v.lower(), t)) for v in values if len(v) >= 3]
    partial = [p for p in partial if p[1] >= 90]
    if len(partial) == 1 and len(t) <= 3 * len(partial[0][0]) + 20:
        return partial[0][0]
    return _by_meaning(t, f)


def _by_meaning(text: str, f: Field) -> str | None:
    """The one value whose name and description share the most content words with the text."""
    words = content_words(text)
    overlaps = sorted(((len(words & content_words(f"{v} {f.value_descriptions.get(v, '')}")), v) for v in f.values),
                      reverse=True)
    if overlaps and overlaps[0][0] > 0 and (len(overlaps) == 1 or overlaps[0][0] > overlaps[1][0]):
        return overlaps[0][1]
    return None


def mentioned_enum_value(text: str, f: Field) -> str | None:
    """An enum member named verbatim in a longer message (for volunteered values)."""
    t = normalise(text)
    found = [v for v in f.values if len(v) > 1 and re.search(rf"(?<!\w){re.escape(v.lower())}(?!\w)", t)]
    return max(found, key=len) if found else None


def date_time(text: str, today: dt.date, kind: str) -> Any:
    """A date, time or datetime mentioned in ``text`` ("next Friday at 7pm"), via dateparser."""
    from dateparser.search import search_dates

    base = dt.datetime.combine(today, dt.time(12, 0))
    settings = {"RELATIVE_BASE": base, "PREFER_DATES_FROM": "future", "RETURN_AS_TIMEZONE_AWARE": False}
    cleaned = re.sub(r"\b(at|on|for|by)\s*$", "", text.strip(), flags=re.I)
    try:
        found = search_dates(cleaned, languages=["en"], settings=settings) or []
    except (ValueError, OverflowError):
        found = []
    found = [(s, d) for s, d in found if not re.fullmatch(r"\s*\d{1,2}\s*", s) or kind == "time"]
    if not found:
        return None
    if kind == "time":
        times = [d for s, d in found if re.search(r"\d\s*(am|pm)|\d:\d\d|noon|midnight|o'?clock", s, re.I)]
        return times[-1].time().replace(second=0) if times else None
    if kind == "date":
        dates = [d for s, d in found if not re.fullmatch(r"\s*\d{1,2}(:\d\d)?\s*(am|pm)?\s*", s, re.I)]
        return dates[0].date() if dates else None
    value = found[0][1]
    if len(found) > 1:
        first, second = found[0][1], found[1][1]
        value = dt.datetime.combine(first.date(), second.time())
    return value.replace(second=0, microsecond=0)


_ANSWER_PREFIX = re.compile(
    r"^(it'?s|it is|that'?s|that is|i'?m|i am|my \w+( \w+)? is|the \w+( \w+)? is|call me|i'?d like|i want|"
    r"i would like|please|um+|uh+|well|so)\s+", re.I)


def free_text(text: str) -> str:
    """The answer part of a free-text reply ("my name is Ann Lee" -> "Ann Lee")."""
    value = text.strip()
    for _ in range(3):
        stripped = _ANSWER_PREFIX.sub("", value)
        if stripped == value:
            break
        value = stripped
    return value.strip().rstrip(".!") or text.strip()


_STOPWORDS = {"i", "me", "my", "we", "our", "you", "your", "a", "an", "the", "to", "of", "for", "in", "on", "at", "and",
              "or", "is", "are", "be", "it", "this", "that", "with", "want", "would", "like", "need", "please", "can",
              "could", "do", "does", "have", "has", "some", "about", "from", "get", "help", "hi", "hello", "hey",
              "just", "so", "also", "there", "what", "how", "which", "will", "am", "was", "im", "id", "yes", "no"}


def stem(word: str) -> str:
    for suffix in ("ing", "ed", "es", "s"):
        if len(word) > len(suffix) + 3 and word.endswith(suffix):
            return word[: -len(suffix)]
    return word


def content_words(text: str) -> set[str]:
    """Stemmed words that carry meaning, for matching a message against descriptions and examples."""
    return {stem(w) for w in _WORD.findall(text.lower().replace("'", "")) if w not in _STOPWORDS and len(w) > 1}
