"""Knowledge databases for the tests of importing and matching: each test on SQLite and on PostgreSQL."""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

import pytest

from genie_bot.knowledge import KnowledgeDatabase
from tests.engine.conftest import postgres_schema

__all__ = ["closing", "postgres_schema"]


@contextmanager
def closing(database: KnowledgeDatabase) -> Iterator[KnowledgeDatabase]:
    try:
        yield database
    finally:
        database.dispose()


@pytest.fixture(params=["sqlite", pytest.param("postgres", marks=pytest.mark.postgres)])
def knowledge_url(request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[str]:
    """An empty knowledge database: a SQLite file, or a PostgreSQL schema of its own."""
    if request.param == "sqlite":
        yield f"sqlite:///{tmp_path / 'knowledge.sqlite3'}"
        return
    with postgres_schema(request.getfixturevalue("postgres_url")) as url:
        yield url


@pytest.fixture
def database(knowledge_url: str) -> Iterator[KnowledgeDatabase]:
    with closing(KnowledgeDatabase(knowledge_url)) as database:
        yield database
