"""Dialogue acts, recognised from the language data (``genie_bot.language``), as the whole parser reads them.

Each test brings an example agent or a tuned domain agent to a point of a conversation by running
formal statements through the real runtime, then reads one message there with the parser
(``RuleParser.parse``, through the agent) and checks the statements it writes: a yes, a no, a
decline, a cancel, a value taken back ("3, no wait, 5": the last counts), a change of mind
("actually make it 6"), a value denied ("8pm not 7:30"), a question, thanks and goodbyes.
"""

from __future__ import annotations

import datetime as dt

import pytest

from genie_bot.acts import AskToCancel
from genie_bot.parse import CHIT_CHAT
from genie_bot.spec import NA

from .chat import (BOOKING_PEOPLE, BOOKING_SUMMARY, BOOKING_TIME, CAR_RENTAL, GYM, LEAVE, LEAVE_ANYTHING_ELSE,
                   MAINTENANCE, PLUMBING, TICKET, Chat, booking, lines)

NA_SET = repr(str(NA))
"""How a declined field is written (``field = 'NA'``)."""


def summary() -> Chat:
    chat = booking(*BOOKING_SUMMARY)
    assert chat.asked == "AskForConfirmation(book_restaurant_0)"
    return chat


def urgent_asked() -> Chat:
    chat = Chat(MAINTENANCE).do(*PLUMBING)
    assert chat.asked.startswith("AskField(maintenance_request_0, urgent,")
    return chat


def anything_else_asked() -> Chat:
    chat = Chat(TICKET).do(*LEAVE_ANYTHING_ELSE)
    assert chat.asked.startswith("AskField(main_0, extra_details,")
    return chat


# -- yes and no ----------------------------------------------------------------------------------------------

@pytest.mark.parametrize("text", ["yes", "yeah go ahead", "sounds good", "yes please book it", "Perfect!", "lgtm"])
def test_a_yes_at_the_summary_goes_ahead(text):
    assert summary().parse(text).statements == "book_restaurant_0.confirmed = True"


@pytest.mark.parametrize("text", ["no", "nope", "no thanks"])
def test_a_no_at_the_summary_does_not(text):
    parse = summary().parse(text)
    assert (parse.statements, parse.answers_question) == ("book_restaurant_0.confirmed = False", True)


@pytest.mark.parametrize("text, value", [("yes", True), ("yep it's flooding", True), ("no", False), ("nah", False),
                                         ("not really", False)])
def test_yes_and_no_answer_a_yes_no_question(text, value):
    assert urgent_asked().parse(text).statements == f"maintenance_request_0.urgent = {value}"


def test_a_yes_to_a_choice_between_x_and_not_x_is_x():
    chat = Chat(TICKET).do(*LEAVE)
    assert chat.parse("yes").statements == "leave_of_absence_0.form_status = 'Submitted'"
    assert chat.parse("not yet").statements == "leave_of_absence_0.form_status = 'Not Submitted'"


@pytest.mark.parametrize("text", ["no", "nope"])
def test_a_no_to_a_choice_between_x_and_not_x_is_not_x(text):
    chat = Chat(TICKET).do(*LEAVE)
    assert chat.parse(text).statements == "leave_of_absence_0.form_status = 'Not Submitted'"


def test_a_yes_with_a_change_at_the_summary_goes_nowhere_and_asks_what_to_change():
    parse = summary().parse("yes but make it 6")
    assert not parse.understood and not parse.statements
    assert "What should I change?" in parse.reason


# -- declining -----------------------------------------------------------------------------------------------

@pytest.mark.parametrize("text", ["skip", "n/a", "nothing else", "no thanks", "nope", "idk"])
def test_an_optional_question_declined(text):
    parse = anything_else_asked().parse(text)
    assert (parse.statements, parse.answers_question) == (f"main_0.extra_details = {NA_SET}", True)


def test_words_to_an_optional_free_text_question_are_no_decline():
    assert anything_else_asked().parse("my advisor knows").statements == "main_0.extra_details = 'my advisor knows'"


@pytest.mark.parametrize("text", ["idk", "Don't remember!", "Sorry I don't have that", "I..don't know"])
def test_not_knowing_declines_a_required_question_and_the_agent_says_it_cannot_skip_it(text):
    chat = booking(*BOOKING_PEOPLE)
    assert chat.parse(text).statements == f"book_restaurant_0.num_people = {NA_SET}"
    reply = chat.say(text)
    assert "required" in reply.text and chat.value("book_restaurant_0", "num_people") is None


# -- cancelling ----------------------------------------------------------------------------------------------

@pytest.mark.parametrize("chat", [summary, urgent_asked, anything_else_asked], ids=["summary", "yes-no", "optional"])
@pytest.mark.parametrize("text", ["cancel", "forget it", "never mind, cancel"])
def test_cancel_drops_the_task_in_progress(chat, text):
    assert chat().parse(text).statements == "exitws()"


def test_cancel_with_a_reason_is_asked_about_before_the_task_is_dropped():
    chat = Chat(CAR_RENTAL).do("rent_car_0 = RentCar(pickup_location='SFO', pickup_date='2026-12-05', "
                               "pickup_time='10:00')")
    reply = chat.say("forget it, i'll take an uber")
    assert reply.parse.statements == "exitws()"
    assert any(isinstance(a, AskToCancel) for a in reply.acts)
    assert chat.state.instances["rent_car_0"].open


def test_nothing_to_cancel():
    assert Chat(GYM).parse("cancel").statements == "# nothing to cancel"


def test_start_over_drops_the_task_and_opens_the_start_task_again():
    assert lines(Chat(TICKET).parse("start over")) == ["exitws(main_0, confirmed=True)", "main_1 = Main()"]


# -- a value taken back: the last one counts ------------------------------------------------------------------

@pytest.mark.parametrize("statements, text, expected", [
    ((), "friday, no wait, saturday", "book_restaurant_0.date = '2026-11-28'"),
    ((), "tuesday, no wait, wednesday", "book_restaurant_0.date = '2026-11-25'"),
    ((), "the 27th, no wait, the 28th", "book_restaurant_0.date = '2026-11-28'"),
    (BOOKING_TIME, "7pm, no wait, 8pm", "book_restaurant_0.time = '20:00:00'"),
    (BOOKING_PEOPLE, "3, no wait, 5", "book_restaurant_0.num_people = 5"),
    (BOOKING_PEOPLE, "3 i mean 5", "book_restaurant_0.num_people = 5"),
    (BOOKING_PEOPLE, "three, no wait, five", "book_restaurant_0.num_people = 5"),
    (BOOKING_PEOPLE, "for 3, scratch that, 5", "book_restaurant_0.num_people = 5"),
])
def test_a_value_taken_back_in_the_same_message(statements, text, expected):
    parse = booking(*statements).parse(text)
    assert (parse.statements, parse.answers_question) == (expected, True)


def test_a_value_taken_back_at_the_summary_changes_it_to_the_last():
    parse = summary().parse("make it 5, no wait, 6")
    assert parse.statements == "book_restaurant_0.num_people = 6"
    assert parse.corrected == ("book_restaurant_0.num_people",)


def test_a_date_taken_back_on_another_agent():
    chat = Chat(GYM).do("freeze_membership_0 = FreezeMembership(member_id='PF-123456')")
    assert chat.parse("dec 1, no wait, dec 3").statements == "freeze_membership_0.first_day = '2026-12-03'"


@pytest.mark.parametrize("text, value", [("yes, no wait, no", False), ("yes wait no", False), ("yes, i mean no", False),
                                         ("no, no wait, yes", True)])
def test_a_yes_or_no_taken_back_counts_as_the_last(text, value):
    assert summary().parse(text).statements == f"book_restaurant_0.confirmed = {value}"


# -- a change of mind, and a value denied ---------------------------------------------------------------------

@pytest.mark.parametrize("text, expected", [
    ("actually make it 6 people", "book_restaurant_0.num_people = 6"),
    ("on second thought 6 people", "book_restaurant_0.num_people = 6"),
    ("actually, saturday", "book_restaurant_0.date = '2026-11-28'"),
    ("can we do 8pm instead?", "book_restaurant_0.time = '20:00:00'"),
    ("instead of 7:30 make it 8pm", "book_restaurant_0.time = '20:00:00'"),
])
def test_a_change_of_mind_at_the_summary(text, expected):
    parse = summary().parse(text)
    key = expected.split(" = ")[0]
    assert (parse.statements, parse.corrected, parse.understood) == (expected, (key,), True)


def test_a_change_of_mind_to_a_value_held_already_is_said_again_not_set():
    assert summary().parse("actually make it friday").statements == "# said again: book_restaurant_0.date"


@pytest.mark.parametrize("statements, text, expected", [
    ((), "wednesday not tuesday", "book_restaurant_0.date = '2026-11-25'"),
    (BOOKING_TIME, "8pm not 7pm", "book_restaurant_0.time = '20:00:00'"),
    (BOOKING_PEOPLE, "5 not 3", "book_restaurant_0.num_people = 5"),
    (BOOKING_SUMMARY, "6 people not 4", "book_restaurant_0.num_people = 6"),
    (BOOKING_SUMMARY, "8pm not 7:30", "book_restaurant_0.time = '20:00:00'"),
    (BOOKING_SUMMARY, "make it 6 instead of 4", "book_restaurant_0.num_people = 6"),
])
def test_x_not_y_gives_x(statements, text, expected):
    assert booking(*statements).parse(text).statements == expected


def test_an_option_not_another_at_the_summary_changes_the_option():
    chat = Chat(MAINTENANCE).do(
        "maintenance_request_0 = MaintenanceRequest(resident_name='Sam Lee', unit='4B', category='Appliance', "
        "appliance='Washer', problem_description='it stops halfway and won''t spin', urgent=False, "
        "permission_to_enter=True, pets=NA, preferred_windows=['Saturday'], phone='415-555-0101')",
        "maintenance_request_0.permission_to_enter.confirmed = True")
    assert chat.asked == "AskForConfirmation(maintenance_request_0)", chat.asked
    parse = chat.parse("oh actually it's the dryer not the washer")
    assert (parse.statements, parse.corrected) == ("maintenance_request_0.appliance = 'Dryer'",
                                                   ("maintenance_request_0.appliance",))


# -- questions, thanks and goodbyes ---------------------------------------------------------------------------

@pytest.mark.parametrize("statements, text", [((), "what are their hours?"),
                                              (BOOKING_SUMMARY, "what time do they close?")])
def test_a_question_about_the_record_in_focus_is_a_question_for_the_knowledge_base(statements, text):
    parse = booking(*statements).parse(text)
    assert parse.statements.startswith("answer(") and "Enoteca Vigna" in parse.statements
    assert not parse.answers_question


def test_a_question_to_a_yes_no_question_is_no_answer_to_it():
    parse = urgent_asked().parse("does a leaky faucet count?")
    assert "urgent" not in parse.statements


@pytest.mark.parametrize("chat", [summary, urgent_asked, lambda: Chat(GYM)], ids=["summary", "asked", "idle"])
@pytest.mark.parametrize("text", ["thanks", "thank you so much!", "thx"])
def test_thanks_is_chit_chat_wherever_it_is_said(chat, text):
    assert chat().parse(text).statements == CHIT_CHAT


@pytest.mark.parametrize("text", ["hi there", "hello"])
def test_a_greeting_is_chit_chat(text):
    assert Chat(TICKET).parse(text).statements == CHIT_CHAT


@pytest.mark.parametrize("text", ["bye", "thanks, bye", "goodbye, have a nice day"])
def test_a_goodbye_at_the_summary_is_a_no(text):
    assert summary().parse(text).statements == "book_restaurant_0.confirmed = False"


@pytest.mark.parametrize("text", ["bye", "goodbye, have a nice day"])
def test_a_goodbye_to_a_question_ends_the_task_and_with_nothing_open_says_farewell(text):
    assert urgent_asked().parse(text).statements == "exitws(maintenance_request_0)"
    assert Chat(GYM).parse(text).statements == "# farewell"


@pytest.mark.parametrize("text", ["no allergies", "6 inch lemon, whipped cream, 1 layer, no allergies"])
def test_no_with_a_word_only_the_members_of_an_optional_choice_are_described_with_declines_it(text):
    """The cake's dietary needs list "nut allergy" among their members' synonyms: "no allergies" says there are none;
    "whipped cream" says nothing of them though a member is described with "cream" (the frosting has that word)."""
    said = lines(Chat("custom_cakes").do("order_cake_0 = OrderCake()").parse(text))
    assert f"order_cake_0.dietary = {NA_SET}" in said


def test_a_stay_counted_in_nights_before_its_first_day_fills_both_days_in_the_year_the_arrival_takes():
    chat = Chat("campsite_reservations", today=dt.date(2026, 6, 1))
    said = lines(chat.parse("reserve b03 for 3 nights starting the 19th"))
    assert "arrival_date='2026-06-19'" in " ".join(said) and "departure_date='2026-06-22'" in " ".join(said)


@pytest.mark.parametrize("text", ["tent site a02 june 17 to 19, 2 of us, no dogs", "a02 for 2, no pets"])
def test_no_with_a_thing_only_a_yes_no_field_names_answers_it_no(text):
    """Whether the campers bring "a dog or another pet": "no dogs" and "no pets" say no."""
    said = " ".join(lines(Chat("campsite_reservations").parse(text)))
    assert "bringing_pets=False" in said


def test_no_with_a_thing_the_description_lists_as_a_yes_is_no_no():
    """"no heat" is among the emergencies the urgent field's description lists."""
    chat = Chat(MAINTENANCE).do("maintenance_request_0 = MaintenanceRequest()")
    assert not any("urgent = False" in line for line in lines(chat.parse("no heat at all, radiator is cold")))
