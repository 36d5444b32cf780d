"""The policy settings that choose the reference Genie's behaviour, and the defects fixed on the way.

genie-bot's defaults keep its own behaviour; ``policy: {nested_worksheet_question:
parent_field, start_task: when_nothing_asked}`` (what ``genie-bot import-csv`` writes) gives
the reference's (docs/genie-compatibility.md).
"""

from __future__ import annotations

import datetime as dt

import pytest

from genie_bot.runtime import KnowledgeResult, KnowledgeUnavailable, LocalApiExecutor, Runtime
from genie_bot.spec import SpecInvalid, load_agent
from genie_bot.spec.types import CoercionError, snap_enum

from .agents import GENIE_COURSE_AGENT, GENIE_COURSE_API, GENIE_POLICY

NOW = dt.datetime(2026, 11, 21, 12, 0)


class _Knowledge:
    """Answers every query with ``rows``; None: the query cannot be run."""

    def __init__(self, rows):
        self.rows = rows

    def query(self, answer):
        if self.rows is None:
            raise KnowledgeUnavailable("no query")
        return KnowledgeResult(None, self.rows)


def _runtime(make_agent, policy: str, rows=()) -> Runtime:
    spec = load_agent(make_agent(GENIE_COURSE_AGENT.format(policy=policy), GENIE_COURSE_API))
    return Runtime(spec, LocalApiExecutor(spec, knowledge=_Knowledge(rows)), clock=lambda: NOW)


def _turns(runtime: Runtime, *statements: str) -> list[list[str]]:
    state, out = runtime.new_state(), []
    for text in statements:
        result = runtime.run_turn(state, text)
        assert result.errors == []
        state = result.state
        out.append([a.formal() for a in result.acts if a.is_question])
    return out


def test_parent_field_asks_the_field_holding_a_worksheet_until_part_of_it_is_given(make_agent):
    runtime = _runtime(make_agent, "policy: {nested_worksheet_question: parent_field}")
    assert [a.formal() for a in runtime.new_state().last_acts] == \
        ['AskField(main_0, courses_to_take, "The courses that the student wants to take")']
    assert _turns(runtime, "course = Course(course_name='CS 1')\n"
                           "main.courses_to_take = CoursesToTake(course_0_details=course)") == \
        [['AskField(course, grade_type, "grade type")']]


def test_first_field_is_the_default_and_opens_the_nested_worksheet(make_agent):
    runtime = _runtime(make_agent, "")
    assert [a.formal() for a in runtime.new_state().last_acts] == ['AskField(course_0, course_name, "course name")']


def test_start_task_when_nothing_asked_waits_for_a_question_that_could_not_be_answered(make_agent):
    ask_courses = 'AskField(main_0, courses_to_take, "The courses that the student wants to take")'
    failing = _runtime(make_agent, GENIE_POLICY, rows=None)
    assert failing.new_state().instances == {}
    assert _turns(failing, "answer('Which ML courses are there?')", "") == [[], [ask_courses]]
    answered = _runtime(make_agent, GENIE_POLICY, rows=[{"title": "Machine Learning"}])
    assert _turns(answered, "answer('Which ML courses are there?')") == [[ask_courses]]


def test_start_task_when_nothing_asked_opens_it_for_the_parsers_main(make_agent):
    runtime = _runtime(make_agent, GENIE_POLICY)
    assert _turns(runtime, "main.student_info_details = StudentInfo(student_name='Ann')") == \
        [['AskField(main_0, courses_to_take, "The courses that the student wants to take")']]


def test_placeholders_in_a_slot_the_user_turned_down_and_after_submission_are_not_asked(make_agent):
    runtime = _runtime(make_agent, GENIE_POLICY)
    asks = _turns(
        runtime,
        "course = Course(course_name='CS 1', grade_type='Letter', course_num_units=3)\n"
        "course_1 = Course(course_name='', grade_type='', course_num_units=0)\n"
        "main = Main(courses_to_take=CoursesToTake(course_0_details=course, more_courses_1=False, "
        "course_1_details=course_1))",
        "courses_to_take.confirm = True",
        "main.student_info_details = StudentInfo(student_name='Ann', student_id='1')",
        "main.confirm_submission = True",
        "course_1.course_name = 'CS 2'",
    )
    assert asks == [['AskField(courses_to_take_0, confirm, "Confirm all the course details")'],
                    ['AskField(main, student_info_details, "The details about the student")'],
                    ["AskForConfirmation(main)"], [], []]  # course_1 was never wanted: not asked


def test_an_unknown_policy_choice_is_reported_with_its_choices(make_agent):
    with pytest.raises(SpecInvalid, match="policy 'start_task' must be one of: at_greeting, when_nothing_asked"):
        load_agent(make_agent(GENIE_COURSE_AGENT.format(policy="policy: {start_task: later}"), GENIE_COURSE_API))


@pytest.mark.parametrize("value, member", [("Credit", "Credit/No Credit"), ("letter grade", "Letter"),
                                           ("letter", "Letter")])
def test_an_enum_value_naming_the_first_words_of_one_member_is_that_member(value, member):
    assert snap_enum(value, ("Credit/No Credit", "Letter")) == member


def test_an_enum_value_that_begins_several_members_is_refused():
    with pytest.raises(CoercionError):
        snap_enum("Table", ("Table for two", "Table for four"))
