"""Issue 37, "Ask and validation text doubled": a field's validation message and its ``ask:`` are joined so
that no sentence repeats ("A course can be taken for 1 to 5 units; how many units would you like? How many
units would you like to take it for?" was said)."""

from __future__ import annotations

import re

import pytest

from genie_bot.responders.wording import unsaid
from tests.contract.chat import COURSES, DENTAL, RESTAURANT, Chat


def sentences(text: str) -> list[str]:
    return [s.strip().lower() for s in re.split(r"(?<=[.?!;])\s+", text) if s.strip()]


def test_too_many_units_is_asked_once():
    chat = Chat(COURSES)
    reply = chat.says("i want to enroll in cs 106a", "letter", "7")
    assert reply == "A course can be taken for 1 to 5 units; how many units would you like?"


def test_a_time_outside_the_hours_says_the_hours_once_and_asks_the_time():
    chat = Chat(DENTAL)
    chat.say("book a cleaning with dr kim on monday")
    assert chat.say("at 7pm") == "We see patients from 8am to 6pm; please pick a time in those hours. At what time?"


def test_a_sunday_is_refused_and_the_date_asked_for():
    chat = Chat(DENTAL)
    chat.say("book a cleaning with dr kim on monday")
    assert chat.say("make it dec 6") == ("We're open Monday to Saturday, and the date can't be in the past; please "
                                         "pick another day. On which date?")


def test_a_time_when_the_restaurant_is_closed_asks_the_time_after_why():
    chat = Chat(RESTAURANT)
    reply = chat.says("book a table at lemongrass noodle bar for 4 tomorrow", "at 10pm")
    assert reply == ("The restaurant is closed at that time; please pick a time within its opening hours. "
                     "At what time?")


@pytest.mark.parametrize("agent, messages", [
    (COURSES, ("i want to enroll in cs 106a", "letter", "7")),
    (COURSES, ("cs 106a", "letter", "3 units", "cs 109", "letter", "12")),
    (DENTAL, ("book a cleaning with dr kim on monday", "at 7pm")),
    (DENTAL, ("book a cleaning with dr kim on monday at 10am", "Ana Lopez", "12")),
    (RESTAURANT, ("book a table at lemongrass noodle bar tomorrow at 7pm", "45 people")),
])
def test_no_sentence_of_a_reply_asking_again_is_said_twice(agent, messages):
    reply = Chat(agent).says(*messages)
    said = sentences(reply)
    assert len(said) == len(set(said)), reply


@pytest.mark.parametrize("asked, said, kept", [
    ("At what time? (we are open 9am to 6pm)", "We are open 9am to 6pm; please pick a time in that window.",
     "At what time?"),
    ("How many units would you like to take it for?", "A course can be taken for 1 to 5 units; how many units would "
     "you like?", ""),
    ("At what time? We see patients from 8am to 6pm.", "We see patients from 8am to 6pm; please pick a time in "
     "those hours.", "At what time?"),
    # a statement about the same thing does not stand for the question: the user is still asked
    ("What is your 8-digit student id number?", "Student id numbers have exactly 8 digits (for example 06123456).",
     "What is your 8-digit student id number?"),
    ("For which date?", "That date is in the past; please pick today or a later date.", "For which date?"),
    # other hours are another sentence
    ("At what time? We see patients from 8am to 6pm.", "We are closed on Sundays.",
     "At what time? We see patients from 8am to 6pm."),
])
def test_unsaid_keeps_only_what_the_reason_does_not_say(asked, said, kept):
    assert unsaid(asked, said) == kept
