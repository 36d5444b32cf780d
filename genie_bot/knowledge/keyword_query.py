"""The offline knowledge parser: answers ``answer("...")`` without an LLM.

It recognises values of the tables' categorical columns in the question ("Italian",
"Seattle", "cheap"), explicit query parameters, a record's name, and "best / highly rated"
wording, and turns them into a real SQL query, which is reported with the result so the
user sees what was searched. Questions it cannot map to a table get an honest empty result.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Any

from rapidfuzz import fuzz
from sqlalchemy import Float, Integer, select
from sqlalchemy.sql import Select

from ..runtime.executor import KnowledgeResult
from ..state import KnowledgeAnswer
from .store import KnowledgeStore

CATEGORICAL_LIMIT = 60
RESULT_LIMIT = 10
_RANKING_WORDS = re.compile(r"\b(best|top|highest|highly|good|great|popular|recommend\w*)\b", re.I)
_NAME_COLUMNS = ("name", "title", "course_id", "id")


@dataclass
class _TableIndex:
    categorical: dict[str, list[str]]
    name_column: str | None
    rating_column: str | None


class KeywordQuery:
    """Maps a question onto one table with equality filters; see the module docstring."""

    def __init__(self, store: KnowledgeStore):
        self.store = store
        self.index = {name: self._index(name) for name in store.tables}

    def _index(self, name: str) -> _TableIndex:
        table = self.store.tables[name]
        categorical = {}
        for column in table.columns:
            if isinstance(column.type, (Integer, Float)):
                continue
            values = self.store.distinct_values(name, column.name, CATEGORICAL_LIMIT)
            if len(values) <= CATEGORICAL_LIMIT:
                categorical[column.name] = sorted((str(v) for v in values), key=len, reverse=True)
        name_column = next((c for c in _NAME_COLUMNS if c in table.c and c not in categorical), None)
        rating = next((c.name for c in table.columns if "rating" in c.name and isinstance(c.type, (Integer, Float))), None)
        return _TableIndex(categorical, name_column, rating)

    def query(self, answer: KnowledgeAnswer) -> KnowledgeResult:
        candidates = [answer.table] if answer.table in self.store.tables else list(self.store.tables)
        scored = [(self._filters(name, answer), name) for name in candidates]
        if not scored:
            return KnowledgeResult(None, [])
        filters, name = max(scored, key=lambda item: len(item[0]))
        if not filters and len(candidates) > 1:
            return KnowledgeResult(None, [])
        statement = self._select(name, filters, bool(_RANKING_WORDS.search(answer.question)))
        sql = str(statement.compile(self.store.engine, compile_kwargs={"literal_binds": True}))
        with self.store.engine.connect() as conn:
            rows = [dict(r._mapping) for r in conn.execute(statement)]
        return KnowledgeResult(sql, rows)

    def _filters(self, name: str, answer: KnowledgeAnswer) -> dict[str, Any]:
        index = self.index[name]
        table = self.store.tables[name]
        filters = {k: v for k, v in answer.params.items() if k in table.c}
        text = answer.question.lower()
        for column, values in index.categorical.items():
            if column in filters:
                continue
            for value in values:
                if re.search(rf"\b{re.escape(value.lower())}\b", text):
                    filters[column] = value
                    break
        if index.name_column and index.name_column not in filters:
            match = self._name_match(name, index.name_column, text)
            if match is not None:
                filters[index.name_column] = match
        return filters

    def _name_match(self, name: str, column: str, text: str) -> str | None:
        names = [str(v) for v in self.store.distinct_values(name, column, 10_000)]
        best = max(names, key=lambda n: fuzz.partial_ratio(n.lower(), text), default=None)
        if best and len(best) >= 4 and fuzz.partial_ratio(best.lower(), text) >= 95:
            return best
        return None

    def _select(self, name: str, filters: dict[str, Any], ranked: bool) -> Select:
        table = self.store.tables[name]
        statement = select(table)
        for column, value in filters.items():
            col = table.c[column]
            statement = statement.where(col.ilike(value) if isinstance(value, str) else col == value)
        rating = self.index[name].rating_column
        if rating and ranked:
            statement = statement.order_by(table.c[rating].desc())
        return statement.limit(RESULT_LIMIT)
