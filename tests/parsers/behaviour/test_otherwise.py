"""A remark that names no member answers with the member described "otherwise"."""

from __future__ import annotations

import pytest

from ..support import DIRECTIONS, LEAVE, TICKET, TRIP, TRIP_MODE, Dialogue


@pytest.mark.parametrize("text", ["that's interesting", "this is so frustrating"])
def test_a_remark_at_the_directions_goes_on(text):
    dialogue = Dialogue(TRIP).do(*DIRECTIONS)
    assert dialogue.said(text) == ["directions_0.reply = 'proceed'"]


def test_a_remark_when_asked_how_to_travel_is_the_usual_choice():
    assert Dialogue(TRIP).do(*TRIP_MODE).said("I see the park") == ["trip_0.travel_mode = 'Transit'"]


@pytest.mark.parametrize("text", ["hmm", "hello", "what?", "can you help me", "I don't know"])
def test_fillers_greetings_questions_requests_and_declines_are_no_remark(text):
    assert "directions_0.reply = 'proceed'" not in Dialogue(TRIP).do(*DIRECTIONS).said(text)


def test_a_member_named_wins_over_otherwise_in_the_pipeline():
    dialogue = Dialogue(TRIP).do(*DIRECTIONS)
    assert dialogue.parse("more detail please").statements == "directions_0.reply = 'more detail'"
    assert Dialogue(TRIP).do(*TRIP_MODE).parse("walk").statements == "trip_0.travel_mode = 'Walking'"


def test_an_enum_without_an_otherwise_member_takes_no_remark():
    assert "form_status" not in Dialogue(TICKET).do(*LEAVE).parse("this is so frustrating").statements
