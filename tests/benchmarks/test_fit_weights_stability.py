"""The fit of the evidence weights (tests/benchmarks/fit_weights.py) on small made-up labelled sets, in memory.

Fitting twice in a row is a fixed point; shrinkage keeps the fit near its prior; the cross-validation over
agents keeps the prior when fitting on other agents reads an agent worse, and fits when it reads it better.
Each message here is a few readings of the same words (so only one is chosen), named by letters.
"""

from __future__ import annotations

import random

from genie_bot.parsers.understanding.proposals import LINES, Proposal
from tests.benchmarks import fit_weights as fw

FEATURES = [f"f{n}" for n in range(8)]


def reading(name: str, *evidence: str) -> Proposal:
    return Proposal(LINES, frozenset(evidence), frozenset({0}), lines=(name,))


def message(where: str, label: Proposal, *others: Proposal) -> fw.Labelled:
    return fw.Labelled([label, *others], [label], 0, 0, where)


def noisy_corpus(seed: int = 7, agents: int = 5, per_agent: int = 24) -> tuple[list[fw.Labelled], dict[str, float]]:
    """Messages of three readings with two to four pieces of evidence each, labelled by weights unlike the
    prior's, one label in five the wrong way round: no weights read every message as labelled."""
    rng = random.Random(seed)
    truth = {f: rng.uniform(-1.0, 2.0) for f in FEATURES}
    prior = {f: round(rng.uniform(0.0, 1.5), 3) for f in FEATURES}
    out = []
    for a in range(agents):
        for n in range(per_agent):
            readings = [reading(f"r{k}", *rng.sample(FEATURES, rng.randint(2, 4))) for k in range(3)]
            ranked = sorted(readings, key=lambda p: -sum(truth[f] for f in p.features))
            label = ranked[1] if rng.random() < 0.2 else ranked[0]
            out.append(message(f"agent{a}/test{n // 4} #{n % 4 + 1}: 'm'", label,
                               *[p for p in readings if p is not label]))
    return out, prior


def largest_move(before: dict[str, float], after: dict[str, float]) -> float:
    return max(abs(after.get(f, 0.0) - before.get(f, 0.0)) for f in set(before) | set(after))


def test_a_second_fit_starts_from_the_same_prior_and_moves_nothing():
    labelled, prior = noisy_corpus()
    setting = fw.Setting(epochs=10, rate=0.1, shrink=0.0)  # the old fit's setting: the most it can move
    first = fw.refit({"weights": prior, "margin": 0.05}, labelled, setting)
    second = fw.refit(first, labelled, setting)
    assert largest_move(prior, first["weights"]) > 0.2  # the fit does learn
    assert first["prior"] == second["prior"] == {f: prior[f] for f in sorted(prior)}
    assert largest_move(first["weights"], second["weights"]) <= 0.05
    assert second["margin"] == first["margin"]


def test_fitting_from_the_last_fit_instead_drifts():
    """What the fit did before it kept its prior: each run from the last one's weights moves them again."""
    labelled, prior = noisy_corpus()
    setting = fw.Setting(epochs=10, rate=0.1, shrink=0.0)
    first = fw.fit(labelled, prior, setting)
    second = fw.fit(labelled, first, setting)
    assert largest_move(first, second) > 0.05


def test_a_weight_new_since_the_prior_starts_from_its_current_value_and_joins_the_prior():
    labelled, prior = noisy_corpus()
    table = {"weights": {**prior, "new evidence": 2.0}, "margin": 0.05, "prior": prior}
    fitted = fw.refit(table, labelled, fw.Setting(5, 0.05, 0.01))
    assert fitted["weights"]["new evidence"] == 2.0  # no message has it
    assert fitted["prior"]["new evidence"] == 2.0


def test_shrinkage_keeps_the_fit_near_its_prior():
    labelled, prior = noisy_corpus()
    moves = [largest_move(prior, fw.fit(labelled, prior, fw.Setting(10, 0.1, shrink)))
             for shrink in (0.0, 0.1, 1.0, 3.0)]
    assert moves == sorted(moves, reverse=True)
    assert moves[-1] < 0.1 < moves[0]


def test_no_fit_is_a_fixed_point():
    labelled, prior = noisy_corpus()
    assert fw.fit(labelled, prior, fw.PRIOR) == prior


def agents_saying(which: list[str]) -> list[fw.Labelled]:
    """Five agents, four messages each, that choose between reading ``a`` and reading ``b``; agent n's label
    is ``which[n]``."""
    out = []
    for n, chosen in enumerate(which):
        for m in range(4):
            a, b = reading("a", "fa"), reading("b", "fb")
            label, other = (a, b) if chosen == "a" else (b, a)
            out.append(message(f"agent{n}/test{m} #1: 'm'", label, other))
    return out


def test_the_cross_validation_keeps_the_prior_when_one_agent_contradicts_the_others():
    labelled = agents_saying(["a", "a", "a", "a", "b"])
    prior = {"fa": 1.0, "fb": 0.9}
    rows = fw.cross_validate(labelled, prior)
    best = max(r["messages"] for r in rows)
    assert [r["messages"] for r in rows if (r["epochs"], r["rate"], r["shrink"]) == (0, 0.0, 0.0)] == [best]
    assert fw.chosen_setting(rows) == fw.PRIOR


def test_the_cross_validation_fits_when_every_agent_says_the_same():
    labelled = agents_saying(["b"] * 5)
    prior = {"fa": 1.0, "fb": 0.9}
    rows = fw.cross_validate(labelled, prior)
    setting = fw.chosen_setting(rows)
    assert setting != fw.PRIOR
    prior_row = next(r for r in rows if r["epochs"] == 0)
    assert max(r["messages"] for r in rows) == 20 > prior_row["messages"] == 0
    fitted = fw.fit(labelled, prior, setting)
    assert fw.read_right(labelled, fitted) == (20, 20)
    assert fw.refit(fw.refit({"weights": prior, "margin": 0.05}, labelled, setting), labelled, setting)[
        "weights"] == fitted
