"""The parse baseline's ratchet (tests/benchmarks/parse_ratchet.py): a baseline may go down freely, and up
only with a reason recorded beside it, with the true figures before and after; and its check compares
parse times normalised by a calibration workload measured in the same run, so a slower machine does
not pass a slower parser."""

from __future__ import annotations

import json
import subprocess
from pathlib import Path

import pytest

from tests.benchmarks import parse_baseline
from tests.benchmarks import parse_ratchet as ratchet

MESSAGES = ("t: 1.1: hi", "t: 1.2: CS 224V", "t: 1.3: winter")


def baseline(*ratios: float, **settings) -> dict:
    return {"calibration_ms": 10.0, "calibration_workload": "w1", "limit": 1.5, "slack": 0.02,
            "ratios": dict(zip(MESSAGES, ratios)), **settings}


@pytest.fixture
def repo(tmp_path: Path, monkeypatch):
    """A git repository holding a baseline (and its raises file) where parse_baseline looks for them."""
    def git(*args: str) -> None:
        subprocess.run(["git", *args], cwd=tmp_path, check=True, capture_output=True)

    git("init", "-q")
    git("config", "user.email", "dev@example.org")
    git("config", "user.name", "dev")
    monkeypatch.setattr(parse_baseline, "BASELINE", tmp_path / "parse_baseline.json")
    monkeypatch.setattr(parse_baseline, "RAISES", tmp_path / "parse_baseline_raises.json")

    class Repo:
        path = tmp_path

        @staticmethod
        def write(figures: dict) -> None:
            parse_baseline.BASELINE.write_text(json.dumps(figures, indent=2) + "\n", encoding="utf-8")

        def commit(self, figures: dict | None = None, message: str = "baseline") -> None:
            if figures is not None:
                self.write(figures)
            git("add", "-A")
            git("commit", "-q", "-m", message)

    return Repo()


def test_a_baseline_that_goes_down_needs_no_reason(repo):
    repo.commit(baseline(0.3, 0.2, 0.1))
    repo.commit(baseline(0.2, 0.2, 0.05))
    assert parse_baseline.ratchet_problems() == []


def test_raising_the_baseline_without_a_reason_fails_committed_or_not(repo):
    repo.commit(baseline(0.3, 0.2, 0.1))
    repo.write(baseline(0.6, 0.4, 0.2))
    problems = parse_baseline.ratchet_problems()
    assert len(problems) == 1 and "the working tree" in problems[0] and "no reason recorded" in problems[0]
    assert "add up to more: 1.2000 (was 0.6000)" in problems[0]
    repo.commit()
    assert "no reason recorded" in parse_baseline.ratchet_problems()[0]
    assert parse_baseline.main(["--ratchet"]) == 1


def test_a_raise_with_its_reason_and_figures_recorded_passes(repo):
    repo.commit(baseline(0.3, 0.2, 0.1))
    repo.commit(baseline(0.6, 0.4, 0.2))
    before, after = ratchet.history(parse_baseline.BASELINE)
    ratchet.save_records(parse_baseline.RAISES, [ratchet.record(before, after, "the new parser reads dates")])
    assert parse_baseline.ratchet_problems() == []
    assert parse_baseline.main(["--ratchet"]) == 0
    repo.commit(baseline(0.9, 0.4, 0.2))  # a second raise needs a record of its own
    assert "no reason recorded" in parse_baseline.ratchet_problems()[0]


def test_a_record_with_other_figures_or_no_reason_does_not_count(repo):
    repo.commit(baseline(0.3, 0.2, 0.1))
    repo.commit(baseline(0.6, 0.4, 0.2))
    before, after = ratchet.history(parse_baseline.BASELINE)
    understated = ratchet.record(before, after, "noise")
    understated["after"]["total_ratio"] = 0.6
    ratchet.save_records(parse_baseline.RAISES, [understated])
    assert "figures are not those of the two versions" in parse_baseline.ratchet_problems()[0]
    ratchet.save_records(parse_baseline.RAISES, [ratchet.record(before, after, "  ")])
    assert "gives no reason" in parse_baseline.ratchet_problems()[0]


def test_what_counts_as_a_raise():
    base = baseline(0.3, 0.2, 0.1)
    assert ratchet.raises(base, baseline(0.3, 0.2, 0.1)) == []
    assert ratchet.raises(base, baseline(0.33, 0.16, 0.1)) == [], "re-measuring noise, total not higher"
    one_up = ratchet.raises(base, baseline(0.2, 0.2, 0.2))  # total lower, but one message doubled
    assert one_up == ["t: 1.3: winter: 0.2000 (was 0.1000)"]
    assert "the limit is higher" in ratchet.raises(base, baseline(0.3, 0.2, 0.1, limit=3.0))[0]
    assert "the slack is higher" in ratchet.raises(base, baseline(0.3, 0.2, 0.1, slack=0.5))[0]
    assert "calibration workload changed" in ratchet.raises(base, baseline(0.1, 0.1, 0.1, calibration_workload="w2"))[0]
    fewer = {**base, "ratios": dict(list(base["ratios"].items())[:2])}
    assert ratchet.raises(base, fewer) == ["t: 1.3: winter: no longer measured"]


def test_update_refuses_a_raise_without_a_reason_and_records_one_given(repo):
    repo.commit(baseline(0.3, 0.2, 0.1))
    slower = baseline(0.6, 0.4, 0.2)
    assert parse_baseline.update(slower, None) == 1
    assert json.loads(parse_baseline.BASELINE.read_text())["ratios"][MESSAGES[0]] == 0.3, "left as it was"
    assert parse_baseline.update(slower, "the new parser reads dates") == 0
    assert parse_baseline.ratchet_problems() == []  # before the commit
    repo.commit()
    assert parse_baseline.ratchet_problems() == []
    (kept,) = ratchet.load_records(parse_baseline.RAISES)
    assert kept["reason"] == "the new parser reads dates"
    assert (kept["before"]["total_ratio"], kept["after"]["total_ratio"]) == (0.6, 1.2)
    assert parse_baseline.update(baseline(0.2, 0.1, 0.1), None) == 0, "going down needs no reason"


def test_the_check_compares_ratios_to_a_calibration_measured_in_the_same_run():
    stored = baseline(0.3, 0.2, 0.1)  # measured with a 10 ms calibration: 3, 2 and 1 ms
    same = {MESSAGES[0]: 3.0, MESSAGES[1]: 2.0, MESSAGES[2]: 1.0}
    assert parse_baseline.compare(stored, same, unit=10.0)[1] == []
    slower_machine = {key: ms * 2 for key, ms in same.items()}  # everything, the calibration too, twice as slow
    assert parse_baseline.compare(stored, slower_machine, unit=20.0)[1] == []
    slower_parser = {**same, MESSAGES[0]: 6.0}  # one parse twice as slow on the same machine
    assert parse_baseline.compare(stored, slower_parser, unit=10.0)[1] == ["t: 1.1: hi"]
    assert parse_baseline.compare(stored, {k: ms * 2 for k, ms in slower_parser.items()}, unit=20.0)[1] != []
    figures = parse_baseline.figures_of(slower_machine, unit=20.0)
    assert figures["ratios"] == stored["ratios"] and figures["calibration_workload"] == \
        parse_baseline.calibration_fingerprint()


def test_the_check_refuses_a_baseline_measured_with_another_calibration_workload(repo):
    repo.commit(baseline(0.3, 0.2, 0.1, calibration_workload="not this one"))
    assert parse_baseline.main(["--check"]) == 1


def test_the_repository_baseline_was_never_raised_without_a_recorded_reason():
    assert parse_baseline.ratchet_problems() == []


@pytest.fixture
def measured(repo, monkeypatch):
    """The check over a committed baseline of 3, 2 and 1 ms at a 10 ms calibration, with the parse times of
    each measurement taken in turn from the list it returns (a fake clock for the benchmark, not the parser)."""
    repo.commit(baseline(0.3, 0.2, 0.1, calibration_workload=parse_baseline.calibration_fingerprint()))
    plays: list[int] = []
    runs: list[dict[str, float]] = []
    monkeypatch.setattr(parse_baseline, "calibration_ms", lambda repeat=7: 10.0)

    def parse_costs(repeat: int) -> dict[str, float]:
        plays.append(repeat)
        return runs[len(plays) - 1]

    monkeypatch.setattr(parse_baseline, "parse_costs", parse_costs)
    return runs, plays


def test_an_utterance_over_the_limit_once_is_measured_again_with_more_plays_and_passes_if_it_was_noise(measured):
    runs, plays = measured
    usual = {MESSAGES[0]: 3.0, MESSAGES[1]: 2.0, MESSAGES[2]: 1.0}
    runs += [{**usual, MESSAGES[2]: 1.9}, usual]  # a neighbour slowed one parse's few plays
    assert parse_baseline.main(["--check", "--repeat", "5"]) == 0
    assert plays == [5, 5 * parse_baseline.CONFIRM_REPEAT]


def test_an_utterance_over_the_limit_in_both_measurements_fails(measured, capsys):
    runs, plays = measured
    slower = {MESSAGES[0]: 3.0, MESSAGES[1]: 2.0, MESSAGES[2]: 1.9}
    runs += [slower, slower]
    assert parse_baseline.main(["--check", "--repeat", "5"]) == 1
    assert "t: 1.3: winter: 1.90x its baseline (limit 1.5x)" in capsys.readouterr().err
    assert len(plays) == 2


def test_no_second_measurement_when_nothing_is_over(measured):
    runs, plays = measured
    runs.append({MESSAGES[0]: 3.0, MESSAGES[1]: 2.0, MESSAGES[2]: 1.0})
    assert parse_baseline.main(["--check"]) == 0
    assert plays == [7]
