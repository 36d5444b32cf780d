"""Fixtures of the Slack adapter tests: the mock Slack server, a migrated store, the shop agent."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest

from genie_bot.config import Config
from genie_bot.store.sealing import KEYS_ENV
from tests.engine.support import prepare_database, write_shop
from tests.fakes.slack_api import MockSlackWebAPI

from .harness import make_config, slack_settings


SECRET_KEY = "oxUqZ7QhBvVVwz8cx0W4m9W4Xg8vD0mLZ2Qp9Ra1HJk="
"""The key "Add to Slack" seals tokens with in these tests (a Fernet key)."""


@pytest.fixture(autouse=True)
def secret_keys(monkeypatch: pytest.MonkeyPatch) -> str:
    """``GENIE_SECRET_KEYS``, which a deployment with "Add to Slack" needs to start."""
    monkeypatch.setenv(KEYS_ENV, SECRET_KEY)
    return SECRET_KEY


@pytest.fixture
def slack() -> Iterator[MockSlackWebAPI]:
    with MockSlackWebAPI(admins={"UWSADMIN": True}) as mock:
        yield mock


@pytest.fixture
def store_url(tmp_path: Path) -> str:
    url = f"sqlite:///{tmp_path / 'engine.sqlite3'}"
    prepare_database(url)
    return url


@pytest.fixture
def shop(tmp_path: Path) -> Path:
    return write_shop(tmp_path / "shop")


@pytest.fixture
def shop_config(slack: MockSlackWebAPI, store_url: str, shop: Path):
    """``shop_config(**options)``: the shop agent served over HTTP; Slack settings by name, others to Config."""

    def make(slack_options: dict | None = None, **settings) -> Config:
        return make_config(store_url, shop, slack_settings(slack, **(slack_options or {})), **settings)

    return make
