"""Knowledge databases for the tests of importing and matching: each test on SQLite and on PostgreSQL."""

from __future__ import annotations

from pathlib import Path

import pytest

from genie_bot.knowledge import KnowledgeDatabase
from tests.engine.conftest import pg_url  # noqa: F401 - a fixture of these tests too

__all__ = ["pg_url"]


@pytest.fixture(params=["sqlite", pytest.param("postgres", marks=pytest.mark.postgres)])
def knowledge_url(request: pytest.FixtureRequest, tmp_path: Path) -> str:
    """An empty knowledge database: a SQLite file, or a PostgreSQL schema of its own."""
    return f"sqlite:///{tmp_path / 'knowledge.sqlite3'}" if request.param == "sqlite" else request.getfixturevalue("pg_url")


@pytest.fixture
def database(knowledge_url: str):
    database = KnowledgeDatabase(knowledge_url)
    yield database
    database.dispose()
