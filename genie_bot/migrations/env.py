"""Alembic environment of genie-bot's engine tables.

Normally driven by ``genie-bot db upgrade --config genie.yaml``, which passes an open
connection in ``config.attributes["connection"]``. Run directly (``alembic -c
genie_bot/migrations/alembic.ini ...``), it connects to ``$DATABASE_URL``.
"""

from __future__ import annotations

import os

from alembic import context
from sqlalchemy import create_engine

from genie_bot.store.schema import metadata

config = context.config


def _run(connection) -> None:
    context.configure(connection=connection, target_metadata=metadata,
                      render_as_batch=connection.dialect.name == "sqlite")
    with context.begin_transaction():
        context.run_migrations()


def run_migrations() -> None:
    connection = config.attributes.get("connection")
    if connection is not None:
        _run(connection)
        return
    url = os.environ.get("DATABASE_URL") or config.get_main_option("sqlalchemy.url")
    if not url:
        raise SystemExit("set DATABASE_URL, or use: genie-bot db upgrade --config genie.yaml")
    engine = create_engine(url, hide_parameters=True)
    with engine.connect() as conn:
        _run(conn)
        conn.commit()


if context.is_offline_mode():
    raise SystemExit("offline (--sql) migrations are not supported; run: genie-bot db upgrade --config genie.yaml")
run_migrations()
