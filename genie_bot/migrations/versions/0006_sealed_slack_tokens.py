"""Slack's tokens sealed at rest, and OAuth states kept only once used.

The bot and refresh tokens (and the user tokens slack_sdk's tables have room for) of every
installation are sealed with ``GENIE_SECRET_KEYS`` (:mod:`genie_bot.store.sealing`); their
columns widen to hold the sealed text. Upgrading a database that holds tokens needs the keys
(the revision stops, changing nothing, without them); a database without installations needs
none. Downgrading opens them again, with the same keys.

``slack_oauth_states`` no longer holds the states the install page issues (they are signed,
see genie_bot.adapters.slack.installations), only those already used, once each: a unique
index. States issued before the upgrade are dropped; an install under way then starts over.

Revision ID: 0006
Revises: 0005
Create Date: 2026-12-04
"""

from __future__ import annotations

from collections.abc import Callable

import sqlalchemy as sa
from alembic import op

from genie_bot.store.sealing import Sealer

revision = "0006"
down_revision = "0005"
branch_labels = None
depends_on = None

TOKENS = {"slack_installations": ("bot_token", "bot_refresh_token", "user_token", "user_refresh_token"),
          "slack_bots": ("bot_token", "bot_refresh_token")}
CLEAR, SEALED = sa.String(200), sa.String(1000)


def upgrade() -> None:
    sealer = _sealer_if_needed("revision 0006 seals the Slack tokens stored in clear")
    _retype(CLEAR, SEALED)
    if sealer is not None:
        _rewrite(sealer.seal)
    op.execute(sa.text("DELETE FROM slack_oauth_states"))
    op.create_index("ux_slack_oauth_states_state", "slack_oauth_states", ["state"], unique=True)


def downgrade() -> None:
    op.drop_index("ux_slack_oauth_states_state", table_name="slack_oauth_states")
    sealer = _sealer_if_needed("revision 0006 is downgraded by opening the sealed Slack tokens")
    if sealer is not None:
        _rewrite(sealer.open)
    _retype(SEALED, CLEAR)


def _sealer_if_needed(why: str) -> Sealer | None:
    """The keys' sealer when some token is stored (raises, naming the variable, without keys); else None."""
    conn = op.get_bind()
    stored = sum(conn.execute(sa.select(sa.func.count()).select_from(sa.table(name)).where(
        sa.or_(*(sa.column(c).is_not(None) for c in columns)))).scalar_one() for name, columns in TOKENS.items())
    return Sealer.from_environment(f"{why} ({stored} row(s))") if stored else None


def _retype(before: sa.String, after: sa.String) -> None:
    for name, columns in TOKENS.items():
        with op.batch_alter_table(name) as batch:
            for column in columns:
                batch.alter_column(column, type_=after, existing_type=before)


def _rewrite(change: Callable[[str], str]) -> None:
    """Every stored token through ``change`` (seal or open), row by row."""
    conn = op.get_bind()
    for name, columns in TOKENS.items():
        table = sa.table(name, sa.column("id"), *(sa.column(c) for c in columns))
        for row in conn.execute(sa.select(table)).mappings().all():
            values = {c: change(row[c]) for c in columns if row[c] is not None}
            if values:
                conn.execute(table.update().where(table.c.id == row["id"]).values(**values))
