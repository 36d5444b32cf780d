"""The record a pronoun stands for, in a question to the knowledge base."""

from __future__ import annotations

import pytest

from ..support import COURSES, RESTAURANT, Dialogue, booking

PHONE_OF_OAK_SPOON = "answer('what is the phone number of The Oak Spoon?')"


def test_the_restaurant_being_booked_is_in_focus():
    assert booking().said("is it quiet?") == ["answer('is Enoteca Vigna quiet?')"]


def test_the_one_record_just_reported_is_in_focus():
    dialogue = Dialogue(RESTAURANT).do(PHONE_OF_OAK_SPOON)
    assert dialogue.said("is it good for kids?") == ["answer('is The Oak Spoon good for kids?')"]


def test_a_just_reported_record_wins_over_the_one_being_booked():
    dialogue = booking().do(PHONE_OF_OAK_SPOON)
    assert dialogue.said("does it have parking?") == ["answer('does The Oak Spoon have parking?')"]


def test_several_records_reported_put_none_in_focus():
    dialogue = Dialogue(RESTAURANT).do("answer('italian restaurants in palo alto')")
    statements = dialogue.parse("is it good for kids?").statements
    assert statements.startswith("answer(") and "is it good for kids" in statements


@pytest.mark.parametrize("text, asked", [("who teaches it?", "who teaches CS 107?"),
                                         ("who teaches the course?", "who teaches CS 107?"),
                                         ("who teaches the class?", "who teaches CS 107?")])  # a class is a course
def test_a_course_code_held_by_the_task_is_in_focus(text, asked):
    dialogue = Dialogue(COURSES).do(
        "main_0.courses_to_take = CoursesToTake(course_0_details=Course(course_name='CS 107'))")
    assert dialogue.said(text) == [f"answer({asked!r})"]


def test_nothing_in_focus_leaves_the_text_alone():
    assert Dialogue(RESTAURANT).said("is it open late?") == ["answer('is it open late?')"]


def test_a_text_without_a_pronoun_is_not_rewritten():
    assert booking().said("is The Oak Spoon quiet?") == ["answer('is The Oak Spoon quiet?')"]
