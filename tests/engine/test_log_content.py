"""With ``logging.include_content: false`` no log line carries what a user wrote, also when a
write fails: SQLAlchemy would quote the statement's parameters, PostgreSQL the values in its
DETAIL line. The logs are those ``genie-bot run`` configures, read from its log file."""

from __future__ import annotations

import logging
from pathlib import Path

import pytest
from sqlalchemy import text

from genie_bot.config import LoggingSettings
from genie_bot.observability.logs import configure_logging
from genie_bot.store.database import Database
from tests.discord.harness import Deployment, async_test, serving, start_thread
from tests.discord.test_busy_server import database_away
from tests.fakes.discord_server import FakeDiscord

MARKER = "SSN 078-05-1120"


@pytest.fixture
def log_file(tmp_path: Path):
    """The process's logging as ``genie-bot run`` sets it up, content excluded; restored after the test."""
    root = logging.getLogger()
    handlers, level = root.handlers[:], root.level
    path = tmp_path / "genie.log"
    configure_logging(LoggingSettings(file=path, include_content=False))
    yield path
    for handler in root.handlers:
        handler.close()
    root.handlers[:], root.level = handlers, level


def test_a_failed_write_is_logged_without_its_values(store_url, log_file):
    db = Database(store_url)
    with db.write() as conn:
        conn.execute(text("CREATE TABLE notes (id VARCHAR(60) PRIMARY KEY)"))
        conn.execute(text("INSERT INTO notes (id) VALUES (:id)"), {"id": MARKER})
    try:
        with db.write() as conn:
            conn.execute(text("INSERT INTO notes (id) VALUES (:id)"), {"id": MARKER})
    except Exception:
        logging.getLogger("genie_bot.engine.turns").exception("could not record note of %s", "s1")
    finally:
        db.engine.dispose()
    logged = log_file.read_text()
    assert "could not record note of s1" in logged and "IntegrityError" in logged and "INSERT INTO notes" in logged
    assert MARKER not in logged and "078" not in logged


@async_test
async def test_a_discord_message_that_cannot_be_recorded_is_logged_without_its_text(tmp_path, log_file):
    deployment = Deployment.create(tmp_path)
    async with FakeDiscord() as fake, serving(deployment.config(fake), database_away(2)):
        await start_thread(fake, f"I want to enroll in courses, my {MARKER}")
    logged = log_file.read_text()
    assert "could not record message" in logged and "OperationalError" in logged
    assert MARKER not in logged


def test_with_content_included_the_logs_keep_exception_messages(tmp_path):
    root = logging.getLogger()
    handlers, level = root.handlers[:], root.level
    configure_logging(LoggingSettings(file=tmp_path / "genie.log", include_content=True))
    try:
        try:
            raise ValueError(f"cannot use {MARKER!r}")
        except ValueError:
            logging.getLogger("genie_bot").exception("failed")
    finally:
        for handler in root.handlers:
            handler.close()
        root.handlers[:], root.level = handlers, level
    assert MARKER in (tmp_path / "genie.log").read_text()
