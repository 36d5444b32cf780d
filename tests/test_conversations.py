"""Every example agent's conversation tests (AGENT_DIR/tests/*.yaml), run with the offline parser."""

from __future__ import annotations

import pytest

from genie_bot.agent import Agent
from genie_bot.scenarios import run_scenario, scenario_files
from genie_bot.spec import load_agent
from tests.conftest import WORKSHEETS

AGENTS = sorted(p.parent for p in WORKSHEETS.glob("*/agent.yaml"))
SCENARIOS = [(agent, path) for agent in AGENTS for path in scenario_files(agent)]


@pytest.mark.parametrize("agent_dir, path", SCENARIOS, ids=[f"{a.name}/{p.stem}" for a, p in SCENARIOS])
def test_conversation(agent_dir, path):
    spec = load_agent(agent_dir)
    result = run_scenario(lambda clock: Agent(spec, clock=clock), path)
    assert result.passed, "\n".join(str(f) for f in result.failures)


@pytest.mark.parametrize("agent_dir", AGENTS, ids=[a.name for a in AGENTS])
def test_each_example_agent_ships_at_least_six_scenarios(agent_dir):
    assert len(scenario_files(agent_dir)) >= 6


def test_a_failing_expectation_is_reported_with_a_diff(tmp_path):
    scenario = tmp_path / "wrong.yaml"
    scenario.write_text("name: wrong\ntoday: 2026-11-21\nturns:\n  - user: CS 224V\n"
                        "    expect: {acts: [AskField course_0.course_name], says: [nonexistent words], submissions: 1}\n")
    spec = load_agent(WORKSHEETS / "course_enrollment")
    result = run_scenario(lambda clock: Agent(spec, clock=clock), scenario)
    assert not result.passed
    problems = result.failures[0].problems
    assert problems[0] == ("acts: expected ['AskField course_0.course_name'], "
                           "got ['AskField(course_0, grade_type, \"the grading option to take the course for\")']")
    assert "reply should contain 'nonexistent words'" in problems[1]
    assert problems[2] == "submissions: expected 1, got 0"
