"""Running the Alembic migrations of the engine's tables, and refusing an outdated schema."""

from __future__ import annotations

from pathlib import Path

from alembic import command
from alembic.config import Config
from alembic.runtime.migration import MigrationContext
from alembic.script import ScriptDirectory

from ..errors import GenieError
from .database import Database

MIGRATIONS = Path(__file__).resolve().parent.parent / "migrations"


class SchemaOutdated(GenieError):
    """The database is not at the schema this version of genie-bot needs."""

    def __init__(self, current: str | None, head: str, url: str, config_path: str | None = "genie.yaml"):
        """``config_path``: the genie.yaml the command to run names; None when the database is
        given by ``DATABASE_URL`` alone."""
        self.current, self.head, self.url = current, head, url
        state = "has no genie-bot tables" if current is None else f"is at schema revision {current}"
        command = "genie-bot db upgrade" + (f" --config {config_path}" if config_path else "")
        super().__init__(f"the database {url} {state}, but this genie-bot needs revision {head}; run: {command}")


def _config() -> Config:
    config = Config()
    config.set_main_option("script_location", str(MIGRATIONS))
    return config


def head_revision() -> str:
    head = ScriptDirectory.from_config(_config()).get_current_head()
    assert head is not None, "genie-bot ships its migrations"
    return head


def current_revision(db: Database) -> str | None:
    with db.engine.connect() as conn:
        return MigrationContext.configure(conn).get_current_revision()


def upgrade(db: Database, revision: str = "head") -> tuple[str | None, str | None]:
    """Migrate the database to ``revision``; returns (revision before, revision after)."""
    before = current_revision(db)
    config = _config()
    with db.engine.begin() as conn:
        config.attributes["connection"] = conn
        command.upgrade(config, revision)
    return before, current_revision(db)


def check_schema(db: Database) -> None:
    """Raise :class:`SchemaOutdated` unless the database is at the head revision."""
    current, head = current_revision(db), head_revision()
    if current != head:
        raise SchemaOutdated(current, head, db.safe_url)
