"""What several commands share: loading an agent directory, and the date a conversation happens on."""

from __future__ import annotations

import datetime as dt
import sys
from collections.abc import Callable
from pathlib import Path

from ..spec import AgentSpec, check_agent


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
