"""The engine's persistence: SQLite (default) or PostgreSQL through SQLAlchemy Core, Alembic migrations.

Modules hold the queries of one table each; the engine composes them into transactions.
"""

from .database import Database, DriverMissing
from .migrations import SchemaOutdated, check_schema, current_revision, head_revision, upgrade

__all__ = ["Database", "DriverMissing", "SchemaOutdated", "check_schema", "current_revision", "head_revision", "upgrade"]
