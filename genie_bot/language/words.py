"""Words as meanings: stems, the words that carry meaning, and the vocabulary in effect.

A message is matched against what a worksheet says (descriptions, examples, enum members) by the
words that carry meaning, stemmed (Snowball's English stemmer: "reservation" and "reserve" are one
word, "classes" and "class" too) and mapped through synonyms: English ones that are about no
domain (``english.SYNONYMS``) and the agent's own (``vocabulary: {synonyms: ...}`` in agent.yaml),
which the parser puts in effect while it reads a message (:func:`using`).
"""

from __future__ import annotations

import re
from collections.abc import Iterator, Mapping
from contextlib import contextmanager
from contextvars import ContextVar
from dataclasses import dataclass, field
from functools import cached_property, lru_cache

import snowballstemmer

from . import english
from .tokens import phrase_pattern, words


@dataclass(frozen=True)
class Lexicon:
    """The agent's words in effect: its synonyms, the words that imply a part of the day, its users."""

    synonyms: Mapping[str, str] = field(default_factory=dict)
    times_of_day: Mapping[str, str] = field(default_factory=dict)
    users: tuple[str, ...] = ()
    """Nouns for the person talking to the agent ("student"): their name is a person's name."""

    @cached_property
    def key(self) -> tuple:
        """The lexicon as a hashable value, made once: it keys the caches of words read through it."""
        return tuple(sorted(self.synonyms.items())), tuple(sorted(self.times_of_day.items()))


_ACTIVE: ContextVar[Lexicon] = ContextVar("genie_bot_lexicon", default=Lexicon())
_STEMMER = snowballstemmer.stemmer("english")
_CAMEL = re.compile(r"(?<=[a-z])(?=[A-Z])")


@contextmanager
def using(lexicon: Lexicon) -> Iterator[None]:
    """Put an agent's words in effect while a message is read."""
    token = _ACTIVE.set(lexicon)
    try:
        yield
    finally:
        _ACTIVE.reset(token)


def active() -> Lexicon:
    return _ACTIVE.get()


@lru_cache(maxsize=8192)
def stem(word: str) -> str:
    """The stem of a lower-case word: "transferred" -> "transfer", "reservation" -> "reserv"."""
    return _STEMMER.stemWord(word)


def content_words(text: str) -> frozenset[str]:
    """Stemmed words that carry meaning, through the synonyms in effect: for matching a message
    against descriptions and examples (a name written in CamelCase is its words: "TroubleShoot" is
    "trouble" and "shoot")."""
    return _content_words(text, active().key)


@lru_cache(maxsize=8192)
def _content_words(text: str, key: tuple) -> frozenset[str]:
    synonyms = _stemmed_synonyms(key[0])
    found = words(_CAMEL.sub(" ", text).replace("'", "").replace("’", ""))
    stems = (stem(w) for w in found if w[0].isalpha() and w not in english.STOP_WORDS and len(w) > 1)
    return frozenset(synonyms.get(s, s) for s in stems)


@lru_cache(maxsize=64)
def _stemmed_synonyms(agent: tuple[tuple[str, str], ...]) -> dict[str, str]:
    """Synonyms by stem, English ones first, then the agent's (which win)."""
    out: dict[str, str] = {}
    for said, meant in (*english.SYNONYMS.items(), *agent):
        target = " ".join(stem(w) for w in meant.split())
        out[" ".join(stem(w) for w in said.split())] = out.get(target, target)
    return out


def part_of_day(text: str) -> str | None:
    """The part of the day the text says ("tonight", "in the morning", or the agent's "dinner"), or None."""
    said = set(words(text))
    for word, part in (*english.PARTS_OF_DAY.items(), *active().times_of_day.items()):
        if word in said:
            return part
    return None


_PRONOUN_ONE = re.compile(rf"{phrase_pattern(english.ONE_STANDS_FOR_A_THING)} one\b", re.I)
_DESCRIBED_ONE = re.compile(r"\bthe\s+(?:[\w:.'’-]+\s+){1,3}?(?P<one>one)\b"
                            r"(?=\s*(?:[.,!?;)]|$|please\b|pls\b|instead\b|then\b|i\b))", re.I)
_COUNTS_ONE = re.compile(rf"{phrase_pattern(english.COUNTING_ONE)}\s+$", re.I)


def without_pronoun_one(text: str) -> str:
    """The text with "one" standing for a thing blanked out: "the second one", "the thursday 5:30
    one" say no number (but "the table for one" does)."""
    text = _PRONOUN_ONE.sub(lambda m: " " * len(m.group(0)), text)

    def blank(match: re.Match[str]) -> str:
        start, end = match.span("one")
        if _COUNTS_ONE.search(text[match.start():start]):
            return match.group(0)
        return text[match.start():start] + " " * (end - start)
    return _DESCRIBED_ONE.sub(blank, text)


_QUESTION_LEAD = re.compile(phrase_pattern(english.QUESTION_LEADS), re.I)


def question_lead(text: str) -> re.Match[str] | None:
    """The question word a message starts with ("who", "tell me"), if any."""
    return _QUESTION_LEAD.match(text.strip())
