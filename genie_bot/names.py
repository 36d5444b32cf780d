"""Snapping a misspelt name to the declared one it most plausibly means.

The parser (an LLM, or a user through it) sometimes writes ``Restuarant`` or
``num_peple``. We accept a name when exactly one declared name is clearly closest, and
otherwise give up so the caller can report the valid choices instead of guessing.
"""

from __future__ import annotations

from collections.abc import Iterable

from rapidfuzz.distance import OSA


def _normalise(name: str) -> str:
    return name.replace("_", "").replace(" ", "").replace("-", "").lower()


def closest(name: str, choices: Iterable[str]) -> str | None:
    """The unique choice within a small edit distance of ``name`` (a swap of two letters counts as one edit), or ``None``.

    Names are compared case- and separator-insensitively; the allowed distance grows with
    the length (1 edit up to 4 characters, then about one per four characters, at most 3),
    and a tie for the best distance counts as ambiguous.
    """
    target = _normalise(name)
    if not target:
        return None
    limit = min(3, max(1, len(target) // 4))
    best: list[str] = []
    best_distance = limit + 1
    for choice in choices:
        distance = OSA.distance(target, _normalise(choice), score_cutoff=limit)
        if distance > limit:
            continue
        if distance < best_distance:
            best, best_distance = [choice], distance
        elif distance == best_distance and choice not in best:
            best.append(choice)
    return best[0] if len(best) == 1 else None


def snake_case(name: str) -> str:
    """``BookRestaurant`` -> ``book_restaurant``."""
    out: list[str] = []
    for i, ch in enumerate(name):
        if ch.isupper() and i and (not name[i - 1].isupper() or (i + 1 < len(name) and name[i + 1].islower())):
            if out and out[-1] != "_":
                out.append("_")
        out.append(ch.lower())
    return "".join(out).replace(" ", "_")
