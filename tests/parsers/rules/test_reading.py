"""``Reading``: one message, what it is read against, and what earlier strategies took."""

from __future__ import annotations

import datetime as dt

from genie_bot.acts import AskField
from genie_bot.parsers import extract

from ..support import COURSES, LEAVE, LEAVE_SUMMARY, RESTAURANT, TICKET, Dialogue, booking


def test_the_question_is_the_agents_last_question():
    reading = Dialogue(TICKET).do(*LEAVE).reading("x")
    assert isinstance(reading.question, AskField)
    assert reading.asked == ("leave_of_absence_0", "form_status")


def test_a_summary_asks_for_no_field():
    reading = Dialogue(TICKET).do(*LEAVE_SUMMARY).reading("x")
    assert reading.asked == ("main_0", None)


def test_nothing_asked_before_the_first_message_of_an_agent_without_a_start_worksheet():
    assert Dialogue(RESTAURANT).reading("hi").asked == (None, None)


def test_open_instances_and_their_input_fields():
    reading = Dialogue(TICKET).do(*LEAVE).reading("x")
    assert {i.name for i in reading.open_instances()} == {"main_0", "leave_of_absence_0"}
    names = [f.name for f in reading.open_fields()]
    assert "form_status" in names and "email" in names and "ticket_id" not in names  # an output is no input


def test_assign_writes_the_statement_and_remembers_the_value():
    dialogue = Dialogue(TICKET).do(*LEAVE)
    reading = dialogue.reading("submitted online")
    instance = dialogue.state.instances["leave_of_absence_0"]
    f = dialogue.spec.tasks["LeaveOfAbsence"].fields["submission_date"]
    assert reading.assign(instance, f, dt.date(2026, 11, 3)) == "leave_of_absence_0.submission_date = '2026-11-03'"
    assert ("leave_of_absence_0", "submission_date") in reading.assigned
    assert reading.value_of(instance, "submission_date") == dt.date(2026, 11, 3)
    assert reading.value_of(instance, "form_status") is None


def test_the_words_that_chose_an_enum_member_are_remembered():
    dialogue = Dialogue(TICKET).do(*LEAVE)
    reading = dialogue.reading("I submitted it online")
    f = dialogue.spec.tasks["LeaveOfAbsence"].fields["submission_method"]
    reading.assign(dialogue.state.instances["leave_of_absence_0"], f, "Online")
    assert reading.chose_by == extract.content_words("online")


def test_mentions_of_table_records_in_order():
    reading = booking().reading("Enoteca Vigna and The Oak Spoon")
    assert [(m.start, m.end, m.record["name"]) for m in reading.mentions("restaurants")] == [
        (0, 13, "Enoteca Vigna"), (18, 31, "The Oak Spoon")]


def test_without_the_knowledge_store_no_record_is_mentioned():
    reading = Dialogue(RESTAURANT).reading("Enoteca Vigna")
    reading.knowledge = None
    assert reading.mentions("restaurants") == []


def test_used_spans_are_masked_and_not_read_again():
    reading = Dialogue(COURSES).reading("CS 224V and CS 229")
    reading.used.append((0, 7))
    assert reading.masked() == "        and CS 229"
    assert not reading.unused(0, 3) and reading.unused(12, 18)
