"""Accuracy and support-weighted F1 over system-action labels, the metric of STAR's baselines,
AnyTOD and Genie Worksheets.

Weighted F1 averages the per-label F1 over the gold labels, each weighted by its number of
gold turns (its support), as scikit-learn's ``f1_score(average="weighted")`` does: a label
that is predicted but never gold lowers the precision of nothing and the recall of the gold
labels it was predicted instead of.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable
from dataclasses import dataclass


@dataclass(frozen=True)
class Score:
    turns: int
    accuracy: float
    weighted_f1: float
    errors: tuple[tuple[str, str, int], ...]
    """(gold, predicted, count) of the wrong predictions, most frequent first."""

    def to_dict(self, top: int) -> dict:
        return {"scored_turns": self.turns, "accuracy": round(self.accuracy, 4),
                "weighted_f1": round(self.weighted_f1, 4),
                "top_errors": [{"gold": g, "predicted": p, "count": n} for g, p, n in self.errors[:top]]}


def score(pairs: Iterable[tuple[str, str]]) -> Score:
    """Score (gold, predicted) label pairs."""
    pairs = list(pairs)
    if not pairs:
        return Score(0, 0.0, 0.0, ())
    support = Counter(gold for gold, _ in pairs)
    predicted = Counter(pred for _, pred in pairs)
    correct = Counter(gold for gold, pred in pairs if gold == pred)
    weighted = 0.0
    for label, n in support.items():
        tp = correct[label]
        if tp:
            precision, recall = tp / predicted[label], tp / n
            weighted += n * 2 * precision * recall / (precision + recall)
    errors = Counter((gold, pred) for gold, pred in pairs if gold != pred)
    ranked = sorted(errors.items(), key=lambda item: (-item[1], item[0]))
    return Score(len(pairs), sum(correct.values()) / len(pairs), weighted / len(pairs),
                 tuple((g, p, n) for (g, p), n in ranked))
