"""Read-only SQL from an LLM: validated with sqlglot, executed with a row limit and a timeout.

The validator accepts exactly one SELECT (subqueries and CTEs allowed) whose every table is
a declared knowledge table, and nothing that can read elsewhere or change anything:
no other statement kinds (PRAGMA, ATTACH, DML, DDL), no schema-qualified names
(``main.sqlite_master``), no set operations (``UNION`` into system tables), no comments
(they hide text from a reader of the logged query), no nesting deeper than
:data:`MAX_NESTING`, and only functions on an allow-list whose result is no larger than
their arguments (``answer`` is the free-text predicate): ``replace``, ``hex``, padding,
``zeroblob``, ``randomblob`` and the like are refused, and ``printf``/``format`` only with a
literal format without ``*`` or large widths (``printf('%.*c', 500000000, 'x')`` made 500 MB
in one step, which no progress handler interrupts). It rewrites the query with a LIMIT no
larger than the caller's. Parsing costs about 20 µs per token, so a query longer than
:data:`MAX_QUERY_CHARS` is refused before it is read.

Execution caps every SQLite value at :data:`MAX_VALUE_BYTES` (``SQLITE_LIMIT_LENGTH``, so a
combination the validator let through still fails at once), stops reading rows past
:data:`MAX_RESULT_BYTES`, and installs a progress handler that interrupts SQLite when the
deadline passes; time spent in user functions (LLM calls for free-text predicates) is not
counted against it, since those have their own timeout and budget. The queries of one question
(the first, and its repair) share one :class:`QueryBudget`: a runaway query that the LLM
rewrites does not get the timeout twice.
"""

from __future__ import annotations

import re
import sqlite3
import time
from collections.abc import Callable, Collection, Iterable, Mapping
from dataclasses import dataclass, field, replace
from typing import Any

import sqlglot
from sqlglot import exp
from sqlglot.errors import SqlglotError
from sqlalchemy.engine import Engine

from ..errors import GenieError
from ..runtime.searched import searched_by
from ..state import Searched

FREE_TEXT_FUNCTION = "answer"
FORMAT_FUNCTIONS = frozenset({"printf", "format"})
ALLOWED_UNKNOWN_FUNCTIONS = frozenset({FREE_TEXT_FUNCTION, "instr", "ifnull", "nullif", "iif", "date", "time",
                                       "datetime", "julianday", "strftime", "unixepoch", "likely", "unlikely", "glob",
                                       "total", *FORMAT_FUNCTIONS})
"""Functions sqlglot does not model (it parses them as anonymous) that are safe to call."""
ALLOWED_FUNCTIONS: tuple[type[exp.Expression], ...] = (
    exp.And, exp.Or, exp.Not, exp.Case, exp.If, exp.Cast, exp.TryCast, exp.Coalesce, exp.Nullif, exp.Exists,
    exp.Count, exp.Sum, exp.Avg, exp.Min, exp.Max, exp.Greatest, exp.Least, exp.GroupConcat,
    exp.Abs, exp.Round, exp.Floor, exp.Ceil, exp.Sign, exp.Length, exp.Lower, exp.Upper, exp.Trim, exp.Substring,
    exp.StrPosition, exp.Typeof, exp.Unicode, exp.Date, exp.TimeToStr, exp.TsOrDsToTimestamp, exp.StrToTime,
    exp.TimeStrToTime, exp.CurrentDate, exp.CurrentTimestamp, exp.Rand, exp.Format,
)
"""Functions sqlglot models whose result is no larger than their arguments (SQLite's ``upper`` and
``lower`` change ASCII letters only; a substring is shorter than its string; ``group_concat``
is bounded by :data:`MAX_VALUE_BYTES`). Anything else, ``replace``, ``hex``, ``lpad``,
``repeat`` or the JSON functions among them, is refused."""
MAX_QUERY_CHARS = 5_000
"""Longest query validated (an LLM's queries take a few hundred characters)."""
MAX_NESTING = 64
"""Deepest nesting of parentheses a query may have: the parser recurses on each level."""
MAX_FORMAT_WIDTH = 100
MAX_VALUE_BYTES = 1_000_000
"""Largest string or blob SQLite may make while running a query (``SQLITE_LIMIT_LENGTH``)."""
MAX_RESULT_BYTES = 1_000_000
"""Largest result, roughly in characters of its values, that a query may return."""
_FORMAT_FIELD = re.compile(r"%[-+ 0#,!]*(\*|\d*)(?:\.(\*|\d*))?")
_FORBIDDEN = (exp.Union, exp.Intersect, exp.Except, exp.Into, exp.Insert, exp.Update, exp.Delete, exp.Drop,
              exp.Create, exp.Alter, exp.Command, exp.Pragma, exp.Attach, exp.Detach, exp.Merge, exp.Transaction,
              exp.Set, exp.Use)
_PROGRESS_STEPS = 1000


class UnsafeQuery(GenieError, ValueError):
    """The SQL is not a single read-only SELECT over the declared tables; the message says why."""


class QueryTimeout(GenieError, RuntimeError):
    pass


class ResultTooLarge(GenieError, RuntimeError):
    """The query's result (or a value it made) was larger than the bounds; the message says how to narrow it."""


@dataclass(frozen=True)
class SafeQuery:
    sql: str
    """The query as written, with its LIMIT bounded: what the trace shows."""
    tables: frozenset[str]
    uses_free_text: bool
    searched: Searched = Searched()
    """What it looks for, read from the tree validated (the reply says it)."""
    executed: str = ""
    """What runs (:meth:`stored_in`): ``sql`` reading the tables where they are stored, in the database's dialect."""
    tree: exp.Select | None = field(default=None, compare=False, repr=False)
    dialect: str = "sqlite"

    def __post_init__(self) -> None:
        if not self.executed:
            object.__setattr__(self, "executed", self.sql)

    def stored_in(self, stored: Mapping[str, str], run_on: str,
                  trigram: Mapping[str, tuple[str, Collection[str]]] | None = None) -> "SafeQuery":
        """The query reading each declared table from the relation ``stored`` names (the knowledge
        database's views), still under its declared name, in the dialect ``run_on`` (``postgresql`` as
        SQLAlchemy names it); the tree validated is not parsed again. ``trigram`` (SQLite): declared
        table -> its FTS5 trigram table and columns, which ``column LIKE '%...%'`` reads instead of
        every row (``column IN (SELECT column FROM <trigram table> WHERE column LIKE '%...%')``, the
        same rows)."""
        assert self.tree is not None, "a validated query"
        ctes = {cte.alias_or_name.lower() for cte in self.tree.find_all(exp.CTE)}
        executed: exp.Expr = _stored_in(self.tree, {k.lower(): v for k, v in stored.items()}, ctes)
        if trigram and run_on == "sqlite":
            executed = _through_trigrams(executed, self.tree, {k.lower(): v for k, v in trigram.items()}, ctes)
        run_on = {"postgresql": "postgres"}.get(run_on, run_on)  # SQLAlchemy's name -> sqlglot's
        if self.dialect == "sqlite" and run_on != "sqlite":  # SQLite's LIKE ignores case; PostgreSQL's ILIKE does
            executed = executed.transform(lambda node: exp.ILike(**node.args) if isinstance(node, exp.Like) else node)
        return replace(self, executed=executed.sql(dialect=run_on))


def validate_select(sql: str, tables: Iterable[str], limit: int, dialect: str = "sqlite") -> SafeQuery:
    """Check ``sql`` and return it rewritten with a bounded LIMIT; raise UnsafeQuery otherwise."""
    if len(sql) > MAX_QUERY_CHARS:
        raise UnsafeQuery(f"the query is too long ({len(sql)} characters, at most {MAX_QUERY_CHARS})")
    declared = {t.lower() for t in tables}
    _check_tokens(sql, dialect)
    try:
        statements = [s for s in sqlglot.parse(sql, read=dialect) if s is not None]
    except SqlglotError as exc:
        raise UnsafeQuery(f"not valid SQL: {_first_line(exc)}") from None
    except RecursionError:
        raise UnsafeQuery("the query is nested too deeply") from None
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
    functions = _check_functions(tree, dialect)
    limited = _with_limit(tree, limit)
    return SafeQuery(limited.sql(dialect=dialect), frozenset(used - ctes), FREE_TEXT_FUNCTION in functions,
                     searched_by(limited), tree=limited, dialect=dialect)


def _stored_in(tree: exp.Select, stored: dict[str, str], ctes: set[str]) -> exp.Select:
    """``tree`` reading each declared table from where it is stored, still under its declared name
    (``FROM restaurants`` -> ``FROM k_1f.._v AS restaurants``), so its column references hold."""
    out = tree.copy()
    for table in out.find_all(exp.Table):
        name = table.name.lower()
        if name in stored and name not in ctes:
            if not table.alias:
                table.set("alias", exp.TableAlias(this=exp.to_identifier(table.name)))
            table.set("this", exp.to_identifier(stored[name]))
    return out


def _through_trigrams(tree: exp.Expr, written: exp.Select, trigram: dict[str, tuple[str, Collection[str]]],
                      ctes: set[str]) -> exp.Expr:
    """``tree`` with each ``column LIKE 'pattern'`` on a trigram-indexed column read through its FTS5
    table, when the pattern holds three characters in a row (fewer, and FTS5 would read every row)."""
    tables = {t.alias_or_name.lower(): t.name.lower() for t in written.find_all(exp.Table) if t.name.lower() not in ctes}
    only = next(iter(tables.values())) if len(set(tables.values())) == 1 else None

    def indexed(node: exp.Expr) -> exp.Expr:
        if not (isinstance(node, exp.Like) and isinstance(node.this, exp.Column) and not node.args.get("negate")
                and not isinstance(node.parent, exp.Escape) and isinstance(node.expression, exp.Literal)
                and node.expression.is_string and _LITERAL_RUN.search(node.expression.this)):
            return node
        table = tables.get(node.this.table.lower()) if node.this.table else only
        fts, columns = trigram.get(table or "", ("", ()))
        if node.this.name not in columns:
            return node
        name = exp.column(node.this.name, quoted=True)
        through = exp.select(name).from_(exp.to_table(fts)).where(exp.Like(this=name.copy(), expression=node.expression.copy()))
        return exp.In(this=node.this.copy(), query=through.subquery())

    return tree.transform(indexed)


_LITERAL_RUN = re.compile(r"[^%_]{3}")


def _check_tokens(sql: str, dialect: str) -> None:
    """No comments, and no nesting deeper than the parser can take without recursing too far."""
    try:
        tokens = sqlglot.Dialect.get_or_raise(dialect).tokenize(sql)
    except SqlglotError:
        return  # the parser reports it
    if any(token.comments for token in tokens):
        raise UnsafeQuery("comments are not allowed in queries")
    depth = 0
    for token in tokens:
        depth += {sqlglot.TokenType.L_PAREN: 1, sqlglot.TokenType.R_PAREN: -1}.get(token.token_type, 0)
        if depth > MAX_NESTING:
            raise UnsafeQuery(f"the query is nested too deeply (more than {MAX_NESTING} parentheses)")


def _check_functions(tree: exp.Expression, dialect: str) -> set[str]:
    """The names of the anonymous functions ``tree`` calls; UnsafeQuery for a function off the allow-lists."""
    names = set()
    for func in tree.find_all(exp.Func):
        if isinstance(func, exp.Anonymous):
            name = func.name.lower()
            if name not in ALLOWED_UNKNOWN_FUNCTIONS:
                raise UnsafeQuery(f"function {name} is not allowed")
            names.add(name)
            if name in FORMAT_FUNCTIONS:
                _check_format(func.expressions[0] if func.expressions else None, name)
        elif isinstance(func, exp.Format):
            _check_format(func.this, "format")
        elif not isinstance(func, ALLOWED_FUNCTIONS):
            name = func.sql_name().lower() if hasattr(func, "sql_name") else func.key
            raise UnsafeQuery(f"function {name} is not allowed")
    return names


def _check_format(template: exp.Expression | None, name: str) -> None:
    """``printf``/``format`` only with a literal format whose widths and precisions are small."""
    if not (isinstance(template, exp.Literal) and template.is_string):
        raise UnsafeQuery(f"{name}() needs a literal format string")
    for width, precision in _FORMAT_FIELD.findall(template.this):
        if "*" in (width, precision):
            raise UnsafeQuery(f"'*' widths are not allowed in {name}()")
        if max(int(width or 0), int(precision or 0)) > MAX_FORMAT_WIDTH:
            raise UnsafeQuery(f"widths and precisions in {name}() are at most {MAX_FORMAT_WIDTH}")


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


class QueryBudget:
    """Seconds of SQL work left for the queries of one question (each query's time is taken off)."""

    def __init__(self, seconds: float):
        self.seconds = seconds
        self.left = seconds


def run_select(engine: Engine, query: SafeQuery, timeout: float | QueryBudget,
               functions: dict[str, tuple[int, UserFunction]] | None = None) -> list[dict[str, Any]]:
    """Execute a validated query; raise QueryTimeout past ``timeout`` seconds of SQL work (or what is
    left of a budget, which the query's time is then taken off). ``functions`` (SQLite only) are
    installed on the query's connection for its duration."""
    budget = timeout if isinstance(timeout, QueryBudget) else QueryBudget(timeout)
    if budget.left <= 0:
        raise QueryTimeout(f"the queries of this question took longer than {budget.seconds:g} s")
    deadline = _Deadline(budget.left)
    try:
        return _run(engine, query, deadline, budget, functions)
    finally:
        budget.left = deadline.end - time.monotonic()


def _run(engine: Engine, query: SafeQuery, deadline: _Deadline, budget: QueryBudget,
         functions: dict[str, tuple[int, UserFunction]] | None) -> list[dict[str, Any]]:
    sqlite = engine.dialect.name == "sqlite"
    with engine.connect() as conn:
        raw = conn.connection.dbapi_connection
        assert raw is not None, "a connection checked out of the pool"
        if sqlite:
            raw.setlimit(sqlite3.SQLITE_LIMIT_LENGTH, MAX_VALUE_BYTES)
            raw.set_progress_handler(lambda: int(deadline.passed()), _PROGRESS_STEPS)
            for name, (arity, fn) in (functions or {}).items():
                raw.create_function(name, arity, deadline.paused(fn))
        else:
            conn.exec_driver_sql(f"SET LOCAL statement_timeout = {max(1, int(budget.left * 1000))}")
        sql = query.executed
        if engine.dialect.paramstyle in ("format", "pyformat"):
            sql = sql.replace("%", "%%")  # psycopg reads % as a placeholder; the query has none
        try:
            return _bounded_rows(conn.exec_driver_sql(sql))
        except Exception as exc:
            said = str(exc).lower()
            if (deadline.passed() and "interrupt" in said) or "statement timeout" in said:
                raise QueryTimeout(f"the query took longer than {budget.seconds:g} s") from None
            if "too big" in said:
                raise ResultTooLarge(f"a value would be larger than {MAX_VALUE_BYTES} bytes") from None
            raise
        finally:
            if sqlite:
                raw.set_progress_handler(None, 0)
                for name, (arity, _) in (functions or {}).items():
                    raw.create_function(name, arity, None)  # calling it outside a query now fails


def _bounded_rows(result: Any) -> list[dict[str, Any]]:
    """Rows read one at a time, refused as soon as they add up to more than :data:`MAX_RESULT_BYTES`."""
    rows, size = [], 0
    for row in result:
        values = dict(row._mapping)
        size += sum(len(v) if isinstance(v, (str, bytes)) else 8 for v in values.values())
        if size > MAX_RESULT_BYTES:
            raise ResultTooLarge(f"the result is larger than {MAX_RESULT_BYTES} characters; "
                                 "select fewer rows or columns")
        rows.append(values)
    return rows
