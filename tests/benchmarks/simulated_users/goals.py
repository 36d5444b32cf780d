"""What a simulated user wants: a goal drawn with a seeded RNG from what the agent's spec declares.

A goal is a tree mirroring the task worksheet: each input field holds the value the user wants
submitted (a knowledge-table row for fields whose values come from a table), a nested
:class:`Goal` for a field whose type is a worksheet, or None for an optional field the user
does not want to fill. Fields whose predicate is false for the goal are absent. Values are
drawn from the field's type, enum values, knowledge tables and validation (min/max, pattern,
expression, evaluated by the project's safe interpreter), never from scenario tests.
"""

from __future__ import annotations

import csv
import datetime as dt
import random
import re
from dataclasses import dataclass, field
from functools import lru_cache
from pathlib import Path
from typing import Any

from genie_bot.interpreter import Evaluator, InterpreterError, Scope
from genie_bot.interpreter.scope import SafeFunction
from genie_bot.spec import AgentSpec, Field, TaskWorksheet

from .people import course_code_like, free_text_for, matching_text, person, street_address

INT_COLUMN_TYPES = {"int": int, "float": float}


@dataclass(frozen=True)
class TableRow:
    """A row of a knowledge table the user means (a restaurant, a course)."""

    table: str
    key: str
    """The row's primary key (or first column) as text."""
    row: dict[str, Any] = field(hash=False, compare=False)


@dataclass
class Goal:
    worksheet: str
    values: dict[str, Any] = field(default_factory=dict)

    def leaves(self, path: tuple[str, ...] = ()) -> list[tuple[tuple[str, ...], Any]]:
        """Every (field path, value) of the goal, nested goals walked in field order."""
        out: list[tuple[tuple[str, ...], Any]] = []
        for name, value in self.values.items():
            if isinstance(value, Goal):
                out.extend(value.leaves(path + (name,)))
            else:
                out.append((path + (name,), value))
        return out

    def node(self, path: tuple[str, ...]) -> "Goal | None":
        node: Any = self
        for name in path:
            node = node.values.get(name) if isinstance(node, Goal) else None
        return node if isinstance(node, Goal) else None


@lru_cache(maxsize=None)
def _read_table(csv_path: Path, types: tuple[tuple[str, str], ...]) -> tuple[dict[str, Any], ...]:
    kinds = dict(types)
    with csv_path.open(newline="", encoding="utf-8") as fh:
        rows = list(csv.DictReader(fh))
    for row in rows:
        for column, kind in kinds.items():
            if kind in INT_COLUMN_TYPES and row.get(column) not in (None, ""):
                row[column] = INT_COLUMN_TYPES[kind](row[column])
    return tuple(rows)


def table_rows(spec: AgentSpec, table: str) -> list[TableRow]:
    """The rows of one of the agent's CSV knowledge tables."""
    kb = spec.knowledge[table]
    if kb.csv is None:
        return []
    path = kb.csv  # the loader resolved it against the agent's directory
    types = tuple((name, column.type or "str") for name, column in kb.columns.items())
    key = kb.primary_key or next(iter(kb.columns))
    return [TableRow(table, str(row[key]), row) for row in _read_table(path, types)]


def goal_tasks(spec: AgentSpec) -> list[TaskWorksheet]:
    """The tasks a user can complete: those whose API has side effects (a submission to check)."""
    return [task for task in spec.tasks.values() if task.api is not None and task.api.side_effects]


def draw_goal(spec: AgentSpec, rng: random.Random, today: dt.date) -> Goal:
    task = rng.choice(goal_tasks(spec))
    return _draw_worksheet(spec, task, rng, today, set())


def _plain(value: Any) -> Any:
    if isinstance(value, TableRow):
        return value.row
    if isinstance(value, Goal):
        return {name: _plain(v) for name, v in value.values.items()}
    if isinstance(value, list):
        return [_plain(v) for v in value]
    return value


def _holds(spec: AgentSpec, code: Any, names: dict[str, Any], today: dt.date) -> bool | None:
    """The truth of a spec expression over ``names`` (``today()`` is the conversation's day), or None
    when it cannot be evaluated here."""
    try:
        return bool(Evaluator(Scope(names, {"today": SafeFunction("today", lambda: today)})).evaluate(code.tree))
    except InterpreterError:
        return None


def _draw_worksheet(spec: AgentSpec, task: TaskWorksheet, rng: random.Random, today: dt.date,
                    taken: set[str]) -> Goal:
    goal = Goal(task.name)
    so_far: dict[str, Any] = {name: None for name in task.fields}
    for f in task.fields.values():
        if f.kind != "input" or f.type.kind == "confirm":
            continue
        if f.predicate is not None and _holds(spec, f.predicate, {"self": so_far}, today) is False:
            continue
        if not f.required and (f.dont_ask or rng.random() < 0.7):
            value: Any = None
        else:
            value = _draw_field(spec, task, f, rng, today, so_far, taken,
                                next((v for v in goal.values.values() if isinstance(v, TableRow)), None))
        goal.values[f.name] = value
        so_far[f.name] = _plain(value)
    return goal


def _draw_field(spec: AgentSpec, task: TaskWorksheet, f: Field, rng: random.Random, today: dt.date,
                so_far: dict[str, Any], taken: set[str], row: TableRow | None) -> Any:
    ref = f.type.referenced()
    if ref in spec.tasks:
        return _draw_worksheet(spec, spec.tasks[ref], rng, today, taken)
    for _ in range(50):
        value = _within_row(spec, f, _candidate(spec, task, f, rng, today, taken, so_far), row, rng)
        if _valid(spec, f, value, so_far, today):
            taken.update(v.key for v in (value if isinstance(value, list) else [value]) if isinstance(v, TableRow))
            return value
    for value in _every_value(f):  # a narrow validation random draws miss: the first value it takes
        if _valid(spec, f, value, so_far, today):
            return value
    raise ValueError(f"no valid value drawn for {task.name}.{f.name}")


def _every_value(f: Field) -> list[Any]:
    """The values of a small space a field may take, in order (its members, or its whole numbers within bounds)."""
    if f.type.kind == "enum":
        return list(f.values)
    if f.type.kind == "int":
        validation = f.validation
        low = int(validation.minimum) if validation and isinstance(validation.minimum, (int, float)) else 0
        high = int(validation.maximum) if validation and isinstance(validation.maximum, (int, float)) else 100
        return list(range(low, min(high, low + 1000) + 1))
    return []


def _candidate(spec: AgentSpec, task: TaskWorksheet, f: Field, rng: random.Random, today: dt.date,
               taken: set[str], so_far: dict[str, Any] | None = None) -> Any:
    ref = f.type.referenced()
    table = ref if ref in spec.knowledge else f.values_from
    kind = f.type.kind
    if kind == "list":  # one or two items: enum values or table rows
        pool: list[Any] = ([row for row in table_rows(spec, table) if row.key not in taken] if table
                           else list(f.values))
        return rng.sample(pool, min(len(pool), rng.choice([1, 1, 2])))
    if table:
        return rng.choice([row for row in table_rows(spec, table) if row.key not in taken])
    validation = f.validation
    if kind == "enum":
        return rng.choice(f.values)
    if kind == "bool":
        return rng.random() < 0.5
    if kind == "int":
        low = int(validation.minimum) if validation and isinstance(validation.minimum, (int, float)) else 1
        high = int(validation.maximum) if validation and isinstance(validation.maximum, (int, float)) else 10
        # People pick small numbers far more often than large ones.
        return min(high, low + int(rng.expovariate(0.45)))
    if kind == "float":  # an amount: a round number people say, within the bounds
        low = float(validation.minimum) if validation and isinstance(validation.minimum, (int, float)) else 0.0
        high = float(validation.maximum) if validation and isinstance(validation.maximum, (int, float)) else 500.0
        return float(min(high, max(low, rng.choice([20, 50, 75, 100, 150, 200, 250, 400]))))
    if kind == "date":
        low, high = (validation.minimum, validation.maximum) if validation else (None, None)
        if isinstance(low, dt.date) and isinstance(high, dt.date):  # a fixed period (an event's days)
            return low + dt.timedelta(days=rng.randint(0, (high - low).days))
        if "birth" in f"{f.name} {f.description}".lower():
            return today - dt.timedelta(days=rng.randint(18 * 365, 85 * 365))
        bound_past = validation is not None and validation.maximum is not None
        earlier = [v for name, v in (so_far or {}).items() if name != f.name and isinstance(v, dt.date) and v >= today]
        if earlier and not bound_past:  # a range's second day: some days after its first (a stay, a rental)
            return earlier[-1] + dt.timedelta(days=rng.choice([1, 2, 3, 4, 5, 7, 10, 14]))
        days = rng.choice([1, 2, 3, 4, 5, 6, 7, 9, 12, 15, 20, 28, 35, 45, 60])
        return today - dt.timedelta(days=days) if bound_past else today + dt.timedelta(days=days)
    if kind == "time":
        return dt.time(rng.randint(11, 22), rng.choice([0, 0, 0, 15, 30, 30, 45]))
    if kind == "str":
        return _text_value(f, rng)
    raise ValueError(f"cannot draw a value of type {f.type} for {task.name}.{f.name}")


def _within_row(spec: AgentSpec, f: Field, value: Any, row: TableRow | None, rng: random.Random) -> Any:
    """A value a user would choose for the row the worksheet is about: units within the course's
    ``min_units``..``max_units``, a grading option its ``grading`` column offers."""
    if row is None:
        return value
    columns = spec.knowledge[row.table].columns
    if f.type.kind == "int":
        for word in f.name.split("_"):
            low, high = row.row.get(f"min_{word}"), row.row.get(f"max_{word}")
            if isinstance(low, int) and isinstance(high, int):
                return rng.randint(low, high)
    if f.type.kind == "enum":
        for column, cell in row.row.items():
            if column in columns and not columns[column].free_text and isinstance(cell, str):
                offered = [v for v in f.values if v.lower() in cell.lower()]
                if offered:
                    return value if value in offered else rng.choice(offered)
    return value


def _text_value(f: Field, rng: random.Random) -> str:
    described = f"{f.name} {f.description}".lower()
    pattern = f.validation.pattern if f.validation else None
    if "email" in described:
        first, last = person(rng)
        return f"{first[0].lower()}{last.lower()}@stanford.edu" if rng.random() < 0.5 else f"{first.lower()}.{last.lower()}@stanford.edu"
    if pattern:
        return matching_text(pattern, rng)
    if "full name" in described or "'s name" in described:  # a person's name
        return " ".join(person(rng))
    if "address" in described:
        return street_address(rng)
    if "course" in described and "why" not in described:
        return course_code_like(rng)
    return free_text_for(described, rng)


def _valid(spec: AgentSpec, f: Field, value: Any, so_far: dict[str, Any], today: dt.date) -> bool:
    v = f.validation
    if v is None:
        return True
    for bound, ok in ((v.minimum, lambda b: value >= b), (v.maximum, lambda b: value <= b)):
        if bound is None:
            continue
        bound = today if bound == "today" else bound
        if isinstance(value, (int, float, dt.date)) and not isinstance(value, bool) and not ok(bound):
            return False
    if v.pattern and isinstance(value, str) and not re.fullmatch(v.pattern, value):
        return False
    if v.expression is not None:
        return _holds(spec, v.expression, {"self": so_far, "value": _plain(value)}, today) is not False
    return True
