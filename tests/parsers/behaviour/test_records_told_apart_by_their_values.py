"""A paint that comes in several sizes under one name: the size said picks the can, its number is
no count of cans, "x2" is; a name the message does not narrow is shown to choose from, also when
it is the answer to the question; a date is the pick-up day when the date of birth (asked only
for some paints) does not apply. A made-up agent written for these tests."""

from __future__ import annotations

import datetime as dt

import pytest

from genie_bot.agent import Agent
from genie_bot.spec import load_agent

PAINT = """
name: paint
description: Order desk of a paint store.
tasks:
  - name: PlaceOrder
    description: Order paint for pickup at the store
    examples: [i want to order some paint, order paint for pickup]
    fields:
      - {name: paint, type: paints, description: "the paint to order, a row of the paints table (name and size)"}
      - {name: quantity, type: int, description: how many cans}
      - {name: pickup_date, type: date, description: the day the order is picked up}
      - name: date_of_birth
        type: date
        description: the customer's date of birth (spray products are sold to adults only)
        predicate: self.paint and self.paint.name == 'Spray Primer'
      - {name: confirm_order, type: confirm, description: whether to place the order}
knowledge:
  - name: paints
    csv: data/paints.csv
    primary_key: sku
"""
PAINTS = """sku,name,size,finish
P100,Cloud White,1 quart,matte
P101,Cloud White,1 gallon,matte
P102,Cloud White,5 gallon,matte
P110,Harbor Blue,1 quart,eggshell
P111,Harbor Blue,1 gallon,eggshell
P130,Spray Primer,12 oz,flat
"""


def talk(make_agent, *messages: str):
    spec = load_agent(make_agent(PAINT, files={"data/paints.csv": PAINTS}))
    agent = Agent(spec, clock=lambda: dt.datetime(2026, 11, 21, 12))
    state, replies = agent.new_state(), []
    for text in messages:
        reply = agent.respond(state, text)
        state = reply.state
        replies.append(reply)
    return state.instances["place_order_0"].values, replies


@pytest.mark.xfail(strict=True, reason="issue 35: 'cloud white 5 gallon x2' picks the can but sets no quantity ('x2' "
                                       "is no count)")
def test_the_size_said_picks_the_can_and_is_no_count(make_agent):
    values, _ = talk(make_agent, "order paint for pickup", "cloud white 5 gallon x2")
    assert values["paint"]["sku"] == "P102" and values["quantity"] == 2


def test_a_name_not_narrowed_is_shown_also_as_the_answer_then_a_description_picks(make_agent):
    values, replies = talk(make_agent, "order paint for pickup", "actually make it harbor blue", "the 1 gallon one")
    assert values["paint"]["sku"] == "P111"
    assert "1 quart" in replies[1].text and "1 gallon" in replies[1].text  # both shown, none guessed
    assert replies[1].parse.statements == "answer('harbor blue')"


def test_a_date_goes_to_the_one_date_field_that_applies(make_agent):
    values, _ = talk(make_agent, "order paint for pickup", "saturday")
    assert values["pickup_date"] == dt.date(2026, 11, 28)


@pytest.mark.parametrize("text, born", [
    pytest.param("3/15/62", dt.date(1962, 3, 15), marks=pytest.mark.xfail(
        strict=True, reason="issue 35: '3/15/62' as a date of birth is read as 2062-03-15 (then confirmed back)")),
    ("my dob is 7/4/85", dt.date(1985, 7, 4)), ("born 1/2/03", dt.date(2003, 1, 2))])
def test_a_date_of_birth_written_in_numbers_keeps_its_two_digit_year(make_agent, text, born):
    values, _ = talk(make_agent, "order paint for pickup", "spray primer", "2", "saturday", text)
    assert values["date_of_birth"] == born


@pytest.mark.parametrize("text, quantity", [("x2", 2), ("3x please", 3), ("a 2x4 board", None)])
@pytest.mark.xfail(strict=True, reason="issue 35: 'cloud white 1 quart' sets quantity = 1 (the size read as a count), "
                                       "and 'x2', '3x' are no counts")
def test_counts_written_as_times(make_agent, text, quantity):
    """"a 2x4 board" is a dimension, no count."""
    values, _ = talk(make_agent, "order paint for pickup", "cloud white 1 quart", text)
    assert values.get("quantity") == quantity


BOLTS = """
name: hardware
description: A hardware counter.
tasks:
  - name: OrderBolts
    description: Order bolts
    examples: [i need some bolts]
    fields:
      - {name: bolt, type: bolts, description: "the bolt, a row of the bolts table (name and length)"}
      - {name: confirm_order, type: confirm, description: whether to order}
knowledge:
  - name: bolts
    csv: data/bolts.csv
    primary_key: part
"""


def test_a_number_said_tells_namesakes_apart_by_a_numeric_column(make_agent):
    spec = load_agent(make_agent(BOLTS, files={"data/bolts.csv": "part,name,length_mm\nB1,Hex Bolt,20\nB2,Hex Bolt,30\n"}))
    agent = Agent(spec, clock=lambda: dt.datetime(2026, 11, 21, 12))
    reply = agent.respond(agent.new_state(), "i need some bolts, hex bolt 30 please")
    assert reply.state.instances["order_bolts_0"].values["bolt"]["part"] == "B2"


LENSES = """
name: optics
description: An optical shop's order desk.
tasks:
  - name: ReorderLenses
    description: Reorder contact lenses
    examples: [i need to reorder my contacts, reorder clearview daily]
    fields:
      - {name: lens, type: lenses, description: "the contact lens, a row of the lenses table (name and power)"}
      - {name: boxes, type: int, description: how many boxes}
      - {name: delivery, type: bool, description: whether the lenses are delivered to the patient's home}
      - {name: address, type: str, description: the home address the lenses are delivered to, predicate: self.delivery == True}
      - {name: confirm_order, type: confirm, description: whether to place the order}
knowledge:
  - {name: lenses, csv: data/lenses.csv, primary_key: lens_id}
"""


@pytest.mark.xfail(strict=True, reason="issue 35: 'clearview daily -2.00' picks the lens but also sets boxes = -2 "
                                       "(the power read as a count)")
def test_a_negative_number_picks_a_namesake_and_to_after_need_is_no_place(make_agent):
    spec = load_agent(make_agent(LENSES, files={"data/lenses.csv": "lens_id,name,power\nL1,Clearview Daily,-1.00\n"
                                                                  "L2,Clearview Daily,-2.00\n"}))
    agent = Agent(spec, clock=lambda: dt.datetime(2026, 11, 21, 12))
    opening = agent.respond(agent.new_state(), "hi i need to reorder my contacts")
    assert "address" not in opening.parse.statements  # "to reorder my contacts" is what the user does
    reply = agent.respond(opening.state, "clearview daily -2.00")
    values = reply.state.instances["reorder_lenses_0"].values
    assert values["lens"]["lens_id"] == "L2" and values.get("boxes") is None  # the power is no count of boxes
