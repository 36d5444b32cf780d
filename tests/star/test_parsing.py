"""The rule parser's reading of the words the STAR agents rely on, message by message."""

from __future__ import annotations

import pytest

from genie_bot.acts import AskField, Report
from genie_bot.star import AGENTS_DIR
from genie_bot.star.labels import Rule, load_label_map
from genie_bot.state import DialogueState
from tests.parsers.support import DIRECTIONS, TRIP, TRIP_MODE, Dialogue

TRIVIA, BANK = "star/trivia", "star/bank_fraud_report"
KEEP_PLAYING = ("game_0 = Game(start_question=1)", "game_0.guess = 'x'")  # game_0.keep_playing
FULL_NAME = ("conversation_0 = Conversation(report=FraudReport())",)  # fraud_report_0.full_name
DATE_OF_BIRTH = ("conversation_0 = Conversation(report=FraudReport(full_name='Jane Doe', account_number=NA))",)


@pytest.mark.parametrize("text, member", [
    ("ok, more details please", "more detail"), ("I dont understand", "more detail"),  # "don't" and "dont" alike
    ("could you be more detailed?", "more detail"),  # an ending is allowed
    pytest.param("No, I think I've got it. Thanks.", "no thanks", marks=pytest.mark.xfail(
        strict=True, reason="issue 35: 'No, I think I've got it. Thanks.' at the directions is not understood")),
])
def test_listed_example_phrases_pick_an_enum_member_longest_first(text, member):
    assert Dialogue(TRIP).do(*DIRECTIONS).said(text) == [f"directions_0.reply = {member!r}"]


@pytest.mark.xfail(strict=True, reason="issue 35: 'I took the wrong bus and got lost' asked how to travel gives "
                                       "travel_mode = 'Transit'")
def test_a_mistake_is_no_choice_of_enum_member():
    assert "travel_mode" not in Dialogue(TRIP).do(*TRIP_MODE).parse("I took the wrong bus and got lost").statements


def test_taking_the_bus_is_transit():
    assert Dialogue(TRIP).do(*TRIP_MODE).said("I'll take the bus") == ["trip_0.travel_mode = 'Transit'"]


@pytest.mark.xfail(strict=True, reason="issue 35: 'I need to get to my hot date near Craig and Center' opens the "
                                       "conversation without the arrival location")
def test_the_place_is_found_at_any_preposition():
    assert "arrival_location='Craig and Center'" in Dialogue(TRIP).parse(
        "I need to get to my hot date near Craig and Center").statements


def test_there_is_no_place():
    assert "arrival_location" not in Dialogue(TRIP).parse("I need to get there asap").statements


@pytest.mark.parametrize("text, start", [
    ("I'd like to play some trivia starting at number 1", 1), ("start at question four", 4),
    pytest.param("Let's start with the second question.", 2, marks=pytest.mark.xfail(
        strict=True, reason="issue 35: 'Let's start with the second question.' starts the game without "
                            "start_question")),
    ("Question 4 and play 5 questions", 4),  # the field's word first
])
def test_numbers_next_to_the_fields_words_in_digits_words_and_ordinals(text, start):
    assert f"start_question={start}" in Dialogue(TRIVIA).parse(text).statements


@pytest.mark.parametrize("text, more", [
    ("hell yeah", True), ("well no", False), ("let's play more", True), ("no more", False),
    ("No way, this game is fixed! Give me another one", True),  # an exclamation, not a no
    ("no idea", False), ("all done. thank you!", False)])
def test_more_ways_to_say_yes_no_and_enough(text, more):
    assert Dialogue(TRIVIA).do(*KEEP_PLAYING).said(text) == [f"game_0.keep_playing = {more}"]


@pytest.mark.parametrize("text, date", [("well try june or july 15th of 1929 I can't remember",
                                         "june or july 15th of 1929"), ("sometime around 1918", "around 1918")])
def test_the_bank_format_reads_an_unsure_date_of_birth(text, date):
    assert Dialogue(BANK).do(*DATE_OF_BIRTH).said(text) == [f"fraud_report_0.date_of_birth = {date!r}"]


@pytest.mark.parametrize("text", ["maybe 3", "9431"])
def test_what_the_bank_format_refuses_is_no_date_of_birth(text):
    dialogue = Dialogue(BANK).do(*DATE_OF_BIRTH)
    dialogue.reply(text)
    assert dialogue.values("fraud_report_0").get("date_of_birth") is None


def test_a_name_without_the_words_after_it():
    assert Dialogue(BANK).do(*FULL_NAME).said("Jane Doe. My account number is 68318931") == [
        "fraud_report_0.full_name = 'Jane Doe'", "fraud_report_0.account_number = '68318931'"]


def test_a_label_rule_without_a_label_passes_the_act_over():
    labels = load_label_map(AGENTS_DIR / "trivia")
    state = DialogueState()
    game, question = state.add_instance("Game"), state.add_instance("Question")
    question.values.update(question="Q?", answer="a", answered_early=True)
    game.values["outcome"] = "correct"
    acts = [Report(question.name, {"question": "Q?", "answer": "a"}), AskField(game.name, "keep_playing", "go on?")]
    assert labels.label(acts, state, understood=True) == "trivia_inform_answer_correct_ask_next"
    question.values["answered_early"] = False
    assert labels.label(acts, state, understood=True) == "trivia_ask_question"
    assert Rule(act="Report", label=None).label is None
