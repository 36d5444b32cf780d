"""Issue 37, "The end of a conversation": after the task is done, "no thanks", "nope thats it", "thats all,
bye" close the conversation politely, once and for all: no "Is there anything else I can help you with?"
again, no "Sorry, I didn't catch that"."""

from __future__ import annotations

import pytest

from genie_bot.responders.closing import CLOSED, THANKED
from tests.contract.chat import (DENTAL, RESTAURANT, Chat, booked_table, dental_booking_summary,
                                 enrollment_summary, ticket_summary)

ASKED_AGAIN = "Is there anything else I can help you with?"


@pytest.mark.parametrize("message, reply", [
    ("no thanks", CLOSED), ("nope thats it", CLOSED), ("thats all, bye", CLOSED), ("no", CLOSED),
    ("nah im good", CLOSED), ("bye!", CLOSED), ("no that's everything", CLOSED),
    ("thanks!", THANKED), ("cool thank you", THANKED), ("perfect thx bye", THANKED),
    # a fresh pass, new phrasings
    ("all good thx", CLOSED), ("nothing else, ty", THANKED), ("no we're good", CLOSED), ("nope, cheers", CLOSED),
    ("k thx", THANKED), ("great, that's it", CLOSED), ("no, have a good one", CLOSED), ("not right now", CLOSED),
    ("maybe later", CLOSED), ("see ya", CLOSED),
])
def test_after_a_booking_a_closing_message_is_answered_with_goodbye(message, reply):
    chat = booked_table()
    assert chat.say(message) == reply


def test_the_conversation_stays_closed_however_many_times_the_user_says_so():
    chat = booked_table()
    replies = [chat.say(m) for m in ("no thanks", "nope thats it", "thats all, bye")]
    assert replies == [CLOSED, CLOSED, CLOSED]
    assert chat.submissions == 1


def test_goodbye_is_exactly_what_the_user_reads():
    assert CLOSED == "Okay! Goodbye, and come back any time."
    assert THANKED == "You're welcome! Goodbye, and come back any time."


def test_after_the_goodbye_a_new_request_starts_a_new_task():
    chat = booked_table()
    chat.say("no thanks")
    assert chat.say("book another table") == "Which restaurant would you like to book? I can also help you find one."


@pytest.mark.parametrize("message", ["no, i wanted something else", "no idea what you mean"])
def test_a_no_that_asks_for_more_is_not_a_goodbye(message):
    chat = booked_table()
    assert chat.say(message) not in (CLOSED, THANKED)


@pytest.mark.parametrize("message", ["awesome thanks so much!", "ok thanks again guys", "we are good thank you"])
def test_thanks_with_words_that_ask_nothing_more_close(message):
    chat = booked_table()
    assert chat.say(message) == THANKED


def test_an_acknowledgement_without_a_closing_word_still_offers_more():
    chat = booked_table()
    assert chat.say("ok") == ASKED_AGAIN


def test_a_closing_word_while_a_task_is_open_does_not_end_it():
    chat = Chat(RESTAURANT)
    chat.say("book a table at lemongrass noodle bar")
    assert chat.say("thanks") == "You're welcome!\n\nFor which date?"
    assert chat.state.instances["book_restaurant_0"].open


@pytest.mark.parametrize("summary", [dental_booking_summary, enrollment_summary, ticket_summary],
                         ids=["dental_clinic", "course_enrollment", "ticket_submission"])
@pytest.mark.parametrize("message, reply", [("nope thats it", CLOSED), ("thats all, bye", CLOSED),
                                            ("thank you!", THANKED)])
def test_every_agent_closes_after_its_submission(summary, message, reply):
    chat = summary()
    chat.say("yes")
    assert chat.submissions == 1
    assert chat.say(message) == reply


def test_a_dropped_request_also_closes_on_no_thanks():
    chat = Chat(DENTAL)
    chat.say("book a cleaning")
    chat.say("cancel")
    chat.say("yes")
    assert not any(i.open for i in chat.state.instances.values())
    assert chat.say("no thanks") == CLOSED


def test_a_question_after_the_task_is_answered_not_closed():
    chat = booked_table()
    assert chat.say("no wait, what time does lemongrass noodle bar close?") not in (CLOSED, THANKED, ASKED_AGAIN)

