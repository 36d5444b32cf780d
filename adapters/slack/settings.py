"""``platforms.slack`` of genie.yaml, checked once at start so a bad deployment fails with a clear message."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, fields
from typing import Any, get_args, get_type_hints

from genie_bot.errors import GenieError
from genie_bot.names import closest

SLACK_API = "https://slack.com/api/"


class SlackSettingsInvalid(GenieError, ValueError):
    """``platforms.slack`` has problems; the message lists every one."""


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
        problems = []
        known = [f.name for f in fields(cls)]
        for key in raw:
            if key not in known:
                hint = closest(str(key), known)
                problems.append(f"unknown setting '{key}'" + (f" (did you mean '{hint}'?)" if hint else ""))
        values = {k: v for k, v in raw.items() if k in known and v is not None}
        hints = get_type_hints(cls)
        for name, value in values.items():
            kind = next(t for t in get_args(hints[name]) or (hints[name],) if t is not type(None))
            if not _is(value, kind):
                problems.append(f"'{name}' must be {kind.__name__}, not {value!r}")
        if not values.get("bot_token"):
            problems.append("'bot_token' is required (or set SLACK_BOT_TOKEN)")
        mode = values.setdefault("mode", "socket" if values.get("app_token") else "http")
        if mode not in ("socket", "http"):
            problems.append(f"'mode' must be socket or http, not {mode!r}")
        elif mode == "socket" and not values.get("app_token"):
            problems.append("Socket Mode needs 'app_token' (or set SLACK_APP_TOKEN)")
        elif mode == "http" and not values.get("signing_secret"):
            problems.append("HTTP mode needs 'signing_secret' (or set SLACK_SIGNING_SECRET), "
                            "or give an 'app_token' for Socket Mode")
        if problems:
            raise SlackSettingsInvalid("platforms.slack: " + "; ".join(problems))
        return cls(**values)


def _is(value: Any, kind: type) -> bool:
    if kind is float:
        return isinstance(value, (int, float)) and not isinstance(value, bool)
    if kind is int:
        return isinstance(value, int) and not isinstance(value, bool)
    return isinstance(value, kind)
