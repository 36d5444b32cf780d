"""Helper ``values``: a field's value read from text by its type, the field's constraints choosing
between readings (past or future date, morning or evening time)."""

from __future__ import annotations

import datetime as dt

import pytest

from genie_bot.parsers.rules.values import date_time_readings, typed

from ..support import COURSES, LEAVE_DATE, TICKET, TODAY, Dialogue, booking


def submission_date(text: str, constrained: bool = True):
    dialogue = Dialogue(TICKET).do(*LEAVE_DATE)
    instance = dialogue.state.instances["leave_of_absence_0"] if constrained else None
    return typed(dialogue.reading(text), dialogue.spec.tasks["LeaveOfAbsence"].fields["submission_date"], text,
                 whole_answer=True, instance=instance)


def booking_field(name: str, text: str, whole_answer: bool = True):
    dialogue = booking()
    return typed(dialogue.reading(text), dialogue.spec.tasks["BookRestaurant"].fields[name], text,
                 whole_answer=whole_answer, instance=dialogue.state.instances["book_restaurant_0"])


def test_readings_of_a_date_without_a_year_nearest_first():
    readings, vague, spans = date_time_readings("november 3", TODAY, "date", True)
    assert readings == (dt.date(2026, 11, 3), dt.date(2027, 11, 3)) and not vague and spans == [(0, 10)]


def test_readings_of_a_time_without_am_pm_evening_first():
    assert date_time_readings("8:30", TODAY, "time", True)[0] == (dt.time(20, 30), dt.time(8, 30))


def test_a_date_and_a_time_make_one_datetime():
    readings, _, spans = date_time_readings("next friday at 7:30pm", TODAY, "datetime", True)
    assert readings == (dt.datetime(2026, 11, 27, 19, 30),) and len(spans) == 2


def test_a_period_is_vague():
    assert date_time_readings("next week", TODAY, "date", True)[1] is True


def test_a_bare_hour_is_a_time_only_as_a_whole_answer():
    assert date_time_readings("7", TODAY, "time", True)[0] == (dt.time(19), dt.time(7))
    assert date_time_readings("7", TODAY, "time", False)[0] == ()


@pytest.mark.parametrize("text, date", [("november 3", dt.date(2026, 11, 3)), ("december 25", dt.date(2025, 12, 25))])
def test_a_past_only_date_takes_the_past_reading(text, date):
    assert submission_date(text) == date


def test_without_the_instance_the_nearest_reading_is_taken():
    assert submission_date("december 25", constrained=False) == dt.date(2026, 12, 25)


@pytest.mark.parametrize("text, date", [("november 3", dt.date(2027, 11, 3)), ("march 3", dt.date(2027, 3, 3)),
                                        ("nov 21", dt.date(2026, 11, 21))])
def test_a_future_only_date_takes_the_future_reading(text, date):
    assert booking_field("date", text) == date


@pytest.mark.parametrize("text", ["earlier this month", "this month", "last week"])
def test_a_period_is_no_day(text):
    assert submission_date(text) is None


def test_a_period_the_field_refuses_is_read_so_that_it_is_refused_with_the_reason():
    """"next week" is no day, but it is surely not a past date: the agent can say so."""
    assert submission_date("next week") > TODAY
    dialogue = Dialogue(TICKET).do(*LEAVE_DATE)
    assert "cannot be in the future" in dialogue.reply("next week").acts[0].formal()


def test_a_month_alone_is_no_day():
    assert submission_date("sometime in october") is None


@pytest.mark.parametrize("text, whole, people", [("4", True, 4), ("for four", True, 4), ("4", False, None),
                                                 ("table for 4 tomorrow", True, 4)])
def test_a_number_is_read_loosely_only_as_a_whole_answer(text, whole, people):
    assert booking_field("num_people", text, whole_answer=whole) == people


def test_a_number_taken_is_marked_used():
    dialogue = booking()
    reading = dialogue.reading("4")
    typed(reading, dialogue.spec.tasks["BookRestaurant"].fields["num_people"], "4", True)
    assert reading.used == [(0, 1)]


def test_an_enum_list_and_a_pattern():
    dialogue = Dialogue(COURSES)
    grade = dialogue.spec.tasks["Course"].fields["grade_type"]
    email = dialogue.spec.tasks["StudentInfo"].fields["student_email_address"]
    reading = dialogue.reading("x")
    assert typed(reading, grade, "pass/fail", whole_answer=True) == "Credit/No Credit"
    assert typed(reading, email, "it's jane@stanford.edu", whole_answer=True) == "jane@stanford.edu"
    assert typed(reading, email, "jane@stanford,edu", whole_answer=True) is None


def test_free_text_is_read_only_as_a_whole_answer():
    dialogue = Dialogue(TICKET)
    name = dialogue.spec.tasks["Main"].fields["full_name"]
    reading = dialogue.reading("x")
    assert typed(reading, name, "Jane Doe", whole_answer=True) == "Jane Doe"
    assert typed(reading, name, "Jane Doe", whole_answer=False) is None


def test_a_course_name_not_in_the_catalogue_is_still_a_name_but_a_sentence_is_not():
    dialogue = Dialogue(COURSES)
    course = dialogue.spec.tasks["Course"].fields["course_name"]
    assert typed(dialogue.reading("CS 999"), course, "CS 999", whole_answer=True) == "CS 999"
    text = "i wanna take a couple classes"
    assert typed(dialogue.reading(text), course, text, whole_answer=True) is None
