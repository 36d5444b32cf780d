"""A table's name index in the knowledge database: its tables, how the importer fills them, lookups.

``<table>_names`` maps each key a record is named by (:func:`.mentions.name_keys`) to the
record's row number; a key naming several records names the first that has it as written,
else the first that has it once "The" is left out (an exact name wins over its namesakes).
``<table>_spelling`` holds the words of the names under their spelling keys
(:mod:`.spelling`). Both are B-tree indexed (primary keys, ``COLLATE "C"`` on PostgreSQL so
that a prefix is a range), so every lookup is a few index probes, batched per message.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from decimal import Decimal
from typing import Any

from sqlalchemy import BigInteger, Column, Connection, MetaData, Table, Text
from sqlalchemy.engine import Engine

CHUNK = 500
"""Keys per ``IN`` list."""
PREFIX_CHUNK = 100
"""Prefixes per statement (SQLite allows 500 parts in a compound SELECT)."""
_AFTER_LAST = "{"
"""The character after the last one a key may hold ('z'): every key starting with p is below p + '{'."""
_KEY = Text().with_variant(Text(collation="C"), "postgresql")


def names_table(name: str, metadata: MetaData, ref: Any = BigInteger) -> Table:
    """key -> ref: the row number of an imported record, or the primary key of one in another database."""
    return Table(name, metadata, Column("key", _KEY, primary_key=True), Column("ref", ref, nullable=False),
                 sqlite_with_rowid=False)


def namesakes_table(name: str, metadata: MetaData, ref: Any = BigInteger) -> Table:
    """key -> ref, one row per record: a short name several names share names each of them."""
    return Table(name, metadata, Column("key", _KEY, primary_key=True), Column("ref", ref, primary_key=True),
                 sqlite_with_rowid=False)


def spelling_table(name: str, metadata: MetaData) -> Table:
    return Table(name, metadata, Column("variant", _KEY, primary_key=True), Column("word", _KEY, primary_key=True),
                 sqlite_with_rowid=False)


@dataclass(frozen=True)
class Rows:
    """Where the records a name index refers to are read: which connections, relation, columns and key."""

    engine: Engine
    relation: str
    columns: list[str]
    key: str
    """The column the index's references are values of: the row number, or the table's primary key."""


class TableNameIndex:
    """Lookups in one table's name index, through read-only connections.

    They are written as plain SQL, built once: a message makes a handful of them, and building
    them with SQLAlchemy's expression language would cost more than running them.
    """

    def __init__(self, engine: Engine, names: str, spelling: str, rows: Rows, namesakes: str):
        self.engine = engine
        self.rows = rows
        self.postgres = engine.dialect.name == "postgresql"
        q = engine.dialect.identifier_preparer.quote
        self.sql_exact = f"SELECT key, ref FROM {q(names)} WHERE key {_any(engine)}"
        self.sql_spelled = f"SELECT variant, word FROM {q(spelling)} WHERE variant {_any(engine)}"
        self.sql_namesakes = f"SELECT key, ref FROM {q(namesakes)} WHERE key {_any(engine)}"
        r = rows.engine.dialect.identifier_preparer.quote
        self.sql_records = (f"SELECT {r(rows.key)}, {', '.join(r(c) for c in rows.columns)} FROM {r(rows.relation)} "
                            f"WHERE {r(rows.key)} {_any(rows.engine)}")
        first_two = f"SELECT key, ref FROM {q(names)} WHERE key >= $p AND key < $p || '{_AFTER_LAST}' ORDER BY key LIMIT 2"
        self.sql_starting = (f"SELECT p, f.key, f.ref FROM unnest(%s::text[]) AS p "
                             f"CROSS JOIN LATERAL ({first_two.replace('$p', 'p')}) AS f" if self.postgres else
                             f"SELECT ? AS p, key, ref FROM ({first_two.replace('$p', '?')})")

    @contextmanager
    def lookups(self) -> Iterator["_Lookups"]:
        """The lookups of one message, on one connection (and one more where the records are elsewhere)."""
        with self.engine.connect() as conn:
            yield _Lookups(self, conn)


class _Lookups:
    def __init__(self, index: TableNameIndex, conn: Connection):
        self.index = index
        self.conn = conn

    def exact(self, keys: Iterable[str]) -> dict[str, Any]:
        return {k: r for k, r in _in(self.conn, self.index.sql_exact, keys)}

    def starting(self, prefixes: Iterable[str]) -> dict[str, list[tuple[str, Any]]]:
        out: dict[str, list[tuple[str, Any]]] = {}
        for chunk in _chunks(prefixes, PREFIX_CHUNK):
            if self.index.postgres:
                rows = self.conn.exec_driver_sql(self.index.sql_starting, (chunk,))
            else:
                sql = " UNION ALL ".join([self.index.sql_starting] * len(chunk))
                rows = self.conn.exec_driver_sql(sql, tuple(v for p in chunk for v in (p, p, p)))
            for prefix, key, ref in sorted(rows, key=lambda r: (r[0], r[1])):
                out.setdefault(prefix, []).append((key, ref))
        return out

    def spelled(self, keys: Iterable[str]) -> dict[str, set[str]]:
        out: dict[str, set[str]] = {}
        for variant, word in _in(self.conn, self.index.sql_spelled, keys):
            out.setdefault(variant, set()).add(word)
        return out

    def namesakes(self, keys: Iterable[str]) -> dict[str, list[Any]]:
        out: dict[str, list[Any]] = {}
        for key, ref in _in(self.conn, self.index.sql_namesakes, keys):
            out.setdefault(key, []).append(ref)
        return out

    def records(self, refs: Iterable[Any]) -> dict[Any, dict[str, Any]]:
        rows = self.index.rows
        if rows.engine is self.index.engine:
            found = list(_in(self.conn, self.index.sql_records, refs))
        else:
            with rows.engine.connect() as conn:
                found = list(_in(conn, self.index.sql_records, refs))
        return {row[0]: {c: float(v) if isinstance(v, Decimal) else v for c, v in zip(rows.columns, row[1:])}
                for row in found}


def _any(engine: Engine) -> str:
    """``IN (...)`` with one placeholder a value on SQLite, ``= ANY(%s)`` with one list on PostgreSQL."""
    return "= ANY(%s)" if engine.dialect.name == "postgresql" else "IN ({})"


def _in(conn: Connection, sql: str, values: Iterable[Any]) -> Iterator[Any]:
    """Rows of ``sql`` for ``values`` (its one ``IN`` / ``= ANY`` list), in chunks."""
    for chunk in _chunks(values, CHUNK):
        if conn.dialect.name == "postgresql":
            yield from conn.exec_driver_sql(sql, (chunk,))
        else:
            yield from conn.exec_driver_sql(sql.format(", ".join("?" * len(chunk))), tuple(chunk))


def _chunks(values: Iterable[Any], size: int) -> Iterator[list[Any]]:
    ordered = sorted(values)
    for i in range(0, len(ordered), size):
        yield ordered[i:i + size]
