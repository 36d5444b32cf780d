"""Read-only SQL from an LLM: validated with sqlglot, executed with a row limit and a timeout.

The validator accepts exactly one SELECT (subqueries and CTEs allowed) whose every table is
a declared knowledge table, and nothing that can read elsewhere or change anything:
no other statement kinds (PRAGMA, ATTACH, DML, DDL), no schema-qualified names
(``main.sqlite_master``), no set operations (``UNION`` into system tables), no comments
(they hide text from a reader of the logged query), and only functions sqlglot knows or a
short allow-list (``answer`` is the free-text predicate). It rewrites the query with a
LIMIT no larger than the caller's. Execution installs a progress handler that interrupts
SQLite when the deadline passes; time spent in user functions (LLM calls for free-text
predicates) is not counted against it, since those have their own timeout and budget.
"""

from __future__ import annotations

import threading
import time
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from typing import Any

import sqlglot
from sqlglot import exp
from sqlglot.errors import SqlglotError
from sqlalchemy.engine import Engine

from ..errors import GenieError

FREE_TEXT_FUNCTION = "answer"
ALLOWED_UNKNOWN_FUNCTIONS = frozenset({FREE_TEXT_FUNCTION, "instr", "printf", "format", "ifnull", "nullif", "iif",
                                       "date", "time", "datetime", "julianday", "strftime", "unixepoch", "likely",
                                       "unlikely", "glob"})
"""Functions sqlglot does not model (it parses them as anonymous) that are safe to call."""
_FORBIDDEN = (exp.Union, exp.Intersect, exp.Except, exp.Into, exp.Insert, exp.Update, exp.Delete, exp.Drop,
              exp.Create, exp.Alter, exp.Command, exp.Pragma, exp.Attach, exp.Detach, exp.Merge, exp.Transaction,
              exp.Set, exp.Use)
_PROGRESS_STEPS = 1000


class UnsafeQuery(GenieError, ValueError):
    """The SQL is not a single read-only SELECT over the declared tables; the message says why."""


class QueryTimeout(GenieError, RuntimeError):
    pass


@dataclass(frozen=True)
class SafeQuery:
    sql: str
    tables: frozenset[str]
    uses_free_text: bool


def validate_select(sql: str, tables: Iterable[str], limit: int, dialect: str = "sqlite") -> SafeQuery:
    """Check ``sql`` and return it rewritten with a bounded LIMIT; raise UnsafeQuery otherwise."""
    declared = {t.lower() for t in tables}
    if _has_comments(sql, dialect):
        raise UnsafeQuery("comments are not allowed in queries")
    try:
        statements = [s for s in sqlglot.parse(sql, read=dialect) if s is not None]
    except SqlglotError as exc:
        raise UnsafeQuery(f"not valid SQL: {_first_line(exc)}") from None
    if len(statements) != 1:
        raise UnsafeQuery(f"exactly one statement is allowed, got {len(statements)}")
    (tree,) = statements
    if not isinstance(tree, exp.Select):
        raise UnsafeQuery(f"only SELECT queries are allowed, not {tree.key.upper()}")
    forbidden = next(tree.find_all(*_FORBIDDEN), None)
    if forbidden is not None:
        raise UnsafeQuery(f"{forbidden.key.upper()} is not allowed")
    ctes = {cte.alias_or_name.lower() for cte in tree.find_all(exp.CTE)}
    used = set()
    for table in tree.find_all(exp.Table):
        if table.args.get("db") or table.args.get("catalog"):
            raise UnsafeQuery(f"qualified table names are not allowed: {table.sql(dialect=dialect)}")
        name = table.name.lower()
        if name not in declared and name not in ctes:
            raise UnsafeQuery(f"unknown table '{table.name or table.sql(dialect=dialect)}'; "
                              f"the tables are {', '.join(sorted(declared))}")
        used.add(name)
    functions = {f.name.lower() for f in tree.find_all(exp.Anonymous)}
    unknown = functions - ALLOWED_UNKNOWN_FUNCTIONS
    if unknown:
        raise UnsafeQuery(f"function {', '.join(sorted(unknown))} is not allowed")
    return SafeQuery(_with_limit(tree, limit).sql(dialect=dialect), frozenset(used - ctes),
                     FREE_TEXT_FUNCTION in functions)


def _has_comments(sql: str, dialect: str) -> bool:
    try:
        tokens = sqlglot.Dialect.get_or_raise(dialect).tokenize(sql)
    except SqlglotError:
        return False  # the parser reports it
    return any(token.comments for token in tokens)


def _with_limit(tree: exp.Select, limit: int) -> exp.Select:
    current = tree.args.get("limit")
    value = current.expression if isinstance(current, exp.Limit) else None
    if isinstance(value, exp.Literal) and value.is_int and 0 <= int(value.this) <= limit:
        return tree
    return tree.limit(limit, copy=True)


def _first_line(exc: Exception) -> str:
    return str(exc).strip().splitlines()[0] if str(exc).strip() else type(exc).__name__


# -- execution ----------------------------------------------------------------------------------------
UserFunction = Callable[..., Any]


@dataclass
class _Deadline:
    seconds: float
    end: float = field(init=False)

    def __post_init__(self) -> None:
        self.end = time.monotonic() + self.seconds

    def passed(self) -> bool:
        return time.monotonic() > self.end

    def paused(self, fn: UserFunction) -> UserFunction:
        """``fn`` with the time it takes added back to the deadline."""
        def call(*args: Any) -> Any:
            started = time.monotonic()
            try:
                return fn(*args)
            finally:
                self.end += time.monotonic() - started
        return call


_EXECUTION_LOCK = threading.Lock()
"""The knowledge store shares one SQLite connection; handlers and functions are per connection."""


def run_select(engine: Engine, query: SafeQuery, timeout: float, functions: dict[str, tuple[int, UserFunction]]
               | None = None) -> list[dict[str, Any]]:
    """Execute a validated query; raise QueryTimeout past ``timeout`` seconds of SQL work."""
    deadline = _Deadline(timeout)
    with _EXECUTION_LOCK, engine.connect() as conn:
        raw = conn.connection.dbapi_connection
        if engine.dialect.name == "sqlite":
            raw.set_progress_handler(lambda: int(deadline.passed()), _PROGRESS_STEPS)
            for name, (arity, fn) in (functions or {}).items():
                raw.create_function(name, arity, deadline.paused(fn))
        try:
            result = conn.exec_driver_sql(query.sql)
            return [dict(row._mapping) for row in result]
        except Exception as exc:
            if deadline.passed() and "interrupt" in str(exc).lower():
                raise QueryTimeout(f"the query took longer than {timeout:g} s") from None
            raise
        finally:
            if engine.dialect.name == "sqlite":
                raw.set_progress_handler(None, 0)
                for name, (arity, _) in (functions or {}).items():
                    raw.create_function(name, arity, None)  # calling it outside a query now fails
