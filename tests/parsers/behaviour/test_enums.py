"""Which declared member the user means, read against the question asked."""

from __future__ import annotations

import pytest

from ..support import DIRECTIONS, EXTERNAL, LEAVE, LEAVE_SUBMITTED, TICKET, TRIP, TROUBLE, WAITLIST_QUARTER, Dialogue

ISSUE_ASKED = EXTERNAL + ("external_test_credits_0.test_type = 'AP'",)  # external_test_credits_0.issue

QUARTER = (TICKET, WAITLIST_QUARTER, "join_waitlist_0.quarter")
FORM = (TICKET, LEAVE, "leave_of_absence_0.form_status")
METHOD = (TICKET, LEAVE_SUBMITTED, "leave_of_absence_0.submission_method")
TASK = (TICKET, (), "main_0.student_task")
ISSUE_TYPE = (TICKET, TROUBLE, "trouble_shoot_0.issue_type")
ISSUE = (TICKET, ISSUE_ASKED, "external_test_credits_0.issue")
TEST = (TICKET, EXTERNAL, "external_test_credits_0.test_type")
REPLY = (TRIP, DIRECTIONS, "directions_0.reply")


def member(field: tuple[str, tuple[str, ...], str], text: str) -> str | None:
    """The member ``text`` gives the field (agent, point where it is asked, target), or None."""
    agent, point, target = field
    said = [s for s in Dialogue(agent).do(*point).said(text) if s.startswith(f"{target} = ")]
    assert len(said) <= 1, said
    return said[0].split(" = ", 1)[1].strip("'") if said else None


@pytest.mark.parametrize("field, text, value", [
    (QUARTER, "Winter", "Winter"), (QUARTER, "winter quarter", "Winter"), (QUARTER, "autum", "Autumn"),
    (QUARTER, "fall", "Autumn"), (QUARTER, "winetr", "Winter"),
    (FORM, "not submitted", "Not Submitted"), (FORM, "I haven't submitted it", "Not Submitted"),
    (FORM, "submitted", "Submitted"), (FORM, "I have not submitted it", "Not Submitted"),
    (FORM, "I submitted it", "Submitted"), (FORM, "never submitted", "Not Submitted"),
    (METHOD, "emialed", "Email"), (METHOD, "in person", "In Person"), (METHOD, "emailed", "Email"),
    (METHOD, "I emailed it", "Email"),
    (ISSUE, "scores not recieved", "Scores Not Received"),
])
def test_a_member_named_exactly_contained_negated_or_misspelt(field, text, value):
    assert member(field, text) == value


@pytest.mark.parametrize("field, text, value", [
    (TASK, "leave", "Leave of Absence"), (TASK, "I want to take a leave", "Leave of Absence"),
    (ISSUE_TYPE, "swap my course", "Change Course"), (ISSUE_TYPE, "waitlist", "Join Waitlist"),
    (ISSUE, "wrong number of units", "Wrong Credits"),
])
def test_a_member_by_its_description(field, text, value):
    assert member(field, text) == value


@pytest.mark.parametrize("text", ["they never showed up", "my credits dont show up anywhere"])
def test_a_negation_matches_a_description_that_negates_the_same_words(text):
    """"the credits do not show up" describes Missing Credits: "never showed up" says it, negated as it is."""
    assert member(ISSUE, text) == "Missing Credits"


@pytest.mark.xfail(strict=True, reason="issue 35: 'I don't want to change my course' gives issue_type = 'Change "
                                       "Course'")
def test_a_negated_word_chooses_no_member_described_with_it_plainly():
    assert member(ISSUE_TYPE, "I don't want to change my course") != "Change Course"


@pytest.mark.parametrize("text", [
    "something else",
    pytest.param("something else not ap or ib", marks=pytest.mark.xfail(
        strict=True, reason="issue 35: 'something else not ap or ib' gives test_type = 'IB', a member it denies")),
    pytest.param("not AP or IB", marks=pytest.mark.xfail(
        strict=True, reason="issue 35: 'not AP or IB' gives test_type = 'IB', a member it denies")),
    "neither",
    "none of those",
    "a different one", "otehr",
])
def test_none_of_the_named_members_is_the_member_for_the_rest(text):
    """"Other: another external test" stands for every test not listed."""
    assert member(TEST, text) == "Other"


def test_no_member_stands_for_the_rest_of_an_enum_without_one():
    assert member(QUARTER, "something else") is None


def test_the_member_not_denied():
    assert member(TEST, "it's not AP, it's IB") == "IB"


@pytest.mark.parametrize("text", [
    pytest.param("something is wrong with my enrollment", marks=pytest.mark.xfail(
        strict=True, reason="issue 35: 'something is wrong with my enrollment' reads as '# the request is already "
                            "being handled' (no student_task)")),
    pytest.param("something is wrong with my enrollmet", marks=pytest.mark.xfail(
        strict=True, reason="issue 35: 'something is wrong with my enrollmet' gives student_task = 'External Test "
                            "Credits'")),
    "whats the matter with my enrolment",
])
def test_what_is_wrong_with_something_is_about_that_thing(text):
    """"wrong with my enrollment" is about enrollment, not the credits described as "missing or wrong";
    a long word misspelt counts as the word it is close to."""
    assert member(TASK, text) == "TroubleShoot"


@pytest.mark.parametrize("text", ["pizza", "I have a question"])
def test_nothing_like_any_member(text):
    assert member(TASK, text) is None


@pytest.mark.parametrize("text, value", [
    ("ok, more details please", "more detail"), ("I don't understand", "more detail"),
    pytest.param("I'm there now", "found it", marks=pytest.mark.xfail(
        strict=True, reason="issue 35: 'I'm there now' gives reply = 'proceed', not 'found it'")),
])
def test_the_phrases_a_member_lists_and_the_longest_one_wins(text, value):
    assert member(REPLY, text) == value
