"""Running ``genie-bot run`` and ``genie-bot db upgrade``: the engine, its scheduler and metrics, the chat adapters.

Imported by the commands' handlers (:mod:`.serve`) when they run, with everything a deployment loads."""

from __future__ import annotations

import argparse
import asyncio
import logging
import signal
import sys
from pathlib import Path
from typing import Any

from sqlalchemy.exc import OperationalError

from ..adapters.base import Adapter, AdapterStartFailed
from ..adapters.console import ConsoleAdapter
from ..adapters.platforms import create_adapter
from ..config import Config, ConfigInvalid, load_config
from ..agent import settings_from_config
from ..settings_reader import SettingsInvalid
from ..engine import Engine
from ..engine.agents import AgentsInvalid
from ..engine.metrics_server import MetricsServer
from ..engine.scheduler import start_scheduler
from ..observability.logs import configure_logging
from ..knowledge.importer import TableInvalid
from ..llm.settings import LLMSettingsInvalid
from ..store import DriverMissing, SchemaOutdated, upgrade
from ..store.sealing import KeysMissing
from .database import database_problem, deployment_database
from .knowledge_tables import load_deployment_knowledge
from .llm_options import llm_overrides


def _config(path: Path, llm_overrides: dict[str, Any] | None = None) -> Config | None:
    try:
        config = load_config(path, llm_overrides=llm_overrides)
        settings_from_config(config.llm)  # its problems now, not when the first agent is built
        return config
    except (ConfigInvalid, LLMSettingsInvalid) as exc:
        for error in exc.errors:
            print(error, file=sys.stderr)
        print(f"{len(exc.errors)} problem(s) in the configuration", file=sys.stderr)
        return None


def db_upgrade(args: argparse.Namespace) -> int:
    with deployment_database(args.config, check=False) as db:
        if db.dialect == "sqlite":  # a new deployment's var/ directory
            Path(db.engine.url.database or "").parent.mkdir(parents=True, exist_ok=True)
        try:
            before, after = upgrade(db)
        except KeysMissing as exc:  # tokens to seal (revision 0006), and no keys to seal them with
            print(f"{db.safe_url}: not upgraded: {exc}", file=sys.stderr)
            return 1
    print(f"{db.safe_url}: schema revision {before or '(none)'} -> {after}")
    if args.config is not None:  # the tables every process will read, imported once here
        config = load_config(args.config)
        try:
            loaded = load_deployment_knowledge(config)
        except TableInvalid as exc:
            print(f"knowledge: {exc}", file=sys.stderr)
            return 1
        for agent, outcome in loaded:
            print(f"knowledge: {agent}: {outcome.describe()}")
    return 0


def run(args: argparse.Namespace) -> int:
    config = _config(args.config, llm_overrides(args))
    if config is None:
        return 2
    # The terminal console talks on the terminal the log would go to: there, turn logs would
    # interleave with the conversation, so only warnings and errors are shown (logging.file keeps all).
    console_terminal = not config.platforms and config.logging.file is None and sys.stderr.isatty()
    configure_logging(config.logging, warnings_only=console_terminal)
    return asyncio.run(serve(config))


async def serve(config: Config) -> int:
    """Run the engine, its scheduler and the configured adapters until a signal (or console EOF)."""
    stopping = asyncio.Event()
    adapters = _adapters(config, stopping)
    if adapters is None:
        return 1
    try:
        engine = Engine(config)
    except DriverMissing as exc:
        print(exc, file=sys.stderr)
        return 1
    try:
        await engine.start(recover=False)  # recovery runs once the adapters can deliver what it says
    except SchemaOutdated as exc:
        print(SchemaOutdated(exc.current, exc.head, exc.url, str(config.source)), file=sys.stderr)
        await engine.stop()
        return 1
    except AgentsInvalid as exc:
        print(exc, file=sys.stderr)
        await engine.stop()
        return 1
    except OperationalError as exc:  # the server is unreachable, or refuses us
        print(database_problem(engine.db, exc), file=sys.stderr)
        await engine.stop()
        return 1
    loop = asyncio.get_running_loop()
    for sig in (signal.SIGINT, signal.SIGTERM):
        loop.add_signal_handler(sig, stopping.set)
    metrics = MetricsServer(engine, config.metrics.host, config.metrics.port) if config.metrics.enabled else None
    try:
        if metrics is not None:
            await metrics.start()
    except OSError as exc:  # the port is taken
        print(f"cannot serve metrics on {config.metrics.host}:{config.metrics.port}: {exc}", file=sys.stderr)
        await engine.stop()
        return 1
    scheduler = start_scheduler(engine) if config.scheduler.enabled else None
    try:
        for adapter in adapters:
            engine.add_sink(adapter.platform, adapter.deliver, getattr(adapter, "acknowledges_delivery", False))
            await adapter.start(engine)
        await engine.recover()
        logging.getLogger(__name__).info("serving %s with %s", ", ".join(config.agents),
                                         ", ".join(a.platform for a in adapters))
        await stopping.wait()
    except AdapterStartFailed as exc:
        print(exc, file=sys.stderr)
        return 1
    finally:
        for adapter in adapters:
            await adapter.stop()
        if metrics is not None:
            await metrics.stop()
        if scheduler is not None:
            scheduler.shutdown(wait=False)
        await engine.stop()
    return 0


def _adapters(config: Config, stopping: asyncio.Event) -> list[Adapter] | None:
    """The adapters of the configured platforms (a console when none is); None after printing every
    problem of every platform's settings (all missing tokens at once, as ``validate`` does)."""
    adapters: list[Adapter] = []
    problems: list[str] = []
    for platform in config.platforms:
        try:
            adapters.append(create_adapter(platform, config))
        except SettingsInvalid as exc:
            problems += [str(error) for error in exc.errors]
        except ValueError as exc:
            problems.append(f"platforms.{platform}: {exc}")
    if problems:
        for problem in problems:
            print(f"cannot start a configured platform: {problem}", file=sys.stderr)
        return None
    return adapters or [ConsoleAdapter(stopping.set)]
