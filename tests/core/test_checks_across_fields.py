"""A check that reads several fields runs whenever any of them changes, and asks again for the field it
is declared on (issue 36, item 3): a room for 2 is never booked for 4."""

from __future__ import annotations

import datetime as dt

from genie_bot.agent import Agent, AgentReply
from genie_bot.spec import load_agent

HOTEL = """
    name: hotel
    description: Books rooms at a small hotel.
    tasks:
      - name: BookStay
        description: Book a hotel room
        examples: [book a room, I need a room]
        fields:
          - name: room
            type: rooms
            description: the room to book
            {room_check}
          - name: guests
            type: int
            description: the number of guests
            {guests_check}
          - name: confirm
            type: confirm
            description: whether to book it
        api: {{function: book, side_effects: true}}
    knowledge:
      - name: rooms
        noun: room
        csv: rooms.csv
        primary_key: id
        columns:
          id: the room's code
          name: the room's name
          price: {{type: float, description: the price per night}}
          max_guests: {{type: int, description: how many guests it sleeps}}
"""
ROOMS = "id,name,price,max_guests\nR1,Juniper,90,2\nR2,Sequoia,150,4\nR3,Willow,200,6\n"
API = "def book(room, guests):\n    return {'booked': room['id']}\n"
TOO_SMALL = "That room is too small for your party."


ROOM_CHECK = "validation: {{expression: value.max_guests >= self.guests{message}}}"


def hotel(make_agent, message: str = TOO_SMALL, room_check: str = ROOM_CHECK, guests_check: str = "") -> Agent:
    text = HOTEL.format(room_check=room_check.format(message=f", message: {message}" if message else ""),
                        guests_check=guests_check)
    return Agent(load_agent(make_agent(text, API, {"rooms.csv": ROOMS})), clock=lambda: dt.datetime(2026, 11, 21, 12))


def talk(bot: Agent, *messages: str) -> AgentReply:
    state = bot.new_state()
    for message in messages:
        reply = bot.respond(state, message)
        state = reply.state
    return reply


def asked(reply: AgentReply) -> list[str]:
    return [a.formal() for a in reply.acts if a.is_question]


def test_a_check_waits_for_the_fields_it_reads_before_it_runs(make_agent):
    reply = talk(hotel(make_agent), "book a room", "Juniper")
    assert reply.state.instances["book_stay_0"].values["room"]["name"] == "Juniper"
    assert asked(reply) == ['AskField(book_stay_0, guests, "the number of guests")']
    assert TOO_SMALL not in reply.text


def test_a_field_the_check_reads_given_later_runs_it_and_the_checked_field_is_asked_again(make_agent):
    reply = talk(hotel(make_agent), "book a room", "Juniper", "4")
    values = reply.state.instances["book_stay_0"].values
    assert values["guests"] == 4 and "room" not in values  # the new value is kept, the room is asked again
    assert asked(reply) == [f'AskField(book_stay_0, room, "the room to book", reason="{TOO_SMALL}")']
    assert "I'll ask for the room again" in reply.text and TOO_SMALL in reply.text


def test_both_values_in_one_message_ask_again_for_the_field_of_the_check(make_agent):
    reply = talk(hotel(make_agent), "book Juniper for 4")
    assert reply.state.instances["book_stay_0"].values == {"guests": 4}
    assert asked(reply) == [f'AskField(book_stay_0, room, "the room to book", reason="{TOO_SMALL}")']


def test_a_value_that_keeps_the_check_true_changes_nothing_else(make_agent):
    reply = talk(hotel(make_agent), "book a room", "Willow", "4")
    assert reply.state.instances["book_stay_0"].values["room"]["name"] == "Willow"
    assert reply.confirmation is not None and TOO_SMALL not in reply.text


def test_a_change_at_the_summary_that_breaks_a_check_is_never_submitted(make_agent):
    bot = hotel(make_agent)
    reply = talk(bot, "book a room", "Sequoia", "4", "actually we are 6 guests")
    assert reply.confirmation is None
    assert reply.state.instances["book_stay_0"].values["guests"] == 6
    assert "room" not in reply.state.instances["book_stay_0"].values
    assert asked(reply) == [f'AskField(book_stay_0, room, "the room to book", reason="{TOO_SMALL}")']
    reply = bot.respond(reply.state, "Willow")
    assert reply.confirmation is not None and reply.confirmation.values["room"]["name"] == "Willow"


def test_without_a_message_the_reason_names_the_field_that_changed(make_agent):
    reply = talk(hotel(make_agent, message=""), "book a room", "Juniper", "4")
    assert "That does not go with the number of guests." in reply.text
    assert "I'll ask for the room again" in reply.text


def test_the_check_belongs_to_the_field_it_is_declared_on(make_agent):
    """Declared on the number of guests, the same check asks for the number again when the room changes."""
    guests_check = ("validation: {expression: value <= self.room.max_guests, "
                    "message: 'That room sleeps fewer people; how many guests, then?'}")
    bot = hotel(make_agent, room_check="", guests_check=guests_check)
    reply = talk(bot, "book a room", "Juniper", "3")
    assert asked(reply)[0].startswith("AskField(book_stay_0, guests,")  # its own value refused: asked again
    reply = talk(bot, "book a room", "Willow", "5", "no, make it Juniper")
    values = reply.state.instances["book_stay_0"].values
    assert values["room"]["name"] == "Juniper" and "guests" not in values
    assert asked(reply)[0].startswith("AskField(book_stay_0, guests,") and "sleeps fewer people" in reply.text


def test_a_check_that_reads_a_declined_field_waits_unless_it_says_what_a_decline_means(make_agent):
    optional = "required: false\n            validation: {expression: value > 0}"
    bot = hotel(make_agent, guests_check=optional)
    reply = talk(bot, "book a room", "Juniper", "skip")  # no number of guests: nothing to check the room against
    assert reply.state.instances["book_stay_0"].values["room"]["name"] == "Juniper" and reply.confirmation
    bot = hotel(make_agent, guests_check=optional, room_check="validation: {{expression: self.guests != NA or "
                "value.max_guests >= 4, message: 'Without a number of guests, pick a room for 4.'}}")
    reply = talk(bot, "book a room", "Juniper", "skip")
    assert "room" not in reply.state.instances["book_stay_0"].values
    assert "Without a number of guests, pick a room for 4." in reply.text
