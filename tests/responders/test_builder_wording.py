"""Wording under the bot builder's control: what records, enum members, numbers and tasks are called."""

from __future__ import annotations

import datetime as dt

import pytest

from genie_bot.agent import Agent
from genie_bot.responders.display import display_value, number_text
from genie_bot.responders.wording import plural
from genie_bot.spec import load_agent

CATALOG = """
    name: shop
    description: IT help desk
    tasks:
      - name: Incident
        description: Report an IT incident (something is broken or not working)
        fields:
          - name: area
            type: enum
            description: what is broken
            values: [VPN, Wi-Fi, Laptop, TroubleShoot]
          - name: urgency
            type: enum
            description: how urgent it is
            values:
              - low: {{label: Low (this week), description: it can wait}}
              - high: {{label: High (today)}}
          - name: confirm
            type: confirm
            description: whether to file it
        api: {{function: report, side_effects: true}}
      - name: Reset
        description: Reset a password
        phrase: reset your password
        fields:
          - name: account
            type: str
            description: the account name
    knowledge:
      - name: catalog
        {noun}
        csv: catalog.csv
        columns: {{name: the product's name, category: the kind of product, price: {{type: float, description: price}}}}
"""
API = "def report(area, urgency):\n    return {'id': 'INC-1'}\n"
ROWS = "name,category,price\n" + "".join(f"Model {i},Laptop,{1149 + i}.0\n" for i in range(6)) + "Dock,Dock,99.5\n"


def agent(make_agent, noun: str = "") -> Agent:
    directory = make_agent(CATALOG.format(noun=noun), API, {"catalog.csv": ROWS})
    return Agent(load_agent(directory), clock=lambda: dt.datetime(2026, 11, 21, 12))


def reply(bot: Agent, *messages: str) -> str:
    state = bot.new_state()
    for message in messages:
        answer = bot.respond(state, message)
        state = answer.state
    return answer.text


def test_a_table_without_a_noun_calls_its_records_items(make_agent):
    text = reply(agent(make_agent), "find products in category Laptop")
    assert "I found 6 items with category Laptop" in text
    assert "catalog with" not in text


def test_a_declared_noun_names_the_records_and_the_offer(make_agent):
    bot = agent(make_agent, "noun: product")
    assert "I found 6 products with category Laptop" in reply(bot, "find products in category Laptop")
    assert "I found 7 products:" in reply(bot, "show me laptops")
    assert "answer questions about products" in reply(bot, "hello")


def test_without_a_noun_the_offer_names_the_table(make_agent):
    assert "answer questions about the catalog" in reply(agent(make_agent), "hello")


def test_prices_read_as_numbers_not_floats(make_agent):
    text = reply(agent(make_agent), "show me laptops")
    assert "price: 1149" in text and "1149.0" not in text


def test_enum_members_are_shown_as_written_or_as_labelled(make_agent):
    text = reply(agent(make_agent), "report an IT incident")
    assert "VPN" in text and "Wi-Fi" in text and "Vpn" not in text and "Wi-fi" not in text
    text = reply(agent(make_agent), "report an IT incident", "the VPN")
    assert "Low (this week) or High (today)" in text


def test_the_confirmation_uses_the_description_without_its_explanation(make_agent):
    text = reply(agent(make_agent), "report an IT incident", "the VPN", "high")
    assert "Shall I go ahead and report an IT incident? (yes / no)" in text
    assert "Urgency: High (today)" in text


def test_a_declared_phrase_is_the_task_in_the_bots_sentences(make_agent):
    bot = agent(make_agent)
    assert "reset your password" in reply(bot, "hello")


@pytest.mark.parametrize("noun, expected", [("laptop", "laptops"), ("category", "categories"), ("box", "boxes"),
                                            ("day", "days"), ("class", "classes"), ("gift card", "gift cards")])
def test_plural(noun, expected):
    assert plural(noun) == expected


@pytest.mark.parametrize("value, expected", [(1149.0, "1149"), (4.25, "4.25"), (2 / 3, "0.67"), (0.5, "0.5")])
def test_numbers_by_type(value, expected):
    assert number_text(value) == expected == display_value(value)


OPTIONAL = """
    name: clinic
    description: Books vet visits.
    start: Visit
    tasks:
      - name: Visit
        description: Book a vet visit
        fields:
          - name: notes
            type: str
            description: anything the vet should know
            required: false
            ask: {ask}
"""


@pytest.mark.parametrize("ask", ["Anything the vet should know? (You can say no.)", "Any notes (optional)?",
                                 "Any notes? You can skip this.", "Any allergies, if any?",
                                 "Any notes? Just say none if not."])
def test_an_ask_that_says_it_may_be_declined_gets_no_second_hint(make_agent, ask):
    bot = Agent(load_agent(make_agent(OPTIONAL.format(ask=f'"{ask}"'))), clock=lambda: dt.datetime(2026, 11, 21, 12))
    greeting = bot.greeting(bot.new_state())
    assert ask in greeting and "(optional: you can say skip)" not in greeting


def test_an_ask_that_does_not_say_so_gets_the_hint_once(make_agent):
    bot = Agent(load_agent(make_agent(OPTIONAL.format(ask="Anything the vet should know?"))),
                clock=lambda: dt.datetime(2026, 11, 21, 12))
    assert bot.greeting(bot.new_state()).count("(optional: you can say skip)") == 1
