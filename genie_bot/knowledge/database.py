"""The knowledge database: where CSV tables are imported once and every process reads them.

A SQLite file by default (``$GENIE_DATA_DIR/knowledge.sqlite3``, ``var/`` when unset), or any
URL in ``GENIE_KNOWLEDGE_URL`` or genie.yaml's ``knowledge.url`` (PostgreSQL for deployments
with several machines). Imports write through :attr:`KnowledgeDatabase.writer`; processes
read through :attr:`KnowledgeDatabase.reader`, which cannot write: SQLite opened with
``mode=ro`` and ``PRAGMA query_only``, PostgreSQL through ``knowledge.read_url`` (a role that
may only read) when given, and in any case in read-only transactions.

Imported tables are named by their content (``k_<hash>``, see :mod:`.importer`), so one
database serves any number of agents and versions: a changed CSV becomes a new table beside
the old one, which the processes still running keep reading until they reload. The catalogue
(:data:`CATALOGUE`) lists them with what a process needs to start without reading a table:
its columns and their types, the values of its columns with few values, its longest name.
"""

from __future__ import annotations

import hashlib
import json
import os
import threading
from collections.abc import Iterator
from contextlib import AbstractContextManager, contextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from sqlalchemy import (BigInteger, Column, Connection, DateTime, MetaData, String, Table, Text, create_engine, event,
                        select)
from sqlalchemy.engine import Engine, make_url
from sqlalchemy.exc import OperationalError, ProgrammingError

from ..config import with_driver
from ..submissions import DATA_DIR_ENV
from .readers import Readers

KNOWLEDGE_URL_ENV = "GENIE_KNOWLEDGE_URL"
DEFAULT_FILE = "knowledge.sqlite3"
SQLITE_BUSY_TIMEOUT_S = 60
"""How long a process waits for another's import of the same file to finish."""

metadata = MetaData()
CATALOGUE = Table(
    "genie_knowledge_tables", metadata,
    Column("physical", String(64), primary_key=True),
    Column("digest", String(64), nullable=False),
    Column("declared", Text, nullable=False),
    Column("source", Text, nullable=False),
    Column("rows", BigInteger, nullable=False),
    Column("columns", Text, nullable=False),
    Column("facts", Text, nullable=False),
    Column("imported_at", DateTime(timezone=True), nullable=False),
)
"""One row per imported table: its physical name, the digest it is named by, the worksheet's
table name and source file (for people reading the database), its size, columns and facts."""


def part(physical: str, what: str) -> str:
    """The name of what was made with an imported table: its name index (``names``, ``spelling``), its
    FTS5 ``trigram`` table, and its view ``v`` of the declared columns only, which LLM-written queries read."""
    return f"{physical}_{what}"


@dataclass(frozen=True)
class ImportedTable:
    """A table as the catalogue describes it."""

    physical: str
    rows: int
    columns: tuple[tuple[str, str], ...]
    """(name, kind) in order; kind is ``int``, ``float`` or ``str``."""
    values: dict[str, list[Any]]
    """The distinct values of each text column that has at most :data:`~.importer.KEPT_VALUES`
    (first seen first); a column with more is absent."""
    name_words: int
    """Words in the table's longest record name (0 without names): the longest phrase looked up."""
    trigram: tuple[str, ...] = ()
    """Columns with a trigram index (names and short texts): on SQLite, an FTS5 table (``part("trigram")``)."""
    shared_names: bool = True
    """Whether two records have the same name (a class held on several days): then a name names them all."""

    def part(self, what: str) -> str:
        return part(self.physical, what)

    @classmethod
    def from_row(cls, row: Any) -> "ImportedTable":
        facts = json.loads(row.facts)
        return cls(row.physical, int(row.rows), tuple((str(n), str(k)) for n, k in json.loads(row.columns)),
                   facts["values"], int(facts["name_words"]), tuple(facts.get("trigram", ())),
                   bool(facts.get("shared_names", True)))


class KnowledgeDatabase:
    """Connections to one knowledge database: a writer for imports, a read-only reader for queries."""

    def __init__(self, url: str, read_url: str | None = None):
        self.url = with_driver(url)
        self.read_url = with_driver(read_url) if read_url else None
        self.dialect = make_url(self.url).get_backend_name()
        if self.dialect not in ("sqlite", "postgresql"):
            raise ValueError(f"knowledge database {self.safe_url}: only SQLite and PostgreSQL are supported")
        if self.dialect == "sqlite" and make_url(self.url).database in (None, "", ":memory:"):
            raise ValueError("the knowledge database is a SQLite file (sqlite:///path/knowledge.sqlite3) or "
                             "PostgreSQL, which every process reads: not an in-memory database")
        self._engines: dict[str, Engine] = {}
        self._lock = threading.Lock()
        self.readers = Readers(self)
        """This process's leases on the tables it reads here."""

    @property
    def safe_url(self) -> str:
        return make_url(self.url).render_as_string(hide_password=True)

    @property
    def path(self) -> Path | None:
        """The SQLite file, if the database is one."""
        database = make_url(self.url).database
        return Path(database) if self.dialect == "sqlite" and database else None

    @property
    def writer(self) -> Engine:
        return self._engine("writer")

    @property
    def reader(self) -> Engine:
        """Connections that cannot write."""
        return self._engine("reader")

    def _engine(self, role: str) -> Engine:
        with self._lock:
            if role not in self._engines:
                self._engines[role] = self._create(role)
            return self._engines[role]

    def _create(self, role: str) -> Engine:
        if self.dialect == "postgresql":
            url = self.read_url if role == "reader" and self.read_url else self.url
            engine = create_engine(url, hide_parameters=True, pool_pre_ping=True, pool_size=4, max_overflow=8)
            if role == "reader":
                event.listen(engine, "connect", _postgres_read_only)
            return engine
        path = self.path
        assert path is not None, "a SQLite file"
        if role == "writer":
            path.parent.mkdir(parents=True, exist_ok=True)
            engine = create_engine(f"sqlite:///{path}", hide_parameters=True,
                                   connect_args={"timeout": SQLITE_BUSY_TIMEOUT_S, "check_same_thread": False})
            event.listen(engine, "connect", _sqlite_manual_transactions)
            return engine
        engine = create_engine(f"sqlite:///file:{path}?mode=ro&uri=true", hide_parameters=True,
                               connect_args={"timeout": SQLITE_BUSY_TIMEOUT_S, "check_same_thread": False})
        event.listen(engine, "connect", _sqlite_read_only)
        return engine

    # -- the catalogue -------------------------------------------------------------------------------
    def imported(self, physical: str) -> ImportedTable | None:
        """The catalogue's entry for ``physical``, or None when it was never imported (or the
        database does not exist yet)."""
        if self.path is not None and not self.path.exists():
            return None
        try:
            with self.reader.connect() as conn:
                row = conn.execute(select(CATALOGUE).where(CATALOGUE.c.physical == physical)).first()
        except (OperationalError, ProgrammingError) as exc:
            if _missing_table(exc):
                return None
            raise
        return ImportedTable.from_row(row) if row is not None else None

    def catalogue(self) -> list[dict[str, Any]]:
        """Every imported table, newest first, as the catalogue lists it."""
        if self.path is not None and not self.path.exists():
            return []
        try:
            with self.reader.connect() as conn:
                rows = conn.execute(select(CATALOGUE).order_by(CATALOGUE.c.imported_at.desc())).all()
        except (OperationalError, ProgrammingError) as exc:
            if _missing_table(exc):
                return []
            raise
        return [dict(r._mapping) for r in rows]

    @contextmanager
    def importing(self, digest: str) -> Iterator[Connection]:
        """A write transaction holding this database's import lock for ``digest``: another process
        importing the same table waits, then finds it imported."""
        with self.writer.connect() as conn:
            if self.dialect == "sqlite":
                conn.exec_driver_sql("BEGIN IMMEDIATE")  # SQLite: one writer for the whole file
                try:
                    yield conn
                except BaseException:
                    conn.exec_driver_sql("ROLLBACK")
                    raise
                conn.exec_driver_sql("COMMIT")
                return
            with conn.begin():
                conn.exec_driver_sql("SELECT pg_advisory_xact_lock(%(key)s)", {"key": int(digest[:15], 16)})
                yield conn

    def locked(self, name: str) -> AbstractContextManager[Connection]:
        """A write transaction holding the lock called ``name`` (see :meth:`importing`)."""
        return self.importing(hashlib.sha256(name.encode()).hexdigest())

    def dispose(self) -> None:
        """Drop this process's leases, and close every connection."""
        self.readers.close()
        with self._lock:
            for engine in self._engines.values():
                engine.dispose()
            self._engines.clear()


def _missing_table(exc: Exception) -> bool:
    text = str(getattr(exc, "orig", exc)).lower()
    return "no such table" in text or "does not exist" in text


def _sqlite_manual_transactions(dbapi_connection: Any, _record: Any) -> None:
    dbapi_connection.isolation_level = None  # the importer issues BEGIN IMMEDIATE / COMMIT itself


def _sqlite_read_only(dbapi_connection: Any, _record: Any) -> None:
    dbapi_connection.execute("PRAGMA query_only = ON")


def _postgres_read_only(dbapi_connection: Any, _record: Any) -> None:
    with dbapi_connection.cursor() as cursor:
        cursor.execute("SET SESSION CHARACTERISTICS AS TRANSACTION READ ONLY")
    dbapi_connection.commit()


# -- where the database is -------------------------------------------------------------------------------
def default_url() -> str:
    """``GENIE_KNOWLEDGE_URL``, else ``knowledge.sqlite3`` in ``$GENIE_DATA_DIR`` (``var/``)."""
    url = os.environ.get(KNOWLEDGE_URL_ENV)
    if url:
        return url
    directory = Path(os.environ.get(DATA_DIR_ENV, "var"))
    return f"sqlite:///{(directory / DEFAULT_FILE).resolve()}"


_OPEN: dict[tuple[str, str | None], KnowledgeDatabase] = {}
_OPEN_LOCK = threading.Lock()


def open_database(url: str | None = None, read_url: str | None = None) -> KnowledgeDatabase:
    """The knowledge database at ``url`` (default: :func:`default_url`), one per URL in a process,
    so that every agent (and every reload) shares its connections."""
    key = (url or default_url(), read_url)
    with _OPEN_LOCK:
        if key not in _OPEN:
            _OPEN[key] = KnowledgeDatabase(*key)
        return _OPEN[key]
