"""Sending a turn's replies, and keeping one live card per pending action.

Every message of a turn carries a nonce derived from the turn's event id, which Discord
enforces (``enforce_nonce``): sent again within minutes by the same bot, it returns the
message already posted instead of a second one. So a reply the engine's outbox posts again
(with the same event id) is not posted twice. A provisional answer (the engine deferring the
turn while its store is away) takes a nonce of its own, so the replies that follow it are posted.

The engine asks again with the same pending action when nothing changed: the card shown
before then loses its buttons, so only the newest card of an action is live; a click that
settles an action settles every card of it this process showed.
"""

from __future__ import annotations

from collections import OrderedDict
from typing import Any

import discord

from genie_bot.engine import ClickOutcome, PendingActionView, Reply

from .render import nonce, outgoing, summary_embed, with_outcome
from .threads import BotThreads
from .views import disabled_confirmation_view

SHOWN_AGAIN = "⬇️ Shown again below"
Card = tuple[int, int, PendingActionView]
"""(channel id, message id, the action shown)"""


def _numbered(event_id: str, reply: Reply) -> str:
    """What a reply's nonces derive from: its event, or for a provisional answer, a notice of it."""
    return f"{event_id}/notice" if reply.outcome is ClickOutcome.DEFERRED else event_id


class Poster:
    def __init__(self, client: discord.Client, threads: BotThreads, capacity: int = 10_000):
        self.client = client
        self.threads = threads
        self.capacity = capacity
        self._cards: OrderedDict[str, list[Card]] = OrderedDict()

    async def post(self, channel: discord.abc.Messageable, replies: list[Reply], event_id: str | None = None,
                   first_part: int = 0) -> None:
        """Send ``replies`` (those of ``event_id``, numbered from ``first_part``), each message with its nonce."""
        for part, reply in enumerate(replies, start=first_part):
            for piece, message in enumerate(outgoing(reply)):
                given: dict[str, Any] = {"embed": message.embed, "view": message.view,
                                         "nonce": None if event_id is None else nonce(_numbered(event_id, reply),
                                                                                      part, piece)}
                sent = await channel.send(content=message.content,
                                          **{name: value for name, value in given.items() if value is not None})
                if isinstance(sent.channel, discord.Thread):
                    self.threads.add(sent.channel.id)
                if message.view is not None and reply.pending_action is not None:
                    await self._shown(reply.pending_action, sent)

    async def settle(self, action_id: str, outcome: str, clicked: int | None = None) -> None:
        """The cards of ``action_id`` this process showed, but the ``clicked`` one, end with ``outcome``."""
        for channel_id, message_id, action in self._cards.pop(action_id, []):
            if message_id != clicked:
                await self._close(channel_id, message_id, action, outcome)

    async def _shown(self, action: PendingActionView, message: discord.Message) -> None:
        older = [card for card in self._cards.pop(action.id, []) if card[1] != message.id]
        self._cards[action.id] = [(message.channel.id, message.id, action)]
        while len(self._cards) > self.capacity:
            self._cards.popitem(last=False)
        for channel_id, message_id, _ in older:
            await self._close(channel_id, message_id, action, SHOWN_AGAIN)

    async def _close(self, channel_id: int, message_id: int, action: PendingActionView, outcome: str) -> None:
        message = self.client.get_partial_messageable(channel_id).get_partial_message(message_id)
        await message.edit(embed=with_outcome(summary_embed(action), outcome), view=disabled_confirmation_view(action))
