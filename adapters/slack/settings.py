"""``platforms.slack`` of genie.yaml, checked once at start so a bad deployment fails with a clear message."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, fields
from typing import Any

from genie_bot.settings_reader import SettingsInvalid, SettingsReader

SLACK_API = "https://slack.com/api/"
SLACK_AUTHORIZE = "https://slack.com/oauth/v2/authorize"
BOT_SCOPES = ("app_mentions:read", "channels:history", "groups:history", "im:history", "chat:write", "commands",
              "users:read")
"""What the adapter uses (deploy/slack/manifest*.yaml ask for exactly these): the default scopes of "Add to Slack"."""
UNINSTALLED_SESSIONS = ("keep", "purge")


class SlackSettingsInvalid(SettingsInvalid):
    """``platforms.slack`` has problems; ``errors`` lists every one (``file:line:col`` when read from genie.yaml)."""


@dataclass(frozen=True)
class SlackOAuthSettings:
    """``platforms.slack.oauth``: "Add to Slack", one deployment installed into many workspaces."""

    client_id: str
    """Basic Information → App Credentials (SLACK_CLIENT_ID)."""
    client_secret: str
    """SLACK_CLIENT_SECRET."""
    scopes: tuple[str, ...] = BOT_SCOPES
    redirect_uri: str | None = None
    """The public URL of ``redirect_uri_path`` (one of the app's Redirect URLs); None: the app's only one."""
    install_path: str = "/slack/install"
    """The "Add to Slack" page, served beside the events."""
    redirect_uri_path: str = "/slack/oauth_redirect"
    success_url: str | None = None
    """Where an installer goes once installed; None: a page that opens the app in Slack."""
    failure_url: str | None = None
    """Where an installer goes when the install failed or was refused; None: a page that says why."""
    state_expiration_seconds: int = 600
    """How long an install may take from the install page to the redirect."""
    token_rotation_minutes: int = 120
    """With token rotation on, a workspace's bot token is refreshed this long before it expires."""
    uninstalled_sessions: str = "keep"
    """What becomes of a workspace's sessions when it uninstalls the app: ``keep`` them (until
    ``scheduler.retention_days`` and idle closing take them as for anyone), or ``purge`` them at once."""
    authorization_url: str = SLACK_AUTHORIZE
    """Slack's authorize page (e.g. ``https://slack-gov.com/oauth/v2/authorize`` for GovSlack)."""

    @classmethod
    def read(cls, reader: SettingsReader) -> "SlackOAuthSettings":
        reader.check_keys(f.name for f in fields(cls))
        client_id, client_secret = reader.text("client_id"), reader.text("client_secret")
        for key, value, variable in (("client_id", client_id, "SLACK_CLIENT_ID"),
                                     ("client_secret", client_secret, "SLACK_CLIENT_SECRET")):
            if not value:
                reader.problem(key, f"'{key}' is required (or set {variable})")
        scopes = reader.data.get("scopes", list(BOT_SCOPES))
        if not (isinstance(scopes, list) and scopes and all(isinstance(s, str) for s in scopes)):
            reader.problem("scopes", "'scopes' must be a list of Slack scopes, e.g. [chat:write, commands]")
            scopes = list(BOT_SCOPES)
        for key in ("install_path", "redirect_uri_path"):
            if not str(reader.data.get(key, "/")).startswith("/"):
                reader.problem(key, f"'{key}' must be a path starting with /")
        return reader.fields(cls, client_id=client_id or "", client_secret=client_secret or "", scopes=tuple(scopes),
                             uninstalled_sessions=reader.choice("uninstalled_sessions", UNINSTALLED_SESSIONS, "keep"))


@dataclass(frozen=True)
class SlackSettings:
    bot_token: str | None = None
    """``xoxb-...`` (SLACK_BOT_TOKEN): every Web API call in the one workspace it was installed in;
    not used with ``oauth``, where each workspace's token comes from its installation."""
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
    oauth: SlackOAuthSettings | None = None
    """"Add to Slack" (HTTP mode): installs into many workspaces instead of one ``bot_token``."""

    @classmethod
    def from_mapping(cls, raw: Mapping[str, Any]) -> "SlackSettings":
        """Settings from ``platforms.slack``; raises :class:`SlackSettingsInvalid` listing every problem."""
        reader = SettingsReader(raw, "platforms.slack")
        reader.check_keys(f.name for f in fields(cls))
        bot_token, app_token = reader.text("bot_token"), reader.text("app_token")
        signing_secret = reader.text("signing_secret")
        oauth = SlackOAuthSettings.read(reader.section("oauth")) if raw.get("oauth") is not None else None
        mode = reader.choice("mode", ("socket", "http"), "socket" if app_token and not oauth else "http")
        settings = reader.fields(cls, bot_token=bot_token, app_token=app_token, signing_secret=signing_secret,
                                 mode=mode, oauth=oauth)
        if oauth is not None and bot_token:
            reader.problem("bot_token", "'bot_token' is not used with 'oauth': each workspace's token comes from "
                                        "its installation (remove it, or unset SLACK_BOT_TOKEN)")
        elif oauth is None and not bot_token:
            reader.problem("bot_token", "'bot_token' is required (or set SLACK_BOT_TOKEN), "
                                        "or an 'oauth' section for \"Add to Slack\"")
        if oauth is not None and mode == "socket":
            reader.problem("mode", "'oauth' needs HTTP mode: Slack redirects installers to this server")
        elif mode == "socket" and not app_token:
            reader.problem("mode", "Socket Mode needs 'app_token' (or set SLACK_APP_TOKEN)")
        if mode == "http" and not signing_secret:
            reader.problem(None, "HTTP mode needs 'signing_secret' (or set SLACK_SIGNING_SECRET)"
                                 + ("" if oauth else ", or give an 'app_token' for Socket Mode"))
        reader.check(SlackSettingsInvalid)
        return settings
