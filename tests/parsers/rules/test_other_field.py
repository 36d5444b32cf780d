"""Strategy ``other_field``: a short typed reply that answers another open field than the one asked."""

from __future__ import annotations

import pytest

from genie_bot.parsers.rules.other_field import answers_another_field

from ..support import BOOKING_TIME, LEAVE_SUBMITTED, TICKET, Dialogue, booking


@pytest.mark.parametrize("text, statement", [
    ("7pm", "book_restaurant_0.time = '19:00:00'"),
    ("for 4", "book_restaurant_0.num_people = 4"),
])
def test_asked_for_the_date_a_time_or_a_party_size_fills_its_own_field(text, statement):
    assert answers_another_field(booking().reading(text)) == [statement]


@pytest.mark.parametrize("text, statement", [
    ("winter", "leave_of_absence_0.start_quarter = 'Winter'"),
    ("spring quarter", "leave_of_absence_0.start_quarter = 'Spring'"),
    ("november 3", "leave_of_absence_0.submission_date = '2026-11-03'"),
])
def test_asked_how_the_form_was_sent_a_quarter_or_a_date_fills_its_field(text, statement):
    assert answers_another_field(Dialogue(TICKET).do(*LEAVE_SUBMITTED).reading(text)) == [statement]


def test_a_long_message_is_not_read_as_a_short_answer_to_another_field():
    reading = Dialogue(TICKET).do(*LEAVE_SUBMITTED).reading("a very long message with several words winter")
    assert answers_another_field(reading) == []


def test_a_bare_number_two_fields_could_take_is_left_alone():
    """"4" when asked for the date: 4 people or 4 o'clock? Neither is guessed."""
    reading = booking().reading("4")
    assert answers_another_field(reading) == []
    assert booking().parse("4").understood is False


def test_a_field_already_filled_is_not_answered_again():
    reading = booking(*BOOKING_TIME).reading("next friday")
    assert answers_another_field(reading) == []


def test_the_value_counts_as_taken():
    reading = booking().reading("7pm")
    answers_another_field(reading)
    assert ("book_restaurant_0", "time") in reading.assigned
