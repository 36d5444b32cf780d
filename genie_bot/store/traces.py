"""Turn traces: everything needed to understand one turn after the fact."""

from __future__ import annotations

import datetime as dt
import json
from dataclasses import dataclass, field, fields
from typing import Any

from sqlalchemy import Connection, delete, insert, select

from .schema import turns


@dataclass
class TraceRow:
    session_key: str
    kind: str
    outcome: str
    created_at: dt.datetime
    turn: int | None = None
    event_id: str | None = None
    user_id: str | None = None
    agent: str | None = None
    spec_version: str | None = None
    message: str | None = None
    statements: str | None = None
    parse_source: str | None = None
    acts: list[str] = field(default_factory=list)
    reply: str | None = None
    pending_action_id: str | None = None
    latencies: dict[str, float] = field(default_factory=dict)
    llm_calls: int = 0
    prompt_tokens: int = 0
    completion_tokens: int = 0
    errors: list[str] = field(default_factory=list)


_JSON_FIELDS: dict[str, type] = {"acts": list, "latencies": dict, "errors": list}
"""Fields stored as JSON, and the type of each one's empty value."""


_INSERT = insert(turns)
_FIELDS = tuple(f.name for f in fields(TraceRow))


def insert_trace(conn: Connection, trace: TraceRow) -> None:
    # Read field by field: dataclasses.asdict copies every list and dict deeply first, which cost
    # more than the INSERT itself (about 6% of a turn in a profile of the engine benchmark).
    values: dict[str, Any] = {name: getattr(trace, name) for name in _FIELDS}
    for name in _JSON_FIELDS:
        values[name] = json.dumps(values[name], ensure_ascii=False)
    conn.execute(_INSERT, values)


def for_session(conn: Connection, session_key: str) -> list[TraceRow]:
    rows = conn.execute(select(*(turns.c[f] for f in TraceRow.__dataclass_fields__))
                        .where(turns.c.session_key == session_key).order_by(turns.c.id))
    out = []
    for row in rows:
        values = dict(row._mapping)
        for name in _JSON_FIELDS:
            values[name] = json.loads(values[name] or "null") or _JSON_FIELDS[name]()
        out.append(TraceRow(**values))
    return out


def purge(conn: Connection, before: dt.datetime) -> int:
    return conn.execute(delete(turns).where(turns.c.created_at < before)).rowcount


def erase_session(conn: Connection, session_key: str) -> int:
    """Forget every turn trace of a session (its workspace's data is being erased)."""
    return conn.execute(delete(turns).where(turns.c.session_key == session_key)).rowcount
