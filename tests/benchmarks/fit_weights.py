"""Fit the weights of the rule parser's evidence on labelled conversations, and write them as data.

``python -m tests.benchmarks.fit_weights [--write] [--cv] [--report out.json]``

The corpus is every conversation test of the example agents (worksheets/*/tests), of the tuned half
of tests/domains, and of the agents new builders wrote (../shared/benchmarks/domains). The held-out
half of tests/domains never enters the fit: its figures are reported apart.

**Labels.** A conversation test says what a correct assistant does after each message (the state,
the acts, the API calls). Each test is played; at each message, every matcher's proposals are made,
and the readings worth considering are built from them: the set the resolver chooses with the
current weights, that set with each other proposal forced in, and that set with each of its own
proposals left out. Each reading is written as a parse and run through the real runtime and
responder, and the test's expectations for that message judge it (the number of its checks that
fail). The best reading is the message's label (ties go to the resolver's own choice). The test
then goes on from the state the label leads to, and stops at a message no reading gets right.

**Fit.** An averaged structured perceptron (Collins 2002) with L2 shrinkage toward a prior: for each
labelled message, the resolver chooses with the weights being learnt; when its choice is not the label,
the evidence of the label's readings is raised by the step (``rate``) and that of its own lowered; after
every message each weight is pulled back toward its prior by ``rate * shrink`` of its distance to it (the
gradient step of ``shrink / 2 * (w - prior) ** 2``). The weights written are the average over every
message of every epoch, which keeps what no message contradicts where it started.

**The prior is fixed.** The fit starts from, and shrinks toward, the table kept under ``prior`` in
weights.json, never from the weights the last fit wrote: starting each fit from the last one's result
compounds the fits (each run adds its epochs to the last run's, and messages no weights can read as
labelled push the same weights a little further every time), which is how two runs in a row once moved
weights by 0.85. From a fixed prior, the fitted weights depend only on the labels, so a second ``--write``
moves a weight only as far as the labels changed under the new weights. A weight the prior does not have
(a new piece of evidence, given a weight by hand) starts from its current value, and is kept in the prior
from then on; to change a weight by hand, change it under ``prior`` (or run ``--reset-prior``, which takes
the current weights as the prior).

**The setting** (epochs, step, shrinkage) is chosen by cross-validation over the fitted corpus only,
grouped by agent: the agents are dealt into five folds (in the order of their names), and each setting of
the grid, and the prior unchanged, is fitted on four folds and scored on the fifth's messages: how many of
those whose label is right the resolver reads as labelled (then how many of their conversation tests it
reads right throughout). The setting with the most, summed over the folds, is chosen; of equals, the one
moving the weights least from the prior, so the prior is kept unchanged when no fit reads agents it has
not seen better. ``--cv`` prints the table; ``--epochs``/``--rate``/``--shrink`` give a setting by hand.
The held-out half has no part in the choice. (The labels are made with the current weights, which earlier
fits made on most of these agents: the cross-validation favours the prior somewhat.)

**The margin** under which the agent asks which reading was meant instead of storing a value is then
chosen over the corpus: the smallest margin at which the values kept are right more often than wrong.
The product reads only ``weights``, ``margin``, ``floor`` and ``fit`` in ``weights.json``.
"""

from __future__ import annotations

import argparse
import copy
import dataclasses
import datetime as dt
import json
import os
import shutil
import sys
import tempfile
from collections import Counter
from dataclasses import dataclass
from pathlib import Path
from typing import Any

REPO = Path(__file__).resolve().parents[2]
SHARED = REPO.parent / "shared" / "benchmarks" / "domains"
EPOCHS, LEARNING_RATE, SHRINK = 5, 0.05, 0.01
"""The setting when one is given in part by hand (``--epochs``, ``--rate``, ``--shrink``); otherwise the
cross-validation chooses it."""
GRID_EPOCHS = (1, 2, 3, 5, 10)
GRID_RATES = (0.02, 0.05, 0.1)
GRID_SHRINKS = (0.0, 0.001, 0.003, 0.01, 0.03, 0.1)
"""The settings the cross-validation tries (every combination), besides the prior unchanged."""
FOLDS = 5
MAX_ALTERNATIVES = 40
"""Proposals forced in, at most, per message (the best scored first): bounds the fit's cost."""
FORCED = "forced in by the fit"


@dataclass
class Labelled:
    """One message: its proposals, the label (the best reading), and how the resolver's own reading did."""

    proposals: list[Any]
    label: list[Any]
    label_problems: int
    chosen_problems: int
    where: str = ""
    """The test and the message ("dental_clinic/tuesday_no_wait_wednesday #3: 'tuesday, no wait, wednesday'")."""


def corpus_dirs(half: str) -> list[Path]:
    """The agent directories of the fitted corpus (``fit``) or of the held-out half (``heldout``)."""
    if half == "heldout":
        return sorted(p.parent for p in (REPO / "tests" / "domains" / "heldout").glob("*/agent.yaml"))
    dirs = [REPO / "worksheets" / n for n in ("ticket_submission", "course_enrollment", "restaurant_reservation")]
    dirs += sorted(p.parent for p in (REPO / "tests" / "domains" / "tuned").glob("*/agent.yaml"))
    dirs += sorted(p.parent for p in SHARED.glob("*/agent.yaml")) if SHARED.is_dir() else []
    return dirs


def label_corpus(dirs: list[Path], weights: Any) -> list[Labelled]:
    """Play every conversation test of the agents and label each message (see the module docstring)."""
    out: list[Labelled] = []
    with tempfile.TemporaryDirectory(prefix="genie-fit-") as scratch:
        os.environ["GENIE_DATA_DIR"] = str(Path(scratch) / "data")
        os.environ["GENIE_KNOWLEDGE_URL"] = f"sqlite:///{Path(scratch) / 'knowledge.sqlite3'}"
        for agent_dir in dirs:
            copy_dir = Path(scratch) / agent_dir.name
            shutil.copytree(agent_dir, copy_dir, dirs_exist_ok=True)
            for path in sorted((copy_dir / "tests").glob("*.yaml")):
                out.extend(_label_test(copy_dir, path, weights))
    return out


def _label_test(agent_dir: Path, path: Path, weights: Any) -> list[Labelled]:
    from genie_bot.agent import Agent
    from genie_bot.language.words import using
    from genie_bot.parsers.understanding import context, proposals
    from genie_bot.parsers.understanding.resolver import resolve
    from genie_bot.parsers.understanding.weights import Weights
    from genie_bot.scenarios.format import ScenarioInvalid, load_scenario
    from genie_bot.scenarios.stubs import StubbedApis
    from genie_bot.spec import load_agent

    try:
        scenario = load_scenario(path)
    except ScenarioInvalid:
        return []
    today = scenario.today or dt.date.today()
    spec = load_agent(agent_dir)
    agent = Agent(spec, clock=lambda: dt.datetime.combine(today, dt.time(12, 0)))
    apis = StubbedApis(agent.runtime.executor, scenario.apis, real_side_effects=False)
    knowledge = getattr(agent.parser, "knowledge", None)
    forcing = Weights({**weights.weights, FORCED: 1_000.0}, weights.margin)
    state = agent.new_state()
    out = []
    for number, turn in enumerate(scenario.turns):
        later = _later_expectations(scenario.turns[number + 1:])
        text = turn.user.strip()
        with using(spec.vocabulary.lexicon()):
            ctx = context(spec, state, text, today, knowledge)
            found = proposals(ctx)
            chosen = list(resolve(found, weights).chosen)
            readings = [chosen] + [list(resolve(_forced(found, p), forcing).chosen)
                                   for p in _alternatives(found, chosen, weights)]
            readings += [list(resolve([q for q in found if q.key != p.key], weights).chosen) for p in chosen]
        judged = []
        seen: set[frozenset] = set()
        for reading in readings:
            keys = frozenset(p.key for p in reading)
            if keys in seen:
                continue
            seen.add(keys)
            problems, after, calls = _judge(agent, ctx, state, text, turn.expect, reading, apis)
            problems += _against_later(state, after, later, turn.expect)
            judged.append((problems, len(judged), reading, after, calls))
        problems, _, best, after, calls = min(judged, key=lambda j: (j[0], j[1]))
        out.append(Labelled(found, [_unforced(p) for p in best], problems, judged[0][0],
                            f"{agent_dir.name}/{path.stem} #{len(out) + 1}: {text!r}"))
        if problems:
            break  # no reading gets this message right: the rest of the test assumes a state it cannot reach
        state, apis = after, calls
    return out


def _later_expectations(turns: list[Any]) -> dict[str, Any]:
    """What later turns expect of each field, first said first: a value (``state:``), or that it is still to be
    asked (``AskField x.f``: no value yet)."""
    out: dict[str, Any] = {}
    for turn in turns:
        for act in turn.expect.get("acts") or []:
            kind, _, key = str(act).partition(" ")
            if kind == "AskField" and "." in key:
                out.setdefault(key, _STILL_EMPTY)
        for key, value in (turn.expect.get("state") or {}).items():
            out.setdefault(str(key), value)
    return out


_STILL_EMPTY = object()
_NOT_FIELDS = ("status", "confirmed", "result", "worksheet")
"""What an instance has that no reading gives: its status changes as the conversation goes on."""


def _against_later(before: Any, after: Any, later: dict[str, Any], now: dict[str, Any]) -> int:
    """How many values the reading gives that what later turns expect contradicts (a field given now that is
    asked later, or given another value than the one expected of it), leaving out what this turn checks."""
    from genie_bot.scenarios.checks import same_value, state_value

    checked = {str(k) for k in (now.get("state") or {})}
    count = 0
    for key, wanted in later.items():
        if key in checked or key.count(".") != 1 or key.rsplit(".", 1)[1] in _NOT_FIELDS:
            continue
        given, held = state_value(after, key), state_value(before, key)
        if given in (None, "NA") or given == held:
            continue
        if wanted is _STILL_EMPTY or not same_value(given, wanted):
            count += 1
    return count


def _alternatives(found: list[Any], chosen: list[Any], weights: Any) -> list[Any]:
    keys = {p.key for p in chosen}
    others = {p.key: p for p in sorted(found, key=lambda p: -weights.score(p.features)) if p.key not in keys}
    return list(others.values())[:MAX_ALTERNATIVES]


def _forced(found: list[Any], p: Any) -> list[Any]:
    return [dataclasses.replace(q, features=q.features | {FORCED}) if q is p else q for q in found]


def _unforced(p: Any) -> Any:
    return dataclasses.replace(p, features=p.features - {FORCED}) if FORCED in p.features else p


def _judge(agent: Any, ctx: Any, state: Any, text: str, expect: dict, reading: list[Any], apis: Any) -> tuple:
    """How many of the message's checks fail when the reading is the parse (and the state and calls after it)."""
    from genie_bot.agent.agent import _Timer
    from genie_bot.language.words import using
    from genie_bot.parsers.understanding.resolver import Choice
    from genie_bot.parsers.understanding.writer import written
    from genie_bot.scenarios.checks import check_turn

    with using(agent.spec.vocabulary.lexicon()):
        parse = written(ctx, Choice(tuple(_unforced(p) for p in reading), {}, {}, {}))
    calls = copy.copy(apis)
    calls.calls = list(apis.calls)
    made = len(calls.calls)
    try:
        result = agent.runtime.run_turn(state, parse.statements, executor=calls)
        reply = agent._reply(state, text, parse, result, _Timer())
    except Exception:  # a reading the runtime cannot take is as bad as it gets
        return 1_000, state, apis
    problems = check_turn(expect, reply.acts, reply.text, reply.state, len(reply.errors), calls.calls[made:],
                          calls.side_effect_count)
    return len(problems), reply.state, calls


# -- fitting -------------------------------------------------------------------------------------------------
@dataclass(frozen=True)
class Setting:
    """How long and how hard the perceptron learns: passes over the corpus, the step, the shrinkage."""

    epochs: int = EPOCHS
    rate: float = LEARNING_RATE
    shrink: float = SHRINK


PRIOR = Setting(0, 0.0, 0.0)
"""No fit at all: the prior as it is."""


def prior_of(table: dict[str, Any], reset: bool = False) -> dict[str, float]:
    """The table the fit starts from and shrinks toward: the one kept under ``prior`` (for a weight it does not
    have, a weight set by hand since, the current one); the current weights when there is none or ``reset``."""
    return {**table["weights"], **({} if reset else table.get("prior", {}))}


def fit(labelled: list[Labelled], prior: dict[str, float], setting: Setting = Setting()) -> dict[str, float]:
    """An averaged structured perceptron from ``prior``, shrunk toward it (see the module docstring)."""
    out = dict(prior)
    for out in _fitted_by_epoch(labelled, prior, setting.epochs, setting.rate, setting.shrink):
        pass
    return {f: round(w, 3) for f, w in sorted(out.items())}


def _fitted_by_epoch(labelled: list[Labelled], prior: dict[str, float], epochs: int, rate: float, shrink: float):
    """The averaged weights after each epoch (not rounded)."""
    from genie_bot.parsers.understanding.resolver import resolve
    from genie_bot.parsers.understanding.weights import Weights

    weights = dict(prior)
    total = dict.fromkeys(prior, 0.0)
    keep = 1.0 - rate * shrink
    steps = 0
    learnt = [m for m in labelled if m.label_problems == 0]
    for _ in range(epochs):
        for message in learnt:
            chosen = list(resolve(message.proposals, Weights(weights, margin=0.0)).chosen)
            if {p.key for p in chosen} != {p.key for p in message.label}:
                for p in message.label:
                    for f in p.features:
                        weights[f] = weights.get(f, 0.0) + rate
                for p in chosen:
                    for f in p.features:
                        weights[f] = weights.get(f, 0.0) - rate
            steps += 1
            for f, w in weights.items():
                if keep != 1.0:  # the gradient step of (shrink / 2) * (w - prior) ** 2
                    start = prior.get(f, 0.0)
                    weights[f] = w = start + keep * (w - start)
                total[f] = total.get(f, 0.0) + w
        yield {f: total[f] / max(steps, 1) for f in total}


def refit(table: dict[str, Any], labelled: list[Labelled], setting: Setting, reset_prior: bool = False,
          ) -> dict[str, Any]:
    """The table after a fit: the fitted weights, the margin chosen for them, and the prior kept for the next
    fit (every weight the fit gave, at the value it started from)."""
    prior = prior_of(table, reset_prior)
    weights = fit(labelled, prior, setting)
    return {**table, "weights": weights, "margin": choose_margin(labelled, weights),
            "prior": {f: prior.get(f, 0.0) for f in sorted(set(prior) | set(weights))}}


def largest_moves(before: dict[str, float], after: dict[str, float], count: int = 5) -> list[tuple[str, float]]:
    """The weights moved most from one table to the other, and by how much."""
    moves = ((f, round(after.get(f, 0.0) - before.get(f, 0.0), 3)) for f in set(before) | set(after))
    return sorted((m for m in moves if m[1]), key=lambda m: (-abs(m[1]), m[0]))[:count]


# -- choosing the setting ------------------------------------------------------------------------------------
def agent_of(message: Labelled) -> str:
    return message.where.split("/", 1)[0]


def conversation_of(message: Labelled) -> str:
    return message.where.split(" #", 1)[0]


def read_right(labelled: list[Labelled], weights: dict[str, float]) -> tuple[int, int]:
    """Of the messages whose label is right, how many the resolver reads as labelled; and in how many
    conversation tests every message is labelled right and read as labelled."""
    from genie_bot.parsers.understanding.resolver import resolve
    from genie_bot.parsers.understanding.weights import Weights

    table = Weights(weights, margin=0.0)
    messages, tests = 0, {}
    for m in labelled:
        right = m.label_problems == 0 and {p.key for p in resolve(m.proposals, table).chosen} == {
            p.key for p in m.label}
        messages += right
        tests[conversation_of(m)] = tests.get(conversation_of(m), True) and right
    return messages, sum(tests.values())


def cross_validate(labelled: list[Labelled], prior: dict[str, float], folds: int = FOLDS) -> list[dict[str, Any]]:
    """Each setting of the grid, and the prior unchanged, fitted on the agents of all folds but one and scored
    on that one's: messages read as labelled and conversation tests read right, summed over the folds, and how
    far the folds' fits moved the weights from the prior (the mean move of a weight, and the largest)."""
    agents = sorted({agent_of(m) for m in labelled})
    parts = [set(agents[i::folds]) for i in range(min(folds, len(agents)))]
    grid = [PRIOR] + [Setting(e, r, s) for r in GRID_RATES for s in GRID_SHRINKS for e in GRID_EPOCHS]
    rows = {s: {"epochs": s.epochs, "rate": s.rate, "shrink": s.shrink, "messages": 0, "tests": 0,
                "mean_move": 0.0, "max_move": 0.0} for s in grid}
    for part in parts:
        train = [m for m in labelled if agent_of(m) not in part]
        test = [m for m in labelled if agent_of(m) in part]
        fitted: dict[Setting, dict[str, float]] = {PRIOR: dict(prior)}
        for rate in GRID_RATES:
            for shrink in GRID_SHRINKS:
                for epoch, weights in enumerate(_fitted_by_epoch(train, prior, max(GRID_EPOCHS), rate, shrink), 1):
                    if epoch in GRID_EPOCHS:
                        fitted[Setting(epoch, rate, shrink)] = weights
        for setting, weights in fitted.items():
            row = rows[setting]
            messages, tests = read_right(test, weights)
            moves = [abs(weights.get(f, 0.0) - prior.get(f, 0.0)) for f in set(weights) | set(prior)]
            row["messages"] += messages
            row["tests"] += tests
            row["mean_move"] += sum(moves) / max(len(moves), 1) / len(parts)
            row["max_move"] = max(row["max_move"], max(moves, default=0.0))
    return [{**r, "mean_move": round(r["mean_move"], 4), "max_move": round(r["max_move"], 3)} for r in rows.values()]


def chosen_setting(rows: list[dict[str, Any]]) -> Setting:
    """The setting reading the most left-out messages as labelled, then the most left-out tests; of equals, the
    one moving the weights least from the prior (the prior itself when no fit does better)."""
    best = max(rows, key=lambda r: (r["messages"], r["tests"], -r["mean_move"], -r["epochs"]))
    return Setting(best["epochs"], best["rate"], best["shrink"])


def cv_table(rows: list[dict[str, Any]], chosen: Setting, learnt: int) -> str:
    lines = [f"cross-validation over the fitted corpus, {FOLDS} folds of whole agents ({learnt} messages labelled "
             "right): left-out messages and tests read as labelled, and the move of a weight from the prior",
             "epochs  rate  shrink  messages  tests  mean move  max move"]
    for r in rows:
        mark = "  <- chosen" if Setting(r["epochs"], r["rate"], r["shrink"]) == chosen else ""
        lines.append(f"{r['epochs']:6d}  {r['rate']:4.2f}  {r['shrink']:6.3f}  {r['messages']:8d}  {r['tests']:5d}"
                     f"  {r['mean_move']:9.4f}  {r['max_move']:8.3f}{mark}")
    return "\n".join(lines)


def agreement(labelled: list[Labelled], weights: dict[str, float], margin: float) -> dict[str, Any]:
    """How many messages the resolver reads as their label, and the margins of the values it keeps."""
    from genie_bot.parsers.understanding.resolver import resolve
    from genie_bot.parsers.understanding.weights import Weights

    agree = 0
    spread: Counter[str] = Counter()
    kept = Counter()
    for message in labelled:
        choice = resolve(message.proposals, Weights(weights, margin=margin))
        label = {p.key for p in message.label}
        agree += {p.key for p in choice.chosen} == label
        for p in choice.chosen:
            if p.does != "value":
                continue
            rival = choice.rivals.get(p)
            spread[_bucket(rival[1] if rival else None)] += 1
            kept["right" if p.key in label else "wrong"] += 1
    return {"messages": len(labelled), "read_as_labelled": agree, "labels_right": sum(m.label_problems == 0
            for m in labelled), "values_kept": dict(kept), "margins": dict(sorted(spread.items()))}


def _bucket(margin: float | None) -> str:
    if margin is None:
        return "no rival"
    low = min(max(int(margin // 0.5) * 0.5, 0.0), 3.0)
    return f">= {low:.1f}" if low >= 3.0 else f"{low:.1f} to {low + 0.5:.1f}"


def choose_margin(labelled: list[Labelled], weights: dict[str, float]) -> float:
    """The margin under which a chosen value is asked about instead of kept: the least at which the values
    kept with a rival are right more often than wrong (a tie is always asked about)."""
    from genie_bot.parsers.understanding.resolver import resolve
    from genie_bot.parsers.understanding.weights import Weights

    close = []
    for message in labelled:
        choice = resolve(message.proposals, Weights(weights, margin=1e9))
        label = {p.key for p in message.label}
        close += [(margin, p.key in label) for p, (_, margin) in choice.rivals.items()]
    best, best_gain = MIN_MARGIN, 0
    for threshold in sorted({MIN_MARGIN, *(m + 1e-3 for m, _ in close if m > 0)}):
        gain = sum(1 if right else -1 for m, right in close if m < threshold)  # asked about: right ones lost
        if -gain > best_gain:
            best, best_gain = threshold, -gain
    return round(best, 3)


MIN_MARGIN = 0.05
"""Readings closer than this are a tie, whatever the corpus says: asked about."""


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m tests.benchmarks.fit_weights", description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--write", action="store_true", help="write the fitted table to weights.json")
    parser.add_argument("--cv", action="store_true", help="print the cross-validation table and the setting chosen")
    parser.add_argument("--epochs", type=int, help=f"fit with this many epochs instead of the setting the "
                        f"cross-validation chooses (the step and shrinkage then default to {LEARNING_RATE} and "
                        f"{SHRINK})")
    parser.add_argument("--rate", type=float, help="the step, instead of the cross-validation's")
    parser.add_argument("--shrink", type=float, help="the shrinkage toward the prior, instead of the "
                        "cross-validation's")
    parser.add_argument("--reset-prior", action="store_true", help="take the current weights as the prior "
                        "(after setting weights by hand)")
    parser.add_argument("--report", type=Path, help="write the figures here as JSON")
    parser.add_argument("--unreached", type=Path, help="list here the messages no reading gets right")
    args = parser.parse_args(argv)
    from genie_bot.parsers.understanding import weights as table

    current = json.loads(table.TABLE.read_text(encoding="utf-8"))
    prior = prior_of(current, args.reset_prior)
    labelled = label_corpus(corpus_dirs("fit"), table.Weights(current["weights"], current["margin"]))
    held_out = label_corpus(corpus_dirs("heldout"), table.Weights(current["weights"], current["margin"]))
    rows = None
    if (args.epochs, args.rate, args.shrink) == (None, None, None):
        rows = cross_validate(labelled, prior)
        setting = chosen_setting(rows)
    else:
        setting = Setting(EPOCHS if args.epochs is None else args.epochs,
                          LEARNING_RATE if args.rate is None else args.rate,
                          SHRINK if args.shrink is None else args.shrink)
    fitted = refit(current, labelled, setting, args.reset_prior)
    weights, margin = fitted["weights"], fitted["margin"]
    figures = {
        "corpus": {"agents": [str(p.relative_to(REPO.parent)) for p in corpus_dirs("fit")],
                   "messages": len(labelled), "held_out_messages": len(held_out)},
        "setting": {**dataclasses.asdict(setting), "chosen by": "cross-validation" if rows else "hand"},
        "before": {"fit": agreement(labelled, current["weights"], current["margin"]),
                   "held_out": agreement(held_out, current["weights"], current["margin"])},
        "after": {"fit": agreement(labelled, weights, margin), "held_out": agreement(held_out, weights, margin)},
        "margin": margin,
        "moved": {"from the current table": largest_moves(current["weights"], weights),
                  "from the prior": largest_moves(prior, weights)},
    }
    if args.cv and rows:
        print(cv_table(rows, setting, sum(m.label_problems == 0 for m in labelled)))
    print(json.dumps(figures, indent=1))
    if args.unreached:
        args.unreached.write_text("".join(f"{m.where} ({m.label_problems} checks fail)\n" for m in labelled
                                          if m.label_problems))
    if args.report:
        args.report.write_text(json.dumps({**figures, "cv": rows}, indent=1))
    if args.write:
        fitted["fit"] = {"how": "python -m tests.benchmarks.fit_weights --write", **figures}
        table.TABLE.write_text(json.dumps(fitted, indent=1, sort_keys=True) + "\n", encoding="utf-8")
    return 0


if __name__ == "__main__":
    sys.exit(main())
