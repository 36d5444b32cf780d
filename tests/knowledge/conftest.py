"""Knowledge databases for the tests of importing and matching: each test on SQLite and on PostgreSQL."""

from __future__ import annotations

import uuid
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

import pytest
from sqlalchemy import create_engine, text

from genie_bot.knowledge import KnowledgeDatabase
from tests.engine.conftest import postgres_schema_url


@contextmanager
def postgres_schema(postgres_url: str) -> Iterator[str]:
    """A PostgreSQL URL whose tables live in a schema of their own, dropped after."""
    schema = f"genie_test_{uuid.uuid4().hex[:12]}"
    admin = create_engine(postgres_url.replace("postgresql://", "postgresql+psycopg://", 1))
    with admin.begin() as conn:
        conn.execute(text(f"CREATE SCHEMA {schema}"))
    try:
        yield postgres_schema_url(postgres_url, schema)
    finally:
        with admin.begin() as conn:
            conn.execute(text(f"DROP SCHEMA {schema} CASCADE"))
        admin.dispose()


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
