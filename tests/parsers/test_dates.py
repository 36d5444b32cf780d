"""``parsers.dates``: dates and times with every reading they allow, nearest or likeliest first."""

from __future__ import annotations

import datetime as dt

import pytest

from genie_bot.parsers.dates import find_dates, find_times, mend_typos, mentions_date, whole_hour

from .support import TODAY

D = dt.date


@pytest.mark.parametrize("text, mended", [("tomorow see you", "tomorrow see you"), ("wendesday", "wednesday"),
                                          ("tommorrow", "tomorrow"), ("thursdy", "thursday"),
                                          ("I need it Tuesday", "I need it Tuesday"), ("tomato", "tomato"),
                                          ("this frdiay", "this friday"), ("on sudnay", "on sunday")])
def test_date_words_misspelt_are_mended(text, mended):
    assert mend_typos(text)[0] == mended


def test_mended_positions_point_into_the_original():
    mended, where = mend_typos("on tomorow")
    assert mended == "on tomorrow" and where[mended.index("tomorrow")] == 3


@pytest.mark.parametrize("text, readings", [
    ("november 3", (D(2026, 11, 3), D(2027, 11, 3))),
    ("jan 5", (D(2027, 1, 5), D(2026, 1, 5))),
    ("12/25", (D(2026, 12, 25), D(2025, 12, 25))),
    ("last tuesday", (D(2026, 11, 17),)),
    ("a table for 2 tomorrow", (D(2026, 11, 22),)),
    ("on the 3rd", (D(2026, 12, 3), D(2026, 11, 3), D(2026, 10, 3))),
    ("2026-12-01", (D(2026, 12, 1),)),
    ("in 3 days", (D(2026, 11, 24),)),
])
def test_readings_nearest_to_today_first(text, readings):
    assert find_dates(text, TODAY)[0].readings == readings


@pytest.mark.parametrize("text, readings", [
    ("the day after tomorrow", (D(2026, 11, 23),)),
    ("day before yesterday", (D(2026, 11, 19),)),
    ("a week from today", (D(2026, 11, 28),)),
    ("two weeks from now", (D(2026, 12, 5),)),
    ("a week from friday", (D(2026, 12, 4),)),
    ("3 days after monday", (D(2026, 11, 26),)),
    ("wednesday next week", (D(2026, 11, 25),)),
    ("the first monday of december", (D(2026, 12, 7), D(2025, 12, 1))),
    ("the last Friday of January 2027", (D(2027, 1, 29),)),
    ("can we do the 2nd tuesday in march", (D(2027, 3, 9), D(2026, 3, 10))),
])
def test_a_day_said_through_another_day(text, readings):
    """dateparser reads these wrong (tomorrow, a week ago, December 23): they are counted on the calendar."""
    assert find_dates(text, TODAY)[0].readings == readings


def test_a_day_that_does_not_exist_gives_no_reading():
    assert find_dates("the fifth monday of february", TODAY) == ()


def test_a_count_before_a_day_is_no_part_of_the_date():
    found = find_dates("a table for 2 tomorrow", TODAY)[0]
    assert (found.start, found.end) == (14, 22)


def test_a_count_after_a_day_of_the_month_is_no_part_of_the_date():
    found = find_dates("Ramen Mori january 22nd at 20:45 1 person", TODAY)
    assert [f.readings[0] for f in found] == [D(2027, 1, 22)]


def test_a_time_is_no_day_of_the_month():
    assert find_dates("saturday at 8", TODAY)[0].readings[0] == D(2026, 11, 28)


@pytest.mark.parametrize("text", ["next week", "earlier this month"])
def test_a_period_is_vague(text):
    assert find_dates(text, TODAY)[0].vague


@pytest.mark.parametrize("text", ["9503", "CS 107", "4 people"])
def test_numbers_are_no_dates(text):
    assert find_dates(text, TODAY) == ()


@pytest.mark.xfail(strict=True, reason="'the 31st' in a 30-day month gives no reading at all "
                                       "(expected Dec 31 / Oct 31)")
def test_the_31st_in_a_month_of_30_days():
    assert D(2026, 12, 31) in find_dates("the 31st", TODAY)[0].readings


def test_a_long_message_is_searched_clause_by_clause():
    text = "I have a lot to say. " * 20 + "It was sent on november 3. " + "More words here. " * 10
    found = find_dates(text, TODAY)
    assert found[0].readings[0] == D(2026, 11, 3)
    assert text[found[0].start:found[0].end].lower().endswith("november 3")


@pytest.mark.parametrize("text, readings", [
    ("7pm", (dt.time(19),)), ("19:00", (dt.time(19),)), ("noon", (dt.time(12),)), ("midnight", (dt.time(0),)),
    ("at 8", (dt.time(20), dt.time(8))), ("8:30", (dt.time(20, 30), dt.time(8, 30))),
    ("8.30", (dt.time(20, 30), dt.time(8, 30))), ("around 10ish", (dt.time(10), dt.time(22))),
    ("12:30am", (dt.time(0, 30),)), ("3 o'clock", (dt.time(15), dt.time(3))),
])
def test_times_with_both_halves_of_the_day_active_hours_first(text, readings):
    assert find_times(text)[0].readings == readings


def test_now_is_a_time_only_when_now_is_given():
    assert find_times("asap") == ()
    assert find_times("asap", now=dt.time(12, 5))[0].readings == (dt.time(12, 5),)


@pytest.mark.parametrize("text, readings", [("7", (dt.time(19), dt.time(7))), ("around 8", (dt.time(20), dt.time(8))),
                                            ("maybe 9", (dt.time(9), dt.time(21))), ("13", ()),
                                            ("7 people", ())])
def test_a_reply_that_is_only_an_hour(text, readings):
    assert whole_hour(text) == readings


@pytest.mark.parametrize("text, says", [("march 3", True), ("on monday", True), ("born in 1990", True),
                                        ("12/3", True), ("tomorow", True), ("9503", False), ("2 people", False)])
def test_mentions_date(text, says):
    assert mentions_date(text) is says


@pytest.mark.parametrize("text, expected", [
    ("the thursday 5:30 one", dt.date(2026, 11, 26)),         # "one" stands for a class: no January 1
    ("book boxing basics on friday PF-204817 no guest", dt.date(2026, 11, 27)),  # a code is no year
    ("on friday, CS107 please", dt.date(2026, 11, 27)),
])
def test_pronoun_one_and_codes_are_no_part_of_a_date(text, expected):
    (found,) = find_dates(text, TODAY)
    assert expected in found.readings and all(abs((d - TODAY).days) < 8 for d in found.readings)


@pytest.mark.parametrize("text, year", [("3/15/62", 1962), ("my dob is 7/4/85", 1985), ("born 1/2/03", 2003)])
def test_a_date_written_in_numbers_keeps_its_two_digit_year(text, year):
    (found,) = find_dates(text, TODAY)
    assert any(d.year == year for d in found.readings)  # the field's constraints choose the century
    assert all(d.year % 100 == year % 100 for d in found.readings)
