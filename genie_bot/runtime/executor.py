"""The one door through which the policy performs I/O: API calls and knowledge queries.

Keeping I/O behind this interface makes the policy a pure function of (spec, state, update)
plus these calls, testable with a fake executor, and lets the engine wrap API calls with its
exactly-once bookkeeping for side-effecting actions.
"""

from __future__ import annotations

import inspect
from dataclasses import dataclass, field
from typing import Any, Protocol

from ..errors import GenieError
from ..spec import NA, AgentSpec, InstanceRef
from ..spec.api_module import IDEMPOTENCY_PARAMETER
from .searched import searched_in
from ..state import DialogueState, KnowledgeAnswer, Searched


@dataclass(frozen=True)
class ApiRequest:
    instance: str
    worksheet: str
    function: str
    args: dict[str, Any]
    side_effects: bool


def api_arguments(state: DialogueState, args: dict[str, Any]) -> dict[str, Any]:
    """Arguments as API functions receive them: plain values. A nested worksheet is the dict of its
    values, and a declined optional field is None (``"NA"`` is the parser's spelling of a decline,
    never an API's)."""
    def plain(value: Any) -> Any:
        if isinstance(value, InstanceRef):
            child = state.instances.get(value.name)
            return {k: plain(v) for k, v in child.values.items()} if child else None
        if isinstance(value, list):
            return [plain(v) for v in value]
        return None if isinstance(value, str) and value == NA else value
    return {k: plain(v) for k, v in args.items()}


@dataclass(frozen=True)
class KnowledgeResult:
    query: str | None
    result: Any
    searched: Searched | None = None
    """What the query looked for, when the back-end read it from the query it made (the reply says it)."""
    records: dict[str, list[dict[str, Any]]] = field(default_factory=dict)
    """worksheet -> the whole rows of records the result shows with only some columns: a record chosen
    from the answer is the whole row (``self.room.max_guests`` after an answer that showed the price)."""


class KnowledgeUnavailable(GenieError):
    """The agent has no way to answer knowledge queries in this configuration."""


class Knowledge(Protocol):
    """A knowledge back-end: answers a query (SQL over tables, document search, keyword matching)."""

    def query(self, answer: KnowledgeAnswer) -> KnowledgeResult: ...


class ApiExecutor(Protocol):
    def call_api(self, request: ApiRequest) -> Any: ...

    def query_knowledge(self, answer: KnowledgeAnswer) -> KnowledgeResult: ...


@dataclass
class LocalApiExecutor:
    """Calls the agent's Python API functions in-process; knowledge comes from ``knowledge`` if given."""

    spec: AgentSpec
    knowledge: Knowledge | None = None
    idempotency_key: str | None = None
    calls: list[ApiRequest] = field(default_factory=list)

    def call_api(self, request: ApiRequest) -> Any:
        self.calls.append(request)
        fn = self.spec.apis[request.function].fn
        kwargs = dict(request.args)
        if self.idempotency_key and IDEMPOTENCY_PARAMETER in inspect.signature(fn).parameters:
            kwargs[IDEMPOTENCY_PARAMETER] = self.idempotency_key
        return fn(**kwargs)

    def query_knowledge(self, answer: KnowledgeAnswer) -> KnowledgeResult:
        if self.knowledge is None:
            raise KnowledgeUnavailable("this agent cannot look things up right now")
        return self.knowledge.query(answer)


@dataclass
class RecordedKnowledge:
    """Serves a recorded knowledge result (replays of traces that carry ``kb_result``)."""

    result: Any
    sql: str | None = None

    def query(self, answer: KnowledgeAnswer) -> KnowledgeResult:
        return KnowledgeResult(self.sql, self.result, searched_in(self.sql) if self.sql else None)
