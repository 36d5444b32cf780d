"""A party counted from the people it lists, and no count when anyone is uncountable."""

from __future__ import annotations

import pytest

from ..support import BOOKING_PEOPLE, booking

PEOPLE = "book_restaurant_0.num_people = "


def party_size(text: str) -> list[str]:
    """What ``text`` gives the number of people, asked for it."""
    return [s for s in booking(*BOOKING_PEOPLE).said(text) if s.startswith(PEOPLE)]


@pytest.mark.parametrize("text, people", [
    ("me and my wife", 2), ("my wife and I", 2), ("just me", 1), ("Just myself.", 1), ("me alone", 1),
    ("my wife, me and our 2 kids", 4), ("me plus 3 friends", 4), ("me and my 2 kids", 3),
    ("me, my husband and his mom", 3), ("I'll bring 3 friends", 4), ("my parents and my sister", 3),
    ("6 adults and 2 kids", 8), ("for me and 3 other people", 4), ("table for my wife and me", 2),
    ("my wife and i are coming", 2), ("my husband and I, plus our 2 kids", 4),
    ("me and my 3 classmates", 4), ("me plus 4 teammates", 5), ("i'm bringing 2 coworkers", 3),
])
def test_the_people_listed_are_counted(text, people):
    assert party_size(text) == [f"{PEOPLE}{people}"]


@pytest.mark.parametrize("text, people", [("book me a table for 2 people", 2), ("4 of us including me", 4)])
def test_a_number_said_is_the_count_the_writer_is_no_item_of_a_list(text, people):
    assert party_size(text) == [f"{PEOPLE}{people}"]


@pytest.mark.parametrize("text", [
    "me and some friends",          # how many friends?
    "my wife and kids",             # how many kids?
    "me, my wife and the kids",
    pytest.param("3 friends", marks=pytest.mark.xfail(  # with or without the writer
        strict=True, reason="issue 35: '3 friends' gives num_people = 3 (3 or 4 with the writer: asked, not guessed)")),
    pytest.param("tomorrow at 7", marks=pytest.mark.xfail(
        strict=True, reason="issue 35: asked for the party size, 'tomorrow at 7' gives num_people = 7 "
                            "(the 7 is a time)")),
    "no, i didn't ask for a special request",  # "i" in a sentence is no one listed
])
def test_no_count_when_someone_cannot_be_counted_or_nobody_is_listed(text):
    assert party_size(text) == []
