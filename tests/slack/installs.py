"""One deployment installed into several workspaces with "Add to Slack": its configuration and what
its database holds of each workspace."""

from __future__ import annotations

import datetime as dt
from pathlib import Path
from typing import Any

from sqlalchemy import select
from sqlalchemy import text as sql_text

from genie_bot.config import AgentConfig, Config, SchedulerSettings
from genie_bot.store import schema
from genie_bot.workspaces import PlatformWorkspaces, WorkspaceSettings
from tests.fakes.slack_api import MockSlackWebAPI
from tests.fakes.slack_oauth import CLIENT_ID, CLIENT_SECRET

from .harness import SECRET, SlackHarness

BOB = ["order_0.dish = 'Pasta'", "order_0.count = 1", "order_0.name = 'Bob'"]
"""An order of workspace B, which gets the deli agent (the shop's worksheet under another name)."""
SAME_TS = "1690000000.000100"
"""Both workspaces' conversations start at this ts, in channel C1 of each."""


def oauth_settings(slack: MockSlackWebAPI, **oauth: Any) -> dict[str, Any]:
    """``platforms.slack`` for "Add to Slack" on a free loopback port, with the mock as Slack."""
    return {"signing_secret": SECRET, "host": "127.0.0.1", "port": 0, "api_base_url": slack.base_url,
            "shutdown_grace_seconds": 5,
            "oauth": {"client_id": CLIENT_ID, "client_secret": CLIENT_SECRET,
                      "authorization_url": slack.authorize_url, **oauth}}


def two_workspaces(url: str, shop: Path, deli: Path, slack: dict[str, Any], **settings: Any) -> Config:
    """Workspace TA gets the shop, TB the deli; any other workspace is refused."""
    workspaces = PlatformWorkspaces({"TA": WorkspaceSettings(agents=frozenset({"shop"}), default_agent="shop",
                                                             admins=frozenset({"UADMIN_A"})),
                                     "TB": WorkspaceSettings(agents=frozenset({"deli"}), default_agent="deli")},
                                    fallback=None)
    return Config(agents={"shop": AgentConfig("shop", shop), "deli": AgentConfig("deli", deli)}, default_agent="shop",
                  database_url=url, platforms={"slack": slack}, workspaces={"slack": workspaces},
                  scheduler=SchedulerSettings(enabled=False), **settings)


async def rows(h: SlackHarness, query: str) -> list[tuple]:
    def read() -> list[tuple]:
        with h.engine.db.read() as conn:
            return [tuple(row) for row in conn.execute(sql_text(query))]
    return await h.engine.in_db(read)


async def sessions_of(h: SlackHarness) -> dict[tuple[str, str, str], str]:
    """(workspace, channel, thread) -> agent, of every session."""
    found = await rows(h, "SELECT workspace, channel, thread, agent FROM genie_sessions")
    return {(workspace, channel, thread): agent for workspace, channel, thread, agent in found}


async def bot_tokens(h: SlackHarness) -> list[tuple[str, str | None, dt.datetime | None]]:
    """(bot token, refresh token, when the token expires) of every installation, as the installation
    store reads them (opened)."""
    def read() -> list[tuple[str, str | None, dt.datetime | None]]:
        table = h.adapter.installs.installations.reads.installations
        with h.engine.db.read() as conn:
            return [tuple(row) for row in conn.execute(select(table.c.bot_token, table.c.bot_refresh_token,
                                                              table.c.bot_token_expires_at))]
    return await h.engine.in_db(read)


async def stored_tokens(h: SlackHarness) -> list[str]:
    """Every token column of every installation and bot row, as the database holds it."""
    def read() -> list[str]:
        with h.engine.db.read() as conn:
            return [value for table in (schema.slack_installations, schema.slack_bots)
                    for row in conn.execute(select(*(c for c in table.c if c.name in schema.SEALED_TOKENS)))
                    for value in row if value is not None]
    return await h.engine.in_db(read)


async def installed_teams(h: SlackHarness) -> list[str]:
    return sorted(team for (team,) in await rows(h, "SELECT team_id FROM slack_installations"))
