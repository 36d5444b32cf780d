"""What the turn inspector shows beyond the engine's traces, captured while the console's turns run.

The engine's trace of a turn keeps its message, statements, acts, reply, latencies and LLM
totals. The console also wants the state before and after, the parser's notes, the
interpreter's rejections, every API call and knowledge query with its result, and each LLM
call: :class:`InspectedAgent` is the agent the console's private engine runs, and keeps those
of the turn it ran last, for the console to pick up once the engine returns.
"""

from __future__ import annotations

import datetime as dt
import threading
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

from ..agent import Agent, AgentReply
from ..agent.components import OFFLINE_MESSAGE
from ..llm import CallRecord
from ..observability.usage import llm_clients
from ..runtime import ApiExecutor, ApiRequest, ConfirmInstance, KnowledgeResult
from ..state import DialogueState, KnowledgeAnswer


@dataclass
class ApiCall:
    request: ApiRequest
    result: Any = None
    error: str | None = None


@dataclass
class KnowledgeQuery:
    question: str
    query: str | None = None
    result: Any = None
    error: str | None = None


@dataclass
class TurnCapture:
    """One turn as the agent ran it: the state it started from and everything it produced."""

    before: DialogueState
    reply: AgentReply
    today: dt.date
    api_calls: list[ApiCall] = field(default_factory=list)
    knowledge: list[KnowledgeQuery] = field(default_factory=list)
    llm_calls: list[CallRecord] = field(default_factory=list)
    """Filled in by the console: every LLM call of the engine's turn (greeting included)."""


class RecordingExecutor:
    """An executor that passes every call on to ``inner`` (the engine's confirmation gate) and
    records it with its result or failure."""

    def __init__(self, inner: ApiExecutor):
        self.inner = inner
        self.api_calls: list[ApiCall] = []
        self.knowledge: list[KnowledgeQuery] = []

    def call_api(self, request: ApiRequest) -> Any:
        call = ApiCall(request)
        self.api_calls.append(call)
        try:
            call.result = self.inner.call_api(request)
        except Exception as exc:
            call.error = f"{type(exc).__name__}: {exc}"
            raise
        return call.result

    def query_knowledge(self, answer: KnowledgeAnswer) -> KnowledgeResult:
        query = KnowledgeQuery(answer.question)
        self.knowledge.append(query)
        try:
            result = self.inner.query_knowledge(answer)
        except Exception as exc:
            query.error = f"{type(exc).__name__}: {exc}"
            raise
        query.query, query.result = result.query, result.result
        return result


class InspectedAgent(Agent):
    """``agent``'s parts, running turns as it would, keeping the last turn's :class:`TurnCapture`."""

    def __init__(self, agent: Agent):
        super().__init__(agent.spec, agent.parser, agent.responder, agent.runtime.executor, agent.runtime.clock)
        self._lock = threading.Lock()
        self._last: TurnCapture | None = None

    def respond(self, state: DialogueState, text: str, executor: ApiExecutor | None = None) -> AgentReply:
        recorder = RecordingExecutor(executor or self.runtime.executor)
        today = self.runtime.clock().date()
        reply = super().respond(state, text, recorder)
        self._keep(TurnCapture(state, reply, today, recorder.api_calls, recorder.knowledge))
        return reply

    def apply(self, state: DialogueState, updates: Sequence[ConfirmInstance] = (), executor: ApiExecutor | None = None,
              text: str = "") -> AgentReply:
        recorder = RecordingExecutor(executor or self.runtime.executor)
        today = self.runtime.clock().date()
        reply = super().apply(state, updates, recorder, text)
        self._keep(TurnCapture(state, reply, today, recorder.api_calls, recorder.knowledge))
        return reply

    def take(self) -> TurnCapture | None:
        """The capture of the turn run since the last call, if any."""
        with self._lock:
            capture, self._last = self._last, None
            return capture

    def _keep(self, capture: TurnCapture) -> None:
        with self._lock:
            self._last = capture

    @property
    def mode(self) -> str:
        """LLM mode and its models, or offline mode, in one line for the page."""
        clients = llm_clients(self)
        return clients[0].settings.describe() if clients else OFFLINE_MESSAGE
