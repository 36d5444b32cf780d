"""Records named without a name: by values of their columns that only one record has.

A table without names (cars by make and model) calls its records by their values: "a corolla", "honda crv",
"civic". A message names a record so when the values it says of the table's categorical columns fit one
row, and one of them is of a column that tells records apart (its values are nearly as many as the rows).
At the question for such a record any values that fit one row name it ("Audi"). Both the slots (a record
for a field) and the search matcher (a record named is a choice, not a search) read it.
"""

from __future__ import annotations

import re
from functools import lru_cache
from typing import Any

from .context import Context

IDENTIFYING_SHARE = 0.8
"""A column whose values are this share of its table's rows, or more, tells records apart (a car's model)."""


def named_by_values(ctx: Context, table: str, asked: bool = False) -> tuple[dict[str, Any], list[tuple[int, int]]] | None:
    """The one record of ``table`` with the values the message names (one of an identifying column, unless
    the message answers a question for such a record), and where it says them; else None."""
    if ctx.knowledge is None or table not in getattr(ctx.knowledge, "imported", {}):
        return None
    key = f"named by values: {table}: {asked}"
    if key not in ctx.memo:
        ctx.memo[key] = _named_by_values(ctx, table, asked)
    return ctx.memo[key]


@lru_cache(maxsize=512)
def _rows_with(knowledge: Any, table: str, said: tuple[tuple[str, str], ...]) -> list[dict[str, Any]]:
    """At most two rows with these values: a table does not change while its store serves (a reload makes a
    new store), and messages name the same values again and again ("intro", "winter")."""
    return knowledge.rows(table, dict(said), limit=2)


def _named_by_values(ctx: Context, table: str, asked: bool) -> tuple[dict[str, Any], list[tuple[int, int]]] | None:
    imported = ctx.knowledge.imported[table]
    values = ctx.knowledge.column_values(table)
    identifying = {c for c in values.columns if len(imported.values[c]) >= IDENTIFYING_SHARE * imported.rows}
    if not identifying and not asked:
        return None
    said = ctx.values_named(table)
    if not said or not (asked or identifying & said.keys()):
        return None
    rows = _rows_with(ctx.knowledge, table, tuple(sorted(said.items())))
    if len(rows) != 1:
        return None
    spans = []
    for value in said.values():
        words = re.findall(r"[a-z0-9]+", str(value).lower())
        found = re.search(r"\W*".join(map(re.escape, words)), ctx.text, re.I) if words else None
        if found:
            spans.append(found.span())
        else:  # named by one word of the value, or by its initials: the words of the message it shares
            spans += [(t.start, t.end) for t in ctx.analysis.tokens if t.lower in words]
    return rows[0], spans or [(0, len(ctx.text))]
