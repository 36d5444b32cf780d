"""Fixtures for the LLM tests: a scripted OpenAI-compatible server routed by role, settings, agents.

Every test talks to the server with the real ``openai`` client. Each role has its own model
name (``test-parser``, ``test-knowledge``, ``test-responder``), so the server's responder
can serve each role from its own queue and record each role's prompts separately.
"""

from __future__ import annotations

import datetime as dt
from collections import deque
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from genie_bot.agent import Agent
from genie_bot.agent import build_agent
from genie_bot.llm import LLMSettings
from genie_bot.llm.settings import ROLES
from genie_bot.spec import AgentSpec, load_agent
from tests.fakes.openai_server import ScriptedOpenAIServer

REPO = Path(__file__).resolve().parents[2]
WORKSHEETS = REPO / "worksheets"
NOW = dt.datetime(2026, 11, 23, 10, 0)  # a Monday
TODAY = NOW.date()
MODELS = {role: f"test-{role}" for role in ROLES}


class RoleScript:
    """The server's responder: answers each role from its own queue, and records its requests."""

    def __init__(self) -> None:
        self.queues: dict[str, deque] = {role: deque() for role in ROLES}
        self.requests: dict[str, list[dict[str, Any]]] = {role: [] for role in ROLES}

    def add(self, role: str, *items: Any) -> None:
        self.queues[role].extend(items)

    def __call__(self, body: dict[str, Any]) -> Any:
        role = body["model"].removeprefix("test-")
        self.requests[role].append(body)
        if not self.queues[role]:
            raise AssertionError(f"no scripted {role} answer left")
        return self.queues[role].popleft()

    def prompt(self, role: str, index: int = -1) -> str:
        """All message texts of one recorded request of ``role``, joined."""
        return "\n".join(m["content"] for m in self.requests[role][index]["messages"])

    def calls(self, role: str) -> int:
        return len(self.requests[role])


@pytest.fixture
def script() -> RoleScript:
    return RoleScript()


@pytest.fixture
def server(script: RoleScript) -> Iterator[ScriptedOpenAIServer]:
    with ScriptedOpenAIServer(responder=script) as srv:
        yield srv


def make_settings(server: ScriptedOpenAIServer, **config: Any) -> LLMSettings:
    """Settings for the scripted server; no environment variable leaks in."""
    base = {"base_url": server.base_url, "models": MODELS, "max_retries": 0, "timeout": 5,
            "template_replies": False}  # the tests script a phrasing for every turn; test_llm_calls measures the default
    return LLMSettings.from_mapping({**base, **config}, environ={})


@pytest.fixture
def settings(server: ScriptedOpenAIServer) -> LLMSettings:
    return make_settings(server)


@pytest.fixture(scope="session")
def ticket_spec() -> AgentSpec:
    return load_agent(WORKSHEETS / "ticket_submission")


@pytest.fixture(scope="session")
def restaurant_spec() -> AgentSpec:
    return load_agent(WORKSHEETS / "restaurant_reservation")


@pytest.fixture(scope="session")
def course_spec() -> AgentSpec:
    return load_agent(WORKSHEETS / "course_enrollment")


class Chat:
    """An agent conversation with a fixed clock; ``statements`` drives turns without any LLM."""

    def __init__(self, agent: Agent):
        self.agent = agent
        self.state = agent.new_state()
        self.reply = None

    def say(self, text: str):
        self.reply = self.agent.respond(self.state, text)
        self.state = self.reply.state
        return self.reply

    def statements(self, statements: str) -> list[str]:
        """Run a turn from statements through the runtime only (no parser, no responder)."""
        result = self.agent.runtime.run_turn(self.state, statements)
        assert not result.errors, result.errors
        self.state = result.state
        return [act.formal() for act in result.acts]


@pytest.fixture
def chat_with(settings: LLMSettings):
    def make(spec: AgentSpec, llm_settings: LLMSettings | None = None) -> Chat:
        return Chat(build_agent(spec, llm_settings or settings, clock=lambda: NOW))

    return make
