"""Conversation tests cannot pass by accident: the format is checked, API calls are stubbed and asserted."""

from __future__ import annotations

import textwrap
from pathlib import Path

import pytest

from genie_bot.agent import Agent
from genie_bot.scenarios import ScenarioInvalid, load_scenario, run_scenario
from genie_bot.spec import load_agent
from tests.conftest import WORKSHEETS

COURSES = WORKSHEETS / "course_enrollment"
ENROLL = """\
  - user: CS 224V
  - user: letter
  - user: "3"
  - user: CS 229
  - user: letter
  - user: "3"
  - user: "no"
  - user: "yes"
  - user: Ann Lee
  - user: "12345678"
  - user: ann@stanford.edu
  - user: "no"
"""


def write(tmp_path: Path, text: str) -> Path:
    path = tmp_path / "scenario.yaml"
    path.write_text(textwrap.dedent(text), encoding="utf-8")
    return path


def enrollment(head: str, last_turn: str) -> str:
    """A whole enrollment up to the final confirmation, then ``last_turn``."""
    return textwrap.dedent(head) + "turns:\n" + ENROLL + textwrap.indent(textwrap.dedent(last_turn), "  ")


def run(path: Path, real_apis: bool = False):
    spec = load_agent(COURSES)
    return run_scenario(lambda clock: Agent(spec, clock=clock), path, real_apis=real_apis)


def test_a_misspelt_key_is_an_error_at_its_line_with_a_suggestion(tmp_path):
    path = write(tmp_path, """\
        name: typo
        turns:
          - user: CS 224V
            expect: {say: [grading]}
        """)
    with pytest.raises(ScenarioInvalid) as caught:
        load_scenario(path)
    assert [str(e) for e in caught.value.errors] == [
        f"{path}:4:14: unknown key 'say' (did you mean 'says'?); expected one of: acts, api_calls, errors, "
        "not_says, says, state, submissions"]
    result = run(path)
    assert not result.passed and result.invalid and not result.transcript  # it did not run


@pytest.mark.parametrize("text, problem", [
    ("name: x\nturns:\n  - user: yes\n", "3:11: turns/0/user: True is not text; write the message in quotes"),
    ("name: x\nturns:\n  - user: hi\n    expect: {}\n", "4:13: turns/0/expect: {} should be non-empty"),
    ("name: x\nturns:\n  - user: hi\n    act: [Say]\n", "4:5: unknown key 'act'; expected one of: expect, user"),
    ("name: x\ntoday: 2026-13-01\nturns:\n  - user: hi\n", "2:8: '2026-13-01' is not valid"),
    ("name: x\nturns: []\n", "2:8: turns: [] should be non-empty"),
    ("turns:\n  - user: hi\n", "1:1: the scenario: 'name' is a required property"),
])
def test_each_malformed_scenario_is_refused_with_its_position(tmp_path, text, problem):
    path = write(tmp_path, text)
    with pytest.raises(ScenarioInvalid) as caught:
        load_scenario(path)
    assert any(str(e).startswith(f"{path}:{problem}") for e in caught.value.errors), caught.value.errors


def test_a_side_effect_without_a_stub_is_never_called_and_fails_the_scenario(tmp_path):
    path = write(tmp_path, enrollment("name: no stub\ntoday: 2026-11-21\n", """\
        - user: "yes"
          expect: {says: [enrolled]}
        """))
    result = run(path)
    assert not result.passed
    problems = result.failures[-1].problems
    assert any("submit_enrollment has side effects and the scenario gives no result for it" in p for p in problems)
    assert "ENR-" not in result.transcript[-1][1]  # a real call would have returned ENR-00001


def test_stubbed_results_are_returned_and_the_arguments_asserted(tmp_path):
    body = enrollment("""\
        name: stubbed
        today: 2026-11-21
        apis: {submit_enrollment: {enrollment_id: ENR-4242}}
        """, """\
        - user: "yes"
          expect:
            says: [ENR-4242]
            submissions: 1
            api_calls: [{submit_enrollment: {student_info_details: {student_name: NAME}}}]
        """)
    assert run(write(tmp_path, body.replace("NAME", "Ann Lee"))).passed
    wrong = run(write(tmp_path, body.replace("NAME", "Bob")))
    assert not wrong.passed
    assert any("submit_enrollment got student_info_details=" in p and "expected {'student_name': 'Bob'}" in p
               for p in wrong.failures[-1].problems)


def test_real_apis_run_only_when_asked(tmp_path):
    path = write(tmp_path, enrollment("name: real\ntoday: 2026-11-21\n", """\
        - user: "yes"
          expect: {says: [ENR-00001], submissions: 1, api_calls: [submit_enrollment]}
        """))
    assert run(path, real_apis=True).passed
