"""Helper ``about``: which field a clause is about (declines, "my X is Y", other fields' clauses)."""

from __future__ import annotations

import pytest

from genie_bot.parsers.rules.about import declines, declines_unasked, stated_values, text_about, without_options

from ..support import COURSES, LEAVE_ANYTHING_ELSE, LEAVE_NAME, STUDENT, TICKET, Dialogue, loaded


def field(agent: str, worksheet: str, name: str):
    return loaded(agent)[0].tasks[worksheet].fields[name]


FULL_NAME = field(TICKET, "Main", "full_name")
EMAIL = field(TICKET, "Main", "email")


@pytest.mark.parametrize("text", ["skip", "no idea, sorry", "I'd rather not say"])
def test_a_decline_of_the_asked_field(text):
    assert declines(Dialogue(TICKET).do(*LEAVE_NAME).reading(text), FULL_NAME)


@pytest.mark.parametrize("text", ["Jane Doe", "my name is Jane Doe", "I forgot my email"])
def test_no_decline(text):
    assert not declines(Dialogue(TICKET).do(*LEAVE_NAME).reading(text), FULL_NAME)


def test_forgetting_a_field_declines_that_field_whatever_was_asked():
    reading = Dialogue(TICKET).do(*LEAVE_NAME).reading("I forgot my email")
    assert declines(reading, EMAIL) and declines_unasked(reading, EMAIL)
    assert not declines_unasked(reading, FULL_NAME)


@pytest.mark.xfail(strict=True, reason="'the class is full and I don't know why' asked for the name is a decline: "
                                       "full_name = 'NA' (the docstring says a late 'I don't know' is none)")
def test_not_knowing_why_late_in_a_clause_is_no_decline():
    assert not declines(Dialogue(TICKET).do(*LEAVE_NAME).reading("the class is full and I don't know why"), FULL_NAME)


@pytest.mark.parametrize("text, stated", [
    ("my name is Jane Doe", {"full_name": "Jane Doe"}),
    ("my name is Jane Doe and my email is jane.doe@stanford.edu", {"full_name": "Jane Doe"}),
    ("Jane Doe", {}),
])
def test_stated_values_of_free_text_fields(text, stated):
    assert stated_values(Dialogue(TICKET).do(*LEAVE_ANYTHING_ELSE).reading(text)) == stated


def test_my_name_is_goes_to_the_field_named_like_it():
    """The student record has student_name only: "my name" shares "name" with it."""
    assert stated_values(Dialogue(COURSES).do(*STUDENT).reading("my name is Jane Doe")) == {"student_name": "Jane Doe"}


@pytest.mark.parametrize("text, about", [
    ("Jane Doe, jane.doe@stanford.edu", "Jane Doe"),
    ("my email is ann@stanford.edu", ""),
    ("my name is Jane Doe", "my name is Jane Doe"),
])
def test_text_about_the_name_leaves_out_the_clauses_of_other_fields(text, about):
    assert text_about(Dialogue(TICKET).do(*LEAVE_NAME).reading(text), FULL_NAME) == about


def test_a_question_is_kept_untouched():
    assert text_about(Dialogue(TICKET).do(*LEAVE_NAME).reading("who are you?"), FULL_NAME) == "who are you?"


@pytest.mark.parametrize("text, rest", [("CS 224V for a letter grade", "CS 224V"), ("CS 224V", "CS 224V"),
                                        ("CS 229 with credit/no credit", "CS 229")])
def test_an_option_said_in_passing_is_no_part_of_free_text(text, rest):
    assert without_options(text, [field(COURSES, "Course", "grade_type")]) == rest
