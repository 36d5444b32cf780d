"""The agents in made-up domains (tests/domains) are sound test material: each loads, has 30 or
more conversation tests, and every test is valid and runs to its end without crashing the
product. Whether they pass is what ``python -m tests.benchmarks.domains`` measures; it is not
asserted here yet."""

from __future__ import annotations

from pathlib import Path

import pytest

from genie_bot.spec import load_agent
from genie_bot.scenarios import scenario_files
from tests.benchmarks.domains import HALVES, AgentReport, Outcome, agent_dirs, report_lines, run_test

AGENT_DIRS = agent_dirs("all")


def test_five_agents_in_each_half() -> None:
    assert [len(agent_dirs(half)) for half in HALVES] == [5, 5]
    assert len({d.name for d in AGENT_DIRS}) == 10


@pytest.mark.parametrize("agent_dir", AGENT_DIRS, ids=[f"{d.parent.name}/{d.name}" for d in AGENT_DIRS])
def test_agent_loads_and_every_conversation_test_runs_to_its_end(agent_dir: Path) -> None:
    spec = load_agent(agent_dir)
    assert spec.name == agent_dir.name
    files = scenario_files(agent_dir)
    assert len(files) >= 30
    broken = [o for o in (run_test(agent_dir, path) for path in files)
              if o.detail.startswith(("crashed", "invalid"))]
    assert broken == []


def test_report_hides_held_out_failures_unless_asked() -> None:
    reports = [AgentReport("tuned", "a", [Outcome("t1", True), Outcome("t2", False, "turn 1 ('x'):")]),
               AgentReport("heldout", "b", [Outcome("t3", False, "turn 2 ('y'):")])]
    lines = report_lines(reports, show_heldout_failures=False)
    assert "FAIL tuned/a/t2: turn 1 ('x'):" in lines
    assert not any("t3" in line for line in lines)
    assert any(line.split()[:2] == ["tuned", "(all"] and line.split()[-2:] == ["1", "2"] for line in lines)
    assert any(line.split()[:2] == ["heldout", "(all"] and line.split()[-2:] == ["0", "1"] for line in lines)
    assert "FAIL heldout/b/t3: turn 2 ('y'):" in report_lines(reports, show_heldout_failures=True)
