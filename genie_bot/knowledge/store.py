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

from typing import Any

from sqlalchemy import BigInteger, Float, Select, Text, column, func, select, table, text
from sqlalchemy.sql.selectable import NamedFromClause

from ..spec import AgentSpec
from .column_values import ColumnValues
from .database import ImportedTable, KnowledgeDatabase, open_database
from .importer import ROW, LoadOutcome, ensure_imported, table_sources
from .mentions import RecordNames
from .name_index import TableNameIndex

MAX_ROWS = 50
_SQL_TYPES = {"int": BigInteger, "float": Float, "str": Text}


class KnowledgeStore:
    """The agent's knowledge tables in one knowledge database (default: :func:`.database.default_url`)."""

    def __init__(self, spec: AgentSpec, database: KnowledgeDatabase | None = None):
        self.spec = spec
        self.database = database if database is not None else open_database()
        self.loaded: list[LoadOutcome] = [ensure_imported(self.database, s) for s in table_sources(spec)]
        self.imported: dict[str, ImportedTable] = {o.worksheet: o.table for o in self.loaded}
        self.tables: dict[str, NamedFromClause] = {
            name: table(imported.physical, *(column(c, _SQL_TYPES[kind]) for c, kind in imported.columns))
            .alias(spec.knowledge[name].table or name.lower())
            for name, imported in self.imported.items()}
        self._names: dict[str, RecordNames] = {}
        self._column_values: dict[str, ColumnValues] = {}

    @property
    def engine(self) -> Any:
        """Read-only connections to the knowledge database."""
        return self.database.reader

    def physical_names(self) -> dict[str, str]:
        """Declared table name -> the view of its declared columns, which queries written by an LLM read."""
        return {alias.name: self.imported[name].view for name, alias in self.tables.items()}

    def shown(self, statement: Select) -> str:
        """``statement`` (made from ``tables``) as SQL with its values written in and the declared table
        names only (``FROM k_1f.. AS restaurants`` -> ``FROM restaurants``): the query a person or an
        LLM would write, for the trace."""
        dialect = self.engine.dialect
        sql = str(statement.compile(self.engine, compile_kwargs={"literal_binds": True}))
        if dialect.paramstyle in ("format", "pyformat"):
            sql = sql.replace("%%", "%")
        quote = dialect.identifier_preparer.quote
        for name, alias in self.tables.items():
            sql = sql.replace(f"{quote(self.imported[name].physical)} AS {quote(alias.name)}", quote(alias.name))
        return sql

    def rows(self, worksheet: str, where: dict[str, Any] | None = None, limit: int = MAX_ROWS) -> list[dict[str, Any]]:
        """Rows of a table whose columns equal ``where`` (case-insensitive for text)."""
        table_ = self.tables[worksheet]
        query = select(table_)
        for name, value in (where or {}).items():
            col = table_.c[name]
            query = query.where(func.lower(col) == func.lower(value) if isinstance(value, str) else col == value)
        with self.engine.connect() as conn:
            return [dict(r._mapping) for r in conn.execute(query.limit(limit))]

    def execute(self, sql: str, limit: int = MAX_ROWS) -> list[dict[str, Any]]:
        """Run an already validated read-only SELECT."""
        with self.engine.connect() as conn:
            return [dict(r._mapping) for r in conn.execute(text(sql)).fetchmany(limit)]

    def record_names(self, worksheet: str) -> RecordNames:
        """The names of a table's records, for finding them in messages (through its name index)."""
        if worksheet not in self._names:
            imported = self.imported[worksheet]
            index = TableNameIndex(self.engine, imported.physical, imported.names, imported.spelling,
                                   [c for c, _ in imported.columns], ROW)
            self._names[worksheet] = RecordNames(worksheet, index, imported.name_words)
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
        with self.engine.connect() as conn:
            return [r[0] for r in conn.execute(select(col).where(col.is_not(None)).distinct().limit(limit + 1))]

