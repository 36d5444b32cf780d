"""What a knowledge query looked for, read from its SQL with sqlglot: tables and conditions.

The knowledge parser reads it from the tree it validates (one parse per query); this reads it
from SQL that comes without it, such as a recorded trace's or a test double's. sqlglot is
imported by the first query read (it takes a tenth of a second to import, and an agent without
knowledge tables never needs it).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from ..state import Searched

if TYPE_CHECKING:
    from sqlglot import exp


def searched_in(sql: str, dialect: str = "sqlite") -> Searched | None:
    """What ``sql`` looks for, or None when it is no SQL that sqlglot reads."""
    import sqlglot

    try:
        tree = sqlglot.parse_one(sql, read=dialect)
    except (sqlglot.errors.ParseError, sqlglot.errors.TokenError, RecursionError):
        return None
    return searched_by(tree)


def searched_by(tree: exp.Expr) -> Searched:
    """The tables ``tree`` reads and its conditions: "cuisine Italian and city Seattle" from
    ``WHERE cuisine = 'Italian' AND city LIKE 'Seattle'``."""
    from sqlglot import exp

    tables = tuple(dict.fromkeys(t.name for t in tree.find_all(exp.Table)))
    where = tree.find(exp.Where)
    conditions = []
    for condition in where.find_all(exp.EQ, exp.Like, exp.ILike) if where is not None else ():
        column, value = (_unwrapped(side) for side in (condition.this, condition.expression))
        if isinstance(column, exp.Column) and isinstance(value, exp.Literal):
            conditions.append((column.name, value.this.strip("%")))
    return Searched(tables, tuple(conditions))


def _unwrapped(node: exp.Expr) -> exp.Expr:
    """``lower(city)`` -> ``city``: case-insensitive matches compare the column itself."""
    from sqlglot import exp

    while isinstance(node, (exp.Lower, exp.Upper, exp.Paren)):
        node = node.this
    return node
