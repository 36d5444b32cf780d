"""Accepting events and handing out the next one of a session, in order, under its lease.

Ordering. Every event carries a per-session ``sequence``: the time the user sent it, as the
adapter knows it (Slack's ``ts`` in microseconds, Discord's snowflake), else its arrival
time. Events waiting in a session's inbox run lowest sequence first. An adapter may deliver
a later message before an earlier one; with ``engine.ordering_window_ms`` set, a session
holds its oldest waiting event that long after its arrival before running anything, so an
earlier message recorded up to that much later still runs first; and a message handed to this
process is always recorded before the session's next event is chosen. A message that arrives
after a later one has already run is applied next, never dropped.

Locking. Only the holder of a session's lease runs its events; the claim below takes (or
keeps) the lease and marks the chosen event ``running`` in one transaction, and gives the
lease back, in that same transaction, once nothing is waiting. An event found ``running``
when the lease is taken belonged to a holder that died mid-turn: it runs again (its turn
never committed).
"""

from __future__ import annotations

import datetime as dt
from collections.abc import Callable
from dataclasses import dataclass, field, replace

from ..store import Database, sessions
from ..store import inbox as events
from ..store import pending as actions
from ..store.inbox import FINISHED, EventRow
from ..store.pending import ActionStatus, PendingRow
from ..store.sessions import SessionRow
from .types import Reply, SessionKey, replies_from_json


@dataclass(frozen=True)
class Claimed:
    """An event to run now, the session it belongs to, its open actions and its interrupted attempts."""

    event: EventRow
    session: SessionRow
    open_actions: list[PendingRow] = field(default_factory=list)
    interrupted: list[PendingRow] = field(default_factory=list)
    """Attempts whose outcome is unknown: a new confirmation of their task takes their idempotency key.
    Read with the claim: while this process holds the lease, only its turns change them."""


@dataclass(frozen=True)
class Claim:
    """What the lease holder of a session may do next: run ``claimed``, or nothing yet (``busy``:
    another live process holds the lease; ``wait_seconds``: the ordering window of the oldest
    waiting event is still open). An empty claim means nothing is waiting."""

    claimed: Claimed | None = None
    busy: bool = False
    """Another live process holds the session's lease."""
    wait_seconds: float = 0.0
    """Nothing may run yet: the ordering window of the oldest waiting event is still open."""


class Inbox:
    def __init__(self, db: Database, engine_id: str, clock: Callable[[], dt.datetime], lease_seconds: float,
                 window_ms: float):
        self.db = db
        self.engine_id = engine_id
        self.clock = clock
        self.lease = dt.timedelta(seconds=lease_seconds)
        self.window = dt.timedelta(milliseconds=window_ms)

    def accept(self, key: SessionKey, agent: str, event: EventRow) -> bool:
        """Record a delivered event; False for a duplicate delivery (seen before).

        Its ``received_at`` is when it is recorded, the moment other processes can see it. Its
        session's row is made if there is none, every time: a session erased (by any process: a
        workspace's uninstall, ``genie-bot installations remove``) starts again with its next event.
        """
        with self.db.write() as conn:
            now = self.clock()
            sessions.ensure(self.db, conn, event.session_key, key.parts, agent, now)
            return events.accept(self.db, conn, replace(event, received_at=now))

    def claim(self, session_key: str) -> Claim:
        with self.db.write() as conn:
            now = self.clock()
            session = sessions.take(conn, session_key, self.engine_id, now, now + self.lease)
            if session is None:
                return Claim(busy=True)
            waiting = events.waiting(conn, session_key)
            if not waiting:
                sessions.release(conn, session_key, self.engine_id)
                return Claim()
            opens_at = min(e.received_at for e in waiting) + self.window
            if opens_at > now:
                return Claim(wait_seconds=(opens_at - now).total_seconds())
            event = waiting[0]
            events.start(conn, event)
            kept = actions.pending_or_interrupted(conn, session_key)
            return Claim(Claimed(replace(event, attempts=event.attempts + 1), session,
                                 [a for a in kept if a.status == ActionStatus.PENDING],
                                 [a for a in kept if a.status == ActionStatus.INTERRUPTED]))

    def replies(self, pk: tuple[str, str]) -> list[Reply] | None:
        """The replies of a finished event (whoever ran it), or None while it is not finished."""
        with self.db.read() as conn:
            found = events.outcome(conn, pk)
        if found is None or found[0] not in FINISHED:
            return None
        return replies_from_json(found[1])
