"""The knowledge tables as the knowledge parser's prompt sees them: SQL schemas with comments.

Each table is a ``CREATE TABLE`` with its description, every column's SQL type and
description, free-text columns marked for ``answer(column, ...)``, and the values of short
categorical text columns (so the LLM writes 'Palo Alto', not 'palo alto, ca').
"""

from __future__ import annotations

from sqlalchemy import Float, Integer

from ..spec import AgentSpec
from .store import KnowledgeStore

MAX_LISTED_VALUES = 8


def table_schemas(spec: AgentSpec, store: KnowledgeStore) -> str:
    return "\n\n".join(_table(spec, store, name) for name in store.tables)


def _table(spec: AgentSpec, store: KnowledgeStore, name: str) -> str:
    kb = spec.knowledge[name]
    table = store.tables[name]
    lines = [f"-- {' '.join(kb.description.split())}" if kb.description else "", f"CREATE TABLE {table.name} ("]
    columns = list(table.columns)
    for i, column in enumerate(columns):
        declared = kb.columns.get(column.name)
        notes = [declared.description] if declared and declared.description else []
        if declared and declared.free_text:
            notes.append(f"FREE TEXT: filter on what it says with answer({column.name}, 'yes/no question') = 'Yes'")
        elif not isinstance(column.type, (Integer, Float)):
            values = store.distinct_values(name, column.name, MAX_LISTED_VALUES)
            if len(values) <= MAX_LISTED_VALUES:
                notes.append("values: " + ", ".join(repr(v) for v in sorted(map(str, values))))
        if declared and declared.required:
            notes.append("a query must filter on it")
        sql_type = "INTEGER" if isinstance(column.type, Integer) else \
            "REAL" if isinstance(column.type, Float) else "TEXT"
        comma = "," if i < len(columns) - 1 else ""
        lines.append(f"  {column.name} {sql_type}{comma}" + (f"  -- {'; '.join(' '.join(n.split()) for n in notes)}"
                                                            if notes else ""))
    lines.append(");")
    return "\n".join(line for line in lines if line)
