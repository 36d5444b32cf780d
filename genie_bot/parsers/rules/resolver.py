"""The one resolver: of all the readings proposed for a message, the best set that fits together.

Readings fit together when no two explain the same word or give the same field, and a reading of
the whole message (a command, a question) stands alone. Of the sets that fit, the resolver picks
the one with the highest total score (an exact branch-and-bound search, bounded in the number of
sets it looks at; past the bound, the best set found so far, which is at least the greedy one).
Ties go to the set that explains more words; the order in which matchers proposed readings never
decides anything.
"""

from __future__ import annotations

from .proposals import Proposal

MAX_SETS = 4_000
"""Sets looked at, at most, per message: bounds the cost whatever the matchers propose."""


def resolve(proposals: list[Proposal]) -> list[Proposal]:
    """The best set of readings that fit together (see the module docstring), highest score first."""
    ordered = sorted({p: None for p in proposals if p.score > 0},
                     key=lambda p: (-p.score, -len(p.claims), p.matcher, p.statements))
    remaining = [0.0] * (len(ordered) + 1)
    for index in range(len(ordered) - 1, -1, -1):
        remaining[index] = remaining[index + 1] + ordered[index].score
    best: tuple[tuple[float, int], list[Proposal]] = ((0.0, 0), [])
    visited = 0

    def search(index: int, chosen: list[Proposal], total: float, words: int) -> None:
        nonlocal best, visited
        visited += 1
        if (total, words) > best[0]:
            best = ((total, words), list(chosen))
        if index == len(ordered) or total + remaining[index] < best[0][0] or visited > MAX_SETS:
            return
        candidate = ordered[index]
        if not any(candidate.conflicts(p) for p in chosen):
            chosen.append(candidate)
            search(index + 1, chosen, total + candidate.score, words + len(candidate.claims))
            chosen.pop()
        search(index + 1, chosen, total, words)

    search(0, [], 0.0, 0)
    return best[1]
