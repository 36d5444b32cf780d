"""``genie-bot knowledge load|list|prune``: the agents' CSV tables in the knowledge database.
Registering the commands loads no database library; the handlers import :mod:`.knowledge_tables`
when they run.
"""

from __future__ import annotations

import argparse
from pathlib import Path


def register(commands: argparse._SubParsersAction) -> None:
    knowledge = commands.add_parser("knowledge", help="the agents' knowledge tables in the knowledge database "
                                                      "(docs/knowledge-scale.md)")
    subcommands = knowledge.add_subparsers(dest="knowledge_command", required=True)
    load = subcommands.add_parser("load", help="import the agents' CSV tables that changed (by content) or are new")
    load.add_argument("agent_dirs", type=Path, nargs="*", help="agent directories (default: the config's agents)")
    _database_arguments(load)
    load.set_defaults(handler=_load)
    listing = subcommands.add_parser("list", help="list the imported tables, newest first")
    _database_arguments(listing)
    listing.set_defaults(handler=_list)
    pruning = subcommands.add_parser("prune", help="drop the imported tables that none of the agents uses now "
                                                   "(earlier versions of their CSVs) and no live process reads")
    pruning.add_argument("agent_dirs", type=Path, nargs="*", help="every agent using the database "
                                                                  "(default: the config's agents)")
    _database_arguments(pruning)
    pruning.set_defaults(handler=_prune)


def _database_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--database", metavar="URL", help="the knowledge database (default: the config's knowledge.url, "
                                                         "else GENIE_KNOWLEDGE_URL, else var/knowledge.sqlite3)")
    parser.add_argument("--config", type=Path, help="a deployment's genie.yaml: its knowledge database and agents")


def _load(args: argparse.Namespace) -> int:
    from .knowledge_tables import load

    return load(args)


def _list(args: argparse.Namespace) -> int:
    from .knowledge_tables import listing

    return listing(args)


def _prune(args: argparse.Namespace) -> int:
    from .knowledge_tables import prune_tables

    return prune_tables(args)
