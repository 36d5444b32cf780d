"""The Discord adapter: discord.py events in, engine turns, replies out.

Each message for the bot and each button click runs as a task of its own, so the gateway
keeps being read (and other sessions keep being served) while a turn waits for its parser
or API; the engine orders the turns of one session. ``stop`` lets running turns finish
posting their replies before it disconnects, since the engine has already recorded them as
answered.

Discord does not deliver a message again, so one the engine could not record (its database
down or restarting) is tried again a few times (:data:`RECORD_RETRY_SECONDS`), and failing
that the user is asked to send it again: a message is never silently lost. An edit of a
message the bot read (one still in discord.py's message cache) is answered with a note, never
run as a turn (see :mod:`genie_bot.adapters.incoming`). Replies that
could not be posted stay in the engine's outbox, which posts them again later; discord.py
itself waits and retries when Discord answers 429 (rate limited).

Each server gets the agents genie.yaml's ``workspaces.discord`` give it (``dm`` for direct
messages); in a server they refuse, the bot answers nothing (one log line per server).
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Coroutine, Sequence
from typing import Any

import aiohttp
import discord
import discord.http
from discord import app_commands

from genie_bot.adapters.base import AdapterStartFailed, unreachable
from genie_bot.adapters.delivery import deliver
from genie_bot.adapters.incoming import ATTACHMENTS_ONLY, EDIT_NOT_APPLIED
from genie_bot.engine import Accepted, Decision, Engine, Notification, SessionKey, well_formed

from .clicks import DecisionClicks
from .client import build_client
from .commands import install
from .poster import Poster
from .sessions import (DM_WORKSPACE, PLATFORM, channel_id, is_for_bot, session_key, thread_name, typed_by_a_person,
                       without_mention)
from .settings import DiscordSettings
from .threads import BotThreads
from .views import DecisionButton

log = logging.getLogger(__name__)

STOP_GRACE_SECONDS = 10.0
"""How long ``stop`` waits for running turns to post their replies."""
RECORD_RETRY_SECONDS = (0.5, 1.0, 2.0, 4.0)
"""The waits before each new try to record a message the engine could not record."""
NOT_RECORDED = "Sorry, I could not take that message just now. Please send it again in a moment."


class DiscordAdapter:
    platform = PLATFORM
    acknowledges_delivery = True
    """It tells the engine when a turn's replies are posted (the engine's reply outbox)."""

    def __init__(self, settings: DiscordSettings, *, record_retry_seconds: Sequence[float] = RECORD_RETRY_SECONDS,
                 **client_options: Any):
        self.settings = settings
        self.record_retry_seconds = tuple(record_retry_seconds)
        self.client = build_client(settings, **client_options)
        self.tree = app_commands.CommandTree(self.client)
        self.client.event(self.on_message)
        self.client.event(self.on_message_edit)
        self.client.event(self.on_genie_decision)
        self.client.add_dynamic_items(DecisionButton)
        self.threads = BotThreads()
        self.poster = Poster(self.client, self.threads)
        self.engine: Engine | None = None
        self.clicks: DecisionClicks | None = None
        self._running: set[asyncio.Task[None]] = set()
        self._gateway: asyncio.Task[None] | None = None
        self._refused: set[str] = set()
        """Servers genie.yaml refuses that someone wrote to the bot in (each logged once)."""

    # -- life cycle --------------------------------------------------------------------------------
    async def start(self, engine: Engine) -> None:
        """Log in, publish ``/genie``, connect, and return once the gateway is ready."""
        self.engine = engine
        self.clicks = DecisionClicks(engine, self.poster)
        try:
            await self.client.login(self.settings.bot_token)
        except discord.LoginFailure:
            raise AdapterStartFailed("Discord refused the bot token: set DISCORD_BOT_TOKEN (or platforms.discord."
                                     "bot_token) to the token of the application's bot (Developer Portal > Bot > "
                                     "Reset Token)") from None
        except (aiohttp.ClientError, OSError, asyncio.TimeoutError) as exc:
            raise unreachable("Discord", discord.http.Route.BASE, exc, "check the network (behind a proxy: "
                              "HTTPS_PROXY)") from None
        await install(self.tree, engine, self.settings)
        self._gateway = asyncio.create_task(self.client.connect(), name="discord-gateway")
        ready = asyncio.create_task(self.client.wait_until_ready())
        await asyncio.wait({ready, self._gateway}, return_when=asyncio.FIRST_COMPLETED)
        if not ready.done():
            ready.cancel()
            try:
                self._gateway.result()  # why the connection ended
            except discord.PrivilegedIntentsRequired:
                raise AdapterStartFailed("Discord refused the Message Content intent: turn it on in the Developer "
                                         "Portal (Bot > Privileged Gateway Intents > Message Content)") from None
            except (aiohttp.ClientError, OSError, asyncio.TimeoutError) as exc:
                raise unreachable("Discord's gateway", "the address Discord gave", exc, "check the network") \
                    from None
            raise AdapterStartFailed("the Discord gateway closed before the bot was ready; see the log above")

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
        await self.poster.post(channel, [notification.reply], notification.event_id, notification.part)

    @property
    def _engine(self) -> Engine:
        """The engine served, from ``start`` on (events arrive only after it)."""
        assert self.engine is not None, "events arrive once the adapter started"
        return self.engine

    @property
    def _bot(self) -> discord.ClientUser:
        """The bot's user, known once logged in (events arrive only after it)."""
        assert self.client.user is not None, "events arrive once the client is logged in"
        return self.client.user

    # -- events ------------------------------------------------------------------------------------
    async def on_message(self, message: discord.Message) -> None:
        if typed_by_a_person(message):
            self._run(self._converse(message))

    async def on_message_edit(self, before: discord.Message, after: discord.Message) -> None:
        if typed_by_a_person(after) and before.content != after.content:
            self._run(self._note_edit(before))

    async def on_genie_decision(self, interaction: discord.Interaction, action_id: str, decision: Decision) -> None:
        assert self.clicks is not None, "clicks arrive once the adapter started"
        self._run(self.clicks.handle(interaction, action_id, decision))

    async def _converse(self, message: discord.Message) -> None:
        if not await self._for_bot(message) or not self._serves(message):
            return
        role = message.guild.self_role if message.guild else None
        text = well_formed(without_mention(message.content, self._bot.id, role.id if role else None))
        if not text and message.attachments:
            await message.channel.send(ATTACHMENTS_ONLY)
            return
        channel = message.channel
        if self.settings.use_threads and isinstance(channel, discord.TextChannel):
            channel = await message.create_thread(name=thread_name(text))
        key = session_key(channel)
        try:
            accepted = await self._record(key, message, text)
        except Exception:  # noqa: BLE001 - Discord will not deliver it again: its author must hear back
            log.exception("could not record message %s; its author is asked to send it again", message.id)
            await channel.send(NOT_RECORDED)
            return
        if accepted is None:
            return  # delivered before (a gateway replay)
        async with channel.typing():
            replies = await self._engine.replies_of(accepted)
        await deliver(self._engine, key, accepted.event_id, self.poster.post(channel, replies, accepted.event_id))

    def _serves(self, message: discord.Message) -> bool:
        server = str(message.guild.id) if message.guild else DM_WORKSPACE
        if self._engine.config.serves(PLATFORM, server):
            return True
        if server not in self._refused:
            self._refused.add(server)
            log.warning("not answering in Discord server %s: genie.yaml's workspaces.discord do not serve it", server)
        return False

    async def _note_edit(self, message: discord.Message) -> None:
        """Say that the edit of ``message`` (as it was when read) was not taken in, where its conversation is."""
        if not await self._for_bot(message) or not self._serves(message):
            return
        started_thread = self.settings.use_threads and isinstance(message.channel, discord.TextChannel)
        place = self.client.get_partial_messageable(message.id) if started_thread else message.channel
        await place.send(EDIT_NOT_APPLIED)

    async def _for_bot(self, message: discord.Message) -> bool:
        for_bot = is_for_bot(message, self._bot)
        if for_bot is None and isinstance(message.channel, discord.Thread):  # a thread someone else opened:
            return await self.threads.answers_in(message.channel, self._engine)  # the bot's once it answered there
        return bool(for_bot)

    async def _record(self, key: SessionKey, message: discord.Message, text: str) -> Accepted | None:
        """Record ``message`` in the engine (None: recorded before), trying again while it cannot;
        raises the last failure when every try failed."""
        for wait in self.record_retry_seconds:
            try:
                return await self._engine.accept_message(key, str(message.author.id), text, str(message.id), message.id)
            except Exception:  # noqa: BLE001 - e.g. the database is restarting
                log.warning("could not record message %s; trying again in %.1f s", message.id, wait)
                await asyncio.sleep(wait)
        return await self._engine.accept_message(key, str(message.author.id), text, str(message.id), message.id)

    def _run(self, work: Coroutine[Any, Any, None]) -> None:
        task = asyncio.create_task(work)
        self._running.add(task)
        task.add_done_callback(self._finished)

    def _finished(self, task: asyncio.Task[None]) -> None:
        self._running.discard(task)
        if not task.cancelled() and task.exception() is not None:
            log.error("handling a Discord message or click failed", exc_info=task.exception())
