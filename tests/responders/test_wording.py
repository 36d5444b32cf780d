"""``responders.wording``: questions and labels built from what the bot builder wrote, never code names."""

from __future__ import annotations

import re

import pytest

from genie_bot.language.words import Lexicon, using
from genie_bot.responders.wording import label, question, to_user
from genie_bot.spec import Field, FieldType
from tests.parsers.support import COURSES, RESTAURANT, TICKET, TRIP, loaded

AGENTS = (TICKET, COURSES, RESTAURANT, TRIP, "star/bank_fraud_report", "star/trivia")


def field(agent: str, worksheet: str, name: str):
    return loaded(agent)[0].tasks[worksheet].fields[name]


def askable_fields():
    for agent in AGENTS:
        for ws in loaded(agent)[0].tasks.values():
            for f in ws.fields.values():
                if f.kind == "input" and not f.type.ref:
                    yield pytest.param(f, id=f"{agent.split('/')[-1]}.{ws.name}.{f.name}")


@pytest.mark.parametrize("f", list(askable_fields()))
def test_no_question_or_label_shows_a_code_name(f):
    for text in (question(f), label(f)):
        assert "_" not in text and not re.search(r"\b(self|None|True|False)\b", text)
        assert not text[:1].islower()


@pytest.mark.parametrize("agent, worksheet, name, asked", [
    (TICKET, "LeaveOfAbsence", "submission_date", "When was the form submitted?"),
    (TICKET, "LeaveOfAbsence", "submission_method", "How was the form submitted?"),
    (TICKET, "ExternalTestCredits", "issue", "What is wrong with the credits?"),
    (TICKET, "ExternalTestCredits", "submission_time", "When were the scores sent to the university?"),
    (TICKET, "JoinWaitlist", "waitlist_position_known", "Do you already know your waitlist position?"),
    (TICKET, "JoinWaitlist", "quarter", "What is the quarter of the course?"),
    (COURSES, "Main", "courses_to_take", "What are the courses you want to enroll in?"),
    (COURSES, "CoursesToTake", "course_0_details", "What is the first course to take?"),
    (TICKET, "TicketStatus", "ticket_id", "What is the ticket id, like TKT-00001?"),
])
def test_a_question_from_the_description_is_grammatical_and_spoken_to_the_user(agent, worksheet, name, asked):
    with using(loaded(agent)[0].vocabulary.lexicon()):  # the agent's word for its users ("the student")
        assert question(field(agent, worksheet, name)) == asked


def test_ask_is_used_as_written():
    f = field(TICKET, "Main", "full_name")
    assert question(f) == f.ask == "What is your full name?"


@pytest.mark.parametrize("name", ["early_guess", "number"])
def test_a_possessive_noun_is_no_plural(name):
    worksheet = "Game" if name == "early_guess" else "Question"
    assert question(field("star/trivia", worksheet, name)).startswith("What is ")


@pytest.mark.parametrize("agent, worksheet, name, expected", [
    (TICKET, "Main", "full_name", "Full name"),
    (TICKET, "Main", "student_task", "What you need help with"),
    (TICKET, "Main", "email", "University email address"),
    (TICKET, "LeaveOfAbsence", "submission_date", "Submission date"),
    (TICKET, "ChangeCourse", "current_course", "Current course"),
    (COURSES, "Course", "course_num_units", "Number of units"),
    (COURSES, "StudentInfo", "student_id", "8-digit university id number"),
    (COURSES, "StudentInfo", "is_international_student", "International student"),
    (RESTAURANT, "BookRestaurant", "date", "Date of the reservation"),
])
def test_labels(agent, worksheet, name, expected):
    with using(loaded(agent)[0].vocabulary.lexicon()):
        assert label(field(agent, worksheet, name)) == expected


def test_a_label_keeps_whose_it_is():
    assert label(field("star/bank_fraud_report", "FraudReport", "mothers_maiden_name")) == "Maiden name of your mother"


def test_two_fields_of_one_worksheet_have_different_labels():
    assert label(field(TRIP, "Trip", "arrival_location")) != label(field(TRIP, "Trip", "departure_location"))


@pytest.mark.parametrize("text, spoken", [
    ("the student's full name", "your full name"),
    ("whether the student already knows their waitlist position", "whether you already know your waitlist position"),
    ("Enroll a student in courses", "Enroll you in courses"),
    ("send it to the student", "send it to you"),
    ("the student id", "the student id"),
    ("the customer has a card", "you have a card"),
])
def test_to_user(text, spoken):
    with using(Lexicon(users=("student",))):  # an agent whose descriptions call its users students
        assert to_user(text) == spoken


def test_only_the_agents_own_word_for_its_users_is_spoken_to():
    """"the student" is spoken to only in an agent that says its users are students; English words for a
    user ("the customer") always are."""
    assert to_user("the student's full name") == "the student's full name"
    assert to_user("the customer's full name") == "your full name"


def test_a_record_is_asked_for_by_which():
    room = Field("room", FieldType("ref", ref="rooms"), description="the study room, a row of the rooms table")
    assert question(room, record=True) == "Which study room?"
    assert question(room) == "What is the study room, a row of the rooms table?"  # a nested worksheet's field


@pytest.mark.parametrize("description, expected", [
    ("the check-in date", "Check-in date"),
    ("the drop-off time at the airport", "Drop-off time"),
    ("a sign-on name for the portal", "Sign-on name"),
    ("the follow-up call, if any", "Follow-up call"),
])
def test_a_label_made_from_a_description_ends_at_a_whole_word(description, expected):
    """A hyphen joins a word: "the check-in date" is "Check-in date", not "Check-" cut before "in"."""
    assert label(Field("stay_start", FieldType("str"), description=description)) == expected
