"""The simulated-user benchmark's harness is correct: it runs, is deterministic, accounts for every
user, and its checker catches a submission that differs from the goal. Success rates are not
asserted here (that is what the benchmark measures)."""

from __future__ import annotations

import datetime as dt
import json
import os
import random
from pathlib import Path

import pytest

from genie_bot.spec import load_agent
from tests.benchmarks.simulated_users.checker import differences
from tests.benchmarks.simulated_users.goals import Goal, TableRow, draw_goal
from tests.benchmarks.simulated_users.run import OUTCOMES, judge_submission, simulate, submitted_tree

WORKSHEETS = Path(__file__).resolve().parents[1] / "worksheets"
AGENTS = ["ticket_submission", "course_enrollment", "restaurant_reservation"]
TODAY = dt.date(2026, 11, 21)


def _fingerprint(agent: str) -> list[tuple[str, int, list[tuple[str, str, list[str]]]]]:
    figures = simulate(WORKSHEETS / agent, users=3, seed=11, today=TODAY)
    return [(r.outcome, r.turns, [(line.user, line.agent, line.acts) for line in r.transcript]) for r in figures.runs]


@pytest.mark.parametrize("agent", AGENTS)
def test_runs_deterministically_and_accounts_for_every_user(agent: str) -> None:
    first = _fingerprint(agent)
    assert first == _fingerprint(agent)
    assert len(first) == 3
    assert all(outcome in OUTCOMES for outcome, _, _ in first)
    figures = simulate(WORKSHEETS / agent, users=3, seed=11, today=TODAY)
    summary = figures.summary()
    assert sum(summary[o.replace(" ", "_")] for o in OUTCOMES) == 3  # type: ignore[misc]
    assert all(len(run.transcript) >= 2 for run in figures.runs)  # greeting and at least one turn


def _wrong_copy(goal: Goal) -> Goal:
    """The goal with its first date, time or number changed: what a wrong submission would hold."""
    values = dict(goal.values)
    for name, value in values.items():
        if isinstance(value, Goal):
            changed = _wrong_copy(value)
            if changed.values != value.values:
                values[name] = changed
                return Goal(goal.worksheet, values)
        elif isinstance(value, bool) or value is None or isinstance(value, TableRow):
            continue
        elif isinstance(value, (int, dt.date)):
            values[name] = value + (1 if isinstance(value, int) else dt.timedelta(days=1))
            return Goal(goal.worksheet, values)
        elif isinstance(value, dt.time):
            values[name] = dt.time((value.hour + 1) % 24, value.minute)
            return Goal(goal.worksheet, values)
        elif isinstance(value, str):
            values[name] = value + " x"
            return Goal(goal.worksheet, values)
    return Goal(goal.worksheet, values)


def _plain(goal: Goal) -> dict[str, object]:
    return {name: _plain(v) if isinstance(v, Goal) else (v.row if isinstance(v, TableRow) else v)
            for name, v in goal.values.items()}


@pytest.mark.parametrize("agent", AGENTS)
def test_checker_tells_a_wrong_submission_from_the_goal(agent: str) -> None:
    spec = load_agent(WORKSHEETS / agent)
    goal = draw_goal(spec, random.Random(3), TODAY)
    held = _plain(goal)
    assert differences(spec, goal, held) == []
    wrong = _wrong_copy(goal)
    assert wrong.leaves() != goal.leaves()
    assert differences(spec, wrong, held) != []
    assert differences(spec, goal, submitted_tree(goal, {}, _plain(wrong))) != []


def test_judging_a_submission_uses_its_arguments() -> None:
    spec = load_agent(WORKSHEETS / "restaurant_reservation")
    goal = draw_goal(spec, random.Random(5), TODAY)
    args = _plain(goal)
    assert differences(spec, goal, submitted_tree(goal, args, {})) == []
    args["num_people"] = int(args["num_people"]) + 1  # type: ignore[call-overload]
    assert [d.path for d in differences(spec, goal, submitted_tree(goal, args, _plain(goal)))] == [("num_people",)]


@pytest.mark.parametrize("agent", AGENTS)
def test_a_real_submission_is_wrong_for_a_goal_with_a_changed_value(agent: str) -> None:
    spec = load_agent(WORKSHEETS / agent)
    figures = simulate(WORKSHEETS / agent, users=10, seed=11, today=TODAY)
    succeeded = [run for run in figures.runs if run.outcome == "success"]
    assert succeeded, "no user of ten succeeded: the harness cannot be checked on this agent"
    run = succeeded[0]
    assert judge_submission(spec, run.goal, run.submitted) == ("success", [])
    outcome, wrong = judge_submission(spec, _wrong_copy(run.goal), run.submitted)
    assert outcome == "wrong submission" and len(wrong) == 1
    assert judge_submission(spec, run.goal, None)[0] == "wrong submission"


def test_command_writes_figures_that_account_for_every_user(tmp_path: Path, capsys: pytest.CaptureFixture[str],
                                                            monkeypatch: pytest.MonkeyPatch) -> None:
    from genie_bot.submissions import DATA_DIR_ENV
    from tests.benchmarks.simulated_users.__main__ import main

    monkeypatch.setenv(DATA_DIR_ENV, str(tmp_path / "ledger"))
    out = tmp_path / "figures.json"
    assert main(["--agents", "restaurant_reservation", "--users", "2", "--seed", "3", "--today", "2026-11-21",
                 "--json", str(out), "--show-failures", "1"]) == 0
    figures = json.loads(out.read_text())
    assert figures["today"] == "2026-11-21" and figures["users"] == 2
    (agent,) = figures["agents"]
    assert sum(agent[o.replace(" ", "_")] for o in OUTCOMES) == 2 == len(agent["runs"])
    assert "restaurant_reservation" in capsys.readouterr().out
    assert os.environ[DATA_DIR_ENV] == str(tmp_path / "ledger")  # the run's private ledger is put back
    assert not (tmp_path / "ledger").exists()  # nothing was written to the real one


DOMAIN_AGENTS = sorted(p.parent for p in (Path(__file__).resolve().parent / "domains").glob("*/*/agent.yaml"))


@pytest.mark.parametrize("agent_dir", DOMAIN_AGENTS, ids=[d.name for d in DOMAIN_AGENTS])
def test_goals_are_drawn_from_any_spec_and_check_against_themselves(agent_dir: Path) -> None:
    """Enums, tables, lists, fixed periods, validations by expression and patterns of the made-up agents."""
    spec = load_agent(agent_dir)
    for seed in range(20):
        goal = draw_goal(spec, random.Random(seed), TODAY)
        assert differences(spec, goal, _plain(goal)) == []
        assert goal.leaves()


def test_command_takes_agent_directories_and_reports_the_two_measures(tmp_path: Path,
                                                                       capsys: pytest.CaptureFixture[str]) -> None:
    from tests.benchmarks.simulated_users.__main__ import main

    out = tmp_path / "figures.json"
    gym = Path(__file__).resolve().parent / "domains" / "tuned" / "gym"
    assert main(["--agents", str(gym), "--users", "3", "--seed", "3", "--today", "2026-11-21", "--json", str(out)]) == 0
    (agent,) = json.loads(out.read_text())["agents"]
    assert agent["agent"] == "gym" and len(agent["runs"]) == 3
    assert agent["silent_turns"] == sum(len(r["silent_turns"]) for r in agent["runs"])
    assert agent["near_wrong_summaries"] == sum(len(r["near_wrong_summaries"]) for r in agent["runs"])
    header = capsys.readouterr().out.splitlines()[1]
    assert header.split()[-2:] == ["near-wrong", "silent"]
    with pytest.raises(SystemExit):
        main(["--agents", str(tmp_path / "no_such_agent")])
