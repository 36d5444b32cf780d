"""Store faults injected below the engine's components: at the driver, through SQLAlchemy's
``before_cursor_execute`` event, so the engine meets the errors a real outage gives it."""

from __future__ import annotations

import re
import sqlite3
import threading
from typing import Any

from sqlalchemy import create_engine, event, text
from sqlalchemy.engine import Engine as SqlEngine


class _Fault:
    """Statements failing as the driver reports them, once a trigger statement ran: one matching
    ``trigger`` whose parameters mention ``status`` (the status it writes); ``statements`` of them
    (``None``: until :meth:`end`). Subclasses say which statements fail, and how."""

    def __init__(self, engine: SqlEngine, trigger: str, statements: int | None, status: str):
        self.engine = engine
        self.trigger = re.compile(trigger, re.S | re.I)
        self.status = status
        self.left = statements
        self.on = False
        self.failed = 0
        self._lock = threading.Lock()
        event.listen(engine, "before_cursor_execute", self._before)
        event.listen(engine, "after_cursor_execute", self._after)

    def _after(self, conn: Any, cursor: Any, statement: str, parameters: Any, context: Any, many: bool) -> None:
        if self.trigger.search(statement) and repr(self.status) in repr(parameters):
            with self._lock:
                self._triggered()

    def _before(self, conn: Any, cursor: Any, statement: str, parameters: Any, context: Any, many: bool) -> None:
        with self._lock:
            if not self.on or not self._fails(statement):
                return
            if self.left is not None:
                if self.left <= 0:
                    self.on = False
                    return
                self.left -= 1
            self.failed += 1
        raise self._error()

    def _triggered(self) -> None:
        raise NotImplementedError

    def _fails(self, statement: str) -> bool:
        raise NotImplementedError

    def _error(self) -> Exception:
        raise NotImplementedError

    def end(self) -> None:
        with self._lock:
            self.on = False

    def remove(self) -> None:
        event.remove(self.engine, "before_cursor_execute", self._before)
        event.remove(self.engine, "after_cursor_execute", self._after)


class Outage(_Fault):
    """Every statement of the thread that ran the trigger statement (the turn's) fails after it."""

    def __init__(self, engine: SqlEngine, trigger: str, statements: int | None = None, status: str = "executing"):
        super().__init__(engine, trigger, statements, status)
        self.thread: int | None = None

    def _triggered(self) -> None:
        self.on, self.thread = True, threading.get_ident()

    def _fails(self, statement: str) -> bool:
        # SQLite's explicit BEGIN is not counted, as on PostgreSQL, where it is no statement
        return threading.get_ident() == self.thread and not statement.startswith("BEGIN")

    def _error(self) -> Exception:
        return _driver_error(self.engine)


class ReadOnly(_Fault):
    """The store turns read-only (a PostgreSQL role made read-only, a SQLite file remounted) once
    the trigger statement ran, the first time it runs: every write of every thread fails as the
    driver reports it; reads work."""

    WRITES = re.compile(r"^\s*(INSERT|UPDATE|DELETE)\b", re.I)

    def __init__(self, engine: SqlEngine, after: str, status: str, writes: int | None = None):
        super().__init__(engine, after, writes, status)
        self.triggered = False

    def _triggered(self) -> None:
        self.on, self.triggered = not self.triggered or self.on, True

    def _fails(self, statement: str) -> bool:
        return bool(self.WRITES.match(statement))

    def _error(self) -> Exception:
        return _read_only_error(self.engine)


def _read_only_error(engine: SqlEngine) -> Exception:
    if engine.dialect.name == "sqlite":
        return sqlite3.OperationalError("attempt to write a readonly database")
    from psycopg import errors

    return errors.ReadOnlySqlTransaction("cannot execute UPDATE in a read-only transaction")


def _driver_error(engine: SqlEngine) -> Exception:
    if engine.dialect.name == "sqlite":
        return sqlite3.OperationalError("disk I/O error")
    import psycopg

    return psycopg.OperationalError("server closed the connection unexpectedly")


CLAIM = r"UPDATE genie_pending_actions"
"""The statement after which an outage hits: ``pending -> executing``, just before the API runs."""
START = r"UPDATE genie_events"
"""With status ``running``: an event claimed, just before its turn runs."""


class ServerKill:
    """PostgreSQL itself ends the turn's connection (``pg_terminate_backend``, what a restart does
    to every session) as the first statement after the trigger is sent, ``times`` times."""

    def __init__(self, engine: SqlEngine, admin_url: str, trigger: str, times: int = 1, status: str = "executing"):
        self.engine = engine
        self.admin = create_engine(admin_url.replace("postgresql://", "postgresql+psycopg://", 1))
        self.trigger = re.compile(trigger, re.S | re.I)
        self.status = status
        self.left = times
        self.armed_in: int | None = None
        self.killed = 0
        event.listen(engine, "after_cursor_execute", self._after)
        event.listen(engine, "before_cursor_execute", self._before)

    def _after(self, conn: Any, cursor: Any, statement: str, parameters: Any, context: Any, many: bool) -> None:
        if self.trigger.search(statement) and repr(self.status) in repr(parameters):
            self.armed_in = threading.get_ident()

    def _before(self, conn: Any, cursor: Any, statement: str, parameters: Any, context: Any, many: bool) -> None:
        if self.armed_in != threading.get_ident() or self.left <= 0:
            return
        self.left -= 1
        pid = conn.connection.dbapi_connection.info.backend_pid
        with self.admin.begin() as admin:
            admin.execute(text("SELECT pg_terminate_backend(:pid)"), {"pid": pid})
        self.killed += 1

    def close(self) -> None:
        self.admin.dispose()
