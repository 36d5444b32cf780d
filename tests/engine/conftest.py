"""Fixtures of the engine tests: a store per test (SQLite file, or a fresh PostgreSQL schema)."""

from __future__ import annotations

import uuid
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

import pytest
from sqlalchemy import create_engine, text

from .support import prepare_database, write_shop

REPO = Path(__file__).resolve().parents[2]


def postgres_schema_url(base_url: str, schema: str) -> str:
    url = base_url.replace("postgresql://", "postgresql+psycopg://", 1)
    return f"{url}{'&' if '?' in url else '?'}options=-csearch_path%3D{schema}"


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


@pytest.fixture
def pg_url(postgres_url: str):
    """A PostgreSQL URL whose tables live in a schema of their own, dropped after the test."""
    with postgres_schema(postgres_url) as url:
        yield url


@pytest.fixture(params=["sqlite", pytest.param("postgres", marks=pytest.mark.postgres)])
def store_url(request, tmp_path: Path) -> str:
    """The engine's database, migrated: each test runs on SQLite and on PostgreSQL."""
    url = f"sqlite:///{tmp_path / 'engine.sqlite3'}" if request.param == "sqlite" else request.getfixturevalue("pg_url")
    prepare_database(url)
    return url


@pytest.fixture
def shop(tmp_path: Path) -> Path:
    return write_shop(tmp_path / "shop")
