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


def names_table(name: str, metadata: MetaData) -> Table:
    return Table(name, metadata, Column("key", _KEY, primary_key=True), Column("ref", BigInteger, nullable=False),
                 sqlite_with_rowid=False)


def spelling_table(name: str, metadata: MetaData) -> Table:
    return Table(name, metadata, Column("variant", _KEY, primary_key=True), Column("word", _KEY, primary_key=True),
                 sqlite_with_rowid=False)


class TableNameIndex:
    """Lookups in one table's name index, through read-only connections.

    They are written as plain SQL, built once: a message makes a handful of them, and building
    them with SQLAlchemy's expression language would cost more than running them.
    """

    def __init__(self, engine: Engine, physical: str, names: str, spelling: str, columns: list[str], row: str):
        self.engine = engine
        self.columns = columns
        self.postgres = engine.dialect.name == "postgresql"
        q = engine.dialect.identifier_preparer.quote
        self.any = "= ANY(%s)" if self.postgres else "IN ({})"
        self.sql_exact = f"SELECT key, ref FROM {q(names)} WHERE key {self.any}"
        self.sql_spelled = f"SELECT variant, word FROM {q(spelling)} WHERE variant {self.any}"
        self.sql_records = f"SELECT {q(row)}, {', '.join(q(c) for c in columns)} FROM {q(physical)} WHERE {q(row)} {self.any}"
        first_two = f"SELECT key, ref FROM {q(names)} WHERE key >= $p AND key < $p || '{_AFTER_LAST}' ORDER BY key LIMIT 2"
        self.sql_starting = (f"SELECT p, f.key, f.ref FROM unnest(%s::text[]) AS p "
                             f"CROSS JOIN LATERAL ({first_two.replace('$p', 'p')}) AS f" if self.postgres else
                             f"SELECT ? AS p, key, ref FROM ({first_two.replace('$p', '?')})")

    @contextmanager
    def lookups(self) -> Iterator["_Lookups"]:
        """The lookups of one message, on one connection."""
        with self.engine.connect() as conn:
            yield _Lookups(self, conn)


class _Lookups:
    def __init__(self, index: TableNameIndex, conn: Connection):
        self.index = index
        self.conn = conn

    def _in(self, sql: str, values: Iterable[Any]) -> Iterator[Any]:
        """Rows of ``sql`` for ``values`` (its one ``IN`` / ``= ANY`` list), in chunks."""
        for chunk in _chunks(values, CHUNK):
            if self.index.postgres:
                yield from self.conn.exec_driver_sql(sql, (chunk,))
            else:
                yield from self.conn.exec_driver_sql(sql.format(", ".join("?" * len(chunk))), tuple(chunk))

    def exact(self, keys: Iterable[str]) -> dict[str, Any]:
        return {k: r for k, r in self._in(self.index.sql_exact, keys)}

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
        for variant, word in self._in(self.index.sql_spelled, keys):
            out.setdefault(variant, set()).add(word)
        return out

    def records(self, refs: Iterable[Any]) -> dict[Any, dict[str, Any]]:
        return {row[0]: dict(zip(self.index.columns, row[1:])) for row in self._in(self.index.sql_records, refs)}


def _chunks(values: Iterable[Any], size: int) -> Iterator[list[Any]]:
    ordered = sorted(values)
    for i in range(0, len(ordered), size):
        yield ordered[i:i + size]
