"""What several commands share: loading an agent directory, the date a conversation happens on, and
the one-line failure a command ends with (a deployment's database is in :mod:`.database`)."""

from __future__ import annotations

import datetime as dt
import sys
from collections.abc import Callable
from pathlib import Path

from ..errors import GenieError
from ..spec import AgentSpec, check_agent


class CommandFailed(GenieError):
    """A command cannot go on; the message says, in one line, what is wrong and what to do.

    The command line prints it instead of a traceback and exits with ``status`` (2: a bad
    configuration, as every command says it; 1: anything else).
    """

    def __init__(self, message: str, status: int = 1):
        super().__init__(message)
        self.status = status


def load_spec(agent_dir: Path) -> AgentSpec:
    """The agent's spec; every problem is printed as ``file:line:col: message`` and the command exits 1."""
    spec, errors = check_agent(agent_dir)
    if errors or spec is None:
        for error in errors:
            print(error, file=sys.stderr)
        raise SystemExit(1)
    return spec


def clock_for(today: dt.date | None) -> Callable[[], dt.datetime]:
    """Noon of ``today`` (a conversation replayed on a fixed date), else the real clock."""
    return (lambda: dt.datetime.combine(today, dt.time(12))) if today else dt.datetime.now
