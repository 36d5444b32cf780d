"""Engine tables: sessions, events (inbox and processed ids), turn traces, pending actions.

Revision ID: 0001
Revises:
Create Date: 2026-11-21
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0001"
down_revision = None
branch_labels = None
depends_on = None

KEY = sa.String(512)
USER = sa.String(128)


def upgrade() -> None:
    op.create_table(
        "genie_sessions",
        sa.Column("key", KEY, primary_key=True),
        sa.Column("platform", sa.String(32), nullable=False),
        sa.Column("workspace", sa.String(128), nullable=False),
        sa.Column("channel", sa.String(128), nullable=False),
        sa.Column("thread", sa.String(128), nullable=False),
        sa.Column("agent", sa.String(128), nullable=False),
        sa.Column("spec_version", sa.String(64)),
        sa.Column("owner", USER),
        sa.Column("state", sa.Text),
        sa.Column("status", sa.String(16), nullable=False),
        sa.Column("turns", sa.Integer, nullable=False),
        sa.Column("last_sequence", sa.BigInteger),
        sa.Column("lease_owner", sa.String(200)),
        sa.Column("lease_until", sa.DateTime),
        sa.Column("reminded_at", sa.DateTime),
        sa.Column("created_at", sa.DateTime, nullable=False),
        sa.Column("updated_at", sa.DateTime, nullable=False),
    )
    op.create_index("ix_genie_sessions_updated_at", "genie_sessions", ["updated_at"])
    op.create_index("ix_genie_sessions_lease_owner", "genie_sessions", ["lease_owner"])

    op.create_table(
        "genie_events",
        sa.Column("platform", sa.String(32), primary_key=True),
        sa.Column("event_id", sa.String(200), primary_key=True),
        sa.Column("session_key", KEY, nullable=False),
        sa.Column("kind", sa.String(16), nullable=False),
        sa.Column("user_id", USER, nullable=False),
        sa.Column("text", sa.Text),
        sa.Column("action_id", sa.String(64)),
        sa.Column("decision", sa.String(16)),
        sa.Column("sequence", sa.BigInteger, nullable=False),
        sa.Column("status", sa.String(16), nullable=False),
        sa.Column("attempts", sa.Integer, nullable=False),
        sa.Column("accepted_by", sa.String(200), nullable=False),
        sa.Column("reply", sa.Text),
        sa.Column("received_at", sa.DateTime, nullable=False),
        sa.Column("done_at", sa.DateTime),
    )
    op.create_index("ix_genie_events_session_status", "genie_events", ["session_key", "status", "sequence"])
    op.create_index("ix_genie_events_received_at", "genie_events", ["received_at"])

    op.create_table(
        "genie_turns",
        sa.Column("id", sa.BigInteger().with_variant(sa.Integer, "sqlite"), primary_key=True, autoincrement=True),
        sa.Column("session_key", KEY, nullable=False),
        sa.Column("turn", sa.Integer),
        sa.Column("event_id", sa.String(200)),
        sa.Column("kind", sa.String(16), nullable=False),
        sa.Column("user_id", USER),
        sa.Column("agent", sa.String(128)),
        sa.Column("spec_version", sa.String(64)),
        sa.Column("outcome", sa.String(16), nullable=False),
        sa.Column("message", sa.Text),
        sa.Column("statements", sa.Text),
        sa.Column("parse_source", sa.String(32)),
        sa.Column("acts", sa.Text),
        sa.Column("reply", sa.Text),
        sa.Column("pending_action_id", sa.String(32)),
        sa.Column("latencies", sa.Text),
        sa.Column("llm_calls", sa.Integer, nullable=False),
        sa.Column("prompt_tokens", sa.Integer, nullable=False),
        sa.Column("completion_tokens", sa.Integer, nullable=False),
        sa.Column("errors", sa.Text),
        sa.Column("created_at", sa.DateTime, nullable=False),
    )
    op.create_index("ix_genie_turns_created_at", "genie_turns", ["created_at"])
    op.create_index("ix_genie_turns_session", "genie_turns", ["session_key", "id"])

    op.create_table(
        "genie_pending_actions",
        sa.Column("id", sa.String(32), primary_key=True),
        sa.Column("session_key", KEY, nullable=False),
        sa.Column("instance", sa.String(128), nullable=False),
        sa.Column("worksheet", sa.String(128), nullable=False),
        sa.Column("api", sa.String(128)),
        sa.Column("summary", sa.Text, nullable=False),
        sa.Column("args", sa.Text),
        sa.Column("api_fingerprint", sa.String(64), nullable=False),
        sa.Column("spec_version", sa.String(64), nullable=False),
        sa.Column("owner", USER),
        sa.Column("destructive", sa.Boolean, nullable=False),
        sa.Column("status", sa.String(16), nullable=False),
        sa.Column("reason", sa.Text),
        sa.Column("result", sa.Text),
        sa.Column("executed_by", sa.String(200)),
        sa.Column("created_at", sa.DateTime, nullable=False),
        sa.Column("expires_at", sa.DateTime, nullable=False),
        sa.Column("updated_at", sa.DateTime, nullable=False),
    )
    op.create_index("ix_genie_pending_session_status", "genie_pending_actions", ["session_key", "status"])
    op.create_index("ix_genie_pending_status_expires", "genie_pending_actions", ["status", "expires_at"])


def downgrade() -> None:
    for table in ("genie_pending_actions", "genie_turns", "genie_events", "genie_sessions"):
        op.drop_table(table)
