"""Slack messages to engine turns: which messages are for the bot, and running their turns.

For the bot: every message of a DM; an @mention in a channel (the ``app_mention`` event);
and a message without a mention in a thread the bot takes part in. Never an edit, a deletion
or another change notice, nor a message of another bot unless configured (the bot's own
messages are dropped by Bolt before they get here). In a channel a message that mentions the
bot arrives twice, as ``app_mention`` and as ``message``: only the first is used.

A message is recorded in the engine *before* Slack gets its acknowledgement (the listener's
return): once acknowledged it cannot be lost with this process, and if recording fails Slack
is told so (HTTP 500) and delivers it again. A Slack retry (``x-slack-retry-num``) carries the
event id of its first delivery, which the engine de-duplicates: the turn runs once and only
the delivery that recorded it answers.
"""

from __future__ import annotations

import asyncio
import logging
from dataclasses import dataclass
from typing import Any

from genie_bot.engine import Accepted, Engine, Reply, SessionKey

from .mrkdwn import to_plain
from .poster import Poster
from .sessions import Place, is_direct_message, sequence, session_key
from .tasks import InOrder
from .threads import BotThreads

log = logging.getLogger(__name__)

HANDLED_SUBTYPES = frozenset({None, "thread_broadcast", "file_share"})
BOT_SUBTYPE = "bot_message"
FAILURE = "Sorry, I could not handle that message just now. Please try again in a moment."


@dataclass(frozen=True)
class Incoming:
    """A message for the bot, or one in a thread that is for the bot if the bot takes part in it."""

    key: SessionKey
    user: str
    text: str
    event_id: str
    sequence: int
    only_in_bot_thread: bool


def incoming(body: dict[str, Any], bot_user_id: str, ignore_bots: bool) -> Incoming | None:
    """The message of an ``app_mention`` or ``message`` event callback ``body``, or None if not for the bot."""
    event = body["event"]
    subtype = event.get("subtype")
    from_bot = subtype == BOT_SUBTYPE or "bot_id" in event
    if (subtype not in HANDLED_SUBTYPES and subtype != BOT_SUBTYPE) or (from_bot and ignore_bots):
        return None
    channel, ts, thread_ts = event["channel"], event["ts"], event.get("thread_ts")
    mention = f"<@{bot_user_id}>"
    if event["type"] == "message" and not is_direct_message(channel):
        if mention in event.get("text", "") or not thread_ts:
            return None  # handled as app_mention / channel chatter
    return Incoming(
        key=session_key(body["team_id"], channel, ts, thread_ts),
        user=event.get("user") or event.get("bot_id", ""), text=to_plain(event.get("text", ""), bot_user_id),
        event_id=body["event_id"], sequence=sequence(ts),
        only_in_bot_thread=event["type"] == "message" and not is_direct_message(channel))


class MessageTurns:
    def __init__(self, engine: Engine, poster: Poster, in_order: InOrder, threads: BotThreads, bot_user_id: str):
        self.engine = engine
        self.poster = poster
        self.in_order = in_order
        self.threads = threads
        self.bot_user_id = bot_user_id

    async def accept(self, message: Incoming) -> Accepted | None:
        """Record ``message`` in the engine (before Slack is acknowledged); None if it is not for
        the bot or was recorded before. Raises if it could not be recorded."""
        if message.only_in_bot_thread and not await self._in_bot_thread(message.key):
            return None
        return await self.engine.accept_message(message.key, message.user, message.text, message.event_id,
                                                message.sequence)

    async def _in_bot_thread(self, key: SessionKey) -> bool:
        """A thread with a session is the bot's (whichever process posted there); else Slack is asked."""
        if self.threads.remembers(key.channel, key.thread):
            return True
        if await self.engine.has_session(key):
            self.threads.add(key.channel, key.thread)
            return True
        return await self.threads.contains(key.channel, key.thread, self.bot_user_id)

    async def run(self, message: Incoming, accepted: Accepted) -> None:
        """Run the turn of ``message`` (recorded and acknowledged) and post its replies."""
        place = Place.of(message.key)
        answered = await answer_with_placeholder(self.engine, self.poster, self.in_order, place, accepted)
        if answered is None:
            return
        replies, placeholder = answered
        await self.poster.post(place, replies, placeholder, accepted.event_id)
        await self.engine.delivered(message.key, accepted.event_id)  # posted: out of the engine's outbox


async def answer_with_placeholder(engine: Engine, poster: Poster, in_order: InOrder, place: Place,
                                  accepted: Accepted) -> tuple[list[Reply], str | None] | None:
    """Run the turn of ``accepted`` while its "thinking" placeholder is posted (in arrival order per
    place). Returns its replies and the placeholder they replace; None if the turn failed, in which
    case the apology has replaced the placeholder."""
    turn = asyncio.ensure_future(engine.replies_of(accepted))
    async with in_order.turn(place):
        placeholder = await poster.placeholder(place, accepted.event_id)
    try:
        return await turn, placeholder
    except Exception:  # noqa: BLE001 - the user must hear back even when the engine is down
        log.exception("the turn of event %s failed", accepted.event_id)
        await poster.post(place, [Reply(FAILURE)], placeholder)
        return None
