"""An agent: parser -> deterministic runtime -> responder, for one user message at a time.

This is the single entry point for running turns (the terminal chat, conversation tests,
the engine behind Slack and Discord). It holds no conversation state itself: a turn takes a
state and returns a new one.
"""

from __future__ import annotations

import datetime as dt
import time
from collections.abc import Callable
from dataclasses import dataclass, field

from .acts import Act, AskForConfirmation
from .knowledge import KeywordQuery, KnowledgeStore
from .parsers import Parse, Parser, RuleParser
from .responders import Responder, TemplateResponder
from .runtime import ApiExecutor, LocalApiExecutor, Runtime, Update
from .spec import AgentSpec
from .state import DialogueState


@dataclass
class AgentReply:
    text: str
    acts: list[Act]
    state: DialogueState
    parse: Parse
    update: Update
    latencies_ms: dict[str, float] = field(default_factory=dict)

    @property
    def errors(self) -> list[str]:
        return self.update.errors

    @property
    def confirmation(self) -> AskForConfirmation | None:
        """The side-effecting action waiting for the user's Confirm, if this turn asked for one."""
        return next((a for a in self.acts if isinstance(a, AskForConfirmation)), None)


class Agent:
    def __init__(self, spec: AgentSpec, parser: Parser | None = None, responder: Responder | None = None,
                 executor: ApiExecutor | None = None, clock: Callable[[], dt.datetime] = dt.datetime.now):
        self.spec = spec
        needs_store = (parser is None or executor is None) and any(k.source == "table" for k in spec.knowledge.values())
        store = KnowledgeStore(spec) if needs_store else None  # only the offline defaults need it
        self.parser = parser or RuleParser(store)
        self.responder = responder or TemplateResponder()
        self.runtime = Runtime(spec, executor or LocalApiExecutor(spec, knowledge=store and KeywordQuery(store)), clock)

    def new_state(self) -> DialogueState:
        return self.runtime.new_state()

    def greeting(self, state: DialogueState | None = None) -> str:
        """The opening message: the agent's greeting and, when a new session already has a
        question (a ``start`` worksheet), that question."""
        hello = (self.spec.greeting or f"Hi! {self.spec.description}").strip()
        acts = state.last_acts if state is not None else []
        if not acts:
            return hello
        question = self.responder.respond(self.spec, state, acts, "", Parse("", source="opening"))
        return f"{hello}\n\n{question}"

    def respond(self, state: DialogueState, text: str, executor: ApiExecutor | None = None) -> AgentReply:
        """Parse ``text``, run the turn, and phrase the reply."""
        timer = _Timer()
        parse = self.parser.parse(self.spec, state, text, self.runtime.clock().date())
        timer.lap("parse")
        return self._finish(state, text, parse, executor, timer)

    def apply(self, state: DialogueState, statements: str, executor: ApiExecutor | None = None,
              text: str = "") -> AgentReply:
        """Run a turn from statements rather than a message (a button click, a recorded parse)."""
        return self._finish(state, text, Parse(statements, source="direct"), executor, _Timer())

    def _finish(self, state: DialogueState, text: str, parse: Parse, executor: ApiExecutor | None,
                timer: "_Timer") -> AgentReply:
        result = self.runtime.run_turn(state, parse.statements, executor=executor)
        timer.lap("runtime")
        reply = self.responder.respond(self.spec, result.state, result.acts, text, parse)
        timer.lap("respond")
        return AgentReply(reply, result.acts, result.state, parse, result.update, timer.laps)


class _Timer:
    def __init__(self) -> None:
        self.last = time.perf_counter()
        self.laps: dict[str, float] = {}

    def lap(self, name: str) -> None:
        now = time.perf_counter()
        self.laps[name] = (now - self.last) * 1000
        self.last = now
