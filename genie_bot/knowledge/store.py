"""An agent's knowledge tables, read-only in the knowledge database, through SQLAlchemy.

Opening a store reads no table: each CSV-backed table is found in the catalogue by the digest
of its CSV and declarations (:mod:`.importer`; imported first if it is not there), and the
catalogue says what the offline parser needs up front (columns, their types, the values of
the categorical ones). So a process starts in the same time, and holds the same memory,
whatever the size of its tables; names are found through the table's name index
(:mod:`.mentions`) and queries run on indexed SQL. Queries are read-only by construction:
callers pass SQL that has been validated (see the knowledge parser), over connections that
cannot write.

``store.tables[name]`` is the table as its worksheet declares it: named by the declared name
(an alias of the imported table), with the declared columns only.
"""

from __future__ import annotations

import weakref
from collections.abc import Iterable
from typing import Any

from sqlalchemy import BigInteger, Float, Select, Text, column, func, select, table
from sqlalchemy.sql.selectable import NamedFromClause

from ..spec import AgentSpec
from .column_values import ColumnValues
from .database import ImportedTable, KnowledgeDatabase, open_database
from .importer import ROW, LoadOutcome, ensure_imported, table_sources
from .mentions import RecordNames, naming_columns
from .name_index import Rows, TableNameIndex

MAX_ROWS = 50
_SQL_TYPES = {"int": BigInteger, "float": Float, "str": Text}


class KnowledgeStore:
    """The agent's knowledge tables in one knowledge database (default: :func:`.database.default_url`),
    and those that live in databases of their own (``database:``), each read where it is."""

    def __init__(self, spec: AgentSpec, database: KnowledgeDatabase | None = None):
        self.spec = spec
        self.database = database if database is not None else open_database()
        sources = table_sources(spec)
        reading = [s.physical for s in sources]
        self.database.readers.hold(reading)  # before looking them up: a prune from now on keeps them
        weakref.finalize(self, self.database.readers.release, reading)
        self.loaded: list[LoadOutcome] = [ensure_imported(self.database, s, lazily=True) for s in sources]
        self.imported: dict[str, ImportedTable] = {o.worksheet: o.table for o in self.loaded}
        self._where = {s.kb.name: (s.kb.table or s.kb.name.lower(), open_database(s.url).reader) if s.url else
                       (self.imported[s.kb.name].physical, self.database.reader) for s in sources}
        """worksheet -> (the relation holding its rows, the connections that read it)."""
        self.tables: dict[str, NamedFromClause] = {
            name: table(self._where[name][0], *(column(c, _SQL_TYPES[kind]) for c, kind in imported.columns))
            .alias(spec.knowledge[name].table or name.lower())
            for name, imported in self.imported.items()}
        self._names: dict[str, RecordNames] = {}
        self._column_values: dict[str, ColumnValues] = {}

    @property
    def engine(self) -> Any:
        """Read-only connections to the knowledge database."""
        return self.database.reader

    def engine_for(self, worksheet: str) -> Any:
        """Read-only connections to where ``worksheet``'s rows are."""
        return self._where[worksheet][1]

    def engine_for_tables(self, tables: Iterable[str]) -> Any | None:
        """The connections that read all of ``tables`` (declared names), or None when they live in different
        databases (no query can join them)."""
        engines = {id(e): e for e in (self.engine_for(w) for w in self.worksheets_of(tables))}
        return next(iter(engines.values())) if len(engines) == 1 else self.engine if not engines else None

    def worksheets_of(self, tables: Iterable[str]) -> list[str]:
        """The worksheets whose tables a query names (declared SQL names, in any case)."""
        by_name = {alias.name.lower(): name for name, alias in self.tables.items()}
        return [by_name[t.lower()] for t in tables if t.lower() in by_name]

    def whole_records(self, rows: Any, worksheets: Iterable[str]) -> dict[str, list[dict[str, Any]]]:
        """worksheet -> the whole rows of the records ``rows`` show with only some of their columns (an answer
        that showed ``id, name, price``), so that a record chosen from it holds every column.

        A record is found by its table's key: the primary key, else the column that names records; rows
        showing a column the table lacks (a join, an alias) are not its records. Tables whose rows are
        whole already are left out; one query per other table.
        """
        out: dict[str, list[dict[str, Any]]] = {}
        rows = [r for r in rows if isinstance(r, dict)] if isinstance(rows, list) else []
        for worksheet in dict.fromkeys(worksheets):
            table_ = self.tables[worksheet]
            columns = set(table_.c.keys())
            naming = naming_columns(dict(self.imported[worksheet].columns), None)
            key = self.spec.knowledge[worksheet].primary_key or next(iter(naming), None)
            partial = [r for r in rows if key in r and set(r) < columns] if key is not None else []
            if key is None or not partial:
                continue
            values = list(dict.fromkeys(r[key] for r in partial))
            with self.engine_for(worksheet).connect() as conn:
                found = conn.execute(select(table_).where(table_.c[key].in_(values)).limit(MAX_ROWS))
                out[worksheet] = [dict(r._mapping) for r in found]
        return out

    def physical_names(self) -> dict[str, str]:
        """Declared table name -> what queries written by an LLM read: the view of an imported table's
        declared columns, or the table where it lives."""
        return {alias.name: self.imported[name].part("v") if self.imported[name].physical == self._where[name][0]
                else self._where[name][0] for name, alias in self.tables.items()}

    def trigram_tables(self) -> dict[str, tuple[str, tuple[str, ...]]]:
        """Declared table name -> its FTS5 trigram table and columns, for tables imported into SQLite."""
        return {alias.name: (self.imported[name].part("trigram"), self.imported[name].trigram)
                for name, alias in self.tables.items() if self.imported[name].trigram
                and self._where[name][0] == self.imported[name].physical and self.database.dialect == "sqlite"}

    def shown(self, statement: Select, worksheet: str) -> str:
        """``statement`` (made from ``tables[worksheet]``) as SQL with its values written in and the declared
        table name only (``FROM k_1f.. AS restaurants`` -> ``FROM restaurants``): the query as a person
        reads it, for the trace."""
        engine = self.engine_for(worksheet)
        sql = str(statement.compile(engine, compile_kwargs={"literal_binds": True}))
        if engine.dialect.paramstyle in ("format", "pyformat"):
            sql = sql.replace("%%", "%")
        quote = engine.dialect.identifier_preparer.quote
        alias = self.tables[worksheet].name
        return sql.replace(f"{quote(self._where[worksheet][0])} AS {quote(alias)}", quote(alias))

    def rows(self, worksheet: str, where: dict[str, Any] | None = None, limit: int = MAX_ROWS) -> list[dict[str, Any]]:
        """Rows of a table whose columns equal ``where`` (case-insensitive for text)."""
        table_ = self.tables[worksheet]
        query = select(table_)
        for name, value in (where or {}).items():
            col = table_.c[name]
            query = query.where(func.lower(col) == func.lower(value) if isinstance(value, str) else col == value)
        with self.engine_for(worksheet).connect() as conn:
            return [dict(r._mapping) for r in conn.execute(query.limit(limit))]

    def shares_names(self, worksheet: str) -> bool:
        """Whether two records of the table have the same name (a class held on several days), as
        the import found."""
        return self.imported[worksheet].shared_names

    def record_names(self, worksheet: str) -> RecordNames:
        """The names of a table's records, for finding them in messages (through its name index)."""
        if worksheet not in self._names:
            imported = self.imported[worksheet]
            relation, engine = self._where[worksheet]
            key = ROW if relation == imported.physical else self.spec.knowledge[worksheet].primary_key
            index = TableNameIndex(self.engine, imported.part("names"), imported.part("spelling"),
                                   Rows(engine, relation, [c for c, _ in imported.columns], key or ROW),
                                   imported.part("namesakes"))
            naming = naming_columns(dict(imported.columns), self.spec.knowledge[worksheet].primary_key)
            self._names[worksheet] = RecordNames(worksheet, index, imported.name_words, naming)
        return self._names[worksheet]

    def column_values(self, worksheet: str) -> ColumnValues:
        """The values of a table's categorical (text) columns, from the catalogue: not its names nor its long texts."""
        if worksheet not in self._column_values:
            kb, imported = self.spec.knowledge[worksheet], self.imported[worksheet]
            naming = {kb.primary_key, "name", "title"} | {c for c, col in kb.columns.items() if col.free_text}
            self._column_values[worksheet] = ColumnValues(
                {c: values for c, values in imported.values.items() if c not in naming})
        return self._column_values[worksheet]

    def distinct_values(self, worksheet: str, column_name: str, limit: int = 200) -> list[Any]:
        """Up to ``limit + 1`` distinct values of a column (so a caller can tell there are more than ``limit``)."""
        kept = self.imported[worksheet].values.get(column_name)
        if kept is not None:
            return kept[:limit + 1]
        col = self.tables[worksheet].c[column_name]
        with self.engine_for(worksheet).connect() as conn:
            return [r[0] for r in conn.execute(select(col).where(col.is_not(None)).distinct().limit(limit + 1))]

