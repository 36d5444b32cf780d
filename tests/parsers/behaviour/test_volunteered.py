"""Values for fields the agent did not ask about, in the same message."""

from __future__ import annotations

import datetime as dt

import pytest

from ..support import (BOOKING_SUMMARY, COURSES, RESTAURANT, LEAVE, LEAVE_ANYTHING_ELSE, LEAVE_DATE, STUDENT, TICKET, WAITLIST, Dialogue, booking,
                       lines)


@pytest.mark.parametrize("text, expected", [
    ("I sent it by email on nov 3", ["leave_of_absence_0.submission_method = 'Email'",
                                     "leave_of_absence_0.submission_date = '2026-11-03'"]),
    ("submitted online last tuesday, starting winter", ["leave_of_absence_0.submission_method = 'Online'",
                                                        "leave_of_absence_0.submission_date = '2026-11-17'",
                                                        "leave_of_absence_0.start_quarter = 'Winter'"]),
    ("not yet, leave starts in spring", ["leave_of_absence_0.start_quarter = 'Spring'"]),
    ("my name is Jane Doe", ["main_0.full_name = 'Jane Doe'"]),
    ("jane.doe@stanford.edu", ["main_0.email = 'jane.doe@stanford.edu'"]),
])
def test_values_for_fields_not_asked_yet(text, expected):
    assert set(expected) <= set(Dialogue(TICKET).do(*LEAVE).said(text))


@pytest.mark.parametrize("text, status", [
    pytest.param("hi submit a ticket please not yet", "Not Submitted", marks=pytest.mark.xfail(
        strict=True, reason="issue 35: 'hi submit a ticket please not yet' reads as '# the request is already being "
                            "handled': no leave of absence")),
    ("i want to submit a ticket, my leave form is submitted", "Submitted"),
])
def test_the_words_asking_for_the_task_choose_no_option_of_it(text, status):
    """"submit a ticket" asks for the ticket: it says nothing of whether the leave form was submitted."""
    dialogue = Dialogue(TICKET)
    dialogue.reply(text)
    assert dialogue.values("leave_of_absence_0")["form_status"] == status


def test_a_field_the_user_cannot_give_is_declined():
    assert "main_0.email = 'NA'" in Dialogue(TICKET).do(*LEAVE_ANYTHING_ELSE).said("I forgot my email")


@pytest.mark.xfail(strict=True, reason="issue 35: 'I forgot my email' asked whether the form was "
                                       "submitted declines form_status (= 'NA'), not the email")
def test_forgetting_the_email_says_nothing_of_how_the_form_was_sent():
    said = Dialogue(TICKET).do(*LEAVE).said("I forgot my email")
    assert "main_0.email = 'NA'" in said and not any("submission_method" in s for s in said)


def test_details_imply_the_form_was_submitted():
    """The method and date apply only to a submitted form: giving them says it was submitted."""
    assert lines(Dialogue(TICKET).do(*LEAVE).parse("I sent it by email on nov 3").statements) == [
        "leave_of_absence_0.form_status = 'Submitted'", "leave_of_absence_0.submission_method = 'Email'",
        "leave_of_absence_0.submission_date = '2026-11-03'"]


def test_a_student_id_and_an_email_are_taken_by_their_formats():
    said = Dialogue(COURSES).do(*STUDENT).said("Jane Doe, 06123456, jane.doe@stanford.edu")
    assert {"student_info_0.student_id = '06123456'",
            "student_info_0.student_email_address = 'jane.doe@stanford.edu'"} <= set(said)


def test_the_whole_student_record_in_one_message():
    dialogue = Dialogue(COURSES).do(*STUDENT)
    dialogue.reply("Jane Doe, 06123456, jane.doe@stanford.edu")
    assert dialogue.values("student_info_0") == {"student_name": "Jane Doe", "student_id": "06123456",
                                                 "student_email_address": "jane.doe@stanford.edu"}


def test_an_id_given_for_the_name_question_is_no_name():
    assert Dialogue(COURSES).do(*STUDENT).parse("my id is 06123456").statements == \
        "student_info_0.student_id = '06123456'"


def test_being_an_international_student_is_no_name():
    assert Dialogue(COURSES).do(*STUDENT).parse("I'm an international student").statements == \
        "student_info_0.is_international_student = True"


def test_the_request_and_its_details_open_the_nested_worksheets_in_one_turn():
    dialogue = Dialogue(TICKET)
    dialogue.reply("I need help joining a waitlist for CS 107 in winter")
    assert dialogue.values("join_waitlist_0") == {"course_name": "CS 107", "quarter": "Winter"}
    assert dialogue.values("trouble_shoot_0")["issue_type"] == "Join Waitlist"


def test_every_fact_of_an_external_credits_request():
    dialogue = Dialogue(TICKET)
    dialogue.reply("my AP credits are missing, I sent the scores on october 5")
    values = dialogue.values("external_test_credits_0")
    assert values == {"test_type": "AP", "issue": "Missing Credits", "submission_time": dt.date(2026, 10, 5)}


def test_two_courses_and_a_grade_in_one_message():
    dialogue = Dialogue(COURSES)
    dialogue.reply("I want to enroll in CS 224V and CS 229 for a letter grade")
    assert dialogue.values("course_0") == {"course_name": "CS 224V", "grade_type": "Letter"}
    assert dialogue.values("course_1") == {"course_name": "CS 229", "grade_type": "Letter"}


def test_a_course_with_its_units_and_grade_fills_the_course_asked():
    dialogue = Dialogue(COURSES)
    dialogue.reply("CS 224V for 3 units, letter")
    assert dialogue.values("course_0") == {"course_name": "CS 224V", "grade_type": "Letter", "course_num_units": 3}


def test_a_time_and_a_party_size_given_with_the_date():
    assert {"book_restaurant_0.time = '20:00:00'", "book_restaurant_0.num_people = 4"} <= set(
        booking().said("next friday at 8 for 4 people"))


def test_a_special_request_after_the_date_keeps_only_the_request():
    assert lines(booking().parse("next friday, and we need a quiet table").statements) == [
        "book_restaurant_0.date = '2026-11-27'", "book_restaurant_0.special_request = 'we need a quiet table'"]


def test_a_special_request_among_other_facts_keeps_only_the_request():
    assert "book_restaurant_0.special_request = 'we need a high chair'" in lines(
        booking().parse("tomorrow, 2 people, we need a high chair").statements)


@pytest.mark.parametrize("text", [
    pytest.param("my name is Jane Doe and my email is jane.doe@stanford.edu", marks=pytest.mark.xfail(
        strict=True, reason="issue 35: at 'anything else?', the whole message also becomes extra_details")),
    "Jane Doe, jane.doe@stanford.edu",
])
def test_name_and_email_at_anything_else_are_not_extra_details(text):
    dialogue = Dialogue(TICKET).do(*LEAVE_ANYTHING_ELSE)
    dialogue.reply(text)
    assert dialogue.values("main_0")["full_name"] == "Jane Doe"
    assert dialogue.values("main_0")["email"] == "jane.doe@stanford.edu"
    assert dialogue.values("main_0").get("extra_details") in (None, "NA")


def test_no_then_name_and_email_at_anything_else():
    dialogue = Dialogue(TICKET).do(*LEAVE_ANYTHING_ELSE)
    dialogue.reply("no. my name is Jane Doe and my email is jane.doe@stanford.edu")
    assert {k: dialogue.values("main_0")[k] for k in ("extra_details", "full_name", "email")} == {
        "extra_details": "NA", "full_name": "Jane Doe", "email": "jane.doe@stanford.edu"}
    assert dialogue.result.acts[0].formal() == "AskForConfirmation(main_0)"


@pytest.mark.parametrize("point, declined", [
    (LEAVE_DATE, "leave_of_absence_0.submission_date = 'NA'"),
    (WAITLIST, "join_waitlist_0.course_name = 'NA'")])
def test_i_dont_know_declines_only_the_question_asked(point, declined):
    assert Dialogue(TICKET).do(*point).parse("I don't know").statements == declined


@pytest.mark.xfail(strict=True, reason="issue 35: booking a result of a search 'for friday night' takes no date from "
                                       "the search")
def test_the_day_said_with_a_search_is_the_booking_s_when_one_of_its_results_is_booked():
    dialogue = Dialogue(RESTAURANT)
    dialogue.reply("looking for somewhere italian in sf for friday night")
    dialogue.reply("book osteria alba for 4")
    assert dialogue.values("book_restaurant_0")["date"] == dt.date(2026, 11, 27)
    assert dialogue.values("book_restaurant_0")["num_people"] == 4


def test_a_booking_not_started_from_the_results_takes_no_day_from_an_older_search():
    dialogue = Dialogue(RESTAURANT)
    dialogue.reply("looking for somewhere italian in sf for friday night")
    dialogue.reply("thanks")
    dialogue.reply("book osteria alba for 4")
    assert "date" not in dialogue.values("book_restaurant_0")


def test_a_special_request_added_at_the_summary_starts_at_what_is_requested():
    dialogue = booking(*BOOKING_SUMMARY)
    dialogue.reply("oh and we have a peanut allergy")
    assert dialogue.values("book_restaurant_0")["special_request"] == "we have a peanut allergy"

