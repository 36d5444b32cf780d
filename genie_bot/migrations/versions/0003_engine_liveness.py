"""Engine liveness: every process's last heartbeat, so replicas on other hosts can tell a dead one;
and an index for finding waiting events by status (what a dead process left).

Revision ID: 0003
Revises: 0002
Create Date: 2026-11-21
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0003"
down_revision = "0002"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "genie_engines",
        sa.Column("id", sa.String(200), primary_key=True),
        sa.Column("started_at", sa.DateTime(), nullable=False),
        sa.Column("seen_at", sa.DateTime(), nullable=False),
    )
    op.create_index("ix_genie_events_status", "genie_events", ["status", "received_at"])


def downgrade() -> None:
    op.drop_index("ix_genie_events_status", table_name="genie_events")
    op.drop_table("genie_engines")
