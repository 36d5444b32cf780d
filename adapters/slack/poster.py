"""Posting into a session's place: a progress placeholder, then the replies that replace it.

A turn can take seconds (an LLM, an API call), so before it runs the bot posts a short
"thinking" message where it will answer; the first reply message then *replaces* that
placeholder (``chat.update``) and the others follow it (``chat.postMessage``). A turn with
nothing to say deletes it. Every message of a turn carries the turn's event id as metadata
(:mod:`.receipts`), so a reply recovered after a crash is never posted twice.
"""

from __future__ import annotations

import logging
from collections.abc import Awaitable, Callable
from typing import Any

from slack_sdk.errors import SlackApiError
from slack_sdk.web.async_client import AsyncWebClient

from genie_bot.engine import Reply

from .blocks import SlackMessage, reply_messages
from .receipts import receipts, reply_metadata, thinking_metadata
from .sessions import Place
from .threads import BotThreads

log = logging.getLogger(__name__)

THINKING = ":hourglass_flowing_sand: _Thinking…_"
Respond = Callable[..., Awaitable[Any]]
"""Bolt's ``respond``: posts to the ``response_url`` of a click or a command (ephemeral answers)."""


class Poster:
    def __init__(self, client: AsyncWebClient, threads: BotThreads):
        self.client = client
        self.threads = threads

    async def placeholder(self, place: Place, event_id: str) -> str | None:
        """Post the "thinking" message of ``event_id``; return its ``ts`` for :meth:`post` or :meth:`discard`,
        or None if Slack refused it (the replies are then posted without one)."""
        try:
            return await self._post(place, SlackMessage(THINKING), thinking_metadata(event_id))
        except SlackApiError as exc:
            log.warning("could not post the placeholder of %s: %s", event_id, exc.response.get("error"))
            return None

    async def post(self, place: Place, replies: list[Reply], placeholder: str | None = None,
                   event_id: str | None = None, first_part: int = 0) -> None:
        """Post ``replies`` (those of ``event_id``, numbered from ``first_part``), the first one
        replacing ``placeholder``."""
        messages = [(message, reply_metadata(event_id, part) if event_id else None)
                    for part, reply in enumerate(replies, start=first_part) for message in reply_messages(reply)]
        if placeholder is not None:
            if not messages:
                await self.discard(place, placeholder)
                return
            await self.update(place.channel, placeholder, *messages.pop(0))
        for message, metadata in messages:
            await self._post(place, message, metadata)

    async def post_recovered(self, place: Place, reply: Reply, event_id: str, part: int) -> None:
        """Post reply ``part`` of ``event_id`` for a process that died, unless that one posted it already."""
        found = await receipts(self.client, place, event_id)
        if part not in found.parts:
            await self.post(place, [reply], found.placeholder if part == 0 else None, event_id, part)

    async def discard(self, place: Place, placeholder: str | None) -> None:
        if placeholder is not None:
            await self.client.chat_delete(channel=place.channel, ts=placeholder)

    async def update(self, channel: str, ts: str, message: SlackMessage, metadata: dict | None = None) -> None:
        await self.client.chat_update(channel=channel, ts=ts, text=message.text, **_blocks(message),
                                      **({"metadata": metadata} if metadata else {}))

    async def _post(self, place: Place, message: SlackMessage, metadata: dict | None = None) -> str:
        response = await self.client.chat_postMessage(channel=place.channel, thread_ts=place.thread_ts,
                                                      text=message.text, **_blocks(message),
                                                      **({"metadata": metadata} if metadata else {}))
        if place.thread_ts:
            self.threads.add(place.channel, place.thread_ts)
        return response["ts"]


def _blocks(message: SlackMessage) -> dict[str, list]:
    return {"blocks": message.blocks} if message.blocks else {}
