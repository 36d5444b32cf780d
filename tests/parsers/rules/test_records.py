"""Helper ``records``: values named by a knowledge table (a restaurant by name, a course by code or title)."""

from __future__ import annotations

import pytest

from genie_bot.parsers.rules.records import ordinal, record_value, table_of, unused_mentions

from ..support import BOOK, COURSES, RESTAURANT, Dialogue, booking, loaded

RESTAURANT_FIELD = loaded(RESTAURANT)[0].tasks["BookRestaurant"].fields["restaurant"]
COURSE_NAME = loaded(COURSES)[0].tasks["Course"].fields["course_name"]


@pytest.mark.parametrize("text, index", [("the second one", 1), ("the last", -1), ("number 3", 2), ("option 2", 1),
                                         ("the 3rd", 2), ("nothing", None)])
def test_ordinal(text, index):
    assert ordinal(text) == index


def test_the_table_of_a_field():
    assert table_of(loaded(RESTAURANT)[0], RESTAURANT_FIELD) == "restaurants"  # a record
    assert table_of(loaded(COURSES)[0], COURSE_NAME) == "courses"  # values_from
    assert table_of(loaded(COURSES)[0], loaded(COURSES)[0].tasks["Course"].fields["grade_type"]) is None


@pytest.mark.parametrize("text", ["Enoteca Vigna", "enoteca vinga", "the oak spoon please"])
def test_a_restaurant_named_exactly_or_misspelt_is_its_record(text):
    reading = Dialogue(RESTAURANT).do(*BOOK).reading(text)
    value = record_value(reading, RESTAURANT_FIELD)
    assert value["name"] in ("Enoteca Vigna", "The Oak Spoon") and "opening_time" in value
    assert unused_mentions(reading, RESTAURANT_FIELD) == 0  # the mention is taken


@pytest.mark.parametrize("text", ["book it", "nothing here", "a nice italian place"])
def test_no_restaurant_named_and_none_in_focus(text):
    assert record_value(Dialogue(RESTAURANT).do(*BOOK).reading(text), RESTAURANT_FIELD) is None


def test_book_it_is_the_restaurant_in_focus():
    assert record_value(booking().reading("book it"), RESTAURANT_FIELD)["name"] == "Enoteca Vigna"


def test_the_second_one_is_the_second_listed_result():
    dialogue = Dialogue(RESTAURANT).do("answer('italian restaurants in palo alto')")
    names = [row["name"] for row in dialogue.state.answer.result]
    assert record_value(dialogue.reading("the second one"), RESTAURANT_FIELD)["name"] == names[1]
    assert record_value(dialogue.reading("the last one"), RESTAURANT_FIELD)["name"] == names[-1]


def test_each_course_mention_gives_one_value_in_order():
    reading = Dialogue(COURSES).reading("CS 224V and CS 229")
    assert unused_mentions(reading, COURSE_NAME) == 2
    assert [record_value(reading, COURSE_NAME), record_value(reading, COURSE_NAME)] == ["CS 224V", "CS 229"]
    assert record_value(reading, COURSE_NAME) is None


@pytest.mark.parametrize("text", ["cs224v", "conversational virtual assistants"])
def test_a_course_is_kept_as_the_user_wrote_it(text):
    assert record_value(Dialogue(COURSES).reading(text), COURSE_NAME) == text


@pytest.mark.parametrize("text", ["CS 999", "intro to AI"])
def test_a_course_not_in_the_catalogue_is_no_mention(text):
    assert record_value(Dialogue(COURSES).reading(text), COURSE_NAME) is None


def test_a_listed_record_is_the_whole_record():
    dialogue = Dialogue(RESTAURANT).do("answer('any good thai places in seattle?')")
    chosen = record_value(dialogue.reading("the second one"), RESTAURANT_FIELD)
    assert "opening_time" in chosen and "closing_time" in chosen
