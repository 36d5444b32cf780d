"""Which imported tables the live processes read: a lease per process and table, so that
``genie-bot knowledge prune`` never drops a table a process still reads.

A process records the tables of each agent it loads (:meth:`Readers.hold`, before it looks them
up or imports them) in ``genie_knowledge_readers`` and renews its leases every
:data:`RENEW_SECONDS` from a thread of its own; a table it no longer reads (the agent was
reloaded, its store collected) loses its lease at the next renewal, and a process that ends
cleanly drops its leases (:meth:`Readers.close`). :func:`~.importer.prune` keeps every table
with a lease renewed within :data:`LEASE_SECONDS`: a process that died keeps its tables that long.
Recording a lease and pruning take the same lock, so a process either records its lease before
a prune reads the leases, or finds the table dropped and imports it again.

Leases are timed by each process's clock (seconds since the epoch): clocks kept by NTP differ
by far less than a lease lasts.
"""

from __future__ import annotations

import logging
import os
import secrets
import socket
import threading
import time
from collections import Counter
from collections.abc import Callable, Iterable
from contextlib import AbstractContextManager
from typing import Protocol

from sqlalchemy import Column, Connection, Float, MetaData, String, Table, delete, insert, select, update
from sqlalchemy.exc import SQLAlchemyError

log = logging.getLogger(__name__)

LEASE_SECONDS = 600.0
"""How long a lease lasts without renewal: a process that died keeps its tables from pruning this long."""
RENEW_SECONDS = 60.0
READERS_LOCK = "genie_knowledge_readers"
"""The lock that recording leases and pruning take (a PostgreSQL advisory lock named by its hash)."""

READERS = Table(
    "genie_knowledge_readers", MetaData(),
    Column("reader", String(128), primary_key=True),
    Column("physical", String(64), primary_key=True),
    Column("renewed_at", Float, nullable=False),
)
"""One row per live process and table it reads: the process (host:pid:nonce), the imported table
(or name index), when the process last renewed the lease (seconds since the epoch)."""


class Database(Protocol):
    """What leases need of the knowledge database (:class:`~.database.KnowledgeDatabase`)."""

    @property
    def safe_url(self) -> str: ...

    def locked(self, name: str) -> AbstractContextManager[Connection]: ...


class Readers:
    """This process's leases on the tables it reads, in one knowledge database."""

    def __init__(self, database: Database, clock: Callable[[], float] = time.time):
        self.database = database
        self.clock = clock
        self.id = f"{socket.gethostname()}:{os.getpid()}:{secrets.token_hex(4)}"
        self._held: Counter[str] = Counter()
        """Table -> the stores of this process reading it."""
        self._lock = threading.Lock()
        self._writing = threading.Lock()
        """Held while leases are written: a renewal never drops a lease recorded meanwhile."""
        self._closed = threading.Event()
        self._renewer: threading.Thread | None = None

    def hold(self, physicals: Iterable[str]) -> None:
        """Lease ``physicals`` (until as many :meth:`release` calls): those not leased yet at once, in the
        database; one that cannot be is logged, not raised: the process serves all the same, unprotected
        from a prune meanwhile."""
        physicals = list(physicals)
        with self._writing:
            with self._lock:
                new = {physical for physical in physicals if self._held[physical] <= 0}
                self._held.update(physicals)
                self._start_renewing()
            if not new:
                return
            try:
                with self.database.locked(READERS_LOCK) as conn:
                    READERS.create(conn, checkfirst=True)
                    self._write(conn, new)
            except SQLAlchemyError as exc:
                log.warning("cannot record that this process reads %s in %s (a prune meanwhile could drop them): "
                            "%s", ", ".join(sorted(new)), self.database.safe_url, str(exc).splitlines()[0])

    def release(self, physicals: Iterable[str]) -> None:
        """No longer read ``physicals`` (their leases end at the next renewal)."""
        with self._lock:
            self._held.subtract(physicals)

    def renew(self) -> None:
        """Renew the leases of the tables held; drop those of the tables released."""
        with self._writing:
            with self._lock:
                held = {physical for physical, count in self._held.items() if count > 0}
                self._held = Counter({physical: self._held[physical] for physical in held})
            with self.database.locked(READERS_LOCK) as conn:
                READERS.create(conn, checkfirst=True)
                conn.execute(delete(READERS).where(READERS.c.reader == self.id, READERS.c.physical.not_in(held)))
                self._write(conn, held)

    def _start_renewing(self) -> None:
        if self._renewer is None:
            self._renewer = threading.Thread(target=self._renew_until_closed, name="genie-knowledge-leases",
                                             daemon=True)
            self._renewer.start()

    def close(self) -> None:
        """Stop renewing, and drop this process's leases."""
        self._closed.set()
        with self._lock:
            self._held.clear()
            started = self._renewer is not None
        if started:
            try:
                self.renew()
            except SQLAlchemyError as exc:  # they expire instead
                log.warning("could not drop this process's leases in %s: %s", self.database.safe_url, exc)

    def _write(self, conn: Connection, physicals: set[str]) -> None:
        now = self.clock()
        leased = set(conn.scalars(select(READERS.c.physical).where(READERS.c.reader == self.id)))
        if physicals & leased:
            conn.execute(update(READERS).where(READERS.c.reader == self.id, READERS.c.physical.in_(physicals))
                         .values(renewed_at=now))
        if physicals - leased:
            conn.execute(insert(READERS), [{"reader": self.id, "physical": p, "renewed_at": now}
                                           for p in sorted(physicals - leased)])

    def _renew_until_closed(self) -> None:
        while not self._closed.wait(RENEW_SECONDS):
            try:
                self.renew()
            except SQLAlchemyError as exc:  # tried again at the next renewal, well before the lease ends
                log.warning("could not renew this process's leases in %s: %s", self.database.safe_url,
                            str(exc).splitlines()[0])


def live_tables(conn: Connection, now: float) -> dict[str, int]:
    """Every table with a lease not expired -> how many processes hold one; expired leases are dropped."""
    READERS.create(conn, checkfirst=True)
    conn.execute(delete(READERS).where(READERS.c.renewed_at < now - LEASE_SECONDS))
    return Counter(conn.scalars(select(READERS.c.physical)))
