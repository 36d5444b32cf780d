"""A value said again is the field's, not free text;
a new value of a one-of-a-kind field is a change the reply names; words that only name a field
are no value of any."""

from __future__ import annotations

import datetime as dt

import pytest

from genie_bot.parse import SAID_AGAIN

from ..support import BOOKING_PEOPLE, BOOKING_SUMMARY, COURSES, LEAVE_DATE, TICKET, Dialogue, booking

FRIDAY_27 = dt.date(2026, 11, 27)


@pytest.mark.parametrize("text, said", [
    ("for friday nov 27 pls", ["book_restaurant_0.date"]),
    ("still 7:30pm", ["book_restaurant_0.time"]),
    ("yeah four of us on the 27th", ["book_restaurant_0.num_people", "book_restaurant_0.date"]),
])
def test_a_value_said_again_is_no_special_request(text, said):
    parse = booking(*BOOKING_SUMMARY).parse(text)
    assert parse.statements.splitlines() == [SAID_AGAIN + slot for slot in said]


@pytest.mark.xfail(strict=True, reason="issue 35: 'by email' (the method given already) asked for the date is not "
                                       "understood (no '# said again')")
def test_an_option_said_again_is_had_unless_it_is_denied():
    dialogue = Dialogue(TICKET).do(*LEAVE_DATE)  # sent by Email; asked for the date
    assert dialogue.parse("by email").statements == SAID_AGAIN + "leave_of_absence_0.submission_method"
    assert SAID_AGAIN not in dialogue.parse("not email").statements


@pytest.mark.parametrize("text, statement", [
    ("make it the 28th", "book_restaurant_0.date = '2026-11-28'"),
    ("hmm can we do 8pm instead", "book_restaurant_0.time = '20:00:00'"),
])
def test_a_new_date_or_time_changes_the_one_field_of_its_kind(text, statement):
    parse = booking(*BOOKING_PEOPLE).parse(text)  # asked for the number of people
    assert statement in parse.statements.splitlines() and "special_request" not in parse.statements
    assert parse.corrected == (statement.split(" = ")[0],)


@pytest.mark.xfail(strict=True, reason="issue 35: 'In Person' asked for the date is not understood (submission_method "
                                       "is not changed)")
def test_an_option_named_as_written_changes_its_field_and_a_denied_one_does_not():
    dialogue = Dialogue(TICKET).do(*LEAVE_DATE)
    assert dialogue.parse("In Person").statements == "leave_of_absence_0.submission_method = 'In Person'"
    assert "submission_method" not in dialogue.parse("definitely not in person").statements


@pytest.mark.parametrize("text", ["change the student full name", "can u update the grading option",
                                  "fix the special request"])
def test_naming_a_field_to_change_gives_no_field_the_text(text):
    agent = COURSES if "special" not in text else "restaurant_reservation"
    assert text not in Dialogue(agent).parse(text).statements


def test_an_ordinal_counts_no_units():
    assert "course_num_units" not in Dialogue(COURSES).parse("change the second course").statements


@pytest.mark.parametrize("text", ["idk", "dunno", "no clue tbh"])
def test_not_knowing_in_short_declines(text):
    assert Dialogue(COURSES).parse(text).statements == "course_0.course_name = 'NA'"
