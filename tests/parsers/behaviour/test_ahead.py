"""A short bare value that fits no typed question answers the free-text question of the asked
instance that comes later (a ``dont_ask`` field included)."""

from __future__ import annotations

import pytest

from ..support import CHANGE_REASON, LEAVE_DATE, TICKET, TRIP, TRIP_MODE, Dialogue, booking


@pytest.mark.parametrize("text, value", [("Union Square", "Union Square"), ("from the station", "station")])
@pytest.mark.xfail(strict=True, reason="issue 35: asked how to travel, a bare place ('Union Square', 'from the "
                                       "station') is not understood")
def test_a_place_given_when_asked_how_to_travel_is_the_departure_place(text, value):
    assert Dialogue(TRIP).do(*TRIP_MODE).said(text) == [f"trip_0.departure_location = {value!r}"]


def test_a_bare_phrase_given_when_asked_for_the_date_is_the_special_request():
    assert booking().said("a quiet table") == [
        "book_restaurant_0.special_request = 'a quiet table'"]


@pytest.mark.parametrize("text", ["7", "hmm", "yes", "who are you?", "I don't know", "a message that is far too long "
                                  "to be a bare value", "on blursday", "this frday"])
def test_numbers_fillers_yes_no_questions_and_sentences_are_no_later_answer(text):
    assert "special_request" not in booking().parse(text).statements


def test_an_asked_instance_with_no_free_text_field_takes_nothing():
    """The name belongs to the ticket, not to the leave of absence whose date is asked."""
    assert "leave_of_absence_0" not in Dialogue(TICKET).do(*LEAVE_DATE).parse("Jane Doe").statements


@pytest.mark.xfail(strict=True, reason="issue 35: asked for the optional reason, 'Ann Lee' declines it (reason = "
                                       "'NA') and becomes the ticket's full_name: a bare name is the text asked only "
                                       "when the field's description gives capitalised examples")
def test_a_free_text_question_asked_is_answered_before_a_later_one():
    assert Dialogue(TICKET).do(*CHANGE_REASON).said("Ann Lee") == ["change_course_0.reason = 'Ann Lee'"]


@pytest.mark.parametrize("text", ["tomorrow", "Enoteca Vigna"])
def test_a_value_of_a_typed_field_is_no_special_request(text):
    dialogue = booking("book_restaurant_0.date = '2026-11-27'")
    assert "special_request" not in dialogue.parse(text).statements


def test_asking_for_the_task_politely_is_no_later_answer():
    """"file a ticket please" at "what can I help you with?" asks for the ticket: it is no note for the staff."""
    dialogue = Dialogue(TICKET)
    dialogue.reply("file a ticket please")
    assert dialogue.values("main_0").get("extra_details") is None

