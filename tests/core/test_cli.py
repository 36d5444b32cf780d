"""The validate, replay, bench, test and import commands, run as a user would run them (in this process:
the ``genie`` fixture calls the command line's ``main``)."""

from __future__ import annotations

import json

from tests.conftest import REPO, WORKSHEETS

TICKET = WORKSHEETS / "ticket_submission"


def test_validate_ok_prints_a_one_line_summary(genie):
    result = genie("validate", str(TICKET))
    assert result.returncode == 0
    assert result.stdout.strip() == ("ok: ticket_submission: 7 task worksheets, 0 knowledge worksheets, 27 fields, "
                                     "7 predicates, 3 actions, 2 API functions")


def test_validate_broken_agent_lists_every_error_and_exits_1(genie, make_agent):
    directory = make_agent("name: x\ntasks:\n  - name: A\n    fields:\n      - {name: a, type: nope}\n      - {name: a, type: str}\n")
    result = genie("validate", str(directory))
    assert result.returncode == 1
    lines = result.stdout.strip().splitlines()
    assert len(lines) == 3
    assert lines[0].startswith(f"{directory}/agent.yaml:5:25: unknown type 'nope'")
    assert lines[1] == f"{directory}/agent.yaml:6:16: duplicate field 'a' in A (first declared at line 5)"
    assert lines[2] == "2 problems found"  # on a line of its own, in the same stream as the problems


def test_replay_writes_acts_state_and_errors_per_turn(genie, tmp_path):
    trace = tmp_path / "trace.jsonl"
    trace.write_text("\n".join(json.dumps(line) for line in [
        {"user": "hi", "parse": ""},
        {"user": "leave of absence", "parse": "main_0.student_task = 'Leave of Absence'"},
        {"user": "gibberish", "parse": "main_0.nonsense_field = 1"},
    ]) + "\n")
    out = tmp_path / "out.jsonl"
    result = genie("replay", str(TICKET), str(trace), "--parser", "recorded", "--out", str(out), "--today", "2026-11-21")
    assert result.returncode == 0, result.stderr
    turns = [json.loads(line) for line in out.read_text().splitlines()]
    assert [t["acts"] for t in turns[:2]] == [
        ['AskField(main_0, student_task, "what the student needs help with")'],
        ['AskField(leave_of_absence_0, form_status, "the status of the leave of absence form")'],
    ]
    assert turns[1]["state"]["instances"][0]["values"]["student_task"] == "Leave of Absence"
    assert "Main has no field 'nonsense_field'" in turns[2]["errors"][0]
    assert set(turns[0]) == {"user", "parse", "acts", "state", "errors"}


def test_replay_serves_recorded_knowledge_results(genie, make_agent, tmp_path):
    directory = make_agent("""
        name: kb
        knowledge:
          - name: places
            columns: {name: the name}
        tasks:
          - name: Visit
            fields: [{name: place, type: places}]
        """)
    trace = tmp_path / "t.jsonl"
    trace.write_text(json.dumps({"user": "cheap places?", "parse": "visit = Visit()\nvisit.place = answer('cheap places?')",
                                 "kb_result": [{"name": "Zazie"}]}) + "\n")
    result = genie("replay", str(directory), str(trace))
    turn = json.loads(result.stdout)
    assert turn["acts"] == ["Report(answer('cheap places?'), [{'name': 'Zazie'}])"]
    assert turn["state"]["instances"][0]["values"]["place"] == {"name": "Zazie"}


def test_bench_reports_per_turn_figures(genie):
    result = genie("bench", str(TICKET), "--repeat", "5")
    assert result.returncode == 0, result.stderr
    assert "turns measured: 80" in result.stdout
    assert "interpreter+policy per turn: median" in result.stdout
    assert "rule-based parse per utterance: median" in result.stdout
    assert "whole offline turn (parse + runtime + templated reply): median" in result.stdout


def test_bench_without_a_trace_says_what_to_pass(genie):
    result = genie("bench", str(WORKSHEETS / "restaurant_reservation"))
    assert result.returncode == 2
    assert "Traceback" not in result.stderr
    assert "no recorded trace" in result.stderr and "--trace" in result.stderr


def test_replay_with_the_rule_parser_parses_user_text(genie, tmp_path):
    trace = tmp_path / "trace.jsonl"
    trace.write_text(json.dumps({"user": "I need a leave of absence"}) + "\n" + json.dumps({"user": "not yet"}) + "\n")
    result = genie("replay", str(TICKET), str(trace), "--parser", "rules", "--today", "2026-11-21")
    assert result.returncode == 0, result.stderr
    turns = [json.loads(line) for line in result.stdout.splitlines()]
    assert [t["parse"] for t in turns] == ["main_0.student_task = 'Leave of Absence'",
                                           "leave_of_absence_0.form_status = 'Not Submitted'"]


def test_replay_applies_statements_under_the_bots_limits(genie, make_agent, tmp_path):
    """A statement the bot would park (a validation pattern backtracking for minutes) is not applied in a
    replay either: the sandbox stops it at the bot's CPU limit, and the next turn goes on from the state before."""
    from .test_sandbox import POISONED_ORDER

    trace = tmp_path / "trace.jsonl"
    trace.write_text("\n".join(json.dumps(line) for line in [
        {"user": "pasta", "parse": "order = Order(dish='Pasta')"},
        {"user": "poison", "parse": "order.code = '" + "x" * 50 + "'"},
        {"user": "pizza", "parse": "order.dish = 'Pizza'"},
    ]) + "\n")
    result = genie("replay", str(make_agent(POISONED_ORDER)), str(trace), "--parser", "recorded", "--today", "2026-11-21")
    assert result.returncode == 0, result.stderr
    turns = [json.loads(line) for line in result.stdout.splitlines()]
    assert turns[1]["errors"] == ["not applied: it used more than 2 s of CPU time"]
    assert turns[1]["state"] == turns[0]["state"]
    assert [i["values"] for i in turns[2]["state"]["instances"]] == [{"dish": "Pizza"}]


def test_test_command_reports_pass_and_fail(genie, make_agent, tmp_path):
    ok = genie("test", str(WORKSHEETS / "restaurant_reservation"))
    scenarios = len(list((WORKSHEETS / "restaurant_reservation" / "tests").glob("*.yaml")))
    assert ok.returncode == 0 and ok.stdout.strip().endswith(f"{scenarios} passed, 0 failed")
    directory = make_agent("name: x\ntasks:\n  - name: A\n    examples: [do a thing]\n    fields: [{name: n, type: int}]\n",
                           files={"tests/s.yaml": "name: s\nturns:\n  - user: do a thing\n    expect: {acts: [Say]}\n"})
    bad = genie("test", str(directory))
    assert bad.returncode == 1
    assert "FAIL  s.yaml: s" in bad.stdout and "acts: expected ['Say'], got ['AskField(a_0, n, \"n\")']" in bad.stdout


def test_import_csv_writes_a_loadable_agent(genie, tmp_path):
    out = tmp_path / "agent" / "agent.yaml"
    result = genie("import-csv", str(REPO / "tests" / "data" / "course_enrollment_genie.csv"), "-o", str(out))
    assert result.returncode == 0 and f"wrote {out}" in result.stdout
    assert "course_enrollment_genie.csv:2:" in result.stderr  # the warning about an undeclared side effect
    assert "CoursesToTake" in out.read_text()
