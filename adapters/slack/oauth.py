""""Add to Slack": Bolt's OAuth flow served beside the events, installations in the engine's database.

``GET <install_path>`` (default ``/slack/install``) is the install page: its "Add to Slack"
button leads to Slack, where a member of a workspace approves the app, and Slack sends them
back to ``GET <redirect_uri_path>`` with a code and the ``state`` the install page issued
(signed, :class:`.installations.OAuthStates`, and in a ``SameSite=Lax`` cookie of the installer's browser).
Bolt checks both, so a forged redirect or one replayed after its install finished is refused, exchanges the code for
the workspace's bot token (``oauth.v2.access``) and stores the installation. Before it is
stored, genie.yaml has its say: a workspace the ``workspaces`` settings refuse, or an
installation across a whole Enterprise Grid organisation (not supported: install into each
workspace), is uninstalled again at once (``apps.uninstall``) and the installer told why.

Every request from Slack is then authorized with its workspace's installation
(:class:`InstallationAuthorize`), and a workspace that uninstalls the app (``app_uninstalled``,
or ``tokens_revoked`` for the bot) has its installation deleted and, with
``uninstalled_sessions: purge``, its sessions erased.
"""

from __future__ import annotations

import html
import logging
from collections.abc import Awaitable, Callable
from typing import Any

from slack_bolt.authorization import AuthorizeResult
from slack_bolt.authorization.async_authorize import AsyncAuthorize
from slack_bolt.context.async_context import AsyncBoltContext
from slack_bolt.error import BoltError
from slack_bolt.oauth.async_callback_options import AsyncFailureArgs
from slack_bolt.oauth.async_oauth_flow import AsyncOAuthFlow
from slack_bolt.oauth.async_oauth_settings import AsyncOAuthSettings
from slack_bolt.request.async_request import AsyncBoltRequest
from slack_bolt.response import BoltResponse
from slack_sdk.errors import SlackApiError
from slack_sdk.oauth.installation_store import Installation
from slack_sdk.web.async_client import AsyncWebClient

from genie_bot.errors import GenieError
from genie_bot.store import Database
from genie_bot.store.sealing import Sealer

from .installations import Installations, OAuthStates
from .settings import SlackOAuthSettings
from .workspaces import InstalledWorkspaces, NotInstalled

log = logging.getLogger(__name__)

NOT_SERVED = "Sorry, Genie is not available in this workspace. Ask the people who run it."
ORG_WIDE = ("installing across a whole Enterprise Grid organisation is not supported: install the app into "
            "each workspace instead")
Serves = Callable[[str], bool]
"""Whether genie.yaml's ``workspaces`` let a Slack team in."""


class InstallRefused(GenieError, BoltError):
    """An installation genie.yaml does not allow (the app was uninstalled again)."""


class InstallFlow(AsyncOAuthFlow):
    """Bolt's OAuth flow, refusing the installations genie.yaml does not allow."""

    def __init__(self, *, serves: Serves, client: AsyncWebClient, settings: AsyncOAuthSettings):
        super().__init__(client=client, settings=settings)
        self.serves = serves
        self.failure_handler = _failed

    async def store_installation(self, request: AsyncBoltRequest, installation: Installation) -> None:
        refusal = self.refusal(installation)
        if refusal is not None:
            log.warning("refused the installation into Slack workspace %s (%s) by %s: %s", installation.team_id,
                        installation.team_name, installation.user_id, refusal)
            await self._uninstall(installation)
            raise InstallRefused(refusal)
        await super().store_installation(request, installation)
        log.info("installed into Slack workspace %s (%s) by %s", installation.team_id, installation.team_name,
                 installation.user_id)

    def refusal(self, installation: Installation) -> str | None:
        """Why ``installation`` is refused, or None."""
        if installation.is_enterprise_install or not installation.team_id:
            return ORG_WIDE
        if not self.serves(installation.team_id):
            return f"this deployment does not serve the workspace {installation.team_name or installation.team_id}"
        return None

    async def _uninstall(self, installation: Installation) -> None:
        try:
            await self.client.apps_uninstall(client_id=self.settings.client_id,
                                             client_secret=self.settings.client_secret, token=installation.bot_token)
        except SlackApiError as exc:
            log.warning("could not uninstall the refused installation from %s again: %s", installation.team_id,
                        exc.response.get("error"))


class InstallationAuthorize(AsyncAuthorize):
    """Every request from Slack runs with its workspace's installation (its bot token, refreshed when
    it expires); a workspace without one, or one genie.yaml no longer serves, gets nothing done."""

    def __init__(self, workspaces: InstalledWorkspaces, serves: Serves):
        super().__init__()
        self.workspaces = workspaces
        self.serves = serves

    async def __call__(self, *, context: AsyncBoltContext, enterprise_id: str | None, team_id: str | None,
                       user_id: str | None, **actor: Any) -> AuthorizeResult | None:
        if team_id is None:
            return None  # an organisation-wide installation, which is never stored
        if not self.serves(team_id):
            log.warning("ignored a request from Slack workspace %s: genie.yaml's workspaces do not serve it "
                        "(remove its installation: genie-bot installations remove %s)", team_id, team_id)
            return None
        try:
            workspace = await self.workspaces.get(team_id)
        except NotInstalled:
            log.warning("ignored a request from Slack workspace %s, where the app is not installed", team_id)
            return None
        return AuthorizeResult(enterprise_id=enterprise_id, team_id=team_id, bot_user_id=workspace.bot_user_id,
                               bot_id=workspace.bot_id, bot_token=workspace.client.token, user_id=user_id)


class Installs:
    """What "Add to Slack" adds to the Bolt app: its OAuth flow, authorization, and uninstalls."""

    def __init__(self, settings: SlackOAuthSettings, db: Database, sealer: Sealer, serves: Serves,
                 client: Callable[[str | None], AsyncWebClient], uninstalled: Callable[[str], Awaitable[None]]):
        """``uninstalled(team)`` runs once a workspace's installation is deleted (its sessions' fate)."""
        self.installations = Installations(settings.client_id, db, sealer)
        self.states = OAuthStates(db, settings.client_secret, settings.state_expiration_seconds)
        self.workspaces = InstalledWorkspaces(self.installations, settings, client)
        self.uninstalled = uninstalled
        oauth = AsyncOAuthSettings(
            client_id=settings.client_id, client_secret=settings.client_secret, scopes=list(settings.scopes),
            user_scopes=[], redirect_uri=settings.redirect_uri, install_path=settings.install_path,
            redirect_uri_path=settings.redirect_uri_path, success_url=settings.success_url,
            failure_url=settings.failure_url, authorization_url=settings.authorization_url,
            installation_store=self.installations, state_store=self.states,
            state_expiration_seconds=settings.state_expiration_seconds,
            token_rotation_expiration_minutes=settings.token_rotation_minutes, logger=log)
        self.flow = InstallFlow(serves=serves, client=client(None), settings=oauth)
        self.authorize = InstallationAuthorize(self.workspaces, serves)

    def app_options(self) -> dict[str, Any]:
        """The arguments of Bolt's ``AsyncApp`` for a multi-workspace app."""
        return {"oauth_flow": self.flow, "authorize": self.authorize, "installation_store": self.installations,
                "user_facing_authorize_error_message": NOT_SERVED}

    async def on_app_uninstalled(self, context: AsyncBoltContext) -> None:
        await self._forget(context.enterprise_id, context.team_id)

    async def on_tokens_revoked(self, event: dict[str, Any], context: AsyncBoltContext) -> None:
        """The bot's token revoked is the app gone from the workspace (no user tokens are ever kept)."""
        if (event.get("tokens") or {}).get("bot"):
            await self._forget(context.enterprise_id, context.team_id)

    async def _forget(self, enterprise_id: str | None, team_id: str | None) -> None:
        await self.installations.async_delete_all(enterprise_id=enterprise_id, team_id=team_id)
        log.info("Slack workspace %s uninstalled the app: its installation is deleted", team_id)
        if team_id is not None:
            await self.uninstalled(team_id)


async def _failed(args: AsyncFailureArgs) -> BoltResponse:
    """A refused installation says why (unless ``failure_url`` sends installers elsewhere); other
    failures get Bolt's page (or redirect), naming the reason."""
    if not isinstance(args.error, InstallRefused) or args.settings.failure_url:
        return await args.default.failure(args)
    page = (f"<html><head><title>Not installed</title></head><body><h2>Genie was not installed</h2>"
            f"<p>{html.escape(str(args.error))}.</p></body></html>")
    return BoltResponse(status=403, body=page, headers={"Content-Type": "text/html; charset=utf-8"})
