"""Conversation tests of the agents in made-up domains (tests/domains), run with the offline parser.

``python -m tests.benchmarks.domains [--half tuned|heldout|all] [--json out.json] [--show-heldout-failures]``

The six agents under ``tests/domains`` were written from the README alone, in domains none of
the example agents cover, and their tests say what a correct assistant does, not what
genie-bot does today: the pass counts measure how the product does on agents nobody tuned it
for. The ``tuned`` half may be looked at while fixing the product; the ``heldout`` half may
not, so for it only counts are printed unless ``--show-heldout-failures`` is given.
"""

from __future__ import annotations

import argparse
import json
import sys
from dataclasses import dataclass, field
from pathlib import Path

from genie_bot.agent import Agent
from genie_bot.scenarios import run_scenario, scenario_files
from genie_bot.spec import load_agent

DOMAINS = Path(__file__).resolve().parents[1] / "domains"
HALVES = ("tuned", "heldout")


def agent_dirs(half: str) -> list[Path]:
    """The agent directories of one half (``tuned`` or ``heldout``), or of both (``all``)."""
    halves = HALVES if half == "all" else (half,)
    return [path.parent for h in halves for path in sorted((DOMAINS / h).glob("*/agent.yaml"))]


@dataclass
class Outcome:
    """One conversation test's result: passed, failed (with the first failing turn) or crashed."""

    test: str
    passed: bool
    detail: str = ""


@dataclass
class AgentReport:
    half: str
    agent: str
    outcomes: list[Outcome] = field(default_factory=list)

    @property
    def passed(self) -> int:
        return sum(o.passed for o in self.outcomes)


def run_test(agent_dir: Path, path: Path) -> Outcome:
    """Run one conversation test; an exception inside the product is a crash, reported, not raised."""
    spec = load_agent(agent_dir)
    try:
        result = run_scenario(lambda clock: Agent(spec, clock=clock), path)
    except Exception as exc:  # the benchmark reports crashes of the product as outcomes
        return Outcome(path.stem, False, f"crashed: {type(exc).__name__}: {exc}")
    if result.invalid:
        return Outcome(path.stem, False, "invalid: " + "; ".join(result.invalid))
    detail = "" if result.passed else str(result.failures[0]).splitlines()[0]
    return Outcome(path.stem, result.passed, detail)


def run_agent(agent_dir: Path) -> AgentReport:
    report = AgentReport(agent_dir.parent.name, agent_dir.name)
    for path in scenario_files(agent_dir):
        report.outcomes.append(run_test(agent_dir, path))
    return report


def report_lines(reports: list[AgentReport], show_heldout_failures: bool) -> list[str]:
    """Pass counts per agent and per half, then the failing tests (the held-out half's only on request)."""
    lines = [f"{'half':<8} {'agent':<24} {'passed':>7} {'tests':>6}"]
    lines += [f"{r.half:<8} {r.agent:<24} {r.passed:>7} {len(r.outcomes):>6}" for r in reports]
    for half in HALVES:
        mine = [r for r in reports if r.half == half]
        if mine:
            lines.append(f"{half:<8} {'(all agents)':<24} {sum(r.passed for r in mine):>7} "
                         f"{sum(len(r.outcomes) for r in mine):>6}")
    for report in reports:
        if report.half != "heldout" or show_heldout_failures:
            lines += [f"FAIL {report.half}/{report.agent}/{o.test}: {o.detail}" for o in report.outcomes if not o.passed]
    return lines


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m tests.benchmarks.domains", description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--half", choices=(*HALVES, "all"), default="all")
    parser.add_argument("--json", type=Path, help="write every test's outcome here")
    parser.add_argument("--show-heldout-failures", action="store_true",
                        help="also list the failing tests of the held-out half (not while tuning!)")
    args = parser.parse_args(argv)
    reports = [run_agent(agent_dir) for agent_dir in agent_dirs(args.half)]
    print("\n".join(report_lines(reports, args.show_heldout_failures)))
    if args.json:
        hide = not args.show_heldout_failures
        args.json.write_text(json.dumps([
            {"half": r.half, "agent": r.agent, "passed": r.passed, "tests": len(r.outcomes),
             "outcomes": None if hide and r.half == "heldout" else [o.__dict__ for o in r.outcomes]}
            for r in reports], indent=2))
    return 0


if __name__ == "__main__":
    sys.exit(main())
