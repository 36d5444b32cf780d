"""Engine processes and when each was last seen: how replicas on other hosts tell a dead one.

Every engine writes its row at start-up and at each lease heartbeat, and deletes it when it
stops. A process on this host is known dead as soon as its pid is gone (:mod:`..engine.identity`);
one on another host only by a row that stopped being refreshed.
"""

from __future__ import annotations

import datetime as dt
from collections.abc import Iterable

from sqlalchemy import Connection, delete, select, update

from .database import Database
from .schema import engines as t


def beat(db: Database, conn: Connection, engine_id: str, now: dt.datetime) -> None:
    """Note that ``engine_id`` is alive at ``now``."""
    if conn.execute(update(t).where(t.c.id == engine_id).values(seen_at=now)).rowcount == 0:
        db.insert_new(conn, t, {"id": engine_id, "started_at": now, "seen_at": now})


def last_seen(conn: Connection, engine_ids: Iterable[str]) -> dict[str, dt.datetime]:
    ids = list(engine_ids)
    if not ids:
        return {}
    return dict(conn.execute(select(t.c.id, t.c.seen_at).where(t.c.id.in_(ids))).all())


def gone(conn: Connection, engine_id: str) -> None:
    """``engine_id`` stops: what it leaves is for the others to pick up at once."""
    conn.execute(delete(t).where(t.c.id == engine_id))


def purge(conn: Connection, before: dt.datetime, keep: str) -> int:
    """Forget engines not seen since ``before`` (long dead; their work was picked up), but ``keep``."""
    return conn.execute(delete(t).where(t.c.seen_at < before, t.c.id != keep)).rowcount
