"""API stubs for conversation tests: no real side effect unless a test asks for one.

A scenario lists what its agent's API functions return (``apis: {submit_ticket: {ticket_id:
T-1}}``); every call is recorded, so a test can assert what would have been submitted. A
side-effecting function without a stub is not called: the call fails (the agent reports the
failure, as it would a real one) and the scenario says which stub is missing.
"""

from __future__ import annotations

import copy
from dataclasses import dataclass, field
from typing import Any

from ..errors import GenieError
from ..runtime import ApiExecutor
from ..runtime.executor import ApiRequest, KnowledgeResult
from ..state import KnowledgeAnswer


class MissingStub(GenieError):
    """A side-effecting API was called in a scenario that neither stubs it nor allows real calls."""


@dataclass
class StubbedApis:
    """An executor that answers stubbed functions itself and hands the rest to ``real``."""

    real: ApiExecutor
    stubs: dict[str, Any]
    real_side_effects: bool = False
    calls: list[ApiRequest] = field(default_factory=list)
    """Calls made (stubbed or real), in order."""
    missing: list[str] = field(default_factory=list)
    """Side-effecting functions called without a stub, in call order; they were not called."""

    def call_api(self, request: ApiRequest) -> Any:
        if request.function in self.stubs:
            self.calls.append(request)
            return copy.deepcopy(self.stubs[request.function])
        if request.side_effects and not self.real_side_effects:
            self.missing.append(request.function)
            raise MissingStub(f"{request.function} has side effects and this test gives no result for it")
        self.calls.append(request)
        return self.real.call_api(request)

    def query_knowledge(self, answer: KnowledgeAnswer) -> KnowledgeResult:
        return self.real.query_knowledge(answer)

    @property
    def side_effect_count(self) -> int:
        return sum(1 for call in self.calls if call.side_effects)
