"""A deployment's database for a command (from ``--config`` or ``DATABASE_URL``), its failures told in one line."""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

from sqlalchemy.exc import ArgumentError, OperationalError

from ..config import ConfigInvalid, environment_database_url, load_config
from ..store import Database, DriverMissing, SchemaOutdated, check_schema
from .common import CommandFailed


def database_problem(db: Database, exc: OperationalError) -> str:
    """One line for a database that cannot be reached or used: which one, and the driver's reason."""
    reason = " ".join(line.strip() for line in str(exc.orig or exc).splitlines() if line.strip())
    return f"cannot use the database {db.safe_url}: {reason}"


@contextmanager
def deployment_database(config: Path | None, check: bool = True) -> Iterator[Database]:
    """The database of ``config`` (a genie.yaml), else of ``DATABASE_URL``; with ``check``, only at
    the schema this version needs. Every failure (a bad configuration, no URL, an unreachable
    server, an outdated schema) raises :class:`CommandFailed` naming the file or database."""
    url: str | None
    if config is not None:
        try:
            url = load_config(config).database_url
        except ConfigInvalid as exc:
            raise CommandFailed(f"{exc}\n{len(exc.errors)} problem(s) in the configuration", 2) from None
    else:
        url = environment_database_url()
        if url is None:
            raise CommandFailed("no database: give --config genie.yaml, or set DATABASE_URL")
    try:
        db = Database(url)
    except (ArgumentError, ValueError) as exc:
        raise CommandFailed(f"database URL {url!r}: {exc}") from None
    except DriverMissing as exc:
        raise CommandFailed(str(exc)) from None
    try:
        if check:
            check_schema(db)
        yield db
    except SchemaOutdated as exc:
        raise CommandFailed(str(SchemaOutdated(exc.current, exc.head, exc.url,
                                               None if config is None else str(config)))) from None
    except OperationalError as exc:
        raise CommandFailed(database_problem(db, exc)) from None
    finally:
        db.dispose()
