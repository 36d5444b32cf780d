"""``parsers.person_names``: a person's name as an answer, and what is no name."""

from __future__ import annotations

import pytest

from genie_bot.parsers.person_names import names_a_person, person_name

from .support import COURSES, TICKET, loaded


@pytest.mark.parametrize("text, name", [
    ("Jane Doe", "Jane Doe"), ("tyler jones", "tyler jones"), ("José de la Cruz", "José de la Cruz"),
    ("Jane Doe and I study physics", "Jane Doe"), ("Jane Doe, jane@stanford.edu", "Jane Doe"),
    ("J. R. Smith", "J. R. Smith"), ("Dr. Lee", "Dr. Lee"), ("Mary-Kate O'Neil.", "Mary-Kate O'Neil"),
    ("Jane Doe please", "Jane Doe"), ("oh Jones", "Jones"), ("yes, Jane Doe", "Jane Doe"),
])
def test_the_name_a_reply_gives(text, name):
    assert person_name(text) == name


@pytest.mark.parametrize("text", ["this is so frustrating", "an international student", "06123456",
                                  "Jane lives in Palo Alto", "what do you need it for?", "Um, ok thanks", "Oh great!"])
def test_a_sentence_or_a_description_is_no_name(text):
    assert person_name(text) is None


def test_which_fields_hold_a_persons_name():
    ticket, courses = loaded(TICKET)[0].tasks, loaded(COURSES)[0]
    assert names_a_person(ticket["Main"].fields["full_name"])
    assert names_a_person(courses.tasks["StudentInfo"].fields["student_name"])  # "the student's full name"
    assert not names_a_person(courses.tasks["Course"].fields["course_name"])
    bank = loaded("star/bank_fraud_report")[0].tasks["FraudReport"].fields
    assert names_a_person(bank["mothers_maiden_name"]) and not names_a_person(bank["childhood_pet_name"])
