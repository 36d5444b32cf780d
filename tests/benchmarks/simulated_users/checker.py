"""Comparing what the agent holds or submitted with what the user wanted, field by field, by type."""

from __future__ import annotations

import datetime as dt
import re
from dataclasses import dataclass
from typing import Any

from genie_bot.spec import AgentSpec, Field, InstanceRef
from genie_bot.state import DialogueState, WorksheetInstance

from .goals import Goal, TableRow, table_rows


@dataclass(frozen=True)
class Difference:
    path: tuple[str, ...]
    """Field names from the task's root worksheet down to the field."""
    wanted: Any
    got: Any

    def __str__(self) -> str:
        return f"{'.'.join(self.path)}: wanted {_show(self.wanted)}, got {_show(self.got)}"


def _show(value: Any) -> str:
    if isinstance(value, TableRow):
        return f"{value.table} {value.key}"
    if isinstance(value, dict):
        return "{" + ", ".join(f"{k}: {v}" for k, v in list(value.items())[:3]) + ", ...}"
    return repr(value)


def _text(value: Any) -> str:
    return re.sub(r"\s+", " ", str(value)).strip().rstrip(".").casefold()


def _row_key(spec: AgentSpec, table: str, value: Any) -> str | None:
    """The key of the table row ``value`` names: a record, its key, or a code or title written loosely."""
    kb = spec.knowledge[table]
    key_column = kb.primary_key or next(iter(kb.columns))
    if isinstance(value, dict):
        return str(value.get(key_column))
    squashed = re.sub(r"[^a-z0-9]", "", str(value).lower())
    for row in table_rows(spec, table):
        for column, cell in row.row.items():
            if kb.columns.get(column) is not None and not kb.columns[column].free_text \
                    and isinstance(cell, str) and re.sub(r"[^a-z0-9]", "", cell.lower()) == squashed:
                return row.key
    return None


def normalise(spec: AgentSpec, f: Field, value: Any) -> Any:
    """``value`` of field ``f`` in a form where equal meaning compares equal."""
    if value is None or value == "NA":
        return None
    table = f.type.referenced() if f.type.referenced() in spec.knowledge else f.values_from
    if f.type.kind == "list":  # the same items in any order
        items = value if isinstance(value, (list, tuple)) else [value]
        return tuple(sorted((_item(spec, table, item) for item in items), key=repr)) or None
    return _item(spec, table, value) if table or isinstance(value, TableRow) else _scalar(f.type.kind, value)


def _item(spec: AgentSpec, table: str | None, value: Any) -> Any:
    """A table row by its key (or the text naming it), or an enum value or text as text."""
    if isinstance(value, TableRow):
        return ("row", value.key)
    if table:
        key = _row_key(spec, table, value)
        return ("row", key) if key is not None else _text(value)
    return _text(value)


def _scalar(kind: str, value: Any) -> Any:
    """A value of a base type: dates and times as such, numbers as floats, the rest as text."""
    try:
        if kind == "date":
            return value if isinstance(value, dt.date) else dt.date.fromisoformat(str(value))
        if kind == "time":
            moment = value if isinstance(value, dt.time) else dt.time.fromisoformat(str(value))
            return (moment.hour, moment.minute)
        if kind in ("int", "float"):
            return float(value)
    except (TypeError, ValueError):
        return _text(value)
    if kind in ("bool", "confirm"):
        return value if isinstance(value, bool) else _text(value)
    return _text(value)


def instance_tree(state: DialogueState, instance: WorksheetInstance) -> dict[str, Any]:
    """An instance's values with nested instances resolved into dicts."""
    tree: dict[str, Any] = {}
    for name, value in instance.values.items():
        if isinstance(value, InstanceRef):
            nested = state.named(value.name)
            tree[name] = instance_tree(state, nested) if nested is not None else None
        else:
            tree[name] = value
    return tree


def differences(spec: AgentSpec, goal: Goal, tree: dict[str, Any] | None,
                path: tuple[str, ...] = ()) -> list[Difference]:
    """Where ``tree`` (an instance's values) differs from the goal, on the goal's fields."""
    tree = tree or {}
    fields = spec.tasks[goal.worksheet].fields
    out: list[Difference] = []
    for name, wanted in goal.values.items():
        got = tree.get(name)
        if isinstance(wanted, Goal):
            out.extend(differences(spec, wanted, got if isinstance(got, dict) else None, path + (name,)))
        elif normalise(spec, fields[name], wanted) != normalise(spec, fields[name], got):
            out.append(Difference(path + (name,), wanted, got))
    return out


def goal_path(state: DialogueState, instance_name: str, worksheet: str) -> tuple[str, ...] | None:
    """The field path from the root instance of a ``worksheet`` task down to ``instance_name``, or None
    when that instance belongs to another task."""
    path: list[str] = []
    instance = state.named(instance_name)
    while instance is not None and instance.parent is not None:
        parent, field_name = instance.parent
        path.insert(0, field_name)
        instance = state.named(parent)
    if instance is None or instance.worksheet != worksheet:
        return None
    return tuple(path)


def field_of(spec: AgentSpec, goal: Goal, path: tuple[str, ...]) -> Field:
    node = goal.node(path[:-1])
    assert node is not None
    return spec.tasks[node.worksheet].fields[path[-1]]
