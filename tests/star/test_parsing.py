"""The rule parser's vocabulary the STAR agents rely on, checked on its own (genie_bot/parsers/extract.py, enums.py)."""

from __future__ import annotations

from genie_bot.acts import AskField, Report
from genie_bot.parsers import enums, extract
from genie_bot.spec import load_agent
from genie_bot.star import AGENTS_DIR
from genie_bot.star.labels import Rule, load_label_map
from genie_bot.state import DialogueState

TRIP = load_agent(AGENTS_DIR / "trip_directions")
REPLY = TRIP.tasks["Directions"].fields["reply"]
MODE = TRIP.tasks["Trip"].fields["travel_mode"]
ARRIVAL = TRIP.tasks["Trip"].fields["arrival_location"]
START = load_agent(AGENTS_DIR / "trivia").tasks["Game"].fields["start_question"]
BANK = load_agent(AGENTS_DIR / "bank_fraud_report").tasks["FraudReport"].fields


def test_listed_example_phrases_pick_an_enum_member_longest_first():
    assert enums.enum_value("ok, more details please", REPLY) == "more detail"
    assert enums.enum_value("I dont understand", REPLY) == "more detail"  # "don't" and "dont" alike
    assert enums.enum_value("could you be more detailed?", REPLY) == "more detail"  # an ending is allowed
    assert enums.enum_value("No, I think I've got it. Thanks.", REPLY) == "no thanks"
    assert enums.listed_phrases("go on (yes, next; keep going)") == ["yes", "next", "keep going"]


def test_a_member_marked_otherwise_answers_remarks():
    assert enums.otherwise_value(REPLY) == "proceed"
    assert enums.otherwise_value(MODE) == "Transit"
    assert enums.otherwise_value(TRIP.tasks["Trip"].fields["arrival_location"]) is None


def test_a_mistake_is_no_choice_of_enum_member():
    assert enums.mentioned_enum_value("I took the wrong bus and got lost", MODE) is None
    assert enums.mentioned_enum_value("I'll take the bus", MODE) == "Transit"


def test_role_phrases_are_tried_at_every_preposition():
    assert extract.role_phrase("I need to get to my hot date near Craig and Center", ARRIVAL) == "Craig and Center"
    assert extract.role_phrase("I need to get there asap", ARRIVAL) is None


def test_numbers_next_to_the_fields_words_in_digits_words_and_ordinals():
    assert extract.number_with_noun("I'd like to play some trivia starting at number 1", START) == 1
    assert extract.number_with_noun("start at question four", START) == 4
    assert extract.number_with_noun("Let's start with the second question.", START) == 2
    assert extract.number_with_noun("Question 4 and play 5 questions", START) == 4  # the field's word first


def test_more_ways_to_say_yes_no_and_enough():
    assert extract.yes_no("hell yeah") is True and extract.yes_no("well no") is False
    assert extract.yes_no("let's play more") is True and extract.yes_no("no more") is False
    assert extract.yes_no("No way, this game is fixed! Give me another one") is True  # an exclamation, not a no
    assert extract.yes_no("no idea") is False
    assert extract.is_farewell("all done. thank you!")


def test_the_bank_formats_read_unsure_dates_and_names_without_trailing_words():
    dob = BANK["date_of_birth"].validation.pattern
    assert extract.pattern_values("well try june or july 15th of 1929 I can't remember", dob) == [
        "june or july 15th of 1929"]
    assert extract.pattern_values("sometime around 1918", dob) == ["around 1918"]
    assert extract.pattern_values("maybe 3", dob) == [] and extract.pattern_values("9431", dob) == []
    assert extract.pattern_values("Jane Doe. My account number is 68318931", BANK["full_name"].validation.pattern) == [
        "Jane Doe"]


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
