"""Values of a table's categorical columns that a message names: "Seattle", "Italian", "winter".

A column is categorical when it holds few distinct text values (a city, a cuisine, a quarter,
"Tue/Thu"). A message names such a value by its words, ignoring case, spaces and punctuation
("tue thu" is "Tue/Thu"), or by one word that belongs to that value alone ("winter" is
"Winter 2027"), or by its initials ("sf" is "San Francisco"). The offline knowledge query filters on them; the rule parser tells a search
("quiet places in Seattle") from a record's name with them.
"""

from __future__ import annotations

import re
from typing import Any

from .mentions import squashed

CATEGORICAL_LIMIT = 60
"""A text column with more distinct values than this is free text or names, not categories."""
MAX_PHRASE_WORDS = 4
_WORD = re.compile(r"[a-z0-9]+")


class ColumnValues:
    """The categorical columns of one table and their values, longest first."""

    def __init__(self, columns: dict[str, list[Any]]):
        self.columns = {c: sorted((str(v) for v in values), key=len, reverse=True)
                        for c, values in columns.items() if len(values) <= CATEGORICAL_LIMIT}
        self._numbered = {squashed(v) for values in self.columns.values() for v in values if _NUMBERED.fullmatch(v)}
        self._by_word = {c: _values_by_word(values) for c, values in self.columns.items()}
        self._squashed = {c: [(v, squashed(v)) for v in values] for c, values in self.columns.items()}
        self._by_initials = {c: _values_by_initials(values) for c, values in self.columns.items()}

    def numbered(self, text: str) -> list[tuple[int, int]]:
        """Where ``text`` says a value that is a number and a word or two ("5 gallon", "20 mg"): its
        number is that value's, no count of anything."""
        if not self._numbered:
            return []
        out = []
        for m in _NUMBERED.finditer(text):
            end = next((e for e in _word_ends(m.group(0)) if squashed(m.group(0)[:e]) in self._numbered), None)
            if end is not None:
                out.append((m.start(), m.start() + end))
        return out

    def find(self, text: str, skip: set[str] | frozenset[str] = frozenset()) -> dict[str, str]:
        """The value of each categorical column (but those in ``skip``) that ``text`` names."""
        phrases = _phrases(text)
        words = set(_WORD.findall(text.lower()))
        found = {}
        for column, values in self.columns.items():
            if column in skip:
                continue
            value = next((v for v, s in self._squashed[column] if s in phrases and not s.isdigit()), None)
            value = (value or _named_by_one_word(self._by_word[column], phrases, words)
                     or _named_by_initials(self._by_initials[column], text))
            if value is not None:
                found[column] = value
        return found


_NUMBERED = re.compile(r"(?<![\w.])\d+(?:[.,]\d+)?\s*[A-Za-z][\w.-]*(?:\s+[A-Za-z][\w.-]*)?")


def _word_ends(phrase: str) -> list[int]:
    """The ends of the phrase's first word after its number, and of the phrase ("5 gallon can": 8, 12)."""
    return [m.end() for m in re.finditer(r"[A-Za-z][\w.-]*", phrase)]


def _phrases(text: str) -> set[str]:
    """The squashed phrases of up to four words of ``text`` ("tue thu" -> "tuethu", "cs 107" -> "cs107")."""
    tokens = _WORD.findall(text.lower())
    return {"".join(tokens[i:i + n]) for i in range(len(tokens)) for n in range(1, MAX_PHRASE_WORDS + 1)
            if i + n <= len(tokens)}


def _values_by_initials(values: list[str]) -> dict[str, list[str]]:
    """The values of two or three words, by their initials ("sf": San Francisco)."""
    out: dict[str, list[str]] = {}
    for v in values:
        if 2 <= len(v.split()) <= 3 and all(w.isalpha() for w in v.split()):
            out.setdefault("".join(w[0] for w in v.lower().split()), []).append(v)
    return out


def _named_by_initials(by_initials: dict[str, list[str]], text: str) -> str | None:
    """The one value of two or three words that the message writes as its initials ("sf" ->
    "San Francisco"), not in front of a number ("cs 107" is a course code)."""
    if not by_initials:
        return None
    initials = {m.group(0).lower() for m in _INITIALS.finditer(text)} - _SHORT_WORDS
    named = {v for i in initials for v in by_initials.get(i, ())}
    return named.pop() if len(named) == 1 else None


_INITIALS = re.compile(r"\b[A-Za-z]{2,3}\b(?!\s*\d)")
_SHORT_WORDS = set("""a an am as at be by do go he hi if in is it me my no of ok on or so to up us we ya yo
    and any are bad but can did for get got had has her him his how its let lol may not now off old one our out pls
    see she the too two was way who why yes yet you""".split())
"""Words that are no initials ("in", "the")."""


def _values_by_word(values: list[str]) -> dict[str, list[str]]:
    by_word: dict[str, list[str]] = {}
    for value in (v for v in values if len(v.split()) <= MAX_PHRASE_WORDS):
        for word in _WORD.findall(value.lower()):
            if len(word) > 3 and not word.isdigit():  # "the" names no "The Oak Spoon"
                by_word.setdefault(word, []).append(value)
    return by_word


def _named_by_one_word(by_word: dict[str, list[str]], phrases: set[str], words: set[str]) -> str | None:
    """The one value that a word of the message names ("winter" -> "Winter 2027"), or starts ("intro"
    -> "introductory")."""
    named = {v for word, owners in by_word.items() if word in phrases and len(owners) == 1 for v in owners}
    if not named:  # "intro" for "introductory": a clipped word that starts one value's word only
        clipped = [w for w in words if len(w) >= MIN_CLIPPED and w.isalpha() and w not in by_word]
        named = {v for p in clipped for word, owners in by_word.items() if word.startswith(p) and len(owners) == 1
                 for v in owners}
    return named.pop() if len(named) == 1 else None


MIN_CLIPPED = 5
