"""The Slack adapter: the engine's side (start, stop, deliver) of a Bolt app and its receiver.

Its Web API client retries a call Slack refused with HTTP 429, after as long as the answer's
``Retry-After`` says (slack_sdk's rate-limit retry handler), up to :data:`RATE_LIMIT_RETRIES`
times; replies that still could not be posted stay in the engine's outbox, which posts them
again later.
"""

from __future__ import annotations

import logging

from slack_sdk.http_retry.builtin_async_handlers import (AsyncConnectionErrorRetryHandler,
                                                         AsyncRateLimitErrorRetryHandler)
from slack_sdk.web.async_client import AsyncWebClient

from genie_bot.engine import Engine, Notification

from .app import bolt_app
from .clicks import ClickTurns
from .commands import GenieCommand
from .edits import EditNotes
from .messages import MessageTurns
from .poster import Poster
from .receivers import HttpReceiver, Receiver, SocketModeReceiver
from .sessions import PLATFORM, Place
from .settings import SlackSettings
from .tasks import Background, InOrder
from .threads import BotThreads
from .users import UserNames

log = logging.getLogger(__name__)
RATE_LIMIT_RETRIES = 3


class SlackAdapter:
    platform = PLATFORM
    acknowledges_delivery = True
    """It tells the engine when a turn's replies are posted (the engine's reply outbox)."""

    def __init__(self, settings: SlackSettings):
        self.settings = settings
        self.client = AsyncWebClient(token=settings.bot_token, base_url=settings.api_base_url, retry_handlers=[
            AsyncConnectionErrorRetryHandler(), AsyncRateLimitErrorRetryHandler(max_retry_count=RATE_LIMIT_RETRIES)])
        self.threads = BotThreads(self.client)
        self.poster = Poster(self.client, self.threads)
        self.tasks = Background()
        self.receiver: Receiver | None = None

    async def start(self, engine: Engine) -> None:
        identity = await self.client.auth_test()  # also checks the bot token before anything listens
        log.info("Slack: signed in as %s (%s) in team %s", identity["user"], identity["user_id"], identity["team_id"])
        in_order = InOrder()
        app = bolt_app(self.settings, self.client, self.tasks,
                       MessageTurns(engine, self.poster, in_order, self.threads, UserNames(self.client),
                                    identity["user_id"]),
                       ClickTurns(engine, self.poster),
                       GenieCommand(engine, self.client, self.settings.workspace_admins),
                       EditNotes(engine, self.poster, self.threads))
        if self.settings.mode == "socket":
            self.receiver = SocketModeReceiver(app, self.settings.app_token or "")
        else:
            self.receiver = HttpReceiver(app, self.settings.host, self.settings.port, self.settings.path,
                                         lambda: _healthy(engine), self.settings.signing_secret)
        await self.receiver.start()

    async def stop(self) -> None:
        """Stop taking requests, then give the turns already acknowledged time to answer."""
        if self.receiver is not None:
            await self.receiver.stop()
        await self.tasks.drain(self.settings.shutdown_grace_seconds)

    async def deliver(self, notification: Notification) -> None:
        place = Place.of(notification.session_key)
        if notification.event_id is None:
            await self.poster.post(place, [notification.reply])
        else:
            await self.poster.post_recovered(place, notification.reply, notification.event_id, notification.part)


async def _healthy(engine: Engine) -> bool:
    try:
        await engine.status()
    except Exception:  # noqa: BLE001 - any failure means unhealthy
        log.exception("health check: the engine does not answer")
        return False
    return True
