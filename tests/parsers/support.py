"""Dialogues at a chosen point, for unit tests of the rule-based parser's strategies.

A state is built by running formal statements through the real runtime (not through the
parser under test), so each test reads one message against exactly the state it names:
the agent's last question, the values given so far, the tasks open.
"""

from __future__ import annotations

import datetime as dt
from functools import lru_cache
from typing import Any

from genie_bot.acts import formal_value
from genie_bot.agent.components import knowledge_store
from genie_bot.knowledge import KeywordQuery, KnowledgeStore
from genie_bot.parse import Parse
from genie_bot.parsers.rules import RuleParser
from genie_bot.parsers.rules.reading import Reading
from genie_bot.runtime import LocalApiExecutor, Runtime, TurnResult
from genie_bot.spec import AgentSpec, load_agent
from genie_bot.state import DialogueState
from tests.conftest import WORKSHEETS

TODAY = dt.date(2026, 11, 21)
"""A Saturday."""

TICKET, COURSES, RESTAURANT = "ticket_submission", "course_enrollment", "restaurant_reservation"


@lru_cache(maxsize=None)
def loaded(name: str) -> tuple[AgentSpec, KnowledgeStore | None]:
    """An example agent's spec and its knowledge tables (read-only, shared by the tests)."""
    spec = load_agent(WORKSHEETS / name)
    return spec, knowledge_store(spec)


def record(name: str, table: str = "restaurants") -> dict[str, Any]:
    """The row of ``table`` whose name (or course id) is ``name``."""
    spec, store = loaded(RESTAURANT if table == "restaurants" else COURSES)
    key = "name" if table == "restaurants" else "course_id"
    rows = store.rows(table, where={key: name})
    assert len(rows) == 1, f"{name!r} names {len(rows)} rows of {table}"
    return rows[0]


class Dialogue:
    """One conversation with an example agent: statements move it on, messages are read against it."""

    def __init__(self, agent: str, today: dt.date = TODAY):
        self.spec, self.store = loaded(agent)
        self.today = today
        knowledge = KeywordQuery(self.store) if self.store is not None else None
        self.runtime = Runtime(self.spec, LocalApiExecutor(self.spec, knowledge=knowledge),
                               clock=lambda: dt.datetime.combine(today, dt.time(12)))
        self.state: DialogueState = self.runtime.new_state()
        self.result: TurnResult | None = None

    def do(self, *statements: str) -> "Dialogue":
        """Run each statement as a turn of its own; fails on an interpreter error."""
        for statement in statements:
            self.result = self.runtime.run_turn(self.state, statement)
            assert not self.result.errors, self.result.errors
            self.state = self.result.state
        return self

    def set(self, target: str, value: Any) -> "Dialogue":
        """``target = value`` with ``value`` written as the parser would write it (a record, a date)."""
        return self.do(f"{target} = {formal_value(value)}")

    @property
    def asked(self) -> str:
        """The last question, formally: ``AskField(instance, field, ...)``."""
        question = next(a for a in reversed(self.state.last_acts) if a.is_question)
        return question.formal()

    def reading(self, text: str, today: dt.date | None = None) -> Reading:
        return Reading(self.spec, self.state, text.strip(), today or self.today, self.store)

    def parse(self, text: str, today: dt.date | None = None) -> Parse:
        return RuleParser(self.store).parse(self.spec, self.state, text, today or self.today)

    def reply(self, text: str) -> TurnResult:
        """Parse ``text`` and run the turn; the dialogue moves on."""
        self.result = self.runtime.run_turn(self.state, self.parse(text).statements)
        self.state = self.result.state
        return self.result

    def values(self, instance: str) -> dict[str, Any]:
        return self.state.instances[instance].values

    def value(self, path: str) -> Any:
        """``instance.field``'s value, following nested worksheets (``main_0.leave_of_absence_details``)."""
        instance, field = path.split(".")
        return self.state.resolve(self.state.instances[instance].values.get(field))


def lines(statements: list[str] | str) -> list[str]:
    if isinstance(statements, str):
        return [s for s in statements.splitlines() if s.strip()]
    return list(statements)
