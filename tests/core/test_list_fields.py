"""Changing a list field in place goes through the same typed assignment as ``x.field = value``."""

from __future__ import annotations

import datetime as dt

import pytest

from genie_bot.runtime import Runtime
from genie_bot.scenarios import state_value
from genie_bot.spec import InstanceRef, load_agent

PIZZERIA = """
name: pizzeria
description: Orders pizza.
tasks:
  - name: Order
    description: order a pizza
    fields:
      - {name: toppings, type: "list[enum]", values: [Cheese, Ham, Olives]}
      - {name: guests, type: "list[Guest]", required: false}
      - {name: name, type: str}
    actions: |
      if self.name == 'Ann':
          toppings.append('Anchovies')
  - name: Guest
    fields:
      - {name: guest_name, type: str}
"""


class Chat:
    def __init__(self, runtime):
        self.runtime, self.state, self.result = runtime, runtime.new_state(), None

    def say(self, statements: str):
        self.result = self.runtime.run_turn(self.state, statements)
        self.state = self.result.state
        return self.result

    def values(self, name="order_0"):
        return self.state.instances[name].values


@pytest.fixture
def chat(make_agent):
    runtime = Runtime(load_agent(make_agent(PIZZERIA)), clock=lambda: dt.datetime(2026, 11, 21, 12))
    chat = Chat(runtime)
    chat.say("order_0 = Order(toppings=['Cheese'])")
    return chat


def test_append_outside_the_enum_is_rejected_like_an_assignment(chat):
    result = chat.say("order_0.toppings.append('Pineapple')")
    assert chat.values()["toppings"] == ["Cheese"]
    assert [(r.field, r.value) for r in result.update.rejected] == [("toppings", ["Cheese", "Pineapple"])]


def test_append_of_an_allowed_value_is_coerced_and_stored(chat):
    chat.say("order_0.toppings.append('ham')")
    assert chat.values()["toppings"] == ["Cheese", "Ham"]


def test_append_starts_an_unset_list_and_creates_instances(chat):
    chat.say("order_0.guests.append(Guest(guest_name='Al'))")
    assert chat.values()["guests"] == [InstanceRef("guest_0")]
    assert chat.values("guest_0") == {"guest_name": "Al"}


def test_an_instance_appended_to_its_own_list_is_rejected_not_a_recursion(chat):
    result = chat.say("order_0.guests.append(order_0)")
    assert "guests" not in chat.values()
    assert result.update.rejected and "not a Guest" in result.update.rejected[0].reason
    result = chat.say("order_0.name = 'Bo'")  # the state still renders, persists and runs
    assert result.errors == []


def test_reading_a_list_field_gives_a_copy(chat):
    chat.say("x = order_0.toppings")
    chat.say("order_0.toppings.append('Olives')")
    assert chat.values()["toppings"] == ["Cheese", "Olives"]


def test_worksheet_actions_append_through_the_checks_too(chat):
    result = chat.say("order_0.name = 'Ann'\norder_0.guests = NA")
    assert chat.values()["toppings"] == ["Cheese"]
    assert any(r.field == "toppings" for r in result.update.rejected)


def test_a_conversation_test_checks_an_item_of_a_list_by_its_number(chat):
    """``state: {order_0.toppings.1: Ham, order_0.guests.0.guest_name: Ann}``, as docs/testing.md shows."""
    chat.say("order_0.toppings = ['Cheese', 'Ham']\norder_0.guests = [Guest(guest_name='Ann'), Guest(guest_name='Bo')]")
    assert state_value(chat.state, "order_0.toppings.1") == "Ham"
    assert state_value(chat.state, "order_0.guests.0.guest_name") == "Ann"
    assert state_value(chat.state, "order_0.guests.1.guest_name") == "Bo"
    assert state_value(chat.state, "order_0.guests.2.guest_name") is None  # no third guest
    assert state_value(chat.state, "order_0.status") == "active"


def test_an_item_of_a_list_is_an_assignment_target(chat):
    chat.say("order_0.guests = [Guest(guest_name='Al'), Guest(guest_name='Bo')]")
    result = chat.say("order_0.guests[1].guest_name = 'Cy'\ni = 0\norder_0.guests[i].guest_name = 'Di'")
    assert result.errors == []
    assert [chat.values(ref.name)["guest_name"] for ref in chat.values()["guests"]] == ["Di", "Cy"]


@pytest.mark.parametrize(("target", "reason"), [
    ("order_0.guests[-1]", "items are counted from 0, not from the end: order_0.guests[0] is the first of its 2 items"),
    ("order_0.guests[2]", "order_0.guests has 2 items (order_0.guests[1] is the last); "
                          "add one with order_0.guests.append(...)"),
    ("order_0.guests['Al']", "an item is chosen by its position from 0: order_0.guests[0] is the first"),
    ("order_0.toppings[0]", "order_0.toppings[0] is a value, not a worksheet: set order_0.toppings = [...] to change it"),
    ("order_0[1]", "order_0 holds one instance, not a list: write order_0.field = value"),
])
def test_an_item_that_is_not_there_is_refused_with_what_is(chat, target, reason):
    chat.say("order_0.guests = [Guest(guest_name='Al'), Guest(guest_name='Bo')]")
    result = chat.say(f"{target}.guest_name = 'Cy'")
    assert result.errors == [f"{target}.guest_name = 'Cy': line 1: {reason}"]
    assert [chat.values(ref.name)["guest_name"] for ref in chat.values()["guests"]] == ["Al", "Bo"]


def test_an_empty_list_says_so(chat):
    result = chat.say("order_0.guests[0].guest_name = 'Cy'")
    assert result.errors == ["order_0.guests[0].guest_name = 'Cy': line 1: order_0.guests has 0 items (it is empty); "
                             "add one with order_0.guests.append(...)"]
