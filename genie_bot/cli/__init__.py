"""The ``genie-bot`` command line: one module per command group, each adding its subcommands.

======================  ==========================================================================
module                  commands
======================  ==========================================================================
:mod:`.agents`          ``validate``, ``schema``, ``replay``, ``bench``, ``test``: building an agent
:mod:`.genie`           ``import-csv``, ``import-json``, ``compare-genie``: moving from the reference Genie
:mod:`.chat`            ``chat``: a terminal conversation with an agent
:mod:`.console`         ``console``: a local web page to chat with an agent and inspect every turn
:mod:`.prompt`          ``prompt``: the exact LLM prompt for a state and message
:mod:`.serve`           ``run``, ``db upgrade``: a deployment (engine, scheduler, platform adapters)
:mod:`.knowledge`       ``knowledge load|list|prune``: the agents' CSV tables in the knowledge database
:mod:`.sessions`        ``sessions list|show|export``: conversations in a deployment's database
:mod:`.installations`   ``installations list|remove``: the Slack workspaces of "Add to Slack"
:mod:`.star`            ``eval star``: the STAR benchmark
======================  ==========================================================================

A bot builder runs these commands all day, so each starts with only what it uses: a command
module imports at its top what registering its options needs, and its handler imports the
agent, a database or a chat platform when it runs (through a module of its own when there is
more to running it: :mod:`.deployment` for ``run``, :mod:`.console_page` for ``console``,
:mod:`.knowledge_tables` for ``knowledge``).
``genie-bot --help`` and ``validate`` load no parser, database or platform library, and offline
mode never loads ``openai`` (``python -m tests.benchmarks.startup`` measures it).
"""

from __future__ import annotations

import argparse
import sys
from collections.abc import Sequence

from ..spec.csv_file import TableInvalid
from . import agents, chat, console, genie, installations, knowledge, prompt, serve, sessions, star
from .common import CommandFailed

COMMAND_GROUPS = (agents, genie, serve, knowledge, sessions, installations, star, prompt, chat, console)


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="genie-bot", description="Genie Worksheets task assistants.")
    commands = parser.add_subparsers(dest="command", required=True)
    for group in COMMAND_GROUPS:
        group.register(commands)
    args = parser.parse_args(argv)
    try:
        return args.handler(args)
    except CommandFailed as exc:
        print(exc, file=sys.stderr)
        return exc.status
    except TableInvalid as exc:  # a table the agent needs cannot be imported: its file and line, no traceback
        print(f"genie-bot: {exc}", file=sys.stderr)
        return 1
