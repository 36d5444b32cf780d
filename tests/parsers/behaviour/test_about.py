"""Which field a clause is about: declines, "my X is Y", and the clauses of other fields."""

from __future__ import annotations

import pytest

from ..support import COURSES, LEAVE_ANYTHING_ELSE, LEAVE_NAME, STUDENT, TICKET, Dialogue

NAME_DECLINED = "main_0.full_name = 'NA'"


def at_the_name(text: str) -> list[str]:
    return Dialogue(TICKET).do(*LEAVE_NAME).said(text)


@pytest.mark.parametrize("text", ["skip", "no idea, sorry", "I'd rather not say"])
def test_a_decline_of_the_asked_field(text):
    assert at_the_name(text) == [NAME_DECLINED]


@pytest.mark.parametrize("text", [
    "Jane Doe", "my name is Jane Doe", "I forgot my email",
])
def test_no_decline(text):
    assert NAME_DECLINED not in at_the_name(text)


def test_forgetting_a_field_declines_that_field_whatever_was_asked():
    said = at_the_name("I forgot my email")
    assert "main_0.email = 'NA'" in said and NAME_DECLINED not in said


def test_not_knowing_why_late_in_a_clause_is_no_decline():
    assert NAME_DECLINED not in at_the_name("the class is full and I don't know why")


@pytest.mark.parametrize("text, stated", [
    ("my name is Jane Doe", ["main_0.full_name = 'Jane Doe'"]),
    ("my name is Jane Doe and my email is jane.doe@stanford.edu",
     ["main_0.full_name = 'Jane Doe'", "main_0.email = 'jane.doe@stanford.edu'"]),
])
@pytest.mark.xfail(strict=True, reason="issue 35: at 'anything else?', 'my name is Jane Doe ...' also becomes "
                                       "extra_details (the name, or the whole message)")
def test_stated_values_of_free_text_fields_are_no_extra_details(text, stated):
    said = Dialogue(TICKET).do(*LEAVE_ANYTHING_ELSE).said(text)
    assert set(stated) <= set(said) and not any(s.startswith("main_0.extra_details =") and "NA" not in s
                                                for s in said)


def test_my_name_is_goes_to_the_field_named_like_it():
    """The student record has student_name only: "my name" shares "name" with it."""
    assert Dialogue(COURSES).do(*STUDENT).said("my name is Jane Doe") == ["student_info_0.student_name = 'Jane Doe'"]


@pytest.mark.parametrize("text, name", [
    ("Jane Doe, jane.doe@stanford.edu", "Jane Doe"),
    ("my email is ann@stanford.edu", None),
    ("my name is Jane Doe", "Jane Doe"),
    ("who are you?", None),
])
def test_the_name_leaves_out_the_clauses_of_other_fields_and_questions(text, name):
    names = [s for s in at_the_name(text) if s.startswith("main_0.full_name =")]
    assert names == ([f"main_0.full_name = {name!r}"] if name else [])


@pytest.mark.parametrize("text, rest", [("CS 224V for a letter grade", "CS 224V"), ("CS 224V", "CS 224V"),
                                        ("CS 229 with credit/no credit", "CS 229")])
def test_an_option_said_in_passing_is_no_part_of_free_text(text, rest):
    assert f"course_0.course_name = {rest!r}" in Dialogue(COURSES).said(text)
