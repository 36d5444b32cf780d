"""The workspaces the bot is in: for each, the Web API client (its bot token) and the bot's user.

With one bot token (the default) there is one workspace, the token's, known at start
(``auth.test``). With "Add to Slack" (``platforms.slack.oauth``) every workspace has an
installation of its own, read from the installation store whenever the adapter calls Slack on
that workspace's behalf: replies posted long after an event, the engine's reminders, replies
posted again from the outbox. With token rotation on, a bot token that expires within
``token_rotation_minutes`` is refreshed first (slack_sdk's token rotator) and saved, one refresh
at a time per workspace in a process. A refresh token is good for one refresh: a process that
lost that race to another replica reads the token the winner saved. A workspace that
uninstalled the app has no installation: :class:`NotInstalled`.
"""

from __future__ import annotations

import asyncio
import logging
import time
from collections.abc import Callable
from dataclasses import dataclass
from typing import Protocol

from slack_sdk.errors import SlackTokenRotationError
from slack_sdk.oauth.installation_store import Installation
from slack_sdk.oauth.token_rotation.async_rotator import AsyncTokenRotator
from slack_sdk.web.async_client import AsyncWebClient

from genie_bot.errors import GenieError
from genie_bot.keyed_locks import KeyedLocks

from .installations import Installations
from .settings import SlackOAuthSettings

log = logging.getLogger(__name__)

ClientFactory = Callable[[str | None], AsyncWebClient]
"""A Web API client for a token (None: no token, e.g. for ``oauth.v2.access``)."""
ROTATION_RACE_WAITS = (0.1, 0.3, 1.0, 2.0)
"""When another process refreshed a workspace's token first: the waits before each look for the
token it saved."""
SPENT_REFRESH_TOKEN = frozenset({"invalid_refresh_token", "invalid_grant"})


class NotInstalled(GenieError):
    """The app is not (or no longer) installed in this workspace."""

    def __init__(self, team: str):
        super().__init__(f"the app is not installed in Slack workspace {team}")
        self.team = team


@dataclass(frozen=True)
class Workspace:
    team: str
    client: AsyncWebClient
    bot_user_id: str
    bot_id: str | None = None


class Workspaces(Protocol):
    async def get(self, team: str) -> Workspace:
        """The workspace ``team``; raises :class:`NotInstalled` if the app is not installed there."""


class OneWorkspace:
    """The one workspace of a bot token."""

    def __init__(self, client: AsyncWebClient):
        self.client = client
        self.workspace: Workspace | None = None

    async def connect(self) -> Workspace:
        """Check the token (``auth.test``) and learn its workspace and bot user."""
        identity = await self.client.auth_test()
        self.workspace = Workspace(identity["team_id"], self.client, identity["user_id"], identity.get("bot_id"))
        log.info("Slack: signed in as %s (%s) in team %s", identity["user"], identity["user_id"], identity["team_id"])
        return self.workspace

    async def get(self, team: str) -> Workspace:
        assert self.workspace is not None, "the adapter connects before anything is posted"
        return self.workspace


class InstalledWorkspaces:
    """Every workspace the app was installed in through "Add to Slack"."""

    def __init__(self, installations: Installations, settings: SlackOAuthSettings, client: ClientFactory):
        self.installations = installations
        self.client = client
        self.rotation_seconds = settings.token_rotation_minutes * 60
        self.rotator = AsyncTokenRotator(client_id=settings.client_id, client_secret=settings.client_secret,
                                         client=client(None))
        self._refreshing = KeyedLocks()

    async def get(self, team: str) -> Workspace:
        installation = await self._installation(team)
        if self._expiring(installation):
            async with self._refreshing.hold(team):
                installation = await self._refreshed(await self._installation(team))
        assert installation.bot_token is not None and installation.bot_user_id is not None
        return Workspace(team, self.client(installation.bot_token), installation.bot_user_id, installation.bot_id)

    async def _installation(self, team: str) -> Installation:
        installation = await self.installations.of_team(team)
        if installation is None or installation.bot_token is None:
            raise NotInstalled(team)
        return installation

    def _expiring(self, installation: Installation) -> bool:
        expires_at = installation.bot_token_expires_at
        return expires_at is not None and expires_at <= time.time() + self.rotation_seconds

    async def _refreshed(self, installation: Installation) -> Installation:
        """``installation`` with a fresh bot token if it is expiring (another task may have refreshed it
        while this one waited)."""
        if not self._expiring(installation):
            return installation
        try:
            refreshed = await self.rotator.perform_token_rotation(installation=installation,
                                                                  minutes_before_expiration=self.rotation_seconds // 60)
        except SlackTokenRotationError as exc:
            return await self._not_refreshed(installation, exc)
        if refreshed is None:
            return installation
        await self.installations.async_save(refreshed)
        log.info("refreshed the bot token of Slack workspace %s", installation.team_id)
        return refreshed

    async def _not_refreshed(self, installation: Installation, exc: SlackTokenRotationError) -> Installation:
        """After a failed refresh: the token another process refreshed meanwhile (its refresh used the
        refresh token up), else the current one while it has not expired; raises if it has."""
        team, error = installation.team_id or "", exc.api_error.response.get("error")
        waits = ROTATION_RACE_WAITS if error in SPENT_REFRESH_TOKEN else ()
        for wait in (0.0, *waits):
            await asyncio.sleep(wait)
            current = await self._installation(team)
            if current.bot_token != installation.bot_token:
                return current
        expires_at = installation.bot_token_expires_at or 0
        if expires_at > time.time():
            log.warning("could not refresh the bot token of Slack workspace %s (%s); using it until it expires in "
                        "%.0f min", team, error, (expires_at - time.time()) / 60)
            return installation
        raise exc
