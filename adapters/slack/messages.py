"""Slack messages to engine turns: which messages are for the bot, and running their turns.

For the bot: every message of a DM; an @mention in a channel (the ``app_mention`` event);
and a message without a mention in a thread the bot takes part in. Never an edit (answered with
a note instead, see :mod:`.edits`), a deletion or another change notice, nor a message of
another bot unless configured (the bot's own messages are dropped by Bolt before they get here).
In a channel a message that mentions the bot arrives twice, as ``app_mention`` and as
``message``: only the first is used.

A message is known by where it is (its workspace, channel and ``ts``), not by the event that
brought it: Slack retries carry the first delivery's event id, but editing an @mention sends a
new ``app_mention`` event (new event id, same ``ts``, an ``edited`` field), and the same message
may come under two event ids. So the engine's event id of a message is where it is,
which the engine de-duplicates: a message runs one turn, however often and however edited it
arrives, and only the delivery that recorded it answers.

A message is recorded in the engine *before* Slack gets its acknowledgement (the listener's
return): once acknowledged it cannot be lost with this process, and if recording fails Slack
is told so (HTTP 500) and delivers it again. The one exception is a message in a thread this
process cannot yet tell is the bot's (:mod:`.threads`): that thread's history is read after
the acknowledgement, then the message recorded.

With ``ignore_bots: false`` two bots could answer each other forever: after
:data:`MAX_BOT_TURNS` messages of bots in a row in a conversation, the bot stops answering
bots there until a person writes.
"""

from __future__ import annotations

import asyncio
import logging
from collections import OrderedDict
from contextlib import AbstractAsyncContextManager, AsyncExitStack
from dataclasses import dataclass
from enum import Enum
from typing import Any

from genie_bot.adapters.delivery import deliver
from genie_bot.adapters.incoming import ATTACHMENTS_ONLY
from genie_bot.engine import Accepted, Engine, Reply, SessionKey

from .mrkdwn import mentioned_users, to_plain
from .poster import Poster, unless_uninstalled
from .sessions import Place, is_direct_message, message_event_id, sequence, session_key
from .tasks import InOrder
from .threads import BotThreads
from .users import UserNames

log = logging.getLogger(__name__)

HANDLED_SUBTYPES = frozenset({None, "thread_broadcast", "file_share"})
BOT_SUBTYPE = "bot_message"
FAILURE = "Sorry, I could not handle that message just now. Please try again in a moment."
MAX_BOT_TURNS = 5
BOT_TURNS_KEPT = 10_000


class Membership(Enum):
    """Whether a message in a thread is for the bot, as far as can be told before the acknowledgement."""

    YES = "yes"
    NO = "no"
    UNKNOWN = "unknown"
    """Only the thread's history tells (read after the acknowledgement)."""


@dataclass(frozen=True)
class Incoming:
    """A message for the bot, or one in a thread that is for the bot if the bot takes part in it."""

    key: SessionKey
    user: str
    raw_text: str
    """As Slack sent it: mentions as ``<@U...>``, escapes as ``&lt;``."""
    event_id: str
    sequence: int
    channel: str
    bot_user_id: str
    """The bot's user in the message's workspace."""
    only_in_bot_thread: bool
    from_bot: bool
    attachments_only: bool
    """Files and no words."""


def incoming(body: dict[str, Any], bot_user_id: str, ignore_bots: bool) -> Incoming | None:
    """The message of an ``app_mention`` or ``message`` event callback ``body``, or None if not for the bot."""
    event = body["event"]
    subtype = event.get("subtype")
    from_bot = subtype == BOT_SUBTYPE or "bot_id" in event
    if (subtype not in HANDLED_SUBTYPES and subtype != BOT_SUBTYPE) or (from_bot and ignore_bots):
        return None
    channel, ts, thread_ts = event["channel"], event["ts"], event.get("thread_ts")
    mention = f"<@{bot_user_id}>"
    text = event.get("text", "")
    if event["type"] == "message" and not is_direct_message(channel):
        if mention in text or not thread_ts:
            return None  # handled as app_mention / channel chatter
    return Incoming(
        key=session_key(body["team_id"], channel, ts, thread_ts),
        user=event.get("user") or event.get("bot_id", ""), raw_text=text,
        event_id=message_event_id(body["team_id"], channel, ts), sequence=sequence(ts), channel=channel,
        bot_user_id=bot_user_id,
        only_in_bot_thread=event["type"] == "message" and not is_direct_message(channel), from_bot=from_bot,
        attachments_only=bool(event.get("files")) and not to_plain(text, bot_user_id))


class MessageTurns:
    def __init__(self, engine: Engine, poster: Poster, in_order: InOrder, threads: BotThreads, names: UserNames):
        self.engine = engine
        self.poster = poster
        self.in_order = in_order
        self.threads = threads
        self.names = names
        self._bot_turns: OrderedDict[SessionKey, int] = OrderedDict()
        """Messages of bots in a row, per conversation (the most recent conversations)."""

    async def membership(self, message: Incoming) -> Membership:
        """Whether ``message`` is for the bot, without asking Slack (before the acknowledgement):
        a thread with a session is the bot's, whichever process posted there (so a thread this
        process found not to be the bot's is asked about again, to the database only)."""
        if not message.only_in_bot_thread:
            return Membership.YES
        key = message.key
        known = self.threads.known(key.workspace, key.channel, key.thread)
        if known:
            return Membership.YES
        if await self.engine.has_session(key):
            self.threads.add(key.workspace, key.channel, key.thread)
            return Membership.YES
        return Membership.UNKNOWN if known is None else Membership.NO

    def answers(self, message: Incoming) -> bool:
        """Whether the bot answers ``message`` (False for a bot going on answering the bot)."""
        if not message.from_bot:
            self._bot_turns.pop(message.key, None)
            return True
        turns = self._bot_turns.pop(message.key, 0) + 1
        self._bot_turns[message.key] = turns
        while len(self._bot_turns) > BOT_TURNS_KEPT:
            self._bot_turns.popitem(last=False)
        if turns == MAX_BOT_TURNS + 1:
            log.warning("%s: %d messages of bots in a row; not answering bots there until a person writes",
                        message.key, MAX_BOT_TURNS)
        return turns <= MAX_BOT_TURNS

    async def accept(self, message: Incoming) -> Accepted | None:
        """Record ``message`` in the engine; None if it was recorded before. Raises if it could not be recorded."""
        names = await self.names.of(message.key.workspace,
                                    (u for u in mentioned_users(message.raw_text) if u != message.bot_user_id))
        text = to_plain(message.raw_text, message.bot_user_id, names)
        return await self.engine.accept_message(message.key, message.user, text, message.event_id, message.sequence)

    async def run(self, message: Incoming, accepted: Accepted,
                  place_turn: AbstractAsyncContextManager[Any] | None = None) -> None:
        """Run the turn of ``message`` (recorded and acknowledged) and post its replies; ``place_turn``:
        its place's turn, already taken (released once the placeholder is posted)."""
        place = Place.of(message.key)
        answered = await answer_with_placeholder(self.engine, self.poster, place_turn or self.in_order.turn(place),
                                                 place, accepted)
        if answered is not None:
            replies, placeholder = answered
            posting = self.poster.post(place, replies, placeholder, accepted.event_id)
            await deliver(self.engine, message.key, accepted.event_id,
                          unless_uninstalled(posting, f"the replies of {accepted.event_id}"))

    async def look_up_and_run(self, message: Incoming) -> None:
        """For a message in a thread not known to be the bot's (already acknowledged): read the thread's
        history, and if the bot takes part in it, record the message and run its turn.

        The message takes its place's turn on arrival, so its placeholder keeps its place among the
        thread's messages however long the look-up and its recording take."""
        async with AsyncExitStack() as place_turn:
            await place_turn.enter_async_context(self.in_order.turn(Place.of(message.key)))
            key = message.key
            if not await self.threads.look_up(key.workspace, key.channel, key.thread, message.bot_user_id):
                return
            if message.attachments_only:
                await self.explain_attachments(message)
                return
            accepted = await self.accept(message)
            if accepted is not None:
                await self.run(message, accepted, place_turn.pop_all())

    async def explain_attachments(self, message: Incoming) -> None:
        """Answer a message of files and no words: the agent reads only text."""
        await self.poster.post(Place.of(message.key), [Reply(ATTACHMENTS_ONLY)])


async def answer_with_placeholder(engine: Engine, poster: Poster, place_turn: AbstractAsyncContextManager[Any],
                                  place: Place, accepted: Accepted) -> tuple[list[Reply], str | None] | None:
    """Run the turn of ``accepted`` while its "thinking" placeholder is posted (in arrival order per
    place: holding ``place_turn``). Returns its replies and the placeholder they replace; None if the
    turn failed, in which case the apology has replaced the placeholder."""
    turn = asyncio.ensure_future(engine.replies_of(accepted))
    async with place_turn:
        placeholder = await poster.placeholder(place, accepted.event_id)
    try:
        return await turn, placeholder
    except Exception:  # noqa: BLE001 - the user must hear back even when the engine is down
        log.exception("the turn of event %s failed", accepted.event_id)
        await poster.post(place, [Reply(FAILURE)], placeholder)
        return None
