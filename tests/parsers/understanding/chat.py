"""Conversations with real agents, for the understanding parser's tests.

A state is reached by running formal statements through the real runtime (not through the
parser under test), or by replying to the agent as a user would; a message is then read against
exactly that state: the agent's last question, the values given so far, the tasks open. Agents
are the example agents of ``worksheets/`` and the tuned domain agents of ``tests/domains/tuned``.
"""

from __future__ import annotations

import datetime as dt
from functools import lru_cache
from pathlib import Path
from typing import Any

from genie_bot.acts import formal_value
from genie_bot.agent import Agent, AgentReply
from genie_bot.agent.components import knowledge_store
from genie_bot.parse import Parse
from genie_bot.spec import AgentSpec, load_agent
from genie_bot.state import DialogueState
from tests.conftest import REPO, WORKSHEETS

TODAY = dt.date(2026, 11, 21)
"""A Saturday."""
TUNED = REPO / "tests" / "domains" / "tuned"
TICKET, RESTAURANT = "ticket_submission", "restaurant_reservation"
MAINTENANCE, CAR_RENTAL, GYM = "apartment_maintenance", "car_rental", "gym"
AGENT_DIRS = (*sorted(p.parent for p in WORKSHEETS.glob("*/agent.yaml")),
              *sorted(p.parent for p in TUNED.glob("*/agent.yaml")))
"""Every agent these tests talk to (never the held-out domains: the parser is not tuned on them)."""


def agent_dir(name: str) -> Path:
    (found,) = [d for d in AGENT_DIRS if d.name == name]
    return found


@lru_cache(maxsize=None)
def spec_of(name: str) -> AgentSpec:
    return load_agent(agent_dir(name))


def agent_for(spec: AgentSpec, today: dt.date) -> Agent:
    """The offline agent of ``spec`` (the understanding parser), its clock at noon on ``today``."""
    return Agent(spec, clock=lambda: dt.datetime.combine(today, dt.time(12)))


class Chat:
    """One conversation with an agent: statements or messages move it on, messages are read against it."""

    def __init__(self, name: str, today: dt.date = TODAY):
        self.spec = spec_of(name)
        self.today = today
        self.agent = agent_for(self.spec, today)
        self.state: DialogueState = self.agent.new_state()

    def do(self, *statements: str) -> "Chat":
        """Run each statement as a turn of its own; fails on an interpreter error."""
        for statement in statements:
            result = self.agent.runtime.run_turn(self.state, statement)
            assert not result.errors, result.errors
            self.state = result.state
        return self

    def set(self, target: str, value: Any) -> "Chat":
        return self.do(f"{target} = {formal_value(value)}")

    def parse(self, text: str) -> Parse:
        """The parse of ``text`` against the state now (the conversation does not move on)."""
        return self.agent.parser.parse(self.spec, self.state, text, self.today)

    def say(self, text: str) -> AgentReply:
        """The user's message: parsed, run, replied to; the conversation moves on."""
        reply = self.agent.respond(self.state, text)
        self.state = reply.state
        return reply

    @property
    def asked(self) -> str:
        """The agent's last question, formally (``AskField(instance, field, ...)``)."""
        return next(a for a in reversed(self.state.last_acts) if a.is_question).formal()

    def value(self, instance: str, field: str) -> Any:
        return self.state.resolve(self.state.instances[instance].values.get(field))


@lru_cache(maxsize=None)
def record(agent: str, table: str, name: str) -> dict[str, Any]:
    """The one row of the agent's ``table`` whose name is ``name``."""
    store = knowledge_store(spec_of(agent))
    assert store is not None, agent
    rows = store.rows(table, where={"name": name})
    assert len(rows) == 1, f"{name!r} names {len(rows)} rows of {table}"
    return rows[0]


def booking(*statements: str) -> Chat:
    """A table at Enoteca Vigna (open 17:00-23:00) being booked, then ``statements``; asks the date next."""
    chat = Chat(RESTAURANT).do("book_restaurant_0 = BookRestaurant()")
    return chat.set("book_restaurant_0.restaurant", record(RESTAURANT, "restaurants", "Enoteca Vigna")).do(*statements)


BOOKING_TIME = ("book_restaurant_0.date = '2026-11-27'",)
"""Asks the time next."""
BOOKING_PEOPLE = BOOKING_TIME + ("book_restaurant_0.time = '19:30'",)
"""Asks the number of people next."""
BOOKING_SUMMARY = BOOKING_PEOPLE + ("book_restaurant_0.num_people = 4",)
"""Shows the booking and asks whether to go ahead."""
LEAVE = ("main_0.student_task = 'Leave of Absence'",)
"""A ticket about a leave of absence: asks whether the form was submitted next."""
LEAVE_ANYTHING_ELSE = LEAVE + ("leave_of_absence_0.form_status = 'Submitted'",
                               "leave_of_absence_0.submission_method = 'Email'",
                               "leave_of_absence_0.submission_date = '2026-11-03'",
                               "leave_of_absence_0.start_quarter = 'Winter'")
"""Asks the optional "anything else the staff should know?" next."""
PLUMBING = ("maintenance_request_0.resident_name = 'Sam Lee'", "maintenance_request_0.unit = '4B'",
            "maintenance_request_0.category = 'Plumbing'",
            "maintenance_request_0.problem_description = 'the bathroom faucet drips all night'")
"""A maintenance request: asks whether it is urgent next."""


def lines(parse: Parse) -> list[str]:
    return [s for s in parse.statements.splitlines() if s.strip()]
