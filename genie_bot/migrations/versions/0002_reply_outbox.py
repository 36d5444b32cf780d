"""Reply outbox: when each event's reply was posted, so replies lost with a process are re-sent.

Events finished before this revision count as delivered, so an upgrade never re-sends history.

Revision ID: 0002
Revises: 0001
Create Date: 2026-11-21
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0002"
down_revision = "0001"
branch_labels = None
depends_on = None


def upgrade() -> None:
    with op.batch_alter_table("genie_events") as batch:
        batch.add_column(sa.Column("delivered_at", sa.DateTime()))
    op.create_index("ix_genie_events_undelivered", "genie_events", ["delivered_at", "status"])
    op.execute("UPDATE genie_events SET delivered_at = done_at WHERE status IN ('done', 'failed')")


def downgrade() -> None:
    op.drop_index("ix_genie_events_undelivered", table_name="genie_events")
    with op.batch_alter_table("genie_events") as batch:
        batch.drop_column("delivered_at")
