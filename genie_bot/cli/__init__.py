"""The ``genie-bot`` command line: one module per command group, each adding its subcommands.

================  ==========================================================================
module            commands
================  ==========================================================================
:mod:`.agents`    ``validate``, ``replay``, ``bench``, ``test``: building an agent
:mod:`.genie`     ``import-csv``, ``import-json``, ``compare-genie``: moving from the reference Genie
:mod:`.chat`      ``chat``: a terminal conversation with an agent
:mod:`.console`   ``console``: a local web page to chat with an agent and inspect every turn
:mod:`.prompt`    ``prompt``: the exact LLM prompt for a state and message
:mod:`.serve`     ``run``, ``db upgrade``: a deployment (engine, scheduler, platform adapters)
:mod:`.knowledge` ``knowledge load|list``: the agents' CSV tables in the knowledge database
:mod:`.sessions`  ``sessions list|show|export``: conversations in a deployment's database
:mod:`.star`      ``eval star``: the STAR benchmark
================  ==========================================================================
"""

from __future__ import annotations

import argparse
import sys
from collections.abc import Sequence

from . import agents, chat, console, genie, knowledge, prompt, serve, sessions, star
from .common import CommandFailed

COMMAND_GROUPS = (agents, genie, serve, knowledge, sessions, star, prompt, chat, console)


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
