"""The console's own conversations: a private engine, on a database of its own, running the agents.

Turns go through the real :class:`~genie_bot.engine.Engine`, as a Slack or Discord message
would: the same pending actions and confirmation cards, and a Confirm click runs the action
exactly once, as a typed "yes" does. Its agents are :class:`~.inspection.InspectedAgent`
objects; the console runs one turn at a time and files what each captured under the turn's
event id, where the inspector finds it beside the engine's trace.
"""

from __future__ import annotations

import asyncio
import uuid
from collections.abc import Awaitable, Callable
from dataclasses import replace
from pathlib import Path
from typing import TypeVar

from ..agent import AgentBuilder
from ..config import AgentConfig, Config, LoggingSettings, MetricsSettings, Route, SchedulerSettings
from ..engine import Decision, Engine, ReloadReport, Reply, SessionKey
from ..observability.usage import llm_clients
from ..store import upgrade
from .inspection import InspectedAgent, TurnCapture

T = TypeVar("T")
PLATFORM = "web"
"""The platform of the console's sessions (``web/console/<agent>/<id>``)."""
USER = "console-user"


def agent_dir_config(name: str, agent_dir: Path, database_url: str) -> Config:
    """A deployment of one agent for the console: nothing but the engine, on ``database_url``."""
    return Config(agents={name: AgentConfig(name, agent_dir.resolve())}, default_agent=name,
                  database_url=database_url, scheduler=SchedulerSettings(enabled=False),
                  metrics=MetricsSettings(enabled=False), logging=LoggingSettings(include_content=True))


def sandbox_config(config: Config, database_url: str) -> Config:
    """A deployment's agents and settings on a database of the console's own."""
    return replace(config, database_url=database_url, platforms={}, scheduler=SchedulerSettings(enabled=False),
                   metrics=MetricsSettings(enabled=False))


class LiveConsole:
    """Conversations with the agents of ``config`` (on its database, which it migrates)."""

    def __init__(self, config: Config, build_agent: AgentBuilder):
        routes = tuple(Route(PLATFORM, name, name) for name in config.agents)  # the channel names the agent
        self.config = replace(config, routing=routes + config.routing)
        self.engine = Engine(self.config, build_agent=lambda spec: InspectedAgent(build_agent(spec)))
        self.captures: dict[str, TurnCapture] = {}
        self._one_turn = asyncio.Lock()

    async def start(self) -> None:
        await self.engine.in_db(upgrade, self.engine.db)
        await self.engine.start()

    async def stop(self) -> None:
        await self.engine.stop()

    def new_session(self, agent: str | None = None) -> SessionKey:
        return SessionKey(PLATFORM, "console", agent or self.config.default_agent, uuid.uuid4().hex[:12])

    def agent(self, name: str | None = None) -> InspectedAgent:
        """The agent of that name (default: the console's default agent), as the engine runs it now."""
        agent = self.engine.registry.get(name or self.config.default_agent).agent
        assert isinstance(agent, InspectedAgent)
        return agent

    def mode(self, agent: str | None = None) -> str:
        return self.agent(agent).mode

    async def send(self, key: SessionKey, text: str) -> list[Reply]:
        return await self._turn(key, lambda event: self.engine.handle_message(key, USER, text, event))

    async def click(self, key: SessionKey, action_id: str, decision: Decision) -> list[Reply]:
        return await self._turn(key, lambda event: self.engine.handle_action(key, USER, action_id, decision, event))

    async def reload(self) -> ReloadReport:
        async with self._one_turn:
            return await self.engine.reload()

    async def exclusively(self, work: Callable[[], Awaitable[T]]) -> T:
        """Run ``work`` while no turn runs (a scenario check swaps the process's ledger directory)."""
        async with self._one_turn:
            return await work()

    async def _turn(self, key: SessionKey, run: Callable[[str], Awaitable[list[Reply]]]) -> list[Reply]:
        event_id = f"console-{uuid.uuid4().hex}"
        async with self._one_turn:
            agent = self.agent(self.config.agent_for(key.platform, key.workspace, key.channel))
            marks = [(client, client.account.mark()) for client in llm_clients(agent)]
            agent.take()
            replies = await run(event_id)
            capture = agent.take()
            if capture is not None:
                capture.llm_calls = [record for client, mark in marks for record in client.account.since(mark)]
                self.captures[event_id] = capture
        return replies
