"""With ``logging.include_content: false`` no log line carries what a user wrote, also when a
write fails: SQLAlchemy would quote the statement's parameters, PostgreSQL the values in its
DETAIL line. The logs are those ``genie-bot run`` configures, read from its log file."""

from __future__ import annotations

import logging
from pathlib import Path

import pytest
from sqlalchemy import text

from genie_bot.config import LoggingSettings
from genie_bot.engine import Decision
from genie_bot.knowledge.sql import UnsafeQuery, validate_select
from genie_bot.observability.logs import configure_logging
from genie_bot.store.database import Database
from tests.discord.harness import Deployment, async_test, serving, start_thread
from tests.discord.test_busy_server import database_away
from tests.engine.support import KEY, ORDER, SHOP_API, make_engine, prepare_database, run, write_shop
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


def test_an_api_error_is_logged_without_its_message(tmp_path, log_file):
    """An API's exception may quote what users gave it: the user hears it, the log names its type."""
    shop = write_shop(tmp_path / "shop", api=SHOP_API.replace(
        '    return {"order_id": f"{dish}-{count}-{name}"}', f'    raise RuntimeError("card of {MARKER} declined")'))
    url = f"sqlite:///{tmp_path / 'engine.sqlite3'}"
    prepare_database(url)

    async def scenario():
        async with make_engine(url, shop) as engine:
            for i, text in enumerate(ORDER):
                asked = await engine.handle_message(KEY, "U1", text, f"m{i}")
            return await engine.handle_action(KEY, "U1", asked[0].pending_action.id, Decision.CONFIRM, "c1")

    told = run(scenario())
    logged = log_file.read_text()
    assert MARKER in told[0].text  # the user is told why
    assert "API place_order of order_0 failed: RuntimeError" in logged and MARKER not in logged


def test_sqlglot_does_not_log_the_sql_it_refuses(log_file):
    with pytest.raises(UnsafeQuery, match="only SELECT"):
        validate_select(f"VACUUM '{MARKER}'", ["restaurants"], 5)
    assert MARKER not in log_file.read_text()
