"""``parsers.fast_path``: when the rule-based parse answers the question well enough to skip the LLM."""

from __future__ import annotations

import pytest

from genie_bot.parse import Parse
from genie_bot.parsers.fast_path import MIN_MARGIN, confident

from .support import COURSES, LEAVE_NAME, TICKET, Dialogue


def fast(agent, point, text):
    dialogue = Dialogue(agent).do(*point)
    return confident(dialogue.spec, dialogue.state, dialogue.parse(text), text)


@pytest.mark.parametrize("agent, point, text", [(COURSES, (), "CS 224V"), (TICKET, LEAVE_NAME, "Jane Doe"),
                                                (TICKET, (), "a leave of absence")])
def test_a_short_direct_answer_is_confident(agent, point, text):
    assert fast(agent, point, text)


@pytest.mark.parametrize("agent, point, text", [
    (COURSES, (), "who teaches CS 107?"),  # a question
    (COURSES, (), "I want to join the waitlist of CS 224V please"),  # says more than the value
    (TICKET, LEAVE_NAME, "my name is Jane Doe and I study physics"),  # free text, too long
])
def test_anything_more_goes_to_the_llm(agent, point, text):
    assert not fast(agent, point, text)


def test_a_request_the_rules_read_surely_needs_no_llm():
    assert fast(TICKET, (), "I need help joining a waitlist")  # the task and its kind, nothing else said


def test_a_parse_not_understood_empty_unsure_or_leaving_values_out_is_never_confident():
    dialogue = Dialogue(COURSES)
    assert not confident(dialogue.spec, dialogue.state, Parse("", understood=False), "x")
    unsure = Parse("course_0.course_name = 'x'", margin=MIN_MARGIN / 2)
    assert not confident(dialogue.spec, dialogue.state, unsure, "x")
    left_out = Parse("course_0.course_name = 'x'", margin=MIN_MARGIN * 2, unplaced=("7",))
    assert not confident(dialogue.spec, dialogue.state, left_out, "x 7")
    assert confident(dialogue.spec, dialogue.state, Parse("course_0.course_name = 'x'", margin=MIN_MARGIN * 2), "x")


def test_a_name_followed_by_another_clause_keeps_only_the_name():
    assert Dialogue(TICKET).do(*LEAVE_NAME).parse("my name is Jane Doe and I study physics").statements == \
        "main_0.full_name = 'Jane Doe'"
