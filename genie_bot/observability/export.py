"""Engine turn traces as replay traces: a real conversation becomes a regression test.

The lines are what ``genie-bot replay AGENT_DIR FILE --parser recorded`` reads: the user's
message (a click shows as ``[confirm <id>]``), the statements the turn applied (a click's
``<instance>.confirmed = True`` included), the date, and the acts the bot answered with, so
a replay's acts can be compared with them. Only turns that changed the conversation are
exported: refused, failed and interrupted turns left the state as it was.
"""

from __future__ import annotations

import json
import re
from collections.abc import Iterable
from pathlib import Path
from typing import Any

from ..store.traces import TraceRow

REPLAYED_OUTCOMES = ("ok",)


def replay_lines(turns: Iterable[TraceRow]) -> list[dict[str, Any]]:
    return [{"user": t.message or "", "parse": t.statements or "", "today": t.created_at.date().isoformat(),
             "acts": t.acts}
            for t in turns if t.outcome in REPLAYED_OUTCOMES and t.kind in ("message", "action")]


def trace_file_name(session_key: str) -> str:
    """A file name for a session's trace (keys contain ``/`` and ids of any kind)."""
    return re.sub(r"[^A-Za-z0-9._-]", "_", session_key) + ".jsonl"


def write_replay_trace(directory: Path, session_key: str, turns: Iterable[TraceRow]) -> tuple[Path, list[dict]]:
    lines = replay_lines(turns)
    directory.mkdir(parents=True, exist_ok=True)
    path = directory / trace_file_name(session_key)
    path.write_text("".join(json.dumps(line, ensure_ascii=False) + "\n" for line in lines), encoding="utf-8")
    return path, lines
