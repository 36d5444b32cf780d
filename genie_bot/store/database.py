"""Connections to the engine's database: SQLite (WAL, the default) or PostgreSQL (psycopg 3).

All access goes through :meth:`Database.read` and :meth:`Database.write`, short transactions
that never span a parser (LLM) call. On SQLite a write transaction starts with
``BEGIN IMMEDIATE``, so it takes the database's write lock up front instead of failing to
upgrade a read lock half-way (which a busy timeout cannot resolve).
"""

from __future__ import annotations

from collections.abc import Iterator
import threading
from contextlib import contextmanager, nullcontext
from typing import Any

from sqlalchemy import Connection, Engine, Table, create_engine, event
from sqlalchemy.dialects.postgresql import insert as pg_insert
from sqlalchemy.dialects.sqlite import insert as sqlite_insert
from sqlalchemy.engine import make_url
from sqlalchemy.sql import Select

from ..errors import GenieError

_WRITE = "genie_write"
SQLITE_BUSY_TIMEOUT_S = 30


class DriverMissing(GenieError):
    """The database URL needs a driver that is not installed; the message says what to install."""


class Database:
    def __init__(self, url: str, pool_size: int = 8):
        parsed = make_url(url)
        if parsed.get_backend_name() == "sqlite" and parsed.database in (None, "", ":memory:"):
            raise ValueError("the engine needs a SQLite file (sqlite:///path/genie.sqlite3), not an in-memory database")
        self.url = url
        self.dialect = parsed.get_backend_name()
        self._insert_new: dict[str, Any] = {}
        if self.dialect == "sqlite":
            # hide_parameters: an error's text would otherwise quote what users wrote into the logs
            self.engine = create_engine(url, pool_size=pool_size, max_overflow=pool_size, pool_timeout=120,
                                        hide_parameters=True,
                                        connect_args={"timeout": SQLITE_BUSY_TIMEOUT_S, "check_same_thread": False})
            event.listen(self.engine, "connect", _sqlite_connect)
            event.listen(self.engine, "begin", _sqlite_begin)
            # SQLite has one writer at a time. Threads of this process queue here, in order, instead
            # of in SQLite's busy handler, which retries after sleeps of up to 100 ms.
            self._writer: threading.Lock | nullcontext = threading.Lock()
        else:
            try:
                self.engine = create_engine(url, pool_size=pool_size, max_overflow=pool_size, pool_timeout=120,
                                            hide_parameters=True, pool_pre_ping=True)
            except ModuleNotFoundError as exc:
                raise DriverMissing(f"the database {self.safe_url} needs the {exc.name} driver, which is not "
                                    "installed: pip install 'genie-bot[postgres]'") from None
            self._writer = nullcontext()

    @property
    def safe_url(self) -> str:
        return make_url(self.url).render_as_string(hide_password=True)

    @contextmanager
    def write(self) -> Iterator[Connection]:
        """A transaction that writes; committed on success, rolled back on any exception."""
        with self._writer, self.engine.connect().execution_options(**{_WRITE: True}) as conn, conn.begin():
            yield conn

    @contextmanager
    def read(self) -> Iterator[Connection]:
        with self.engine.connect() as conn, conn.begin():
            yield conn

    def writing_engine(self) -> Engine:
        """An Engine on the same pool whose every transaction writes (on SQLite it starts with
        ``BEGIN IMMEDIATE``, so a read that turns into a write never fails half-way), for libraries
        that open their own transactions (slack_sdk's installation and OAuth state stores)."""
        return self.engine.execution_options(**{_WRITE: True})

    def insert_new(self, conn: Connection, table: Table, values: dict[str, Any]) -> bool:
        """``INSERT ... ON CONFLICT DO NOTHING``; True if the row is new.

        Told by RETURNING, not by the row count, which psycopg reports as -1 for this statement.
        """
        statement = self._insert_new.get(table.name)
        if statement is None:
            insert = sqlite_insert if self.dialect == "sqlite" else pg_insert
            statement = insert(table).on_conflict_do_nothing().returning(next(iter(table.primary_key.columns)))
            self._insert_new[table.name] = statement
        return conn.execute(statement, values).first() is not None

    def locked(self, query: Select) -> Select:
        """``query`` taking row locks on PostgreSQL; SQLite write transactions lock the whole file."""
        return query if self.dialect == "sqlite" else query.with_for_update()

    def dispose(self) -> None:
        self.engine.dispose()


def _sqlite_connect(dbapi_connection: Any, _record: Any) -> None:
    dbapi_connection.isolation_level = None  # the "begin" listener below issues BEGIN itself
    cursor = dbapi_connection.cursor()
    cursor.execute("PRAGMA journal_mode=WAL")
    cursor.execute("PRAGMA synchronous=NORMAL")
    cursor.close()


def _sqlite_begin(conn: Connection) -> None:
    conn.exec_driver_sql("BEGIN IMMEDIATE" if conn.get_execution_options().get(_WRITE) else "BEGIN")
