"""What ``genie-bot knowledge load|list|prune`` does (:mod:`.knowledge` registers it), and the
import of a deployment's tables that ``genie-bot db upgrade --config`` runs after migrating."""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

from sqlalchemy.exc import SQLAlchemyError

from ..config import Config, ConfigInvalid, KnowledgeSettings, load_config
from ..knowledge import KnowledgeDatabase, open_database
from ..knowledge.importer import LoadOutcome, TableInvalid, load_tables, prune, table_sources
from ..spec import check_agent
from .common import CommandFailed


def load(args: argparse.Namespace) -> int:
    config = _config(args.config)
    directories = list(args.agent_dirs) or ([a.path for a in config.agents.values()] if config else [])
    if not directories:
        raise CommandFailed("name the agent directories to load, or give --config genie.yaml", 2)
    database = _database(args.database, config)
    failed = False
    for directory in directories:
        spec, problems = check_agent(directory)
        if problems or spec is None:
            for problem in problems:
                print(problem, file=sys.stderr)
            failed = True
            continue
        try:
            for outcome in load_tables(database, spec):
                print(f"{spec.name}: {outcome.describe()}")
        except TableInvalid as exc:
            print(f"{spec.name}: {exc}", file=sys.stderr)
            failed = True
        except SQLAlchemyError as exc:
            raise CommandFailed(f"cannot use the knowledge database {database.safe_url}: {_reason(exc)}") from None
    return 1 if failed else 0


def prune_tables(args: argparse.Namespace) -> int:
    config = _config(args.config)
    directories = list(args.agent_dirs) or ([a.path for a in config.agents.values()] if config else [])
    if not directories:
        raise CommandFailed("name every agent directory that uses the database, or give --config genie.yaml", 2)
    keep = set()
    for directory in directories:
        spec, problems = check_agent(directory)
        if problems or spec is None:
            raise CommandFailed(f"{directory} has problems (run: genie-bot validate {directory}); nothing was dropped")
        keep |= {source.physical for source in table_sources(spec)}
    database = _database(args.database, config)
    pruned = prune(database, keep)
    for entry in pruned.dropped:
        print(f"dropped {entry.physical} ({entry.rows:,} rows)")
    for physical, readers in sorted(pruned.kept_live.items()):
        print(f"kept {physical}: {readers} live process(es) still read it (a reload or a restart releases it)")
    return 0


def load_deployment_knowledge(config: Config) -> list[tuple[str, LoadOutcome]]:
    """Import the tables of every agent of ``config`` (``genie-bot db upgrade`` does, after migrating)."""
    database = _database(None, config)
    out = []
    for agent in config.agents.values():
        spec, problems = check_agent(agent.path)
        if spec is None or problems:
            raise CommandFailed(f"agent '{agent.name}' has problems; run: genie-bot validate {agent.path}")
        out += [(agent.name, outcome) for outcome in load_tables(database, spec)]
    return out


def listing(args: argparse.Namespace) -> int:
    database = _database(args.database, _config(args.config))
    try:
        entries = database.catalogue()
    except SQLAlchemyError as exc:
        raise CommandFailed(f"cannot use the knowledge database {database.safe_url}: {_reason(exc)}") from None
    if not entries:
        print(f"{database.safe_url}: no tables imported")
    for entry in entries:
        print(f"{entry['physical']}  {entry['declared']} from {entry['source']}: {entry['rows']:,} rows, "
              f"imported {entry['imported_at']:%Y-%m-%d %H:%M}")
    return 0


def _config(path: Path | None) -> Config | None:
    if path is None:
        return None
    try:
        return load_config(path)
    except ConfigInvalid as exc:
        raise CommandFailed(f"{exc}\n{len(exc.errors)} problem(s) in the configuration", 2) from None


def _database(url: str | None, config: Config | None) -> KnowledgeDatabase:
    settings = config.knowledge if config is not None else KnowledgeSettings()
    try:
        return open_database(url or settings.url, None if url else settings.read_url)
    except ValueError as exc:
        raise CommandFailed(str(exc), 2) from None


def _reason(exc: SQLAlchemyError) -> str:
    return " ".join(line.strip() for line in str(getattr(exc, "orig", None) or exc).splitlines() if line.strip())
