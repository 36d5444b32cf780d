"""The weights of the evidence, fitted on labelled conversations and read from ``weights.json``.

``tests/benchmarks/fit_weights.py`` fits them: it reads every conversation test of the example
agents, of the tuned half of tests/domains and of the agents in ../shared/benchmarks/domains,
labels each proposal of each turn right or wrong by the state the test expects, and fits a
logistic regression of rightness on the evidence (scikit-learn, a development dependency). The
product only reads the table: a weight per piece of evidence, the margin under which the agent
asks instead of guessing, and the figures of the fit.
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
