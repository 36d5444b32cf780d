"""``parsers.enums``: which declared member the user means."""

from __future__ import annotations

import pytest

from genie_bot.parsers.enums import (enum_value, listed_phrase_value, listed_phrases, mentioned_enum_value,
                                     negation_aware, otherwise_value, word_root)

from .support import TICKET, TRIP, loaded

TASKS = loaded(TICKET)[0].tasks
QUARTER = TASKS["JoinWaitlist"].fields["quarter"]
FORM = TASKS["LeaveOfAbsence"].fields["form_status"]
METHOD = TASKS["LeaveOfAbsence"].fields["submission_method"]
TASK = TASKS["Main"].fields["student_task"]
ISSUE_TYPE = TASKS["TroubleShoot"].fields["issue_type"]
ISSUE = TASKS["ExternalTestCredits"].fields["issue"]
TEST = TASKS["ExternalTestCredits"].fields["test_type"]
REPLY = loaded(TRIP)[0].tasks["Directions"].fields["reply"]


@pytest.mark.parametrize("f, text, member", [
    (QUARTER, "Winter", "Winter"), (QUARTER, "winter quarter", "Winter"), (QUARTER, "autum", "Autumn"),
    (FORM, "not submitted", "Not Submitted"), (FORM, "I haven't submitted it", "Not Submitted"),
    (FORM, "submitted", "Submitted"), (METHOD, "emialed", "Email"), (METHOD, "in person", "In Person"),
    (ISSUE, "scores not recieved", "Scores Not Received"),
])
def test_a_member_named_exactly_contained_negated_or_misspelt(f, text, member):
    assert enum_value(text, f, explicit=True) == member
    assert mentioned_enum_value(text, f, explicit=True) == member


@pytest.mark.parametrize("f, text, member", [
    (TASK, "leave", "Leave of Absence"), (TASK, "I want to take a leave", "Leave of Absence"),
    (ISSUE_TYPE, "swap my course", "Change Course"), (ISSUE_TYPE, "waitlist", "Join Waitlist"),
    (ISSUE, "wrong number of units", "Wrong Credits"), (METHOD, "emailed", "Email"),
])
def test_a_member_by_its_description_only_when_not_explicit(f, text, member):
    assert enum_value(text, f) == member
    assert enum_value(text, f, explicit=True) is None


@pytest.mark.parametrize("text, member", [("they never showed up", "Missing Credits"),
                                          ("my credits dont show up anywhere", "Missing Credits")])
def test_a_negation_matches_a_description_that_negates_the_same_words(text, member):
    """"the credits do not show up" describes Missing Credits: "never showed up" says it, negated as it is."""
    assert enum_value(text, ISSUE) == member


def test_a_negated_word_chooses_no_member_described_with_it_plainly():
    assert enum_value("I don't want to change my course", ISSUE_TYPE) != "Change Course"


@pytest.mark.parametrize("text", ["something else", "something else not ap or ib", "not AP or IB", "neither",
                                  "none of those", "a different one"])
def test_none_of_the_named_members_is_the_member_for_the_rest(text):
    """"Other: another external test" stands for every test not listed."""
    assert enum_value(text, TEST) == "Other" and mentioned_enum_value(text, TEST) == "Other"


def test_no_member_stands_for_the_rest_of_an_enum_without_one():
    assert enum_value("something else", QUARTER) is None


@pytest.mark.parametrize("text, member", [("it's not AP, it's IB", "IB"), ("otehr", "Other"), ("winetr", "Winter")])
def test_the_member_not_denied_and_a_slip_of_the_finger(text, member):
    assert enum_value(text, TEST if member in TEST.values else QUARTER) == member


@pytest.mark.parametrize("text", ["something is wrong with my enrollment", "something is wrong with my enrollmet",
                                  "whats the matter with my enrolment"])
def test_what_is_wrong_with_something_is_about_that_thing(text):
    """"wrong with my enrollment" is about enrollment, not the credits described as "missing or wrong";
    a long word misspelt counts as the word it is close to."""
    assert enum_value(text, TASK) == "TroubleShoot"


def test_a_form_of_a_one_word_member_is_mentioned_explicitly():
    assert mentioned_enum_value("I emailed it", METHOD, explicit=True) == "Email"


@pytest.mark.parametrize("text", ["pizza", "I have a question"])
def test_nothing_like_any_member(text):
    assert enum_value(text, TASK) is None


def test_fall_is_autumn():
    assert enum_value("fall", QUARTER) == "Autumn"


def test_listed_phrases_and_the_longest_one_wins():
    assert listed_phrases("go on (yes, next, keep going)") == ["yes", "next", "keep going"]
    assert listed_phrase_value("ok, more details please", REPLY) == "more detail"
    assert listed_phrase_value("I don't understand", REPLY) == "more detail"
    assert listed_phrase_value("I'm there now", REPLY) == "found it"


def test_the_otherwise_member():
    assert otherwise_value(REPLY) == "proceed"
    assert otherwise_value(QUARTER) is None


@pytest.mark.parametrize("text, member", [("I have not submitted it", "Not Submitted"), ("I submitted it", "Submitted"),
                                          ("never submitted", "Not Submitted")])
def test_negation_names_the_opposite_member(text, member):
    assert negation_aware(text, FORM, "Submitted") == member


def test_negation_without_an_opposite_member_keeps_the_member():
    assert negation_aware("not in winter", QUARTER, "Winter") == "Winter"


@pytest.mark.parametrize("word, root", [("driving", "driv"), ("drives", "driv"), ("submitted", "submit"),
                                        ("emails", "email"), ("go", "go")])
def test_word_root(word, root):
    assert word_root(word) == root
