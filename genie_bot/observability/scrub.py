"""Log records without user content, for ``logging.include_content: false``.

User text reaches the logs mostly through exceptions: a failed write's SQLAlchemy error
quotes its parameters (every engine is created with ``hide_parameters=True`` against that),
PostgreSQL's ``DETAIL: Key (...)=(...)`` quotes the values, and other errors quote what they
could not use. :class:`ContentScrubber` replaces every exception of a record, with its
causes, by a stand-in whose text keeps what an operator needs (types, SQLSTATE codes, our SQL
statement) and none of the values; the traceback's frames, which are code, stay.
"""

from __future__ import annotations

import logging
import re
import sqlite3

from sqlalchemy.exc import StatementError

from ..errors import GenieError

_QUOTED = re.compile(r"'(?:[^'\\]|\\.)*'|\"(?:[^\"\\]|\\.)*\"")
MAX_STATEMENT = 300
MAX_CHAIN = 5


class ScrubbedError(GenieError):
    """An exception as logged without content: ``str`` is :func:`describe` of the original."""


class ContentScrubber(logging.Filter):
    """Replaces the exceptions in a record (its ``exc_info`` and exception arguments) by scrubbed stand-ins."""

    def filter(self, record: logging.LogRecord) -> bool:
        if record.exc_info and record.exc_info[1] is not None:
            record.exc_info = (ScrubbedError, ScrubbedError(describe(record.exc_info[1])), record.exc_info[2])
            record.exc_text = None
        if isinstance(record.args, tuple):
            record.args = tuple(describe(a) if isinstance(a, BaseException) else a for a in record.args)
        return True


def describe(exc: BaseException) -> str:
    """``exc`` and its causes, each as its type and what of its message carries no values."""
    parts: list[str] = []
    seen: set[int] = set()
    current: BaseException | None = exc
    while current is not None and id(current) not in seen and len(parts) < MAX_CHAIN:
        seen.add(id(current))
        parts.append(_one(current))
        current = current.__cause__ or (None if current.__suppress_context__ else current.__context__)
    return " <- ".join(parts)


def _one(exc: BaseException) -> str:
    name = type(exc).__qualname__
    if isinstance(exc, StatementError):
        statement = _QUOTED.sub("?", exc.statement or "")[:MAX_STATEMENT]
        return f"{name}({_database_error(exc.orig)}) [SQL: {statement}]"
    if _is_database_error(exc):
        return _database_error(exc)
    return f"{name}: {_QUOTED.sub(chr(39) + '…' + chr(39), str(exc))[:MAX_STATEMENT]}"


def _is_database_error(exc: BaseException) -> bool:
    return isinstance(exc, sqlite3.Error) or type(exc).__module__.split(".")[0] in ("psycopg", "psycopg2")


def _database_error(exc: BaseException | None) -> str:
    """A driver's error as its type and code: its message may quote values (``DETAIL: Key (id)=(...)``)."""
    if exc is None:
        return ""
    code = getattr(exc, "sqlstate", None) or getattr(exc, "pgcode", None) or getattr(exc, "sqlite_errorname", None)
    return f"{type(exc).__qualname__}{f' {code}' if code else ''}"
