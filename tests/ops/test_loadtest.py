"""The load test's kill scenario, small enough for CI: two real ``genie-bot run`` processes in Slack
HTTP mode on one PostgreSQL, signed deliveries with retries and double clicks, and the first
process SIGKILLed mid-run. Every turn must be answered exactly once, by whichever process is
left, with no side effect twice and nothing left queued, running, leased or executing."""

from __future__ import annotations

from tests.benchmarks.loadtest import Options, run, verdict


def test_killing_one_of_two_processes_mid_run_loses_and_duplicates_nothing(postgres_url):
    options = Options(users=30, llm_ms=50, think_s=0.5, ramp_s=2, channels=3, duplicate_share=0.2,
                      double_click_share=0.1, seed=7, base_url=postgres_url, turn_threads=16)
    report = run(options, 2, kill=True)
    assert verdict(report) == []
    assert report["killed_after_seconds"] > 0 and report["turns_sent"] >= 30 * 7
    assert (report["replies_lost"], report["replies_duplicated"], report["acked_but_never_recorded"]) == (0, 0, 0)
    assert report["users_with_several_tickets"] == 0 and report["tickets"] == report["pending_actions"].get("done")
