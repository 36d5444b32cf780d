"""Slack messages to engine turns: which messages are for the bot, and running their turns.

For the bot: every message of a DM; an @mention in a channel (the ``app_mention`` event);
and a message without a mention in a thread the bot takes part in. Never an edit, a deletion
or another change notice, nor a message of another bot unless configured (the bot's own
messages are dropped by Bolt before they get here). In a channel a message that mentions the
bot arrives twice, as ``app_mention`` and as ``message``: only the first is used.

A Slack retry (``x-slack-retry-num``) carries the event id of its first delivery, which the
engine de-duplicates: the turn runs once and only the delivery that ran it answers. A retry
shows no "thinking" placeholder, since the first delivery already shows one if it arrived.
"""

from __future__ import annotations

import logging
from dataclasses import dataclass
from typing import Any

from genie_bot.engine import Engine, Reply, SessionKey

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
    retry: bool
    only_in_bot_thread: bool


def incoming(body: dict[str, Any], bot_user_id: str, ignore_bots: bool, retry_num: int) -> Incoming | None:
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
        event_id=body["event_id"], sequence=sequence(ts), retry=retry_num > 0,
        only_in_bot_thread=event["type"] == "message" and not is_direct_message(channel))


class MessageTurns:
    def __init__(self, engine: Engine, poster: Poster, in_order: InOrder, threads: BotThreads, bot_user_id: str):
        self.engine = engine
        self.poster = poster
        self.in_order = in_order
        self.threads = threads
        self.bot_user_id = bot_user_id

    async def run(self, message: Incoming) -> None:
        """Run the turn of ``message`` (after the event was acknowledged) and post its replies."""
        place = Place.of(message.key)
        async with self.in_order.turn(place):
            if message.only_in_bot_thread and \
                    not await self.threads.contains(place.channel, message.key.thread, self.bot_user_id):
                return
            placeholder = None if message.retry else await self.poster.placeholder(place)
        try:
            replies = await self.engine.handle_message(message.key, message.user, message.text, message.event_id,
                                                       message.sequence)
        except Exception:  # noqa: BLE001 - the user must hear back even when the engine is down
            log.exception("the turn of %s failed", message.key)
            await self.poster.post(place, [Reply(FAILURE)], placeholder)
            return
        await self.poster.post(place, replies, placeholder)
        if replies:  # posted: out of the engine's outbox (a duplicate delivery has none)
            await self.engine.delivered(message.key, message.event_id)
