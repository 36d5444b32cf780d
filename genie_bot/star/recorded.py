"""Serving a STAR task's API from the results recorded in the dialogue being replayed.

The wizard's API calls and the knowledge base's answers are part of each STAR dialogue.
During a replay the agent's call to the task's API (the function named like the API in
``apis/<task>.json``) gets those recorded results, and only once the wizard has made the
call: :meth:`RecordedApiExecutor.reveal` is called as the replay passes each ``return_item``
event. A call receives the most recent result revealed since the agent's previous call;
results of wizard calls in between that the agent did not make (wizards often probe the API
with partial details first) are skipped, so results are served in recorded order and none
twice. A call with no new result fails with :class:`NotRecordedYet` (the policy reports the
failure and retries on a later turn). Every other API function of the agent runs locally.
"""

from __future__ import annotations

from typing import Any

from ..errors import GenieError
from ..names import snake_case
from ..runtime import ApiRequest, KnowledgeResult, LocalApiExecutor
from ..spec import AgentSpec
from ..state import KnowledgeAnswer
from .dialogues import ApiResult


class NotRecordedYet(GenieError):
    """The agent called the task's API before (or more often than) the wizard did."""


class RecordedApiExecutor:
    def __init__(self, spec: AgentSpec, recorded_api: str):
        if recorded_api not in spec.apis:
            raise ValueError(f"agent {spec.name} has no API function '{recorded_api}' to serve recorded results")
        self.recorded_api = recorded_api
        self.local = LocalApiExecutor(spec)
        self.revealed: list[dict[str, Any] | None] = []

    def reveal(self, result: ApiResult) -> None:
        """The wizard's call returned ``result``; the agent may now receive it."""
        if result.api == self.recorded_api:
            self.revealed.append(as_api_result(result.item))

    def call_api(self, request: ApiRequest) -> Any:
        if request.function != self.recorded_api:
            return self.local.call_api(request)
        if not self.revealed:
            raise NotRecordedYet(f"the wizard has not called {request.function} (again) yet")
        latest = self.revealed[-1]
        self.revealed.clear()
        return latest

    def query_knowledge(self, answer: KnowledgeAnswer) -> KnowledgeResult:
        return self.local.query_knowledge(answer)


def as_api_result(item: dict[str, Any] | None) -> dict[str, Any] | None:
    """A recorded knowledge-base item as the agent's API function returns it: snake_case keys.

    ``{"APIName": "trivia", "Question": "...", "Answer": "wind"}`` becomes
    ``{"question": "...", "answer": "wind"}``; an empty answer stays ``None``.
    """
    if item is None:
        return None
    return {snake_case(key): value for key, value in item.items() if key != "APIName"}
