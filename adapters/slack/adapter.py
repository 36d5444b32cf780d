"""The Slack adapter: the engine's side (start, stop, deliver) of a Bolt app and its receiver.

Its Web API clients retry a call Slack refused with HTTP 429, after as long as the answer's
``Retry-After`` says (slack_sdk's rate-limit retry handler), up to :data:`RATE_LIMIT_RETRIES`
times; replies that still could not be posted stay in the engine's outbox, which posts them
again later.

It serves one workspace with one bot token (the default), or, with ``platforms.slack.oauth``,
every workspace that installs the app through "Add to Slack" (:mod:`.oauth`), each with its own
token (:mod:`.workspaces`). What was meant for a workspace that has since uninstalled the app
(a reply still being written, a reminder, a reply in the outbox) is dropped with a log line.
"""

from __future__ import annotations

import asyncio
import logging
from functools import partial

import aiohttp
from slack_sdk.errors import SlackApiError
from slack_sdk.http_retry.builtin_async_handlers import (AsyncConnectionErrorRetryHandler,
                                                         AsyncRateLimitErrorRetryHandler)
from slack_sdk.web.async_client import AsyncWebClient

from genie_bot.adapters.base import AdapterStartFailed, unreachable
from genie_bot.engine import Engine, Notification
from genie_bot.store.sealing import Sealer

from .app import bolt_app
from .clicks import ClickTurns
from .commands import GenieCommand
from .edits import EditNotes
from .messages import MessageTurns
from .oauth import Installs
from .poster import Poster, unless_uninstalled
from .receivers import HttpReceiver, Receiver, SocketModeReceiver
from .sessions import PLATFORM, Place
from .settings import SlackSettings
from .tasks import Background, InOrder
from .threads import BotThreads
from .users import UserNames
from .workspaces import OneWorkspace, Workspaces

log = logging.getLogger(__name__)
RATE_LIMIT_RETRIES = 3
TOKENS_SEALED = "'oauth' keeps each workspace's Slack tokens sealed in the database"


class SlackAdapter:
    platform = PLATFORM
    acknowledges_delivery = True
    """It tells the engine when a turn's replies are posted (the engine's reply outbox)."""
    workspaces: Workspaces
    threads: BotThreads
    poster: Poster
    """Known once started."""

    def __init__(self, settings: SlackSettings):
        """Raises :class:`~genie_bot.store.sealing.KeysMissing` when "Add to Slack" has no keys to seal tokens with."""
        self.settings = settings
        self.sealer = None if settings.oauth is None else Sealer.from_environment(TOKENS_SEALED)
        self.tasks = Background()
        self.receiver: Receiver | None = None
        self.installs: Installs | None = None
        self.engine: Engine | None = None

    def client(self, token: str | None) -> AsyncWebClient:
        """A Web API client with ``token`` (None: a client's own credentials, as ``oauth.v2.access`` takes)."""
        return AsyncWebClient(token=token, base_url=self.settings.api_base_url, retry_handlers=[
            AsyncConnectionErrorRetryHandler(), AsyncRateLimitErrorRetryHandler(max_retry_count=RATE_LIMIT_RETRIES)])

    async def start(self, engine: Engine) -> None:
        self.engine = engine
        serves = partial(engine.config.serves, PLATFORM)
        if self.settings.oauth is not None:
            assert self.sealer is not None, "made with the settings"
            self.installs = Installs(self.settings.oauth, engine.db, self.sealer, serves, self.client,
                                     self._uninstalled)
            self.workspaces, app_client = self.installs.workspaces, self.client(None)
        else:
            one = OneWorkspace(self.client(self.settings.bot_token))
            try:
                workspace = await one.connect()  # also checks the bot token before anything listens
            except SlackApiError as exc:
                raise AdapterStartFailed(f"Slack refused the bot token ({exc.response.get('error')}): set "
                                         "SLACK_BOT_TOKEN (or platforms.slack.bot_token) to the app's Bot User OAuth "
                                         "Token, xoxb-...") from None
            except (aiohttp.ClientError, OSError, asyncio.TimeoutError) as exc:
                raise unreachable("Slack", self.settings.api_base_url, exc, "check the network (behind a proxy: "
                                  "HTTPS_PROXY) and platforms.slack.api_base_url") from None
            if not serves(workspace.team):
                raise RuntimeError(f"genie.yaml's workspaces.slack refuse the bot token's workspace {workspace.team}")
            self.workspaces, app_client = one, one.client
        self.threads = BotThreads(self.workspaces)
        self.poster = Poster(self.workspaces, self.threads)
        app = bolt_app(self.settings, app_client, self.tasks,
                       MessageTurns(engine, self.poster, InOrder(), self.threads, UserNames(self.workspaces)),
                       ClickTurns(engine, self.poster),
                       GenieCommand(engine, self.workspaces, self.settings.workspace_admins),
                       EditNotes(engine, self.poster, self.threads), self.installs)
        if self.settings.mode == "socket":
            self.receiver = SocketModeReceiver(app, self.settings.app_token or "")
        else:
            self.receiver = HttpReceiver(app, self.settings.host, self.settings.port, self.settings.path,
                                         lambda: _healthy(engine), self.settings.signing_secret)
        try:
            await self.receiver.start()
        except SlackApiError as exc:  # Socket Mode: apps.connections.open
            raise AdapterStartFailed(f"Slack refused the app token ({exc.response.get('error')}): set SLACK_APP_TOKEN "
                                     "(or platforms.slack.app_token) to an app-level token, xapp-..., with "
                                     "connections:write") from None
        except OSError as exc:
            if self.settings.mode == "socket":
                raise unreachable("Slack", "its Socket Mode endpoint", exc, "check the network") from None
            raise AdapterStartFailed(f"cannot listen on {self.settings.host}:{self.settings.port} for Slack's "
                                     f"requests: {exc.strerror or exc}; choose another platforms.slack.port") from None

    async def stop(self) -> None:
        """Stop taking requests, then give the turns already acknowledged time to answer."""
        if self.receiver is not None:
            await self.receiver.stop()
        await self.tasks.drain(self.settings.shutdown_grace_seconds)

    async def deliver(self, notification: Notification) -> None:
        place = Place.of(notification.session_key)
        if notification.event_id is None:
            posting = self.poster.post(place, [notification.reply])
        else:
            posting = self.poster.post_recovered(place, notification.reply, notification.event_id, notification.part)
        await unless_uninstalled(posting, f"a {notification.reason} message in {notification.session_key}")

    async def _uninstalled(self, team: str) -> None:
        """Workspace ``team`` uninstalled the app: its sessions stay, or are erased (in the background:
        Slack wants the event acknowledged at once)."""
        assert self.settings.oauth is not None and self.engine is not None
        if self.settings.oauth.uninstalled_sessions == "purge":
            self.tasks.spawn(self._erase(self.engine, team), f"erasing the sessions of Slack workspace {team}")

    @staticmethod
    async def _erase(engine: Engine, team: str) -> None:
        erased = await engine.erase_workspace(PLATFORM, team)
        log.info("erased the %d session(s) of Slack workspace %s (uninstalled_sessions: purge)", erased, team)


async def _healthy(engine: Engine) -> bool:
    try:
        await engine.status()
    except Exception:  # noqa: BLE001 - any failure means unhealthy
        log.exception("health check: the engine does not answer")
        return False
    return True
