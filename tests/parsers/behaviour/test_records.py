"""Values named by a knowledge table (a restaurant by name, a course by code or title)."""

from __future__ import annotations

import pytest

from ..support import BOOK, COURSES, RESTAURANT, Dialogue

ASKED_THE_RESTAURANT = "book_restaurant_0.restaurant = "


def restaurant_chosen(dialogue: Dialogue, text: str) -> str:
    """The statement choosing the booking's restaurant, or ''."""
    return next((s for s in dialogue.said(text) if s.startswith(ASKED_THE_RESTAURANT)), "")


@pytest.mark.parametrize("text, name", [("Enoteca Vigna", "Enoteca Vigna"), ("enoteca vinga", "Enoteca Vigna"),
                                        ("the oak spoon please", "The Oak Spoon")])
def test_a_restaurant_named_exactly_or_misspelt_is_its_record(text, name):
    chosen = restaurant_chosen(Dialogue(RESTAURANT).do(*BOOK), text)
    assert f"'name': {name!r}" in chosen and "'opening_time'" in chosen


@pytest.mark.parametrize("text", ["book it", "nothing here", "a nice italian place"])
def test_no_restaurant_named_and_none_in_focus(text):
    assert restaurant_chosen(Dialogue(RESTAURANT).do(*BOOK), text) == ""


@pytest.mark.parametrize("text, index", [
    ("the second one", 1),
    pytest.param("the last one", -1, marks=pytest.mark.xfail(
        strict=True, reason="issue 35: 'the last one' after a list of restaurants is not understood")),
    pytest.param("number 3", 2, marks=pytest.mark.xfail(
        strict=True, reason="issue 35: 'number 3' after a list of restaurants gives num_people = 3")),
    pytest.param("option 2", 1, marks=pytest.mark.xfail(
        strict=True, reason="issue 35: 'option 2' picks the third restaurant listed")),
    pytest.param("the 3rd", 2, marks=pytest.mark.xfail(
        strict=True, reason="issue 35: 'the 3rd' after a list of restaurants gives date = '2026-12-03'")),
])
def test_an_ordinal_picks_that_listed_result_as_the_whole_record(text, index):
    dialogue = Dialogue(RESTAURANT).do(*BOOK, "answer('italian restaurants in palo alto')")
    names = [row["name"] for row in dialogue.state.answer.result]
    chosen = restaurant_chosen(dialogue, text)
    assert f"'name': {names[index]!r}" in chosen and "'opening_time'" in chosen and "'closing_time'" in chosen


def test_each_course_mention_gives_one_course_in_order():
    statements = Dialogue(COURSES).parse("CS 224V and CS 229").statements
    assert statements.count("CS 224V") == 1 and statements.count("CS 229") == 1
    assert statements.index("CS 224V") < statements.index("CS 229")


@pytest.mark.parametrize("text", ["cs224v", "conversational virtual assistants"])
def test_a_course_is_kept_as_the_user_wrote_it(text):
    assert f"course_0.course_name = {text!r}" in Dialogue(COURSES).said(text)
