"""Strategy ``tasks``: which task a message asks for, started with every value the message gives."""

from __future__ import annotations

import pytest

from genie_bot.parse import ALREADY_HANDLED, SAID_AGAIN
from genie_bot.parsers.rules.requested import task_match
from genie_bot.parsers.rules.tasks import opens_the_only_task, restates_open_task, start_requested_task

from ..support import LEAVE, RESTAURANT, TICKET, Dialogue, booking, lines, record
from genie_bot.acts import formal_value


@pytest.mark.parametrize("text, score", [("book a table", 1.0), ("make a reservation at the oak spoon", 1.0),
                                         ("I want to reserve a restaurant", 2 / 3)])
def test_a_request_matches_the_task_by_its_description_or_examples(text, score):
    ws, matched = task_match(Dialogue(RESTAURANT).reading(text))
    assert ws.name == "BookRestaurant" and matched == pytest.approx(score)


@pytest.mark.parametrize("text", ["hello", "what is the weather"])
def test_small_talk_matches_no_task(text):
    assert task_match(Dialogue(RESTAURANT).reading(text)) == (None, 0.0)


def test_a_request_starts_the_task_with_the_restaurant_it_names():
    reading = Dialogue(RESTAURANT).reading("make a reservation at the oak spoon")
    assert start_requested_task(reading, answered_already=False)
    oak_spoon = formal_value(record("The Oak Spoon"))
    assert reading.statements == [f"book_restaurant_0 = BookRestaurant(restaurant={oak_spoon})"]


def test_every_fact_of_the_request_goes_into_the_new_task():
    reading = Dialogue(RESTAURANT).reading("book a table for 4 at Enoteca Vigna next Friday at 7:30pm")
    assert start_requested_task(reading, answered_already=False)
    statement = reading.statements[0]
    for part in ("'name': 'Enoteca Vigna'", "date='2026-11-27'", "time='19:30:00'", "num_people=4"):
        assert part in statement


@pytest.mark.parametrize("text", ["book a table for 4 at Enoteca Vigna next Friday at 7:30pm",
                                  "can you get me a table for 2 tomorrow"])
def test_the_party_size_is_no_special_request(text):
    reading = Dialogue(RESTAURANT).reading(text)
    start_requested_task(reading, answered_already=False)
    assert "special_request" not in reading.statements[0]


def test_a_weak_match_starts_nothing():
    reading = Dialogue(RESTAURANT).reading("restaurant")
    assert not start_requested_task(reading, answered_already=False)
    assert reading.statements == []


def test_a_task_mid_another_starts_with_its_values():
    reading = Dialogue(TICKET).do(*LEAVE).reading("what is the status of my ticket TKT-00042")
    assert start_requested_task(reading, answered_already=False)
    assert reading.statements == ["ticket_status_0 = TicketStatus(ticket_id='TKT-00042')"]


@pytest.mark.parametrize("agent, point, text, statements", [
    (TICKET, LEAVE, "I need to take a leave of absence", SAID_AGAIN + "main_0.student_task"),  # the option it holds
    (RESTAURANT, ("book_restaurant_0 = BookRestaurant()",), "I want to book a table at a restaurant", ALREADY_HANDLED)])
def test_the_task_already_open_is_not_started_twice(agent, point, text, statements):
    reading = Dialogue(agent).do(*point).reading(text)
    assert not start_requested_task(reading, answered_already=False)
    assert restates_open_task(reading)
    assert Dialogue(agent).do(*point).parse(text).statements == statements


def test_an_answer_given_already_needs_a_strong_match_to_start_a_task():
    reading = Dialogue(RESTAURANT).reading("I want to reserve a restaurant")  # 2/3 of an example's words
    assert not start_requested_task(reading, answered_already=True)


@pytest.mark.parametrize("text", ["book a table", "i need help booking a table please"])
def test_asking_for_the_task_in_progress_is_no_special_request(text):
    assert booking().parse(text).statements == ALREADY_HANDLED


def test_a_request_with_more_words_than_the_tasks_gives_the_value():
    assert booking().parse("a quiet table").statements == "book_restaurant_0.special_request = 'a quiet table'"


@pytest.mark.parametrize("text", ["hi", "help me please!"])
def test_a_greeting_or_a_plea_opens_no_task(text):
    assert not opens_the_only_task(Dialogue(RESTAURANT).reading(text))


def test_an_agent_with_one_task_opens_it_on_the_first_real_message():
    reading = Dialogue(RESTAURANT).reading("I'm hungry")
    assert opens_the_only_task(reading)
    assert lines(reading.statements) == ["book_restaurant_0 = BookRestaurant()"]


def test_an_agent_with_several_tasks_opens_none_by_default():
    assert not opens_the_only_task(Dialogue(TICKET).reading("I'm hungry"))


def test_a_remark_at_the_first_question_is_no_extra_detail():
    assert "extra_details" not in Dialogue(TICKET).parse("I'm hungry").statements
