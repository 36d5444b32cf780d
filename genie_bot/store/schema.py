"""The engine's tables (SQLAlchemy Core). Alembic migrations create them; this is their shape.

Timestamps are naive UTC. JSON documents (states, acts, values) are stored as text written by
the engine itself, so SQLite and PostgreSQL hold byte-identical documents.
"""

from __future__ import annotations

from slack_sdk.oauth.installation_store.sqlalchemy import SQLAlchemyInstallationStore
from slack_sdk.oauth.state_store.sqlalchemy import SQLAlchemyOAuthStateStore
from sqlalchemy import BigInteger, Boolean, Column, DateTime, Index, Integer, MetaData, String, Table, Text

metadata = MetaData()

KEY = String(512)
USER = String(128)

sessions = Table(
    "genie_sessions", metadata,
    Column("key", KEY, primary_key=True),
    Column("platform", String(32), nullable=False),
    Column("workspace", String(128), nullable=False),
    Column("channel", String(128), nullable=False),
    Column("thread", String(128), nullable=False),
    Column("agent", String(128), nullable=False),
    Column("spec_version", String(64)),
    Column("owner", USER),
    Column("state", Text),  # DialogueState JSON; NULL: no turn yet, or closed
    Column("status", String(16), nullable=False),  # active | closed
    Column("turns", Integer, nullable=False),
    Column("last_sequence", BigInteger),
    Column("lease_owner", String(200)),
    Column("lease_until", DateTime),
    Column("reminded_at", DateTime),
    Column("created_at", DateTime, nullable=False),
    Column("updated_at", DateTime, nullable=False),
    Index("ix_genie_sessions_updated_at", "updated_at"),
    Index("ix_genie_sessions_lease_owner", "lease_owner"),
)

events = Table(
    "genie_events", metadata,
    Column("platform", String(32), primary_key=True),
    Column("event_id", String(200), primary_key=True),
    Column("session_key", KEY, nullable=False),
    Column("kind", String(16), nullable=False),  # message | action
    Column("user_id", USER, nullable=False),
    Column("text", Text),
    Column("action_id", String(64)),
    Column("decision", String(16)),
    Column("sequence", BigInteger, nullable=False),
    Column("status", String(16), nullable=False),  # queued | running | done | failed
    Column("attempts", Integer, nullable=False),
    Column("accepted_by", String(200), nullable=False),  # the engine whose caller waits for the reply
    Column("reply", Text),  # JSON list of replies
    Column("received_at", DateTime, nullable=False),
    Column("done_at", DateTime),
    Column("delivered_at", DateTime),  # when the adapter posted the reply (outbox; see engine recovery)
    Index("ix_genie_events_session_status", "session_key", "status", "sequence"),
    Index("ix_genie_events_received_at", "received_at"),
    Index("ix_genie_events_undelivered", "delivered_at", "status"),
    Index("ix_genie_events_status", "status", "received_at"),
)

turns = Table(
    "genie_turns", metadata,
    Column("id", BigInteger().with_variant(Integer, "sqlite"), primary_key=True, autoincrement=True),
    Column("session_key", KEY, nullable=False),
    Column("turn", Integer),
    Column("event_id", String(200)),
    Column("kind", String(16), nullable=False),  # message | action | job
    Column("user_id", USER),
    Column("agent", String(128)),
    Column("spec_version", String(64)),
    Column("outcome", String(16), nullable=False),  # ok | refused | failed
    Column("message", Text),
    Column("statements", Text),
    Column("parse_source", String(32)),
    Column("acts", Text),  # JSON list of formal acts
    Column("reply", Text),
    Column("pending_action_id", String(32)),
    Column("latencies", Text),  # JSON {stage: ms}
    Column("llm_calls", Integer, nullable=False),
    Column("prompt_tokens", Integer, nullable=False),
    Column("completion_tokens", Integer, nullable=False),
    Column("errors", Text),  # JSON list
    Column("created_at", DateTime, nullable=False),
    Index("ix_genie_turns_created_at", "created_at"),
    Index("ix_genie_turns_session", "session_key", "id"),
)

pending_actions = Table(
    "genie_pending_actions", metadata,
    Column("id", String(32), primary_key=True),
    Column("session_key", KEY, nullable=False),
    Column("instance", String(128), nullable=False),
    Column("worksheet", String(128), nullable=False),
    Column("api", String(128)),
    Column("summary", Text, nullable=False),  # JSON: the values the user was shown
    Column("args", Text),  # JSON: the frozen arguments the API will receive; NULL if unknown
    Column("api_fingerprint", String(64), nullable=False),
    Column("spec_version", String(64), nullable=False),
    Column("owner", USER),
    Column("destructive", Boolean, nullable=False),
    Column("status", String(16), nullable=False),
    # pending -> executing -> done | failed; pending -> cancelled | expired | invalidated;
    # executing -> interrupted (the process died during the call; never retried)
    Column("reason", Text),
    Column("result", Text),
    Column("executed_by", String(200)),
    Column("idempotency_key", String(32)),  # what the API receives: shared by the attempts of one intent
    Column("created_at", DateTime, nullable=False),
    Column("expires_at", DateTime, nullable=False),
    Column("updated_at", DateTime, nullable=False),
    Index("ix_genie_pending_session_status", "session_key", "status"),
    Index("ix_genie_pending_status_expires", "status", "expires_at"),
)

engines = Table(
    "genie_engines", metadata,
    Column("id", String(200), primary_key=True),  # host:pid:nonce (engine.identity)
    Column("started_at", DateTime, nullable=False),
    Column("seen_at", DateTime, nullable=False),  # its last heartbeat
)

# Slack installations ("Add to Slack", revision 0005): the tables of slack_sdk's SQLAlchemy stores, in
# their shape, read and written by slack_sdk itself (see genie_bot.adapters.slack.installations),
# plus an index of ours, and (revision 0006) token columns wide enough for sealed tokens.
SEALED_TOKENS = ("bot_token", "bot_refresh_token", "user_token", "user_refresh_token")
"""The columns of Slack's tokens, each stored sealed (:mod:`.sealing`): only the installation store reads them."""
SEALED = String(1000)
"""A sealed token is base64 of its ciphertext, HMAC, IV and time: about 2.2 times the token's length and 120 more."""


def _sealed_tokens(table: Table) -> Table:
    for name in SEALED_TOKENS:
        if name in table.c:
            table.c[name].type = SEALED
    return table


slack_installations = _sealed_tokens(
    SQLAlchemyInstallationStore.build_installations_table(metadata, "slack_installations"))
Index("ix_slack_installations_team", slack_installations.c.client_id, slack_installations.c.team_id,
      slack_installations.c.installed_at)  # ours: the adapter finds a workspace's installation by team id alone
slack_bots = _sealed_tokens(SQLAlchemyInstallationStore.build_bots_table(metadata, "slack_bots"))
slack_oauth_states = SQLAlchemyOAuthStateStore.build_oauth_states_table(metadata, "slack_oauth_states")
Index("ux_slack_oauth_states_state", slack_oauth_states.c.state, unique=True)
"""Since revision 0006 a row is a state already used (states are signed, not stored when issued): once only."""
