"""Which task a message asks for, started with every value the message gives."""

from __future__ import annotations

import pytest

from genie_bot.acts import formal_value
from genie_bot.parse import ALREADY_HANDLED

from ..support import LEAVE, RESTAURANT, TICKET, Dialogue, booking, record

NEW_BOOKING = "book_restaurant_0 = BookRestaurant("


@pytest.mark.parametrize("text", ["book a table", "make a reservation at the oak spoon",
                                  "I want to reserve a restaurant"])
def test_a_request_matches_the_task_by_its_description_or_examples(text):
    assert Dialogue(RESTAURANT).parse(text).statements.startswith(NEW_BOOKING)


@pytest.mark.parametrize("text", ["hello", "what is the weather"])
def test_small_talk_starts_no_task(text):
    assert NEW_BOOKING not in Dialogue(RESTAURANT).parse(text).statements


def test_a_request_starts_the_task_with_the_restaurant_it_names():
    oak_spoon = formal_value(record("The Oak Spoon"))
    assert Dialogue(RESTAURANT).said("make a reservation at the oak spoon") == [
        f"book_restaurant_0 = BookRestaurant(restaurant={oak_spoon})"]


def test_every_fact_of_the_request_goes_into_the_new_task():
    statement = Dialogue(RESTAURANT).said("book a table for 4 at Enoteca Vigna next Friday at 7:30pm")[0]
    for part in ("'name': 'Enoteca Vigna'", "date='2026-11-27'", "time='19:30:00'", "num_people=4"):
        assert part in statement


@pytest.mark.parametrize("text", ["book a table for 4 at Enoteca Vigna next Friday at 7:30pm",
                                  "can you get me a table for 2 tomorrow"])
def test_the_party_size_is_no_special_request(text):
    statements = Dialogue(RESTAURANT).parse(text).statements
    assert statements.startswith(NEW_BOOKING) and "special_request" not in statements


def test_a_task_mid_another_starts_with_its_values():
    assert Dialogue(TICKET).do(*LEAVE).said("what is the status of my ticket TKT-00042") == [
        "ticket_status_0 = TicketStatus(ticket_id='TKT-00042')"]


@pytest.mark.parametrize("agent, point, text, statements", [
    (TICKET, LEAVE, "I need to take a leave of absence", ALREADY_HANDLED),
    (RESTAURANT, ("book_restaurant_0 = BookRestaurant()",), "I want to book a table at a restaurant", ALREADY_HANDLED)])
def test_the_task_already_open_is_not_started_twice(agent, point, text, statements):
    assert Dialogue(agent).do(*point).parse(text).statements == statements


@pytest.mark.parametrize("text", ["book a table", "i need help booking a table please"])
def test_asking_for_the_task_in_progress_is_no_special_request(text):
    assert booking().parse(text).statements == ALREADY_HANDLED


def test_a_request_with_more_words_than_the_tasks_gives_the_value():
    assert booking().parse("a quiet table").statements == "book_restaurant_0.special_request = 'a quiet table'"


@pytest.mark.parametrize("text", [
    "hi",
    pytest.param("help me please!", marks=pytest.mark.xfail(
        strict=True, reason="issue 35: 'help me please!' opens BookRestaurant()")),
])
def test_a_greeting_or_a_plea_opens_no_task(text):
    assert NEW_BOOKING not in Dialogue(RESTAURANT).parse(text).statements


def test_an_agent_with_one_task_opens_it_on_the_first_real_message():
    assert Dialogue(RESTAURANT).said("I'm hungry") == ["book_restaurant_0 = BookRestaurant()"]


def test_an_agent_with_several_tasks_opens_none_by_default():
    assert "= Main(" not in Dialogue(TICKET).parse("I'm hungry").statements
    assert "student_task" not in Dialogue(TICKET).parse("I'm hungry").statements


def test_a_remark_at_the_first_question_is_no_extra_detail():
    assert "extra_details" not in Dialogue(TICKET).parse("I'm hungry").statements
