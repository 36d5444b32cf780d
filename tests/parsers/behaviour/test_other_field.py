"""A short typed reply that answers another open field than the one asked."""

from __future__ import annotations

import pytest

from ..support import BOOKING_TIME, LEAVE_SUBMITTED, TICKET, Dialogue, booking


@pytest.mark.parametrize("text, statement", [
    ("7pm", "book_restaurant_0.time = '19:00:00'"),
    ("for 4", "book_restaurant_0.num_people = 4"),
])
def test_asked_for_the_date_a_time_or_a_party_size_fills_its_own_field(text, statement):
    assert booking().said(text) == [statement]


@pytest.mark.parametrize("text, statement", [
    ("winter", "leave_of_absence_0.start_quarter = 'Winter'"),
    ("spring quarter", "leave_of_absence_0.start_quarter = 'Spring'"),
    ("november 3", "leave_of_absence_0.submission_date = '2026-11-03'"),
])
def test_asked_how_the_form_was_sent_a_quarter_or_a_date_fills_its_field(text, statement):
    assert Dialogue(TICKET).do(*LEAVE_SUBMITTED).said(text) == [statement]


@pytest.mark.xfail(strict=True, reason="issue 35: '4' asked for the date gives num_people = 4 (4 people, the 4th or 4 "
                                       "o'clock is not asked back)")
def test_a_bare_number_two_fields_could_take_is_left_alone():
    """"4" when asked for the date: 4 people or 4 o'clock? Neither is guessed."""
    assert booking().parse("4").understood is False


def test_a_field_already_filled_is_not_answered_again():
    """Asked for the time, with the date given already: "next friday" is no change of it."""
    assert "book_restaurant_0.date = " not in booking(*BOOKING_TIME).parse("next friday").statements
