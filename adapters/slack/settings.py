"""``platforms.slack`` of genie.yaml, checked once at start so a bad deployment fails with a clear message."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, fields
from typing import Any

from genie_bot.settings_reader import SettingsInvalid, SettingsReader

SLACK_API = "https://slack.com/api/"


class SlackSettingsInvalid(SettingsInvalid):
    """``platforms.slack`` has problems; ``errors`` lists every one (``file:line:col`` when read from genie.yaml)."""


@dataclass(frozen=True)
class SlackSettings:
    bot_token: str
    """``xoxb-...`` (SLACK_BOT_TOKEN): every Web API call."""
    app_token: str | None = None
    """``xapp-...`` with ``connections:write`` (SLACK_APP_TOKEN): Socket Mode."""
    signing_secret: str | None = None
    """SLACK_SIGNING_SECRET: verifies HTTP requests."""
    mode: str = "http"
    """``socket`` or ``http``; when not set, Socket Mode if an app token is given, else HTTP."""
    host: str = "0.0.0.0"
    port: int = 3000
    path: str = "/slack/events"
    """HTTP mode: the Request URL path of events, interactivity and the slash command."""
    command: str = "/genie"
    ignore_bots: bool = True
    """Ignore messages posted by other bots and apps (the bot's own are always ignored)."""
    workspace_admins: bool = False
    """Slack workspace admins and owners may use the admin-only ``/genie`` subcommands (needs ``users:read``)."""
    shutdown_grace_seconds: float = 10.0
    """On stop, how long turns already acknowledged may take to post their replies."""
    api_base_url: str = SLACK_API
    """The Web API (e.g. ``https://slack-gov.com/api/`` for GovSlack; a local fake in tests)."""

    @classmethod
    def from_mapping(cls, raw: Mapping[str, Any]) -> "SlackSettings":
        """Settings from ``platforms.slack``; raises :class:`SlackSettingsInvalid` listing every problem."""
        reader = SettingsReader(raw, "platforms.slack")
        reader.check_keys(f.name for f in fields(cls))
        bot_token, app_token = reader.text("bot_token"), reader.text("app_token")
        signing_secret = reader.text("signing_secret")
        mode = reader.choice("mode", ("socket", "http"), "socket" if app_token else "http")
        settings = reader.fields(cls, bot_token=bot_token or "", app_token=app_token, signing_secret=signing_secret,
                                 mode=mode)
        if not bot_token:
            reader.problem("bot_token", "'bot_token' is required (or set SLACK_BOT_TOKEN)")
        if mode == "socket" and not app_token:
            reader.problem("mode", "Socket Mode needs 'app_token' (or set SLACK_APP_TOKEN)")
        elif mode == "http" and not signing_secret:
            reader.problem(None, "HTTP mode needs 'signing_secret' (or set SLACK_SIGNING_SECRET), "
                                 "or give an 'app_token' for Socket Mode")
        reader.check(SlackSettingsInvalid)
        return settings
