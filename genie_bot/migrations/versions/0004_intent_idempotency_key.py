"""The idempotency key of a pending action belongs to the confirmed intent: a task confirmed
again after an attempt whose outcome is unknown reuses the key of that attempt.

Revision ID: 0004
Revises: 0003
Create Date: 2026-11-21
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0004"
down_revision = "0003"
branch_labels = None
depends_on = None


def upgrade() -> None:
    with op.batch_alter_table("genie_pending_actions") as batch:
        batch.add_column(sa.Column("idempotency_key", sa.String(32)))
    op.execute("UPDATE genie_pending_actions SET idempotency_key = id")


def downgrade() -> None:
    with op.batch_alter_table("genie_pending_actions") as batch:
        batch.drop_column("idempotency_key")
