"""``responders.display``: values as a person writes them, and what a summary shows."""

from __future__ import annotations

import datetime as dt

import pytest

from genie_bot.responders.display import (display_value, enum_words, inline_summary, join_words, shown_fields,
                                          summary_lines)
from tests.parsers.support import COURSES, ENROLL_SUMMARY, LEAVE_SUMMARY, TICKET, Dialogue, loaded, record


@pytest.mark.parametrize("value, shown", [
    (None, "(not given)"), ("NA", "(skipped)"), (True, "yes"), (False, "no"),
    (dt.date(2026, 11, 3), "Tuesday, November 3, 2026"), (dt.time(20, 30), "8:30 PM"),
    (dt.datetime(2026, 11, 27, 19, 30), "Friday, November 27, 2026 at 7:30 PM"),
    (["a", "b", "c"], "a, b and c"), ("CS 224V", "CS 224V"),
])
def test_display_value(value, shown):
    assert display_value(value) == shown


def test_a_record_is_shown_by_its_name():
    assert display_value(record("Enoteca Vigna")) == "Enoteca Vigna"


def test_an_enum_member_in_words():
    assert enum_words("Join Waitlist") == "Join Waitlist"
    assert display_value("Leave of Absence", loaded(TICKET)[0].tasks["Main"].fields["student_task"]) == \
        "Leave of Absence"


@pytest.mark.parametrize("items, conjunction, joined", [(["a"], "and", "a"), (["a", "b"], "and", "a and b"),
                                                        (["a", "b", "c"], "or", "a, b or c")])
def test_join_words(items, conjunction, joined):
    assert join_words(items, conjunction) == joined


def test_the_ticket_summary_shows_what_will_be_submitted_with_labels():
    dialogue = Dialogue(TICKET).do(*LEAVE_SUMMARY)
    lines = summary_lines(dialogue.spec, "Main", dialogue.state.last_acts[0].values)
    assert lines == [("What you need help with", "Leave of Absence"),
                     ("Status of the leave of absence form", "Submitted"), ("Submission method", "Email"),
                     ("Submission date", "Tuesday, November 3, 2026"), ("Start quarter", "Winter"),
                     ("Full name", "Jane Doe"), ("University email address", "jane@stanford.edu")]


def test_courses_side_by_side_are_one_line_each_and_flow_questions_are_left_out():
    dialogue = Dialogue(COURSES).do(*ENROLL_SUMMARY)
    lines = summary_lines(dialogue.spec, "Main", dialogue.state.last_acts[0].values)
    assert lines[:2] == [("First course", "CS 224V, grading option: Letter, number of units: 3"),
                         ("Second course", "CS 229, grading option: Letter, number of units: 4")]
    assert not any("more courses" in name.lower() or "confirm" in name.lower() for name, _ in lines)


def test_shown_fields_leave_out_confirmations_and_steering_questions():
    ws = loaded(COURSES)[0].tasks["CoursesToTake"]
    assert [f.name for f in shown_fields(ws)] == ["course_0_details", "course_1_details", "course_2_details",
                                                  "course_3_details"]


def test_inline_summary_skips_declined_values():
    ws = loaded(COURSES)[0].tasks["Course"]
    assert inline_summary(loaded(COURSES)[0], ws, {"course_name": "CS 107", "grade_type": "NA",
                                                   "course_num_units": 3}) == "CS 107, number of units: 3"
