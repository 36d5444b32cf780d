"""Words one typo apart, found by exact lookups: the symmetric-deletion method (as in SymSpell).

A word is stored under itself and under each string made by deleting one of its letters
("vigna": "igna", "vgna", "vina", "viga", "vign"). A word typed is looked up the same way:
two words share a key exactly when one letter inserted, deleted, replaced, or two adjacent
letters swapped turn one into the other ("vinga" and "vigna" share "viga"). The keys live in
an indexed table, so finding the words near a typo costs a few index lookups whatever the
number of names; :func:`one_typo_apart` then drops the pairs that share a key by chance.
"""

from __future__ import annotations

from rapidfuzz.distance import DamerauLevenshtein

MIN_CHARS = 4
"""Shorter words are never corrected: "bar" is no typo of "bat"."""


def variants(word: str) -> set[str]:
    """The keys ``word`` is stored and looked up under: itself and its one-letter deletions."""
    if len(word) < MIN_CHARS:
        return {word}
    return {word} | {word[:i] + word[i + 1:] for i in range(len(word))}


def one_typo_apart(typed: str, word: str) -> bool:
    """Whether one insertion, deletion, replacement or swap of neighbours turns ``typed`` into ``word``."""
    return typed != word and DamerauLevenshtein.distance(typed, word, score_cutoff=1) <= 1
