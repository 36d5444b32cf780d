"""Session rows: the dialogue state of one conversation, and the lease that serialises its turns.

A lease is a lock held by one engine process (``lease_owner``) until ``lease_until``. It is
taken and released by conditional UPDATEs, so it works the same on SQLite and PostgreSQL
without keeping a connection open while a parser (LLM) runs. A process renews the leases it
holds while it works; a lease that was not renewed in time belonged to a process that died
and may be taken over. Every write of a turn re-checks the lease in its transaction (a
fence), so a process that lost its lease can never commit.

Statements are built once, with bind parameters: building them per call costs several times
more than running them.
"""

from __future__ import annotations

import datetime as dt
from dataclasses import dataclass, fields
from enum import Enum, StrEnum

from sqlalchemy import Connection, bindparam, case, delete, func, or_, select, update
from sqlalchemy import exists as sql_exists

from .database import Database
from .inbox import UNFINISHED
from .schema import events
from .schema import sessions as t


class SessionStatus(StrEnum):
    ACTIVE = "active"
    """A conversation in progress (or a new one)."""
    CLOSED = "closed"
    """Closed after being idle (or reset): its state is gone, its next message starts afresh."""


@dataclass(frozen=True)
class SessionRow:
    key: str
    platform: str
    workspace: str
    channel: str
    thread: str
    agent: str
    spec_version: str | None
    owner: str | None
    state: str | None
    status: str
    turns: int
    lease_owner: str | None
    lease_until: dt.datetime | None
    updated_at: dt.datetime


class Saved(Enum):
    """What :func:`save` did with a turn's result and the session's lease."""

    LOST = "lost"
    """Nothing: another process holds the lease now (the fence)."""
    HELD = "held"
    """Saved; the lease is kept, as other events of the session wait."""
    RELEASED = "released"
    """Saved, and the lease given back: nothing else waits."""


@dataclass(frozen=True)
class SessionUpdate:
    """What a turn writes back; ``state=None`` leaves the dialogue state as it was."""

    state: str | None
    spec_version: str | None
    owner: str | None
    sequence: int | None
    counts_as_turn: bool = True


_ROW = [t.c[f.name] for f in fields(SessionRow)]
_LOAD = select(*_ROW).where(t.c.key == bindparam("b_key"))
_ACQUIRE = update(t).where(
    t.c.key == bindparam("b_key"),
    or_(t.c.lease_owner.is_(None), t.c.lease_owner == bindparam("b_owner"), t.c.lease_until < bindparam("b_now")),
).values(lease_owner=bindparam("b_owner"), lease_until=bindparam("b_until"))
_TAKE = _ACQUIRE.returning(*_ROW)
_OTHERS_WAITING = sql_exists().where(
    events.c.session_key == t.c.key, events.c.status.in_(UNFINISHED),
    or_(events.c.platform != bindparam("b_platform"), events.c.event_id != bindparam("b_event")))
"""Some event of the session other than the one whose turn is saved waits to run."""
_RELEASE = update(t).where(t.c.key == bindparam("b_key"), t.c.lease_owner == bindparam("b_owner")) \
    .values(lease_owner=None, lease_until=None)
_RENEW = update(t).where(t.c.lease_owner == bindparam("b_owner")).values(lease_until=bindparam("b_until"))
_SEQUENCE = bindparam("b_sequence", type_=t.c.last_sequence.type)
_SAVE = update(t).where(t.c.key == bindparam("b_key"), t.c.lease_owner == bindparam("b_owner")).values(
    state=func.coalesce(bindparam("b_state", type_=t.c.state.type), t.c.state),
    spec_version=func.coalesce(bindparam("b_version", type_=t.c.spec_version.type), t.c.spec_version),
    owner=func.coalesce(t.c.owner, bindparam("b_user", type_=t.c.owner.type)),
    turns=t.c.turns + bindparam("b_turns"),
    last_sequence=case((or_(t.c.last_sequence.is_(None), t.c.last_sequence < _SEQUENCE), _SEQUENCE),
                       else_=t.c.last_sequence),
    updated_at=bindparam("b_now"), reminded_at=None, status=SessionStatus.ACTIVE,
    lease_owner=case((_OTHERS_WAITING, t.c.lease_owner), else_=None),
    lease_until=case((_OTHERS_WAITING, bindparam("b_until")), else_=None),
).returning(t.c.lease_owner)


def ensure(db: Database, conn: Connection, key: str, parts: tuple[str, str, str, str], agent: str,
           now: dt.datetime) -> None:
    platform, workspace, channel, thread = parts
    db.insert_new(conn, t, dict(key=key, platform=platform, workspace=workspace, channel=channel, thread=thread,
                                agent=agent, status=SessionStatus.ACTIVE, turns=0, created_at=now, updated_at=now))


def exists(conn: Connection, key: str) -> bool:
    return conn.scalar(select(t.c.key).where(t.c.key == key)) is not None


def load(conn: Connection, key: str) -> SessionRow | None:
    row = conn.execute(_LOAD, {"b_key": key}).first()
    return SessionRow(**row._mapping) if row else None


def acquire(conn: Connection, key: str, owner: str, now: dt.datetime, until: dt.datetime) -> bool:
    """Take (or extend) the lease of ``key``; False while another live owner holds it."""
    params = {"b_key": key, "b_owner": owner, "b_now": now, "b_until": until}
    return conn.execute(_ACQUIRE, params).rowcount == 1


def take(conn: Connection, key: str, owner: str, now: dt.datetime, until: dt.datetime) -> SessionRow | None:
    """:func:`acquire` and :func:`load` in one statement: the session's row with its lease taken, or None
    while another live owner holds it."""
    row = conn.execute(_TAKE, {"b_key": key, "b_owner": owner, "b_now": now, "b_until": until}).first()
    return SessionRow(**row._mapping) if row else None


def release(conn: Connection, key: str, owner: str) -> None:
    conn.execute(_RELEASE, {"b_key": key, "b_owner": owner})


def renew(conn: Connection, owner: str, until: dt.datetime) -> int:
    """Extend every lease ``owner`` holds (its heartbeat); returns how many."""
    return conn.execute(_RENEW, {"b_owner": owner, "b_until": until}).rowcount


def expire_leases_of(conn: Connection, owners: list[str], now: dt.datetime) -> int:
    """Make the leases of dead owners free to take at once."""
    if not owners:
        return 0
    return conn.execute(update(t).where(t.c.lease_owner.in_(owners))
                        .values(lease_until=now - dt.timedelta(seconds=1))).rowcount


def lease_owners(conn: Connection) -> list[str]:
    return list(conn.scalars(select(t.c.lease_owner).where(t.c.lease_owner.is_not(None)).distinct()))


def save(conn: Connection, key: str, owner: str, change: SessionUpdate, now: dt.datetime, until: dt.datetime,
         event: tuple[str, str]) -> Saved:
    """Write the result of the turn of ``event`` (platform, event id) if ``owner`` still holds the lease
    (the fence), in one statement that also gives the lease back when no other event of the session
    waits, and renews it otherwise. The first write of a turn's commit: the session's row is locked
    before its event's, as a claim locks them."""
    params = {"b_key": key, "b_owner": owner, "b_platform": event[0], "b_event": event[1], "b_state": change.state,
              "b_version": change.spec_version if change.state is not None else None, "b_user": change.owner,
              "b_turns": int(change.counts_as_turn), "b_sequence": change.sequence, "b_now": now, "b_until": until}
    row = conn.execute(_SAVE, params).first()
    if row is None:
        return Saved.LOST
    return Saved.HELD if row.lease_owner is not None else Saved.RELEASED


def close(conn: Connection, key: str, now: dt.datetime) -> None:
    """Forget the dialogue state (the next message starts a new conversation)."""
    conn.execute(update(t).where(t.c.key == key).values(state=None, status=SessionStatus.CLOSED, updated_at=now,
                                                        reminded_at=None))


def mark_reminded(conn: Connection, key: str, now: dt.datetime) -> None:
    conn.execute(update(t).where(t.c.key == key).values(reminded_at=now))


def idle(conn: Connection, before: dt.datetime, limit: int = 500) -> list[str]:
    """Active sessions with a state whose last activity is older than ``before``."""
    return list(conn.scalars(select(t.c.key).where(t.c.status == SessionStatus.ACTIVE, t.c.state.is_not(None),
                                                   t.c.updated_at < before).order_by(t.c.updated_at).limit(limit)))


def awaiting_reminder(conn: Connection, before: dt.datetime, limit: int = 500) -> list[str]:
    """Active sessions idle since ``before`` that were not reminded since their last turn."""
    return list(conn.scalars(select(t.c.key).where(
        t.c.status == SessionStatus.ACTIVE, t.c.state.is_not(None), t.c.updated_at < before, t.c.reminded_at.is_(None))
        .order_by(t.c.updated_at).limit(limit)))


def listing(conn: Connection, agent: str | None = None, since: dt.datetime | None = None,
            limit: int | None = None, *, platform: str | None = None, workspace: str | None = None
            ) -> list[SessionRow]:
    """Sessions, most recently active first (for operators: ``genie-bot sessions list``), optionally
    only those of an agent, active since a time, of a platform, of a workspace (Slack team, Discord guild)."""
    query = select(*(t.c[f.name] for f in fields(SessionRow))).order_by(t.c.updated_at.desc(), t.c.key)
    for column, value in ((t.c.agent, agent), (t.c.platform, platform), (t.c.workspace, workspace)):
        if value is not None:
            query = query.where(column == value)
    if since is not None:
        query = query.where(t.c.updated_at >= since)
    return [SessionRow(**r._mapping) for r in conn.execute(query.limit(limit))]


def workspaces(conn: Connection) -> list[tuple[str, str, int]]:
    """(platform, workspace, number of sessions) of every workspace with sessions, by platform and workspace."""
    rows = conn.execute(select(t.c.platform, t.c.workspace, func.count()).group_by(t.c.platform, t.c.workspace)
                        .order_by(t.c.platform, t.c.workspace))
    return [(platform, workspace, count) for platform, workspace, count in rows]


def keys_of_workspace(conn: Connection, platform: str, workspace: str) -> list[str]:
    return list(conn.scalars(select(t.c.key).where(t.c.platform == platform, t.c.workspace == workspace)))


def erase(conn: Connection, key: str) -> int:
    """Forget a session row (its workspace's data is being erased)."""
    return conn.execute(delete(t).where(t.c.key == key)).rowcount


def live_by_version(conn: Connection) -> dict[tuple[str, str | None], int]:
    """Number of sessions with a state, per (agent, spec version)."""
    rows = conn.execute(select(t.c.agent, t.c.spec_version, func.count())
                        .where(t.c.state.is_not(None)).group_by(t.c.agent, t.c.spec_version))
    return {(agent, version): count for agent, version, count in rows}
