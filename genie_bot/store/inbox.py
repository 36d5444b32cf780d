"""The inbox: every event (message or button click) a session received, in the order to apply them.

An event row is written once when it arrives; its primary key (platform, event id) is what
makes a second delivery of the same event a no-op. It is ``queued`` until the process
holding the session's lease runs it (``running``), then ``done`` or ``failed`` with the
replies, which the caller that delivered it reads back, whichever process ran the turn; or
``parked``: set aside with a reply, never run (again), because running it exceeded what one
message may take (:mod:`genie_bot.engine.turns`).
"""

from __future__ import annotations

import datetime as dt
from dataclasses import dataclass, fields
from enum import StrEnum

from sqlalchemy import Connection, bindparam, delete, func, or_, select, update

from .database import Database
from .schema import events as t
from .schema import sessions as session_table

class EventStatus(StrEnum):
    """Where an event (a message or a click) is between arriving and being answered."""

    QUEUED = "queued"
    RUNNING = "running"
    DONE = "done"
    FAILED = "failed"
    PARKED = "parked"
    """Set aside unapplied, with a reply: its statements exceeded their limits, or its turn was
    cut short (its process died) more often than allowed. Operators find it by this status."""


FINISHED = (EventStatus.DONE, EventStatus.FAILED, EventStatus.PARKED)
"""The statuses of an event whose replies are known."""
UNFINISHED = (EventStatus.QUEUED, EventStatus.RUNNING)
"""The statuses of an event waiting to run (or cut short while running)."""

@dataclass(frozen=True)
class EventRow:
    platform: str
    event_id: str
    session_key: str
    kind: str
    user_id: str
    text: str | None
    action_id: str | None
    decision: str | None
    sequence: int
    status: str
    attempts: int
    accepted_by: str
    received_at: dt.datetime

    @property
    def pk(self) -> tuple[str, str]:
        return self.platform, self.event_id


_THIS = (t.c.platform == bindparam("b_platform"), t.c.event_id == bindparam("b_event"))
_UNFINISHED = t.c.status.in_(UNFINISHED)
_WAITING = select(*(t.c[f.name] for f in fields(EventRow))).where(
    t.c.session_key == bindparam("b_key"), _UNFINISHED
).order_by(t.c.sequence, t.c.received_at, t.c.event_id)
_START = update(t).where(*_THIS).values(status=EventStatus.RUNNING, attempts=t.c.attempts + 1)
_FINISH = update(t).where(*_THIS).values(status=bindparam("b_status"), reply=bindparam("b_reply"),
                                         done_at=bindparam("b_now"), delivered_at=bindparam("b_delivered"))
_DELIVERED = update(t).where(*_THIS, t.c.delivered_at.is_(None)).values(delivered_at=bindparam("b_now"))
_UNDELIVERED = (t.c.delivered_at.is_(None), t.c.status.in_(FINISHED))
_OUTCOME = select(t.c.status, t.c.reply).where(*_THIS)


def accept(db: Database, conn: Connection, row: EventRow) -> bool:
    """Insert a new event; False when this (platform, event id) was seen before."""
    return db.insert_new(conn, t, {f.name: getattr(row, f.name) for f in fields(EventRow)})


def waiting(conn: Connection, session_key: str) -> list[EventRow]:
    """Unfinished events of a session, in the order to apply them (sequence, then arrival).

    Only the lease holder calls this, between its turns: an event still ``running`` then was
    left by a holder that died mid-turn, and waits to run again.
    """
    return [EventRow(**r._mapping) for r in conn.execute(_WAITING, {"b_key": session_key})]


def start(conn: Connection, row: EventRow) -> None:
    conn.execute(_START, {"b_platform": row.platform, "b_event": row.event_id})


def finish(conn: Connection, pk: tuple[str, str], status: str, reply: str, now: dt.datetime,
           delivered: bool = True) -> None:
    """Record an event's outcome; ``delivered=False`` leaves its reply in the outbox until the
    adapter confirms it posted it (:func:`mark_delivered`)."""
    conn.execute(_FINISH, {"b_platform": pk[0], "b_event": pk[1], "b_status": status, "b_reply": reply, "b_now": now,
                           "b_delivered": now if delivered else None})


def mark_delivered(conn: Connection, pk: tuple[str, str], now: dt.datetime) -> None:
    conn.execute(_DELIVERED, {"b_platform": pk[0], "b_event": pk[1], "b_now": now})


def undelivered_owners(conn: Connection) -> list[str]:
    """Engines that accepted events whose replies were never confirmed posted."""
    return list(conn.scalars(select(t.c.accepted_by).where(*_UNDELIVERED).distinct()))


@dataclass(frozen=True)
class Undelivered:
    """A finished event whose replies were never confirmed posted."""

    pk: tuple[str, str]
    session_key: str
    replies: str
    """The replies, JSON."""
    accepted_by: str
    done_at: dt.datetime


def undelivered_of(conn: Connection, owners: list[str], limit: int = 500) -> list[Undelivered]:
    """Finished, unposted events of ``owners``, oldest first."""
    rows = conn.execute(select(t.c.platform, t.c.event_id, t.c.session_key, t.c.reply, t.c.accepted_by, t.c.done_at)
                        .where(*_UNDELIVERED, t.c.accepted_by.in_(owners)).order_by(t.c.done_at).limit(limit))
    return [Undelivered((r.platform, r.event_id), r.session_key, r.reply or "[]", r.accepted_by, r.done_at)
            for r in rows]


def outcome(conn: Connection, pk: tuple[str, str]) -> tuple[str, str | None] | None:
    """(status, replies JSON) of an event, or None if unknown."""
    row = conn.execute(_OUTCOME, {"b_platform": pk[0], "b_event": pk[1]}).first()
    return (row.status, row.reply) if row else None


def waiting_acceptors(conn: Connection) -> list[str]:
    """Engines that accepted events still waiting to run (or cut short while running)."""
    return list(conn.scalars(select(t.c.accepted_by).where(_UNFINISHED).distinct()))


def orphaned(conn: Connection, dead: list[str], waiting_since: dt.datetime, now: dt.datetime) -> list[str]:
    """Sessions with events nobody will run unless asked: no live lease on the session, and an
    event accepted by a ``dead`` engine or waiting since before ``waiting_since`` (the engine that
    accepted it runs it at once, so one waiting that long was left behind)."""
    s = session_table
    left = t.c.received_at < waiting_since
    if dead:
        left = or_(left, t.c.accepted_by.in_(dead))
    query = (select(t.c.session_key).distinct().join(s, s.c.key == t.c.session_key)
             .where(_UNFINISHED, left, or_(s.c.lease_owner.is_(None), s.c.lease_until < now)))
    return list(conn.scalars(query))


def count_by_status(conn: Connection) -> dict[str, int]:
    return dict(conn.execute(select(t.c.status, func.count()).group_by(t.c.status)).all())


def purge(conn: Connection, before: dt.datetime) -> int:
    """Forget finished events older than ``before`` (a retry after that is treated as new)."""
    finished = t.c.status.in_(FINISHED)
    return conn.execute(delete(t).where(finished, t.c.received_at < before)).rowcount


def erase_session(conn: Connection, session_key: str) -> int:
    """Forget every event of a session (its workspace's data is being erased)."""
    return conn.execute(delete(t).where(t.c.session_key == session_key)).rowcount
