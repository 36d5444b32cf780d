"""The Discord adapter: discord.py events in, engine turns, replies out.

Each message for the bot and each button click runs as a task of its own, so the gateway
keeps being read (and other sessions keep being served) while a turn waits for its parser
or API; the engine orders the turns of one session. ``stop`` lets running turns finish
posting their replies before it disconnects, since the engine has already recorded them as
answered.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Coroutine
from typing import Any

import discord
from discord import app_commands

from genie_bot.engine import Decision, Engine, Notification

from .clicks import DecisionClicks
from .client import build_client
from .commands import install
from .render import post
from .sessions import PLATFORM, channel_id, is_for_bot, session_key, thread_name, without_mention
from .settings import DiscordSettings
from .views import DecisionButton

log = logging.getLogger(__name__)

STOP_GRACE_SECONDS = 10.0
"""How long ``stop`` waits for running turns to post their replies."""


class DiscordAdapter:
    platform = PLATFORM
    acknowledges_delivery = True
    """It tells the engine when a turn's replies are posted (the engine's reply outbox)."""

    def __init__(self, settings: DiscordSettings, **client_options: Any):
        self.settings = settings
        self.client = build_client(settings, **client_options)
        self.tree = app_commands.CommandTree(self.client)
        self.client.event(self.on_message)
        self.client.event(self.on_genie_decision)
        self.client.add_dynamic_items(DecisionButton)
        self.engine: Engine | None = None
        self.clicks: DecisionClicks | None = None
        self._running: set[asyncio.Task[None]] = set()
        self._gateway: asyncio.Task[None] | None = None

    # -- life cycle --------------------------------------------------------------------------------
    async def start(self, engine: Engine) -> None:
        """Log in, publish ``/genie``, connect, and return once the gateway is ready."""
        self.engine = engine
        self.clicks = DecisionClicks(engine)
        await self.client.login(self.settings.bot_token)
        await install(self.tree, engine, self.settings)
        self._gateway = asyncio.create_task(self.client.connect(), name="discord-gateway")
        ready = asyncio.create_task(self.client.wait_until_ready())
        await asyncio.wait({ready, self._gateway}, return_when=asyncio.FIRST_COMPLETED)
        if not ready.done():
            ready.cancel()
            self._gateway.result()  # raises why the connection ended, e.g. PrivilegedIntentsRequired
            raise RuntimeError("the Discord gateway closed before the bot was ready")

    async def stop(self) -> None:
        if self._running:
            _, late = await asyncio.wait(set(self._running), timeout=STOP_GRACE_SECONDS)
            for task in late:
                task.cancel()
        await self.client.close()
        if self._gateway is not None:
            await asyncio.gather(self._gateway, return_exceptions=True)

    async def deliver(self, notification: Notification) -> None:
        channel = self.client.get_partial_messageable(channel_id(notification.session_key))
        await post(channel, [notification.reply], notification.event_id, notification.part)

    # -- events ------------------------------------------------------------------------------------
    async def on_message(self, message: discord.Message) -> None:
        if is_for_bot(message, self.client.user):
            self._run(self._converse(message))

    async def on_genie_decision(self, interaction: discord.Interaction, action_id: str, decision: Decision) -> None:
        self._run(self.clicks.handle(interaction, action_id, decision))

    async def _converse(self, message: discord.Message) -> None:
        text = without_mention(message.content, self.client.user.id)
        channel = message.channel
        if self.settings.use_threads and isinstance(channel, discord.TextChannel):
            channel = await message.create_thread(name=thread_name(text))
        async with channel.typing():
            replies = await self.engine.handle_message(session_key(channel), str(message.author.id), text,
                                                       str(message.id), message.id)
        await post(channel, replies, str(message.id))
        if replies:  # posted: out of the engine's outbox (a duplicate delivery has none)
            await self.engine.delivered(session_key(channel), str(message.id))

    def _run(self, work: Coroutine[Any, Any, None]) -> None:
        task = asyncio.create_task(work)
        self._running.add(task)
        task.add_done_callback(self._finished)

    def _finished(self, task: asyncio.Task[None]) -> None:
        self._running.discard(task)
        if not task.cancelled() and task.exception() is not None:
            log.error("handling a Discord message or click failed", exc_info=task.exception())
