"""A conversation with an agent, turn by turn, for the turn-contract tests (issue 37): the reply text
of each message, with the agent's side-effecting APIs stubbed (nothing is written anywhere)."""

from __future__ import annotations

import datetime as dt
from functools import cache
from pathlib import Path
from typing import Any

from genie_bot.agent import Agent, AgentReply
from genie_bot.scenarios.stubs import StubbedApis
from genie_bot.spec import AgentSpec, load_agent
from tests.conftest import WORKSHEETS

TODAY = dt.date(2026, 11, 28)
"""A Saturday, the day issue 37's conversations were had."""
DENTAL = Path(__file__).parent / "agents" / "dental_clinic"
"""A copy of ../shared/benchmarks/domains/dental_clinic (its agent, API and data; not its tests)."""
RESTAURANT = WORKSHEETS / "restaurant_reservation"
COURSES = WORKSHEETS / "course_enrollment"
TICKETS = WORKSHEETS / "ticket_submission"
STUBS: dict[Path, dict[str, Any]] = {
    DENTAL: {"book_appointment": {"booking_reference": "DC-10001"}, "change_appointment": {"change_id": "CH-1"}},
    RESTAURANT: {"book_restaurant": {"confirmation_code": "RES-00042", "status": "booked"}},
    COURSES: {"submit_enrollment": {"enrollment_id": "ENR-00042"}},
    TICKETS: {"submit_ticket": {"ticket_id": "TKT-00042", "status": "submitted"}},
}


@cache
def spec_of(directory: Path) -> AgentSpec:
    return load_agent(directory)


class Chat:
    """One user talking to one agent on ``today``; :meth:`say` returns the reply's text."""

    def __init__(self, directory: Path, today: dt.date = TODAY):
        self.agent = Agent(spec_of(directory), clock=lambda: dt.datetime.combine(today, dt.time(12)))
        self.apis = StubbedApis(self.agent.runtime.executor, STUBS.get(directory, {}))
        self.state = self.agent.new_state()
        self.last: AgentReply | None = None

    def say(self, text: str) -> str:
        self.last = self.agent.respond(self.state, text, executor=self.apis)
        self.state = self.last.state
        return self.last.text

    def says(self, *texts: str) -> str:
        """Each message in turn; the reply to the last."""
        reply = ""
        for text in texts:
            reply = self.say(text)
        return reply

    @property
    def submissions(self) -> int:
        return self.apis.side_effect_count

    def value(self, instance: str, field: str) -> Any:
        return self.state.instances[instance].values.get(field)


def booked_table() -> Chat:
    """A table booked at Lemongrass Noodle Bar: the task done, nothing else open."""
    chat = Chat(RESTAURANT)
    chat.says("book a table at lemongrass noodle bar for 4 tomorrow at 7pm", "yes")
    assert chat.submissions == 1, chat.last.text if chat.last else ""
    return chat


def dental_booking_summary() -> Chat:
    """A dental appointment with every detail given, at its summary."""
    chat = Chat(DENTAL)
    reply = chat.says("book a cleaning with dr kim on monday at 10am", "Ana Lopez", "650 555 0199", "no", "no")
    assert reply.startswith("Here is what I have:"), reply
    return chat


def enrollment_summary() -> Chat:
    """Two courses (CS 106A, CS 109) and the student's details, at the enrollment's summary."""
    chat = Chat(COURSES)
    reply = chat.says("CS 106A", "letter", "3 units", "CS 109", "letter", "4", "no", "yes", "Ann Lee", "12345678",
                      "ann@stanford.edu", "no")
    assert reply.startswith("Here is what I have:"), reply
    return chat


def ticket_summary() -> Chat:
    """A leave-of-absence ticket at its summary."""
    chat = Chat(TICKETS)
    reply = chat.says("i need help with a leave of absence", "not yet", "winter", "skip", "Ann Lee", "ann@stanford.edu")
    assert reply.startswith("Here is what I have:") or "Shall I go ahead" in reply, reply
    return chat
