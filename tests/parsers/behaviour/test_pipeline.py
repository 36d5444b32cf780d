"""``RuleParser`` as a whole: which reading wins, and what the parse says about itself."""

from __future__ import annotations

import pytest

from ..support import COURSES, ENROLL_SUMMARY, LEAVE, LEAVE_NAME, LEAVE_SUMMARY, TICKET, Dialogue


@pytest.mark.parametrize("point, text, answers", [(LEAVE_NAME, "Jane Doe", True), (LEAVE_SUMMARY, "yes", True),
                                                  (LEAVE, "I sent it by email on nov 3", False),
                                                  ((), "I need help joining a waitlist", False)])
def test_answers_question_only_when_the_statements_answer_exactly_what_was_asked(point, text, answers):
    parse = Dialogue(TICKET).do(*point).parse(text)
    assert parse.answers_question is answers and parse.source == "rules"


def test_a_command_wins_over_everything():
    assert Dialogue(TICKET).do(*LEAVE_NAME).parse("cancel").statements == "exitws()"


def test_a_correction_at_a_summary_is_no_yes_or_no():
    assert Dialogue(COURSES).do(*ENROLL_SUMMARY).parse("actually make it 3 units").statements == \
        "course_1.course_num_units = 3"


def test_a_correction_at_a_free_text_question_is_no_answer_to_it():
    """Asked for the name, "actually I sent it in person" changes the method; it is nobody's name."""
    dialogue = Dialogue(TICKET).do(*LEAVE_NAME)
    assert dialogue.parse("actually I sent it in person").statements == \
        "leave_of_absence_0.submission_method = 'In Person'"


def test_a_short_attempt_that_gives_nothing_is_not_understood():
    dialogue = Dialogue(COURSES).do("main_0.courses_to_take = CoursesToTake(course_0_details=Course(course_name='x'))")
    assert dialogue.parse("blue or red").understood is False


@pytest.mark.xfail(strict=True, reason="issue 35: 'this is so frustrating' asked whether the form was submitted is "
                                       "not understood (no '# a remark, not a request')")
def test_a_remark_is_understood_as_a_remark():
    assert Dialogue(TICKET).do(*LEAVE).parse("this is so frustrating").statements == "# a remark, not a request"


@pytest.mark.xfail(strict=True, reason="issue 35: asked for the name, 'this is so frustrating' gives full_name = "
                                       "'frustrating'")
def test_a_remark_is_no_name():
    assert "full_name" not in Dialogue(TICKET).do(*LEAVE_NAME).parse("this is so frustrating").statements
