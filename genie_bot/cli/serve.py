"""``genie-bot run`` and ``genie-bot db upgrade``, plugged into the command line by ``register``.

Their handlers import :mod:`.deployment` (the engine, SQLAlchemy, the platforms' libraries) when
they run, so no other command pays for a deployment.
"""

from __future__ import annotations

import argparse
from pathlib import Path

from .llm_options import add_llm_arguments


def register(commands: argparse._SubParsersAction) -> None:
    run = commands.add_parser("run", help="serve the configured agents: engine, scheduler and chat adapters")
    run.add_argument("--config", type=Path, required=True, help="the deployment's genie.yaml")
    add_llm_arguments(run, config_file=False)
    run.set_defaults(handler=_run)
    db = commands.add_parser("db", help="manage the engine's database")
    db_commands = db.add_subparsers(dest="db_command", required=True)
    up = db_commands.add_parser("upgrade", help="create the engine's tables or migrate them to this version, "
                                                "and with --config import the agents' knowledge tables")
    up.add_argument("--config", type=Path, help="the deployment's genie.yaml (default: DATABASE_URL)")
    up.set_defaults(handler=_db_upgrade)


def _run(args: argparse.Namespace) -> int:
    from .deployment import run

    return run(args)


def _db_upgrade(args: argparse.Namespace) -> int:
    from .deployment import db_upgrade

    return db_upgrade(args)
