"""Strategy ``ahead``: a short bare value that fits no typed question answers the free-text question
of the asked instance that comes later (a ``dont_ask`` field included)."""

from __future__ import annotations

import pytest

from genie_bot.parsers.rules.ahead import answers_a_later_question

from ..support import CHANGE_REASON, LEAVE_DATE, TICKET, TRIP, TRIP_MODE, Dialogue, booking


@pytest.mark.parametrize("text, value", [("Union Square", "Union Square"), ("from the station", "station")])
def test_a_place_given_when_asked_how_to_travel_is_the_departure_place(text, value):
    reading = Dialogue(TRIP).do(*TRIP_MODE).reading(text)
    assert answers_a_later_question(reading) == [f"trip_0.departure_location = {value!r}"]


def test_a_bare_phrase_given_when_asked_for_the_date_is_the_special_request():
    assert answers_a_later_question(booking().reading("a quiet table")) == [
        "book_restaurant_0.special_request = 'a quiet table'"]


@pytest.mark.parametrize("text", ["7", "hmm", "yes", "who are you?", "I don't know", "a message that is far too long "
                                  "to be a bare value", "on blursday", "this frday"])
def test_numbers_fillers_yes_no_questions_and_sentences_are_no_later_answer(text):
    assert answers_a_later_question(booking().reading(text)) == []


def test_an_asked_instance_with_no_free_text_field_takes_nothing():
    """The name belongs to the ticket, not to the leave of absence whose date is asked."""
    assert answers_a_later_question(Dialogue(TICKET).do(*LEAVE_DATE).reading("Jane Doe")) == []


def test_a_free_text_question_is_answered_by_the_asked_strategy_not_this_one():
    assert answers_a_later_question(Dialogue(TICKET).do(*CHANGE_REASON).reading("Ann Lee")) == []


@pytest.mark.parametrize("text", ["tomorrow", "Enoteca Vigna"])
def test_a_value_of_a_typed_field_is_no_special_request(text):
    dialogue = booking("book_restaurant_0.date = '2026-11-27'")
    assert "special_request" not in dialogue.parse(text).statements


def test_asking_for_the_task_politely_is_no_later_answer():
    """"file a ticket please" at "what can I help you with?" asks for the ticket: it is no note for the staff."""
    dialogue = Dialogue(TICKET)
    dialogue.reply("file a ticket please")
    assert dialogue.values("main_0").get("extra_details") is None

