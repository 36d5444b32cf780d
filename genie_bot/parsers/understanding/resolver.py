"""The one resolver: of all the readings proposed for a message, the best set that fits together.

Each proposal's score is the sum of the weights of its evidence, read from the fitted table
(:mod:`.weights`). Readings fit together when no two explain the same words or give the same
field, and a reading of the whole message stands alone. Of the sets that fit, the resolver takes
the one with the highest total (an exact branch-and-bound search, bounded in the sets it looks
at). It then reports, for each value it chose, its margin: how much less the best set without it
scores, when that set reads the same words or the same field another way (its rival). Under the
fitted margin the value is not stored, and the agent asks which was meant. A tie is an ambiguity; nothing is ever decided by the
order in which readings were proposed or by which matcher proposed them.
"""

from __future__ import annotations

from dataclasses import dataclass

from .proposals import VALUE, Proposal
from .weights import Weights

MAX_SETS = 4_000
"""Sets looked at, at most, per message: bounds the cost whatever the matchers propose."""
TIE = 1e-9


@dataclass(frozen=True)
class Choice:
    chosen: tuple[Proposal, ...]
    scores: dict[Proposal, float]
    rivals: dict[Proposal, tuple[Proposal, float]]
    """For each value chosen with too small a margin: its best rival and the margin."""
    margins: dict[Proposal, float]
    """For each value chosen: how much less the best reading without it scores (rival or not)."""


def resolve(proposals: list[Proposal], weights: Weights) -> Choice:
    """The best set of readings that fit together, and the values that are too close to call."""
    scores = {p: weights.score(p.features) for p in proposals}
    # the best of equal readings of the same words; the same value from other words stays a reading of its own
    # ("vanilla w buttercream": the frosting from "buttercream" leaves "vanilla" to the flavour)
    unique = {(p.key, p.claims): p for p in sorted(proposals, key=lambda p: -scores[p])[::-1]}
    ordered = sorted((p for p in unique.values() if scores[p] > 0), key=lambda p: (-scores[p], p.key, sorted(p.claims)))
    best = _best_set(ordered, scores)
    total = sum(scores[p] for p in best)
    rivals, margins = {}, {}
    for p in best:
        if p.does != VALUE:
            continue
        rival, margins[p] = _rival(p, ordered, scores, best, total)
        if rival is not None and margins[p] < weights.margin:
            rivals[p] = (rival, margins[p])
    return Choice(tuple(sorted(best, key=lambda p: (p.phase, min(p.claims, default=0), p.key))), scores, rivals,
                  margins)


def _best_set(ordered: list[Proposal], scores: dict[Proposal, float]) -> list[Proposal]:
    remaining = [0.0] * (len(ordered) + 1)
    for index in range(len(ordered) - 1, -1, -1):
        remaining[index] = remaining[index + 1] + scores[ordered[index]]
    best: tuple[tuple[float, int], list[Proposal]] = ((0.0, 0), [])
    visited = 0

    def search(index: int, chosen: list[Proposal], total: float, words: int) -> None:
        nonlocal best, visited
        visited += 1
        if (total, words) > (best[0][0] + TIE, best[0][1]) or (abs(total - best[0][0]) <= TIE and words > best[0][1]):
            best = ((total, words), list(chosen))
        if index == len(ordered) or total + remaining[index] < best[0][0] - TIE or visited > MAX_SETS:
            return
        candidate = ordered[index]
        if not any(candidate.conflicts(p) for p in chosen):
            chosen.append(candidate)
            search(index + 1, chosen, total + scores[candidate], words + len(candidate.claims))
            chosen.pop()
        search(index + 1, chosen, total, words)

    search(0, [], 0.0, 0)
    return best[1]


def _rival(p: Proposal, ordered: list[Proposal], scores: dict[Proposal, float], best: list[Proposal],
           total: float) -> tuple[Proposal | None, float]:
    """The reading the message would get without ``p``'s value (the best set of the others) and how much worse it
    is: its rival is the value it then gives the same words or the same field instead, if any."""
    assert p.target is not None
    without = [q for q in ordered if q.key != p.key]  # the same value read from other words is no rival
    alternative = _best_set(without, scores)
    margin = total - sum(scores[x] for x in alternative)
    for q in alternative:
        if q in best or q.does != VALUE or q.target is None or "same value" in q.features:
            continue
        if (q.claims & p.claims or q.target.key == p.target.key) and not (
                q.target.key == p.target.key and q.value == p.value):
            return q, margin
    return None, margin
