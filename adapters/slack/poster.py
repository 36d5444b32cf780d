"""Posting into a session's place: a progress placeholder, then the replies that replace it.

A turn can take seconds (an LLM, an API call), so before it runs the bot posts a short
"thinking" message where it will answer; the first reply message then *replaces* that
placeholder (``chat.update``) and the others follow it (``chat.postMessage``, paced per
channel, see :mod:`.pacing`). A turn with nothing to say deletes it. So does a turn whose
place got newer replies meanwhile (those of an earlier turn, posted late, as after the store
was away): its replies go below them, and the conversation reads in the order its turns ran. Every message of a turn
carries the turn's event id and its place among the turn's messages as metadata
(:mod:`.receipts`), so a reply posted again from the outbox adds only what is missing.

One live card per pending action: the engine asks again with the same action when nothing
changed, and the card shown earlier then loses its buttons; a click that settles an action
settles every card of it that this process showed.

Every call goes to the place's workspace, with its bot token (:mod:`.workspaces`); posting into a
workspace that uninstalled the app raises :class:`~.workspaces.NotInstalled`.
"""

from __future__ import annotations

import logging
from collections import OrderedDict
from collections.abc import Awaitable, Callable
from typing import Any

from slack_sdk.errors import SlackApiError

from genie_bot.engine import ClickOutcome, Reply

from .blocks import Block, SlackMessage, reply_messages, settled_card
from .pacing import ChannelPacer
from .receipts import notice_metadata, receipts, reply_metadata, thinking_metadata
from .sessions import Place
from .threads import BotThreads
from .workspaces import NotInstalled, Workspaces

log = logging.getLogger(__name__)

THINKING = ":hourglass_flowing_sand: _Thinking…_"
SHOWN_AGAIN = ":arrow_down: *Shown again below*"
Respond = Callable[..., Awaitable[Any]]
"""Bolt's ``respond``: posts to the ``response_url`` of a click or a command (ephemeral answers)."""
Numbered = list[tuple[SlackMessage, dict | None]]
"""Messages to post, each with its metadata (None for messages of no turn)."""


class Poster:
    def __init__(self, workspaces: Workspaces, threads: BotThreads, pacer: ChannelPacer | None = None):
        self.workspaces = workspaces
        self.threads = threads
        self.pacer = pacer or ChannelPacer()
        self.cards = LiveCards()
        self.latest = LatestReplies()

    async def placeholder(self, place: Place, event_id: str) -> str | None:
        """Post the "thinking" message of ``event_id``; return its ``ts`` for :meth:`post` or :meth:`discard`,
        or None if Slack refused it (the replies are then posted without one)."""
        try:
            return await self._post(place, SlackMessage(THINKING), thinking_metadata(event_id))
        except SlackApiError as exc:
            log.warning("could not post the placeholder of %s: %s", event_id, exc.response.get("error"))
        except NotInstalled as exc:
            log.warning("could not post the placeholder of %s: %s", event_id, exc)
        return None

    async def post(self, place: Place, replies: list[Reply], placeholder: str | None = None,
                   event_id: str | None = None, first_part: int = 0) -> None:
        """Post ``replies`` (those of ``event_id``, numbered from ``first_part``), the first message
        replacing ``placeholder``."""
        messages: Numbered = [(message, _metadata(reply, event_id, part, piece))
                              for part, reply in enumerate(replies, start=first_part)
                              for piece, message in enumerate(reply_messages(reply))]
        await self._send(place, messages, placeholder)

    async def post_recovered(self, place: Place, reply: Reply, event_id: str, part: int) -> None:
        """Post reply ``part`` of ``event_id`` again from the outbox: only its messages not in the
        conversation yet, the first one replacing the event's placeholder if it is still there."""
        found = await receipts((await self.workspaces.get(place.team)).client, place, event_id)
        missing: Numbered = [(message, reply_metadata(event_id, part, piece))
                   for piece, message in enumerate(reply_messages(reply)) if not found.posted(part, piece)]
        await self._send(place, missing, found.placeholder)  # a reply with nothing to say deletes it

    async def discard(self, place: Place, placeholder: str | None) -> None:
        if placeholder is not None:
            client = (await self.workspaces.get(place.team)).client
            await client.chat_delete(channel=place.channel, ts=placeholder)

    async def update(self, team: str, channel: str, ts: str, message: SlackMessage, metadata: dict | None = None
                     ) -> None:
        client = (await self.workspaces.get(team)).client
        await client.chat_update(channel=channel, ts=ts, text=message.text, **_blocks(message, metadata))
        await self._shown(team, message, channel, ts)

    async def settle(self, team: str, action_id: str, outcome: str, card: tuple[str, str, list[Block]] | None
                     ) -> None:
        """Every card of ``action_id`` (in workspace ``team``) ends with ``outcome`` (mrkdwn) instead of its
        buttons: ``card`` (channel, ts, blocks: the one clicked, when the click came with it) and those this
        process showed."""
        cards = self.cards.forget(action_id)
        if card is not None:
            cards = [card] + [c for c in cards if c[1] != card[1]]
        for channel, ts, blocks in cards:
            await self.update(team, channel, ts, SlackMessage(outcome, settled_card(blocks, outcome)))

    async def _send(self, place: Place, messages: Numbered, placeholder: str | None) -> None:
        if placeholder is not None:
            if not messages or self.latest.after(place, placeholder):
                await self.discard(place, placeholder)
            else:
                await self.update(place.team, place.channel, placeholder, *messages.pop(0))
        for message, metadata in messages:
            ts = await self._post(place, message, metadata)
            self.latest.posted(place, ts)
            await self._shown(place.team, message, place.channel, ts)

    async def _shown(self, team: str, card: SlackMessage, channel: str, ts: str) -> None:
        """``card`` is live at ``ts``: the cards of its action shown before lose their buttons (a message
        that is no card changes nothing)."""
        if card.action_id is None:
            return
        for old_channel, old_ts, blocks in self.cards.shown(card.action_id, channel, ts, card.blocks or []):
            await self.update(team, old_channel, old_ts, SlackMessage(SHOWN_AGAIN, settled_card(blocks, SHOWN_AGAIN)))

    async def _post(self, place: Place, message: SlackMessage, metadata: dict | None = None) -> str:
        client = (await self.workspaces.get(place.team)).client
        await self.pacer.wait((place.team, place.channel))
        response = await client.chat_postMessage(channel=place.channel, thread_ts=place.thread_ts,
                                                 text=message.text, **_blocks(message, metadata))
        if place.thread_ts:
            self.threads.add(place.team, place.channel, place.thread_ts)
        return response["ts"]


class LiveCards:
    """The cards this process showed and that still have buttons, by pending action (bounded)."""

    def __init__(self, capacity: int = 10_000):
        self.capacity = capacity
        self._cards: OrderedDict[str, list[tuple[str, str, list[Block]]]] = OrderedDict()

    def shown(self, action_id: str, channel: str, ts: str, blocks: list[Block]) -> list[tuple[str, str, list[Block]]]:
        """Record the card of ``action_id`` at ``ts``; returns the action's other cards, no longer live."""
        older = [card for card in self._cards.pop(action_id, []) if card[:2] != (channel, ts)]
        self._cards[action_id] = [(channel, ts, blocks)]
        while len(self._cards) > self.capacity:
            self._cards.popitem(last=False)
        return older

    def forget(self, action_id: str) -> list[tuple[str, str, list[Block]]]:
        """The live cards of ``action_id``, which are live no more."""
        return self._cards.pop(action_id, [])


class LatestReplies:
    """The newest reply message this process posted in each place (bounded): a placeholder older than
    it is no place for a later turn's replies."""

    def __init__(self, capacity: int = 10_000):
        self.capacity = capacity
        self._latest: OrderedDict[Place, tuple[int, int]] = OrderedDict()

    def posted(self, place: Place, ts: str) -> None:
        moment = max(_moment(ts), self._latest.pop(place, (0, 0)))
        self._latest[place] = moment
        while len(self._latest) > self.capacity:
            self._latest.popitem(last=False)

    def after(self, place: Place, ts: str) -> bool:
        """Whether a reply was posted in ``place`` after the message ``ts``."""
        return self._latest.get(place, (0, 0)) > _moment(ts)


def _moment(ts: str) -> tuple[int, int]:
    """A Slack ``ts`` (``seconds.micros``) as a number that orders messages."""
    seconds, _, micros = ts.partition(".")
    return int(seconds), int(micros or 0)


def _metadata(reply: Reply, event_id: str | None, part: int, piece: int) -> dict | None:
    """A reply's receipt; a provisional answer's is a notice (the event's replies are still to come)."""
    if event_id is None:
        return None
    return notice_metadata(event_id) if reply.outcome is ClickOutcome.DEFERRED else reply_metadata(event_id, part, piece)


def _blocks(message: SlackMessage, metadata: dict | None = None) -> dict[str, Any]:
    """The optional arguments of a message: its blocks, its metadata."""
    return ({"blocks": message.blocks} if message.blocks else {}) | ({"metadata": metadata} if metadata else {})


async def unless_uninstalled(posting: Awaitable[None], what: str) -> None:
    """Await ``posting``, unless its workspace uninstalled the app meanwhile: then ``what`` it was
    posting can no longer be shown anywhere, and one log line says so (nothing stays in the outbox)."""
    try:
        await posting
    except NotInstalled as exc:
        log.warning("%s was not posted: %s", what, exc)
