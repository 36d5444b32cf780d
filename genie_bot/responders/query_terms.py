"""What a knowledge query's SQL looked in and for: its tables, and its conditions in words.

Read with sqlglot, which is imported by the first query read (it takes a tenth of a second to
import, and an agent without knowledge tables never needs it).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any


@dataclass(frozen=True)
class QueryTerms:
    tables: frozenset[str] = frozenset()
    conditions: str = ""
    """"cuisine Italian and city Seattle" from ``WHERE cuisine = 'Italian' AND city LIKE 'Seattle'``."""


def read_query(sql: str | None) -> QueryTerms:
    """The tables and conditions of ``sql``; nothing for text that is not SQL."""
    if not sql:
        return QueryTerms()
    import sqlglot
    from sqlglot import exp

    try:
        tree = sqlglot.parse_one(sql, read="sqlite")
    except sqlglot.errors.ParseError:
        return QueryTerms()
    if tree is None:
        return QueryTerms()
    said = []
    where = tree.find(exp.Where)
    for condition in where.find_all(exp.EQ, exp.Like, exp.ILike) if where is not None else ():
        column, value = (_unwrapped(side, exp) for side in (condition.this, condition.expression))
        if isinstance(column, exp.Column) and isinstance(value, exp.Literal):
            said.append(f"{column.name.replace('_', ' ')} {value.this.strip('%')}")
    return QueryTerms(frozenset(t.name for t in tree.find_all(exp.Table)), " and ".join(said))


def _unwrapped(node: Any, exp: Any) -> Any:
    """``lower(city)`` -> ``city``: case-insensitive matches compare the column itself."""
    while isinstance(node, (exp.Lower, exp.Upper, exp.Paren)):
        node = node.this
    return node
