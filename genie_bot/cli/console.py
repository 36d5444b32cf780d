"""``genie-bot console``: a local web page to chat with an agent and inspect every turn.

``genie-bot console AGENT_DIR`` runs the agent (LLM or offline, as ``chat`` does) through a
private engine whose database lives in a temporary directory for as long as the command
runs. ``genie-bot console --config genie.yaml [--session KEY]`` opens a deployment's stored
sessions, read-only, with user content as its ``logging.include_content`` says; with
``GENIE_CONSOLE_TOKEN`` set, an operator who logs in with it may also try the deployment's
agents (on a private database, never the deployment's). Serving beyond the loopback address
needs the token.
"""

from __future__ import annotations

import argparse
import datetime as dt
from pathlib import Path

from .llm_options import add_llm_arguments

DEFAULT_PORT = 8321


def register(commands: argparse._SubParsersAction) -> None:
    console = commands.add_parser("console", help="a local web page: chat with an agent and inspect every turn, "
                                                  "or open a deployment's stored sessions")
    console.add_argument("agent_dir", type=Path, nargs="?", help="the agent to try")
    console.add_argument("--config", type=Path, help="a deployment's genie.yaml: open its stored sessions")
    console.add_argument("--session", help="with --config: the session to open, as 'sessions list' prints it")
    console.add_argument("--host", default="127.0.0.1", help="address to serve on (beyond loopback, "
                                                             "GENIE_CONSOLE_TOKEN must be set)")
    console.add_argument("--port", type=int, default=DEFAULT_PORT, help="0 lets the system choose")
    console.add_argument("--today", type=dt.date.fromisoformat, help="the date the conversations happen on")
    add_llm_arguments(console)
    console.set_defaults(handler=_console)


def _console(args: argparse.Namespace) -> int:
    from .console_page import run

    return run(args)
