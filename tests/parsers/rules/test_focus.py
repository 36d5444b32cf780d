"""Helper ``focus``: the record a pronoun stands for."""

from __future__ import annotations

from genie_bot.language.words import using
from genie_bot.parsers.rules import lexicon
from genie_bot.parsers.rules.focus import focus_record, in_focus, resolved

from ..support import COURSES, RESTAURANT, Dialogue, booking


def test_the_restaurant_being_booked_is_in_focus():
    reading = booking().reading("is it quiet?")
    assert in_focus(reading) == "Enoteca Vigna"
    assert focus_record(reading, "restaurants")["id"] == 30
    assert resolved(reading, "is it quiet?") == "is Enoteca Vigna quiet?"


def test_the_one_record_just_reported_is_in_focus():
    dialogue = Dialogue(RESTAURANT).do("answer('what is the phone number of The Oak Spoon?')")
    reading = dialogue.reading("is it good for kids?")
    assert in_focus(reading) == "The Oak Spoon"
    assert focus_record(reading, "restaurants")["name"] == "The Oak Spoon"


def test_a_just_reported_record_wins_over_the_one_being_booked():
    dialogue = booking().do("answer('what is the phone number of The Oak Spoon?')")
    assert in_focus(dialogue.reading("does it have parking?")) == "The Oak Spoon"


def test_several_records_reported_put_none_in_focus():
    dialogue = Dialogue(RESTAURANT).do("answer('italian restaurants in palo alto')")
    assert in_focus(dialogue.reading("is it good for kids?")) is None


def test_a_course_code_held_by_the_task_is_in_focus():
    dialogue = Dialogue(COURSES).do(
        "main_0.courses_to_take = CoursesToTake(course_0_details=Course(course_name='CS 107'))")
    reading = dialogue.reading("who teaches it?")
    assert in_focus(reading) == "CS 107"
    assert resolved(reading, "who teaches the course?") == "who teaches CS 107?"
    with using(lexicon(dialogue.spec)):  # the agent says a class is a course
        assert resolved(reading, "who teaches the class?") == "who teaches CS 107?"
    assert focus_record(reading, "courses") is None  # a code, not a record


def test_nothing_in_focus_leaves_the_text_alone():
    reading = Dialogue(RESTAURANT).reading("is it open late?")
    assert in_focus(reading) is None
    assert resolved(reading, "is it open late?") == "is it open late?"


def test_a_text_without_a_pronoun_is_not_rewritten():
    assert resolved(booking().reading("x"), "is The Oak Spoon quiet?") == "is The Oak Spoon quiet?"
