"""An agent's knowledge tables in SQL, through SQLAlchemy.

CSV-backed tables are loaded into an in-memory SQLite database at start-up (typed from the
declared column types, else inferred from the values); tables that already live in a
database are reached through its URL. Queries are read-only by construction: callers pass
SQL that has been validated (see the knowledge parser), and the store adds nothing but
execution with a row limit.
"""

from __future__ import annotations

import csv
from dataclasses import dataclass, field
from typing import Any

from sqlalchemy import Column as SqlColumn
from sqlalchemy import Float, Integer, MetaData, String, Table, create_engine, insert, select, text
from sqlalchemy.engine import Engine
from sqlalchemy.pool import StaticPool

from ..spec import AgentSpec, KnowledgeWorksheet
from .column_values import CATEGORICAL_LIMIT, ColumnValues
from .mentions import MAX_NAMES, RecordNames

MAX_ROWS = 50


def _infer(values: list[str]) -> type:
    def all_parse(kind: type) -> bool:
        try:
            for v in values:
                if v != "":
                    kind(v)
        except ValueError:
            return False
        return any(v != "" for v in values)

    if all_parse(int):
        return Integer
    if all_parse(float):
        return Float
    return String


def _convert(value: str, sql_type: type) -> Any:
    if value == "":
        return None
    return int(value) if sql_type is Integer else float(value) if sql_type is Float else value


@dataclass
class KnowledgeStore:
    """The agent's knowledge tables in one SQL engine."""

    spec: AgentSpec
    engine: Engine = field(init=False)
    tables: dict[str, Table] = field(init=False, default_factory=dict)
    _names: dict[str, RecordNames] = field(init=False, default_factory=dict, repr=False)
    _column_values: dict[str, ColumnValues] = field(init=False, default_factory=dict, repr=False)

    def __post_init__(self) -> None:
        self.engine = create_engine("sqlite://", poolclass=StaticPool, hide_parameters=True,
                                    connect_args={"check_same_thread": False})
        metadata = MetaData()
        rows_by_table: dict[str, list[dict[str, Any]]] = {}
        for kb in self.spec.knowledge.values():
            if kb.source != "table":
                continue
            raw = self._csv_rows(kb)  # a table without a CSV (an imported spec's) starts empty
            names = list(raw[0]) if raw else list(kb.columns)
            if not names:
                continue
            types = {n: _declared_or_inferred(kb, n, [r[n] for r in raw]) for n in names}
            self.tables[kb.name] = Table(kb.table or kb.name.lower(), metadata, *(SqlColumn(n, types[n]) for n in names))
            rows_by_table[kb.name] = [{n: _convert(r[n], types[n]) for n in names} for r in raw]
        metadata.create_all(self.engine)
        with self.engine.begin() as conn:
            for name, rows in rows_by_table.items():
                if rows:
                    conn.execute(insert(self.tables[name]), rows)

    @staticmethod
    def _csv_rows(kb: KnowledgeWorksheet) -> list[dict[str, str]]:
        if kb.csv is None:
            return []
        with kb.csv.open(newline="", encoding="utf-8") as fh:
            return list(csv.DictReader(fh))

    def rows(self, worksheet: str, where: dict[str, Any] | None = None, limit: int = MAX_ROWS) -> list[dict[str, Any]]:
        """Rows of a table whose columns equal ``where`` (case-insensitive for text)."""
        table = self.tables[worksheet]
        query = select(table)
        for column, value in (where or {}).items():
            col = table.c[column]
            query = query.where(col.ilike(value) if isinstance(value, str) else col == value)
        with self.engine.connect() as conn:
            return [dict(r._mapping) for r in conn.execute(query.limit(limit))]

    def execute(self, sql: str, limit: int = MAX_ROWS) -> list[dict[str, Any]]:
        """Run an already validated read-only SELECT."""
        with self.engine.connect() as conn:
            return [dict(r._mapping) for r in conn.execute(text(sql)).fetchmany(limit)]

    def record_names(self, worksheet: str) -> RecordNames:
        """The names of a table's records, indexed once, for finding them in messages."""
        if worksheet not in self._names:
            kb = self.spec.knowledge[worksheet]
            rows = self.rows(worksheet, limit=MAX_NAMES + 1)
            self._names[worksheet] = RecordNames(worksheet, rows, kb.primary_key)
        return self._names[worksheet]

    def column_values(self, worksheet: str) -> ColumnValues:
        """The values of a table's categorical (text) columns, read once: not its names nor its long texts."""
        if worksheet not in self._column_values:
            table, kb = self.tables[worksheet], self.spec.knowledge[worksheet]
            naming = {kb.primary_key, "name", "title"} | {c for c, column in kb.columns.items() if column.free_text}
            text_columns = [c.name for c in table.columns if not isinstance(c.type, (Integer, Float)) and c.name not in naming]
            self._column_values[worksheet] = ColumnValues(
                {c: self.distinct_values(worksheet, c, CATEGORICAL_LIMIT) for c in text_columns})
        return self._column_values[worksheet]

    def distinct_values(self, worksheet: str, column: str, limit: int = 200) -> list[Any]:
        table = self.tables[worksheet]
        with self.engine.connect() as conn:
            return [r[0] for r in conn.execute(select(table.c[column]).distinct().limit(limit + 1)) if r[0] is not None]


def _declared_or_inferred(kb: KnowledgeWorksheet, name: str, values: list[str]) -> type:
    declared = kb.columns.get(name)
    if declared and declared.type in ("int", "float", "str"):
        return {"int": Integer, "float": Float, "str": String}[declared.type]
    return _infer(values)
