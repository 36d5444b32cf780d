"""Records a message names: "enoteca vinga" is the restaurant Enoteca Vigna, "cs 107" the course CS107.

A table's records are named by their name, title, and text key. A message is matched against
those names as written, ignoring case, spaces and punctuation ("CS 224V" is CS224V), with
rapidfuzz allowing a typo in a long name. Used by the rule parser (values and the thing a
question is about) and by the offline knowledge query (filters).
"""

from __future__ import annotations

import bisect
import re
from dataclasses import dataclass
from functools import cached_property
from typing import Any

from rapidfuzz import fuzz, process

NAME_COLUMNS = ("name", "title")
MAX_NAMES = 20_000
"""Tables with more distinct names than this are not indexed (matching would cost too much per message)."""
MAX_WORDS = 6
"""The longest name, in words, looked for."""
EXACT_BELOW = 8
"""Names shorter than this (squashed) must match exactly: "Bloom" is no typo of "blood"."""
TYPO_SCORE = 88
PREFIX_CHARS = 12
"""A phrase this long that starts exactly one long name names it ("conversational virtual assistants")."""
PREFIX_SCORE = 90.0
_TOKEN = re.compile(r"[A-Za-z0-9][A-Za-z0-9'’&-]*")
_NOT_ALNUM = re.compile(r"[^a-z0-9]")
_THE = re.compile(r"^the\s+", re.I)


def squashed(text: str) -> str:
    """Lower case, letters and digits only: "CS 224V" and "cs224v" are the same name, and so are
    "Harvest & Grain" and "harvest and grain"."""
    return _NOT_ALNUM.sub("", text.lower().replace("&", "and"))


@dataclass(frozen=True)
class Mention:
    """A record named in a message, where (``start``, ``end`` in the text), and how."""

    table: str
    record: dict[str, Any]
    start: int
    end: int
    score: float


class RecordNames:
    """The names of one table's records, for finding them in messages."""

    def __init__(self, table: str, rows: list[dict[str, Any]], key: str | None):
        self.table = table
        columns = [c for c in NAME_COLUMNS if rows and c in rows[0]]
        if key and rows and isinstance(rows[0].get(key), str) and key not in columns:
            columns.insert(0, key)
        self.by_name: dict[str, dict[str, Any]] = {}
        for row in rows:
            for column in columns:
                said = str(row.get(column) or "")
                for name in {squashed(said), squashed(_THE.sub("", said))}:  # "salt tavern" is The Salt Tavern
                    if len(name) >= 2:
                        self.by_name.setdefault(name, row)
        self.usable = 0 < len(self.by_name) <= MAX_NAMES

    @cached_property
    def _sorted(self) -> list[str]:
        return sorted(self.by_name)

    @cached_property
    def _by_length(self) -> dict[int, list[str]]:
        """Names by length: a typo changes the length by at most two, so only those are compared."""
        out: dict[int, list[str]] = {}
        for name in self.by_name:
            out.setdefault(len(name), []).append(name)
        return out

    def find(self, text: str) -> list[Mention]:
        """Non-overlapping mentions of this table's records in ``text``, in text order."""
        if not self.usable:
            return []
        tokens = list(_TOKEN.finditer(text))
        found: list[Mention] = []
        for i in range(len(tokens)):
            for n in range(min(MAX_WORDS, len(tokens) - i), 0, -1):
                start, end = tokens[i].start(), tokens[i + n - 1].end()
                mention = self._match(text[start:end], start, end)
                if mention is not None:
                    found.append(mention)
        return _non_overlapping(found)

    def _match(self, phrase: str, start: int, end: int) -> Mention | None:
        key = squashed(phrase)
        if len(key) < 2:
            return None
        if key in self.by_name:
            return Mention(self.table, self.by_name[key], start, end, 100.0)
        if len(key) < EXACT_BELOW:
            return None
        if len(key) >= PREFIX_CHARS and " " in phrase.strip():
            index = bisect.bisect_left(self._sorted, key)
            starting = self._sorted[index:index + 2]
            if starting and starting[0].startswith(key) and not (len(starting) > 1 and starting[1].startswith(key)):
                return Mention(self.table, self.by_name[starting[0]], start, end, PREFIX_SCORE)
        near = [name for size in range(len(key) - 2, len(key) + 3) for name in self._by_length.get(size, ())]
        best = process.extractOne(key, near, scorer=fuzz.ratio, score_cutoff=TYPO_SCORE) if near else None
        if best is None:
            return None
        return Mention(self.table, self.by_name[best[0]], start, end, float(best[1]))


def _non_overlapping(found: list[Mention]) -> list[Mention]:
    """The best mentions that do not overlap: exact before fuzzy, longer before shorter."""
    kept: list[Mention] = []
    for mention in sorted(found, key=lambda m: (-m.score, -(m.end - m.start), m.start)):
        if all(mention.end <= k.start or mention.start >= k.end for k in kept):
            kept.append(mention)
    return sorted(kept, key=lambda m: m.start)
