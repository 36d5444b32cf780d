"""The agents an engine serves: loading, routing by name, and all-or-nothing hot reload."""

from __future__ import annotations

import asyncio
import hashlib
import inspect
import threading
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from ..agent import Agent, AgentBuilder
from ..config import AgentConfig
from ..errors import GenieError
from ..spec.csv_file import TableInvalid
from ..spec import AgentSpec, TaskWorksheet, check_agent

RELOAD_SECONDS = 60.0
"""How long a reload may take before its caller is answered that it did not finish: loading runs the
agents' api.py, which may wait for something (its import is checked in a child first, but may
behave differently in this process)."""
Reloaded = tuple[dict[str, tuple[str, str]], list[str]]


class AgentsInvalid(GenieError):
    def __init__(self, errors: list[str]):
        self.errors = errors
        super().__init__("\n".join(errors))


@dataclass(frozen=True)
class LoadedAgent:
    config: AgentConfig
    spec: AgentSpec
    agent: Agent
    fingerprints: dict[str, str]
    """worksheet -> fingerprint of its API (function, arguments, code): a change invalidates confirmations."""

    @property
    def name(self) -> str:
        return self.config.name

    @property
    def version(self) -> str:
        return self.spec.version


class AgentRegistry:
    def __init__(self, configs: dict[str, AgentConfig], build: AgentBuilder):
        self.configs = configs
        self.build = build
        self._agents: dict[str, LoadedAgent] = {}
        self._reloading = threading.Lock()

    def load(self) -> None:
        """Load every configured agent; raise :class:`AgentsInvalid` listing every problem."""
        loaded, errors = self._load(list(self.configs))
        if errors:
            raise AgentsInvalid(errors)
        self._agents = loaded

    def get(self, name: str) -> LoadedAgent:
        return self._agents[name]

    def versions(self) -> dict[str, str]:
        return {name: loaded.version for name, loaded in self._agents.items()}

    def data_files(self) -> dict[str, dict[str, str]]:
        """agent -> its data files and their hashes, as loaded."""
        return {name: loaded.spec.data for name, loaded in self._agents.items()}

    def reload(self, name: str | None = None) -> tuple[dict[str, tuple[str, str]], list[str]]:
        """Load ``name`` (or every agent) again; switch only if all of them load without errors.

        Returns (agent -> (old version, new version), errors).
        """
        names = [name] if name else list(self.configs)
        unknown = [n for n in names if n not in self.configs]
        if unknown:
            return {}, [f"unknown agent '{n}'; configured agents: {', '.join(self.configs)}" for n in unknown]
        if not self._reloading.acquire(blocking=False):
            return {}, ["another reload has not finished yet (loading an agent's api.py may be stuck): wait for it, "
                        "or restart the process"]
        try:
            loaded, errors = self._load(names)
            if errors:
                return {}, errors
            versions = {n: (self._agents[n].version, loaded[n].version) for n in names}
            self._agents = {**self._agents, **{n: a for n, a in loaded.items() if a.version != self._agents[n].version}}
            return versions, []
        finally:
            self._reloading.release()

    async def reload_within(self, name: str | None, seconds: float = RELOAD_SECONDS) -> Reloaded:
        """:meth:`reload`, in a thread of its own, answered within ``seconds``: past them, an error
        while the reload goes on (if it ever finishes, its agents are switched to then). The thread
        is a daemon: a reload stuck for good does not keep the process from exiting."""
        loop = asyncio.get_running_loop()
        done: asyncio.Future[Reloaded] = loop.create_future()

        def answer(settle: Callable[[Any], None], value: Any) -> None:
            if not done.done():
                settle(value)

        def work() -> None:
            try:
                result = self.reload(name)
            except BaseException as exc:  # noqa: BLE001 - handed to the caller, as asyncio.to_thread does
                loop.call_soon_threadsafe(answer, done.set_exception, exc)
            else:
                loop.call_soon_threadsafe(answer, done.set_result, result)

        threading.Thread(target=work, name="genie-reload", daemon=True).start()
        try:
            return await asyncio.wait_for(done, seconds)
        except TimeoutError:
            return {}, [f"loading the agents did not finish within {seconds:g} s (does an api.py wait for "
                        "something at import?); it goes on, and they switch to the new versions if it finishes"]

    def _load(self, names: list[str]) -> tuple[dict[str, LoadedAgent], list[str]]:
        loaded: dict[str, LoadedAgent] = {}
        errors: list[str] = []
        for name in names:
            config = self.configs[name]
            spec, problems = check_agent(config.path)
            if problems or spec is None:
                errors.extend(str(p) for p in problems)
                continue
            try:
                agent = self.build(spec)
            except TableInvalid as exc:  # a table of the agent does not import (its file and line said)
                errors.append(str(exc))
                continue
            loaded[name] = LoadedAgent(config, spec, agent,
                                       {ws.name: api_fingerprint(spec, ws) for ws in spec.tasks.values()})
        return loaded, errors


def api_fingerprint(spec: AgentSpec, ws: TaskWorksheet) -> str:
    """What a user's confirmation of ``ws`` is about: its API, the argument code, the function's code."""
    parts = [ws.name]
    if ws.api is not None:
        parts += [ws.api.function, str(ws.api.side_effects), *(f"{k}={c.source}" for k, c in sorted(ws.api.args.items()))]
        parts.append(_code_of(spec.apis[ws.api.function].fn))
    if ws.actions is not None:
        parts.append(ws.actions.source)
        parts += [_code_of(api.fn) for api in spec.apis.values() if api.side_effects]
    return hashlib.sha256("\n".join(parts).encode()).hexdigest()[:16]


def _code_of(fn: Callable) -> str:
    try:
        return inspect.getsource(fn)
    except (OSError, TypeError):
        return fn.__code__.co_code.hex()
