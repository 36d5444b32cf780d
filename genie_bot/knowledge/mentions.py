"""Records a message names: "enoteca vinga" is the restaurant Enoteca Vigna, "cs 107" the course CS107.

A table's records are named by their name, title, and text key. A message is matched against
those names as written, ignoring case, spaces and punctuation ("CS 224V" is CS224V), through
the table's name index in the knowledge database (:mod:`.name_index`), so a message costs a
few index lookups whatever the size of the table, and every row can be named:

1. every phrase of the message, up to the table's longest name, is looked up exactly;
2. a long phrase that starts exactly one name names it ("conversational virtual assistants");
3. a phrase with a typo in a word names the record whose name it becomes once that word is
   corrected to a word of some name (:mod:`.spelling`), when rapidfuzz scores the phrase and
   the name as close as a typo (:data:`TYPO_SCORE`);
4. a short name, the words that start or end a name ("alvarez" for Dr. Maria Alvarez, "spin"
   for Spin 45, "corolla" for Toyota Corolla), names it when no other name starts or ends
   that way (:func:`short_names`; kept in the name index, weaker than a whole name).

An exact name wins over every namesake: a name said as written over one read without its
"The", over a short name, over a longer name it starts, over one a typo away. Records that
share a name (a class held on several days) are all named by it: :attr:`Mention.by` says which
column the message named, so that a caller asks for the records with that column's value. Used by the rule parser (values
and the thing a question is about) and by the offline knowledge query (filters).
"""

from __future__ import annotations

import itertools
import re
import threading
from collections import OrderedDict
from collections.abc import Iterable
from contextlib import AbstractContextManager
from dataclasses import dataclass, field
from typing import Any, Protocol

from rapidfuzz import fuzz

from ..language import english
from .spelling import MIN_CHARS, one_typo_apart, variants

NAME_COLUMNS = ("name", "title")
MAX_WORDS = 6
"""The longest phrase, in words, looked up in a table whose names are all this short or shorter."""
MAX_NAME_WORDS = 32
"""The longest name a table may have, in words: a longer one could never be found in a message,
so importing it is an error (see :mod:`.importer`)."""
EXACT_BELOW = 8
"""Names shorter than this (squashed) must match exactly: "Bloom" is no typo of "blood"."""
TYPO_SCORE = 88
PREFIX_CHARS = 12
"""A phrase this long that starts exactly one long name names it ("conversational virtual assistants")."""
PREFIX_SCORE = 90.0
SHORT_SCORE = 85.0
SHARED_SCORE = 80.0
"""A short name several names share names them all (the user is asked which), weaker than any other name."""
SHORT_MIN_CHARS = 3
"""A short name is this long at least ("yin" for Yin Yoga)."""
SHORT_MAX_WORDS = 3
"""Words that start or end a name, at most, kept as its short names: bounds the index."""
MAX_CORRECTIONS = 8
"""Words of the names one typo away from a word of the message, at most, that are tried."""
MAX_SPELLINGS = 64
"""Corrected spellings of one phrase, at most, that are looked up."""
CACHE_SIZE = 512
_TOKEN = re.compile(r"[A-Za-z0-9][A-Za-z0-9'’&-]*")
_NOT_ALNUM = re.compile(r"[^a-z0-9]")
_THE = re.compile(r"^the\s+", re.I)


def squashed(text: str) -> str:
    """Lower case, letters and digits only: "CS 224V" and "cs224v" are the same name, and so are
    "Harvest & Grain" and "harvest and grain"."""
    return _NOT_ALNUM.sub("", text.lower().replace("&", "and"))


def name_keys(said: str) -> tuple[str, str]:
    """The keys a record's name is found by: as written, and without a leading "The" ("salt
    tavern" is The Salt Tavern). Keys shorter than two characters name nothing."""
    return squashed(said), squashed(_THE.sub("", said))


def short_names(said: str) -> list[str]:
    """The keys of a name's short names: its first and its last words, up to
    :data:`SHORT_MAX_WORDS` (never all of them), without a leading "The", that say more than a
    stop word or a number ("Spin 45" -> "spin"; "Dr. Maria Alvarez" -> "dr", "drmaria",
    "mariaalvarez", "alvarez"; the importer keeps the ones no other name shares)."""
    words = [t for t in _TOKEN.findall(_THE.sub("", said))]
    out: dict[str, None] = {}
    for n in range(1, min(SHORT_MAX_WORDS, len(words) - 1) + 1):
        for run in (words[:n], words[-n:]):
            key = squashed(" ".join(run))
            if len(key) >= SHORT_MIN_CHARS and any(_meaningful(w) for w in run):
                out[key] = None
    return list(out)


def inner_names(said: str) -> list[str]:
    """The keys of runs of up to :data:`SHORT_MAX_WORDS` words inside a name, touching neither end, that say
    more than a stop word ("crawdads" in "Where the Crawdads Sing", "maria" in "Dr. Maria Alvarez"): one
    that no other name has names its record, like a short name; one that several names have names them all."""
    words = [t for t in _TOKEN.findall(_THE.sub("", said))]
    out: dict[str, None] = {}
    for n in range(1, SHORT_MAX_WORDS + 1):
        for i in range(1, len(words) - n):
            run = words[i:i + n]
            key = squashed(" ".join(run))
            if len(key) >= SHORT_MIN_CHARS and any(_meaningful(w) for w in run):
                out[key] = None
    return list(out)


def _meaningful(word: str) -> bool:
    return word.lower() not in english.STOP_WORDS and word.lower() not in english.NUMBER_WORDS and not squashed(word).isdigit()


def name_words(said: str) -> list[str]:
    """The words of a name as a message's words are compared with them ("za'atar" -> "zaatar")."""
    return [w for w in (squashed(t) for t in _TOKEN.findall(said)) if w]


def naming_columns(columns: dict[str, str], key: str | None) -> list[str]:
    """The columns whose values name a table's records (column -> kind ``int|float|str``): the
    text key first, then the name and the title."""
    named = [c for c in NAME_COLUMNS if c in columns]
    if key and columns.get(key) == "str" and key not in named:
        named.insert(0, key)
    return named


@dataclass(frozen=True)
class Mention:
    """A record named in a message, where (``start``, ``end`` in the text), and how."""

    table: str
    record: dict[str, Any]
    start: int
    end: int
    score: float
    by: str | None = None
    """The column whose value the message named (the name, the title, the key)."""


class NameLookups(Protocol):
    """What matching needs of a table's name index, for one message (:class:`.name_index.NameIndex`)."""

    def exact(self, keys: Iterable[str]) -> dict[str, Any]:
        """key -> the reference of the record it names, for the keys that name one."""

    def starting(self, prefixes: Iterable[str]) -> dict[str, list[tuple[str, Any]]]:
        """prefix -> the first two names (key, reference), in the keys' order, whose keys start with it."""

    def spelled(self, keys: Iterable[str]) -> dict[str, set[str]]:
        """spelling key -> the words of the names stored under it (see :mod:`.spelling`)."""

    def records(self, refs: Iterable[Any]) -> dict[Any, dict[str, Any]]:
        """reference -> the record."""

    def namesakes(self, keys: Iterable[str]) -> dict[str, list[Any]]:
        """key -> the references of every record a short name several names share names ("hale": Dr. Robert
        Hale and Dr. Roberta Hale), for the keys that are such a name."""


class NameIndex(Protocol):
    def lookups(self) -> AbstractContextManager[NameLookups]:
        """The lookups of one message (on one connection)."""


@dataclass(frozen=True)
class _Phrase:
    """A run of words of a message, where it is, and the key it is looked up by."""

    pieces: tuple[str, ...]
    """Its words squashed, with what stands between them squashed ("&" is "and"): words at even places."""
    span: tuple[int, int]
    spaced: bool
    """Whether a space parts some of its words ("cs 224v"): only such a phrase may start a longer name."""
    key: str = field(init=False)
    """The pieces run together: ``squashed(text)``, as names are keyed."""

    def __post_init__(self) -> None:
        object.__setattr__(self, "key", "".join(self.pieces))

    @property
    def words(self) -> tuple[str, ...]:
        return self.pieces[::2]


class RecordNames:
    """The names of one table's records, for finding them in messages."""

    def __init__(self, table: str, index: NameIndex, longest: int, naming: list[str] | None = None):
        self.table = table
        self.index = index
        self.naming = naming or []
        """The columns that name the records, in the order :func:`naming_columns` gives."""
        self.max_words = max(MAX_WORDS, longest)
        self._cache: OrderedDict[str, list[Mention]] = OrderedDict()
        self._lock = threading.Lock()

    def find(self, text: str, exact: bool = False) -> list[Mention]:
        """Non-overlapping mentions of this table's records in ``text``, in text order (``exact``: by
        whole and short names only, as a builder writes them in examples: no typo, no long prefix)."""
        key = ("=" if exact else "~") + text
        with self._lock:
            if key in self._cache:
                self._cache.move_to_end(key)
                return list(self._cache[key])
        found = self._find(text, exact)
        with self._lock:
            self._cache[key] = found
            while len(self._cache) > CACHE_SIZE:
                self._cache.popitem(last=False)
        return list(found)

    def _find(self, text: str, exact: bool = False) -> list[Mention]:
        phrases = _phrases(text, self.max_words)
        if not phrases:
            return []
        with self.index.lookups() as index:
            found = index.exact({p.key for p in phrases})
            named: list[tuple[_Phrase, Any, float]] = [(p, found[p.key], 0.0) for p in phrases if p.key in found]
            if not exact:
                rest = [p for p in phrases if p.key not in found and len(p.key) >= EXACT_BELOW]
                started = _started(index, rest)
                named += [(p, ref, PREFIX_SCORE) for p, ref in started.items()]
                named += _misspelled(index, [p for p in rest if p not in started])
                shared = index.namesakes({p.key for p in phrases if p.key not in found and len(p.key) >= SHORT_MIN_CHARS})
                named += [(p, ref, SHARED_SCORE) for p in phrases for ref in shared.get(p.key, [])]
            records = index.records({ref for _, ref, _ in named}) if named else {}
        return _non_overlapping([Mention(self.table, records[ref], *p.span, score or self._exactness(p, records[ref]),
                                         self._named_by(p, records[ref]))
                                 for p, ref, score in named if ref in records])

    def _exactness(self, phrase: _Phrase, record: dict[str, Any]) -> float:
        """100 for a phrase that is a whole name of the record, else (a short name) :data:`SHORT_SCORE`."""
        whole = {k for c in self.naming if isinstance(record.get(c), str) for k in name_keys(record[c])}
        return 100.0 if phrase.key in whole else SHORT_SCORE

    def _named_by(self, phrase: _Phrase, record: dict[str, Any]) -> str | None:
        """The naming column the phrase says a value of: the one whose name (or short name) it is,
        else (a typo, the start of a long name) the last of them: a name rather than the key."""
        said = [c for c in self.naming if isinstance(record.get(c), str)]
        for keys in (lambda v: name_keys(v), short_names):
            found = next((c for c in said if phrase.key in keys(record[c])), None)
            if found is not None:
                return found
        return next((c for c in reversed(said)), None)


def _started(index: NameLookups, phrases: list[_Phrase]) -> dict[_Phrase, Any]:
    """Long phrases of several words that start exactly one name, and that name's record."""
    long = [p for p in phrases if len(p.key) >= PREFIX_CHARS and p.spaced]
    starting = index.starting({p.key for p in long}) if long else {}
    return {p: names[0][1] for p in long if len(names := starting.get(p.key, [])) == 1}


def _misspelled(index: NameLookups, phrases: list[_Phrase]) -> list[tuple[_Phrase, Any, float]]:
    """Phrases that become a name when a word or two are corrected, with rapidfuzz's score."""
    corrections = _corrections(index, {w for p in phrases for w in p.words})
    spellings = {p: found for p in phrases if (found := _spellings(p.pieces, corrections))}
    refs = index.exact({s for found in spellings.values() for s in found}) if spellings else {}
    out = []
    for phrase, found in spellings.items():
        best = max(((fuzz.ratio(phrase.key, s), s) for s in found if s in refs), default=None)
        if best is not None and best[0] >= TYPO_SCORE:
            out.append((phrase, refs[best[1]], float(best[0])))
    return out


def _corrections(index: NameLookups, words: set[str]) -> dict[str, list[str]]:
    """Each word of the message -> the words of names one typo away from it, closest first."""
    typed = {w: variants(w) for w in words if len(w) >= MIN_CHARS}
    stored = index.spelled(set().union(*typed.values())) if typed else {}
    out = {}
    for word, keys in typed.items():
        near = {w for k in keys for w in stored.get(k, ()) if one_typo_apart(word, w)}
        if near:
            out[word] = sorted(near, key=lambda w: (-fuzz.ratio(word, w), w))[:MAX_CORRECTIONS]
    return out


def _phrases(text: str, max_words: int) -> list[_Phrase]:
    """Every run of up to ``max_words`` words of ``text`` that is long enough to name something."""
    tokens = list(_TOKEN.finditer(text))
    pieces = []
    for i, token in enumerate(tokens):
        if i:
            pieces.append(squashed(text[tokens[i - 1].end():token.start()]))
        pieces.append(squashed(token.group(0)))
    out = []
    for i in range(len(tokens)):
        for n in range(min(max_words, len(tokens) - i), 0, -1):
            start, end = tokens[i].start(), tokens[i + n - 1].end()
            phrase = _Phrase(tuple(pieces[2 * i:2 * (i + n) - 1]), (start, end), " " in text[start:end])
            if len(phrase.key) >= 2:
                out.append(phrase)
    return out


def _spellings(pieces: tuple[str, ...], corrections: dict[str, list[str]]) -> set[str]:
    """The phrase's keys with one or two of its words corrected, at most :data:`MAX_SPELLINGS`."""
    options = [(i, c) for i in range(0, len(pieces), 2) for c in corrections.get(pieces[i], ())]
    out: set[str] = set()
    for count in (1, 2):
        for chosen in itertools.combinations(options, count):
            if len({i for i, _ in chosen}) < count:
                continue
            spelled = list(pieces)
            for i, correction in chosen:
                spelled[i] = correction
            out.add("".join(spelled))
            if len(out) >= MAX_SPELLINGS:
                return out
    return out


def _non_overlapping(found: list[Mention]) -> list[Mention]:
    """The best mentions that do not overlap: exact before fuzzy, longer before shorter; the records a shared
    short name names are kept together (the same words, the same score)."""
    kept: list[Mention] = []
    for mention in sorted(found, key=lambda m: (-m.score, -(m.end - m.start), m.start)):
        if all(mention.end <= k.start or mention.start >= k.end or ((k.start, k.end, k.score) == (
                mention.start, mention.end, mention.score) and mention.score == SHARED_SCORE) for k in kept):
            kept.append(mention)
    return sorted(kept, key=lambda m: m.start)
