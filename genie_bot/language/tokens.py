"""The one tokenizer: a message as words, numbers and signs, each with where it is.

Every reader of a message works on these tokens (or on the lower-case words they give), so that
what one reader takes ("cs 107", "7:30pm") the others see at the same offsets. A word may hold
apostrophes, hyphens and ampersands ("don't", "co-worker", "a&w"); a number may hold a decimal
point, a clock colon or an ordinal ending ("3.5", "7:30", "21st"); everything else is a sign.
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from dataclasses import dataclass
from functools import lru_cache

_TOKEN = re.compile(r"\d+(?:[.:]\d+)*(?:st|nd|rd|th|[a-z]+)?|[^\W\d_](?:[\w&]|['’-](?=\w))*|[^\w\s]", re.I)
_APOSTROPHES = str.maketrans({"’": "'", "‘": "'"})


@dataclass(frozen=True)
class Token:
    """One token of a message: its text as written and its place (``start``, ``end``)."""

    text: str
    start: int
    end: int

    @property
    def lower(self) -> str:
        """The text in lower case, apostrophes straightened ("Don’t" -> "don't")."""
        return self.text.lower().translate(_APOSTROPHES)

    @property
    def is_word(self) -> bool:
        return self.text[:1].isalpha()

    @property
    def is_number(self) -> bool:
        return self.text[:1].isdigit()


@lru_cache(maxsize=1024)
def tokenize(text: str) -> tuple[Token, ...]:
    """The tokens of ``text``, in order (cached: every reader of a message asks for them)."""
    return tuple(Token(m.group(0), m.start(), m.end()) for m in _TOKEN.finditer(text))


def words(text: str) -> list[str]:
    """The words of ``text`` in lower case, numbers included, signs left out."""
    return [t.lower for t in tokenize(text) if t.is_word or t.is_number]


def normalise(text: str) -> str:
    """Lower case, apostrophes straightened, runs of spaces made one: how phrases are compared."""
    return re.sub(r"\s+", " ", text.strip().lower().translate(_APOSTROPHES))


def phrase_pattern(phrases: Iterable[str]) -> str:
    """A regular expression (without groups) matching any of ``phrases`` as whole words, longest
    first, a space matching any run of spaces and an apostrophe optional ("thats all")."""
    return _phrase_pattern(tuple(phrases))


@lru_cache(maxsize=4096)
def _phrase_pattern(phrases: tuple[str, ...]) -> str:
    """Cached: readers build patterns of the worksheet's words on every message."""
    ordered = sorted({p.lower() for p in phrases}, key=len, reverse=True)
    alternatives = [re.escape(p).replace(r"\ ", r"\s+").replace("'", "['’]?") for p in ordered]
    return rf"(?<![\w'’])(?:{'|'.join(alternatives)})(?![\w'’])"


def tokens_within(tokens: tuple[Token, ...], start: int, end: int) -> frozenset[int]:
    """Indexes of the tokens that overlap the characters ``start`` to ``end``."""
    return frozenset(i for i, t in enumerate(tokens) if t.start < end and start < t.end)
