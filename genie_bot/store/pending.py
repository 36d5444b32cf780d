"""Pending actions: a side-effecting API call the user was asked to confirm.

Every change of status is a conditional UPDATE (``WHERE status IN (...)``) whose row count
says whether this caller made the change. ``pending -> executing`` can therefore succeed
once only, whoever tries (a second click, a typed "yes", a retry, another process), and it
is committed before the API runs, so a crash during the call leaves ``executing`` behind
for start-up to find.
"""

from __future__ import annotations

import datetime as dt
from collections.abc import Iterable
from dataclasses import dataclass, fields
from enum import StrEnum

from sqlalchemy import Connection, bindparam, delete, func, insert, select, update

from .schema import pending_actions

class ActionStatus(StrEnum):
    """Where a pending action is; only ``pending -> executing`` lets its API run."""

    PENDING = "pending"
    """Shown with Confirm / Cancel buttons, waiting for the user."""
    EXECUTING = "executing"
    """Claimed by a turn whose API call is running (or was, when its process died)."""
    DONE = "done"
    FAILED = "failed"
    CANCELLED = "cancelled"
    EXPIRED = "expired"
    INVALIDATED = "invalidated"
    """The details, the task or the agent changed after the summary was shown."""
    INTERRUPTED = "interrupted"
    """Its process died during the call; it is reported, never retried."""


FINAL = (ActionStatus.DONE, ActionStatus.FAILED, ActionStatus.CANCELLED, ActionStatus.EXPIRED,
         ActionStatus.INVALIDATED, ActionStatus.INTERRUPTED)


@dataclass(frozen=True)
class PendingRow:
    id: str
    session_key: str
    instance: str
    worksheet: str
    api: str | None
    summary: str
    args: str | None
    api_fingerprint: str
    spec_version: str
    owner: str | None
    destructive: bool
    status: str
    created_at: dt.datetime
    expires_at: dt.datetime
    updated_at: dt.datetime
    reason: str | None = None
    result: str | None = None
    executed_by: str | None = None
    idempotency_key: str | None = None
    """The key its API call receives: its own id, or that of an earlier attempt at the same intent
    whose outcome is unknown (see :func:`genie_bot.engine.confirmations.plan_confirmations`)."""

    @property
    def key(self) -> str:
        return self.idempotency_key or self.id


_COLUMNS = [pending_actions.c[f.name] for f in fields(PendingRow)]
_T = pending_actions
_OF_SESSION = select(*_COLUMNS).where(_T.c.session_key == bindparam("b_key"),
                                      _T.c.status.in_(bindparam("b_statuses", expanding=True))).order_by(_T.c.created_at)
_KEPT = select(*_COLUMNS).where(_T.c.session_key == bindparam("b_key"),
                                _T.c.status.in_((ActionStatus.PENDING, ActionStatus.INTERRUPTED))).order_by(_T.c.created_at)
_TRANSITION = update(_T).where(_T.c.id == bindparam("b_id"), _T.c.status.in_(bindparam("b_from", expanding=True))) \
    .values(status=bindparam("b_to"), updated_at=bindparam("b_now"),
            reason=func.coalesce(bindparam("b_reason", type_=_T.c.reason.type), _T.c.reason),
            result=func.coalesce(bindparam("b_result", type_=_T.c.result.type), _T.c.result),
            executed_by=func.coalesce(bindparam("b_executor", type_=_T.c.executed_by.type), _T.c.executed_by))
_INSERT = insert(_T)


def _rows(result) -> list[PendingRow]:
    return [PendingRow(**r._mapping) for r in result]


def insert_rows(conn: Connection, rows: Iterable[PendingRow]) -> None:
    values = [{f.name: getattr(r, f.name) for f in fields(PendingRow)} for r in rows]
    if values:
        conn.execute(_INSERT, values)


def get(conn: Connection, action_id: str) -> PendingRow | None:
    rows = _rows(conn.execute(select(*_COLUMNS).where(pending_actions.c.id == action_id)))
    return rows[0] if rows else None


def of_session(conn: Connection, session_key: str,
               statuses: tuple[str, ...] = (ActionStatus.PENDING,)) -> list[PendingRow]:
    return _rows(conn.execute(_OF_SESSION, {"b_key": session_key, "b_statuses": list(statuses)}))


def pending_or_interrupted(conn: Connection, session_key: str) -> list[PendingRow]:
    """:func:`of_session` with those two statuses, what a turn reads: the confirmations open, and the
    attempts whose outcome is unknown (a new confirmation of their task takes their key)."""
    return _rows(conn.execute(_KEPT, {"b_key": session_key}))


def transition(conn: Connection, action_id: str, from_statuses: tuple[str, ...], to_status: str, now: dt.datetime,
               reason: str | None = None, result: str | None = None, executed_by: str | None = None) -> bool:
    """Move one action to ``to_status`` if it is in one of ``from_statuses``; True if this call did."""
    params = {"b_id": action_id, "b_from": list(from_statuses), "b_to": to_status, "b_now": now, "b_reason": reason,
              "b_result": result, "b_executor": executed_by}
    return conn.execute(_TRANSITION, params).rowcount == 1


def claim(conn: Connection, action_id: str, executor: str, now: dt.datetime) -> bool:
    """``pending -> executing`` for an unexpired action: the one gate in front of a side effect."""
    pending = (_T.c.id == action_id, _T.c.status == ActionStatus.PENDING, _T.c.expires_at > now)
    result = conn.execute(update(_T).where(*pending)
                          .values(status=ActionStatus.EXECUTING, executed_by=executor, updated_at=now))
    return result.rowcount == 1


def forget_interrupted(conn: Connection, session_key: str, now: dt.datetime) -> int:
    """The conversation is over: its interrupted attempts end their lifetime now, so a task of the
    next conversation (whose instances reuse their names) does not take their idempotency key."""
    return conn.execute(update(_T).where(_T.c.session_key == session_key, _T.c.status == ActionStatus.INTERRUPTED,
                                         _T.c.expires_at > now).values(expires_at=now)).rowcount


def due(conn: Connection, now: dt.datetime, limit: int = 500) -> list[PendingRow]:
    """Pending actions past their expiry."""
    return _rows(conn.execute(select(*_COLUMNS).where(pending_actions.c.status == ActionStatus.PENDING,
                                                      pending_actions.c.expires_at <= now)
                              .order_by(pending_actions.c.expires_at).limit(limit)))


def count_by_status(conn: Connection) -> dict[str, int]:
    return dict(conn.execute(select(pending_actions.c.status, func.count()).group_by(pending_actions.c.status)).all())


def purge(conn: Connection, before: dt.datetime) -> int:
    """Forget finished actions last changed before ``before``."""
    return conn.execute(delete(pending_actions).where(pending_actions.c.status.in_(FINAL),
                                                      pending_actions.c.updated_at < before)).rowcount


def erase_session(conn: Connection, session_key: str) -> int:
    """Forget every pending action of a session, whatever its status (its workspace's data is being erased)."""
    return conn.execute(delete(_T).where(_T.c.session_key == session_key)).rowcount
