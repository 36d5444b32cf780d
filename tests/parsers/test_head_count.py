"""``parsers.head_count``: a party counted from the people it lists, and no count when anyone is uncountable."""

from __future__ import annotations

import pytest

from genie_bot.parsers.head_count import head_count


@pytest.mark.parametrize("text, people", [
    ("me and my wife", 2), ("my wife and I", 2), ("just me", 1), ("Just myself.", 1), ("me alone", 1),
    ("my wife, me and our 2 kids", 4), ("me plus 3 friends", 4), ("me and my 2 kids", 3),
    ("me, my husband and his mom", 3), ("I'll bring 3 friends", 4), ("my parents and my sister", 3),
    ("6 adults and 2 kids", 8), ("for me and 3 other people", 4), ("table for my wife and me", 2),
    ("my wife and i are coming", 2), ("my husband and I, plus our 2 kids", 4),
])
def test_the_people_listed_are_counted(text, people):
    assert head_count(text) == people


@pytest.mark.parametrize("text", [
    "me and some friends",          # how many friends?
    "my wife and kids",             # how many kids?
    "me, my wife and the kids",
    "book me a table for 2 people",  # the writer is no item of a list: a number is said
    "4 of us including me",
    "3 friends",                    # with or without the writer
    "tomorrow at 7",
    "no, i didn't ask for a special request",  # "i" in a sentence is no one listed
])
def test_no_count_when_someone_cannot_be_counted_or_nobody_is_listed(text):
    assert head_count(text) is None


@pytest.mark.parametrize("text, people", [("me and my 3 classmates", 4), ("me plus 4 teammates", 5),
                                          ("i'm bringing 2 coworkers", 3)])
def test_people_of_any_kind_listed_with_a_number_beside_the_writer(text, people):
    assert head_count(text) == people
