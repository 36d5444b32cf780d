"""An agent: parser -> deterministic runtime -> responder, for one user message at a time."""

from __future__ import annotations

import datetime as dt
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field

from ..acts import Act, AskForConfirmation
from ..language.words import using
from ..parse import Parse
from ..parsers import Parser
from ..responders import Responder
from ..responders.contract import accounted, revised
from ..runtime import ApiExecutor, ConfirmInstance, LocalApiExecutor, Runtime, TurnResult, Update
from ..spec import AgentSpec
from ..state import DialogueState
from .components import AgentComponents, offline_components


@dataclass
class AgentReply:
    """One turn's outcome: the reply text, the agent acts, the new state, and how the message was parsed."""

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
    """One agent: its spec, and the parser, runtime and responder that run its turns.

    The single entry point for running turns (the terminal chat, conversation tests, the engine
    behind Slack and Discord). It holds no conversation state: :meth:`respond` takes a
    :class:`~genie_bot.state.DialogueState` and returns the new one in an :class:`AgentReply`,
    so one agent serves any number of sessions, from several threads at once.

    A part not given is the offline one (:func:`~genie_bot.agent.components.offline_components`):
    ``Agent(spec)`` runs with no LLM at all. :func:`~genie_bot.agent.build_agent` makes one in
    LLM mode when an LLM is configured.

    >>> agent = Agent(load_agent("worksheets/ticket_submission"))  # doctest: +SKIP
    >>> reply = agent.respond(agent.new_state(), "I need help with a leave of absence")  # doctest: +SKIP
    >>> reply.acts, reply.text  # doctest: +SKIP
    """

    def __init__(self, spec: AgentSpec, parser: Parser | None = None, responder: Responder | None = None,
                 executor: ApiExecutor | None = None, clock: Callable[[], dt.datetime] = dt.datetime.now):
        self.spec = spec
        if parser is None or responder is None or executor is None:
            offline = offline_components(spec, clock)
            parser, responder = parser or offline.parser, responder or offline.responder
            executor = executor or LocalApiExecutor(spec, knowledge=offline.knowledge)
        self.parser = parser
        self.responder = responder
        self.runtime = Runtime(spec, executor, clock)

    @classmethod
    def from_components(cls, components: AgentComponents) -> "Agent":
        """The agent made of ``components`` (its executor queries their knowledge back-end)."""
        return cls(components.spec, components.parser, components.responder,
                   LocalApiExecutor(components.spec, knowledge=components.knowledge), components.clock)

    def new_state(self) -> DialogueState:
        return self.runtime.new_state()

    def greeting(self, state: DialogueState | None = None) -> str:
        """The opening message: the agent's greeting and, when a new session already has a
        question (a ``start`` worksheet), that question."""
        hello = (self.spec.greeting or f"Hi! {self.spec.description}").strip()
        if state is None or not state.last_acts:
            return hello
        question = self.responder.respond(self.spec, state, state.last_acts, "", Parse("", source="opening"))
        return f"{hello}\n\n{question}"

    def respond(self, state: DialogueState, text: str, executor: ApiExecutor | None = None) -> AgentReply:
        """Parse ``text``, run the turn, and phrase the reply."""
        timer = _Timer()
        parse = self.parser.parse(self.spec, state, text, self.runtime.clock().date())
        timer.lap("parse")
        result = self.runtime.run_turn(state, parse.statements, executor=executor)
        return self._reply(state, text, parse, result, timer)

    def apply(self, state: DialogueState, updates: Sequence[ConfirmInstance] = (), executor: ApiExecutor | None = None,
              text: str = "") -> AgentReply:
        """Run a turn from typed updates rather than a message (a button click, or none at all).

        The reply's parse holds the statements the updates render to, for the turn's trace.
        """
        timer = _Timer()
        result = self.runtime.run_turn(state, executor=executor, updates=updates)
        return self._reply(state, text, Parse("\n".join(u.statement() for u in updates), source="direct"), result, timer)

    def _reply(self, before: DialogueState, text: str, parse: Parse, result: TurnResult, timer: "_Timer") -> AgentReply:
        """The reply, held to the turn contract (``responders.contract``): whatever phrased it, it names
        the values the turn changed, or says the message changed nothing."""
        timer.lap("runtime")
        assigned = result.update.assigned
        reply = self.responder.respond(self.spec, result.state, result.acts, text, parse, revised(before, assigned))
        with using(self.spec.vocabulary.lexicon()):
            reply = accounted(self.spec, before, result.state, result.acts, text, parse, result.update, reply)
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
