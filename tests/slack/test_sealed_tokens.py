"""Slack's tokens at rest: sealed with GENIE_SECRET_KEYS, read through the installation store only;
revision 0006 seals the tokens an older version stored in clear (and refuses to run without the
keys); a key is rotated by putting a new one first and sealing again. (No keys, no start:
tests/ops/test_operator_starts.py.)"""

from __future__ import annotations

import datetime as dt
from pathlib import Path

import pytest
from alembic import command
from alembic.config import Config
from slack_sdk.oauth.installation_store import Installation
from slack_sdk.oauth.installation_store.sqlalchemy import SQLAlchemyInstallationStore
from sqlalchemy import select

from genie_bot.adapters.slack.installations import Installations
from genie_bot.cli import main
from genie_bot.store import Database, current_revision, schema, upgrade
from genie_bot.store.migrations import MIGRATIONS
from genie_bot.store.sealing import KEYS_ENV, KeysMissing, SealBroken, Sealer
from tests.engine.conftest import pg_url, store_url  # noqa: F401 - SQLite and PostgreSQL
from tests.fakes.slack_oauth import CLIENT_ID

from .test_installations_cli import genie_yaml

ROTATING_TOKEN = "xoxe.xoxb-1-" + "M" * 160
"""A bot token as token rotation issues them: longer than the 200 characters of revision 0005 once sealed."""
REFRESH_TOKEN = "xoxe-1-" + "R" * 140


def _installation(team: str) -> Installation:
    return Installation(app_id="A1", team_id=team, team_name=f"Team {team}", user_id="UINSTALLER",
                        bot_token=ROTATING_TOKEN, bot_id="B1", bot_user_id="UBOT", bot_scopes="chat:write",
                        bot_refresh_token=REFRESH_TOKEN, bot_token_expires_in=43200,
                        installed_at=dt.datetime(2026, 12, 1).timestamp())


def _stored(db: Database) -> list[str]:
    """The token columns of every row, as the database holds them."""
    with db.engine.connect() as conn:
        return [value for table in (schema.slack_installations, schema.slack_bots)
                for row in conn.execute(select(*(c for c in table.c if c.name in schema.SEALED_TOKENS)))
                for value in row if value is not None]


def _downgrade(db: Database, revision: str) -> None:
    config = Config()
    config.set_main_option("script_location", str(MIGRATIONS))
    with db.engine.begin() as conn:
        config.attributes["connection"] = conn
        command.downgrade(config, revision)


@pytest.fixture(params=["sqlite", pytest.param("postgres", marks=pytest.mark.postgres)])
def fresh_url(request, tmp_path: Path) -> str:
    """An empty database (no revision yet), on SQLite and on PostgreSQL."""
    return f"sqlite:///{tmp_path / 'engine.sqlite3'}" if request.param == "sqlite" else request.getfixturevalue("pg_url")


def test_revision_0006_seals_the_tokens_stored_in_clear_and_a_downgrade_opens_them(fresh_url, monkeypatch,
                                                                                     secret_keys):
    db = Database(fresh_url)
    try:
        upgrade(db, "0005")
        SQLAlchemyInstallationStore(CLIENT_ID, db.engine).save(_installation("TA"))  # as revision 0005 kept it
        clear = sorted(_stored(db))
        monkeypatch.delenv(KEYS_ENV)
        with pytest.raises(KeysMissing) as missing:
            upgrade(db)
        refused_at = current_revision(db)
        monkeypatch.setenv(KEYS_ENV, secret_keys)
        upgrade(db)
        sealed = _stored(db)
        opened = Installations(CLIENT_ID, db, Sealer([secret_keys])).latest_of_team("TA")
        _downgrade(db, "0005")
        reopened = sorted(_stored(db))
    finally:
        db.dispose()
    assert clear == sorted([ROTATING_TOKEN, REFRESH_TOKEN] * 2)
    assert str(missing.value).startswith("revision 0006 seals the Slack tokens stored in clear (2 row(s)): "
                                         f"set {KEYS_ENV}") and refused_at == "0005"
    assert len(sealed) == 4 and all(value.startswith("gAAAAA") and "xox" not in value for value in sealed)
    assert opened is not None and (opened.bot_token, opened.bot_refresh_token) == (ROTATING_TOKEN, REFRESH_TOKEN)
    assert reopened == clear


def test_tokens_are_sealed_and_a_key_is_rotated_by_sealing_again(store_url):
    old, new = Sealer.new_key(), Sealer.new_key()
    db = Database(store_url)
    try:
        Installations(CLIENT_ID, db, Sealer([old])).writes.save(_installation("TA"))
        sealed_with_old = _stored(db)
        both = Installations(CLIENT_ID, db, Sealer([new, old]))
        before = both.latest_of_team("TA")
        resealed = both.reseal()
        after = Installations(CLIENT_ID, db, Sealer([new])).latest_of_team("TA")
        with pytest.raises(SealBroken) as broken:
            Installations(CLIENT_ID, db, Sealer([old])).latest_of_team("TA")
    finally:
        db.dispose()
    assert all(ROTATING_TOKEN not in value and REFRESH_TOKEN not in value for value in sealed_with_old)
    assert before is not None and before.bot_token == ROTATING_TOKEN
    assert resealed == 2  # the installation row and its bot row
    assert after is not None and (after.bot_token, after.bot_refresh_token) == (ROTATING_TOKEN, REFRESH_TOKEN)
    assert f"does not open with the keys of {KEYS_ENV}" in str(broken.value)


def test_db_upgrade_without_keys_says_so_in_one_line(tmp_path, monkeypatch, capsys):
    url = f"sqlite:///{tmp_path / 'engine.sqlite3'}"
    db = Database(url)
    upgrade(db, "0005")
    SQLAlchemyInstallationStore(CLIENT_ID, db.engine).save(_installation("TA"))
    db.dispose()
    monkeypatch.delenv(KEYS_ENV)
    monkeypatch.setenv("DATABASE_URL", url)
    assert main(["db", "upgrade"]) == 1
    assert capsys.readouterr().err.strip().splitlines() == [
        f"{url}: not upgraded: revision 0006 seals the Slack tokens stored in clear (2 row(s)): set {KEYS_ENV} "
        "to a key (make one: genie-bot installations new-key)"]
    assert main(["installations", "new-key"]) == 0
    Sealer([capsys.readouterr().out.strip()])  # a key that seals


def test_installations_reseal_seals_every_token_with_the_new_key(tmp_path, store_url, slack, monkeypatch, capsys,
                                                                  secret_keys):
    path = genie_yaml(tmp_path, store_url, slack)
    db = Database(store_url)
    try:
        Installations(CLIENT_ID, db, Sealer([secret_keys])).writes.save(_installation("TA"))
        new = Sealer.new_key()
        monkeypatch.setenv(KEYS_ENV, f"{new},{secret_keys}")
        assert main(["installations", "reseal", "--config", str(path)]) == 0
        opened = Installations(CLIENT_ID, db, Sealer([new])).latest_of_team("TA")
        monkeypatch.setenv(KEYS_ENV, secret_keys)  # the new key dropped too soon
        assert main(["installations", "reseal", "--config", str(path)]) == 1
    finally:
        db.dispose()
    out, err = capsys.readouterr()
    assert out == "2 installation row(s) sealed again with the first key of GENIE_SECRET_KEYS\n"
    assert opened is not None and opened.bot_token == ROTATING_TOKEN
    assert err.strip() == (f"a secret in the database does not open with the keys of {KEYS_ENV} (sealed with a key no "
                           "longer listed, or altered); nothing was sealed again")
