"""The weights of the evidence, fitted on labelled conversations and read from ``weights.json``.

``tests/benchmarks/fit_weights.py`` fits them: it plays every conversation test of the example
agents, of the tuned half of tests/domains and of the agents in ../shared/benchmarks/domains,
labels each message with the reading the test's expectations judge best, and fits an averaged
structured perceptron, shrunk toward a fixed prior, with its setting chosen by leave-agents-out
cross-validation. The product only reads the table: a weight per piece of evidence, the margin
under which the agent asks instead of guessing, and the figures of the fit (``prior`` is the
fit's own and is not read here).
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from functools import lru_cache
from pathlib import Path

TABLE = Path(__file__).with_name("weights.json")


@dataclass(frozen=True)
class Weights:
    weights: dict[str, float]
    margin: float
    floor: float = 0.0
    fit: dict = field(default_factory=dict)
    """How the table was fitted (its corpus, accuracy, the margins over it)."""

    def score(self, features: frozenset[str]) -> float:
        return sum(self.weights.get(f, 0.0) for f in features)


@lru_cache(maxsize=1)
def fitted() -> Weights:
    """The table in ``weights.json``."""
    data = json.loads(TABLE.read_text(encoding="utf-8"))
    return Weights(dict(data["weights"]), float(data["margin"]), float(data.get("floor", 0.0)), data.get("fit", {}))
