"""Running ``genie-bot console`` (see :mod:`.console`): the page's server, its private engine, a deployment's
stored sessions. Imported by the command's handler when it runs."""

from __future__ import annotations

import argparse
import asyncio
import datetime as dt
import logging
import os
import signal
import sys
import tempfile
from collections.abc import Callable
from pathlib import Path

from ..agent import Agent, agent_builder, agent_components
from ..config import Config, ConfigInvalid, load_config
from ..console_web import (TOKEN_ENV, Access, Console, ConsoleServer, LiveConsole, SessionSource, agent_dir_config,
                           sandbox_config, session_url)
from ..console_web.access import token_problem
from ..console_web.sources import loaded_agents
from ..engine.agents import AgentRegistry, AgentsInvalid, LoadedAgent
from ..knowledge import open_database
from ..store import Database, SchemaOutdated, check_schema
from .common import clock_for, load_spec
from .llm_options import llm_overrides, llm_settings

log = logging.getLogger(__name__)


def run(args: argparse.Namespace) -> int:
    if (args.agent_dir is None) == (args.config is None):
        print("genie-bot console: give an agent directory, or --config genie.yaml", file=sys.stderr)
        return 2
    if args.session and args.config is None:
        print("genie-bot console: --session opens a session of a deployment: add --config genie.yaml", file=sys.stderr)
        return 2
    token = os.environ.get(TOKEN_ENV) or None
    problem = token_problem(token, args.host)
    if problem is not None:
        print(f"genie-bot console: {problem}", file=sys.stderr)
        return 2
    with tempfile.TemporaryDirectory(prefix="genie-console-") as private:
        database_url = f"sqlite:///{Path(private) / 'console.sqlite3'}"
        if args.config is None:
            spec = load_spec(args.agent_dir)
            settings, clock = llm_settings(args), clock_for(args.today)
            live = LiveConsole(agent_dir_config(spec.name, args.agent_dir, database_url),
                               lambda s: Agent.from_components(agent_components(s, settings, clock=clock)))
            return asyncio.run(_serve(Console(live, None), Access(token, args.host), args, "/"))
        try:
            config = load_config(args.config, llm_overrides=llm_overrides(args))
        except ConfigInvalid as exc:
            print(exc, file=sys.stderr)
            return 2
        stored = _stored_sessions(config)
        if stored is None:
            return 1
        knowledge = open_database(config.knowledge.url, config.knowledge.read_url)
        sandbox = LiveConsole(sandbox_config(config, database_url),
                              agent_builder(config.llm, clock_for(args.today), knowledge)) if token else None
        start = session_url(args.session) if args.session else "/sessions"
        return asyncio.run(_serve(Console(sandbox, stored), Access(token, args.host), args, start))


def _stored_sessions(config: Config) -> SessionSource | None:
    """The deployment's database, read-only; None (said why) when its schema is not this version's."""
    db = Database(config.database_url)
    try:
        check_schema(db)
    except SchemaOutdated as exc:
        print(SchemaOutdated(exc.current, exc.head, exc.url, str(config.source)), file=sys.stderr)
        db.dispose()
        return None
    return SessionSource(db, agents=_agents_of(config), confirmation=config.confirmation, llm=config.llm,
                         include_content=config.logging.include_content)


def _agents_of(config: Config) -> Callable[[str], LoadedAgent | None]:
    """The deployment's agents, loaded offline (for confirmation cards and exports); none if they do not load."""
    registry = AgentRegistry(config.agents, Agent)
    try:
        registry.load()
    except AgentsInvalid as exc:
        log.warning("the deployment's agents do not load, so cards and exports are unavailable:\n%s", exc)
        return lambda name: None
    return loaded_agents(registry)


async def _serve(console: Console, access: Access, args: argparse.Namespace, start: str) -> int:
    stopping = asyncio.Event()
    loop = asyncio.get_running_loop()
    for sig in (signal.SIGINT, signal.SIGTERM):
        loop.add_signal_handler(sig, stopping.set)
    server = ConsoleServer(console, access, args.host, args.port)
    try:
        if console.live is not None:
            await console.live.start()
        await server.start()
        print(f"genie-bot console: {server.url}{start}", flush=True)
        if console.live is not None:
            print(f"  {console.live.mode()}", flush=True)
        await stopping.wait()
    finally:
        await server.stop()
        if console.live is not None:
            await console.live.stop()
        if console.stored is not None:
            console.stored.db.dispose()
    return 0
