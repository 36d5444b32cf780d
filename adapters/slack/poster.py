"""Posting into a session's place: a progress placeholder, then the replies that replace it.

A turn can take seconds (an LLM, an API call), so before it runs the bot posts a short
"thinking" message where it will answer; the first reply message then *replaces* that
placeholder (``chat.update``) and the others follow it (``chat.postMessage``). A turn with
nothing to say (a duplicate delivery, a refused click answered privately) deletes it.
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from typing import Any

from slack_sdk.web.async_client import AsyncWebClient

from genie_bot.engine import Reply

from .blocks import SlackMessage, reply_messages
from .sessions import Place
from .threads import BotThreads

THINKING = ":hourglass_flowing_sand: _Thinking…_"
Respond = Callable[..., Awaitable[Any]]
"""Bolt's ``respond``: posts to the ``response_url`` of a click or a command (ephemeral answers)."""


class Poster:
    def __init__(self, client: AsyncWebClient, threads: BotThreads):
        self.client = client
        self.threads = threads

    async def placeholder(self, place: Place) -> str:
        """Post the "thinking" message; return its ``ts`` for :meth:`post` or :meth:`discard`."""
        return await self._post(place, SlackMessage(THINKING))

    async def post(self, place: Place, replies: list[Reply], placeholder: str | None = None) -> None:
        messages = [message for reply in replies for message in reply_messages(reply)]
        if placeholder is not None:
            if not messages:
                await self.discard(place, placeholder)
                return
            await self.update(place.channel, placeholder, messages.pop(0))
        for message in messages:
            await self._post(place, message)

    async def discard(self, place: Place, placeholder: str) -> None:
        await self.client.chat_delete(channel=place.channel, ts=placeholder)

    async def update(self, channel: str, ts: str, message: SlackMessage) -> None:
        await self.client.chat_update(channel=channel, ts=ts, text=message.text, **_blocks(message))

    async def _post(self, place: Place, message: SlackMessage) -> str:
        response = await self.client.chat_postMessage(channel=place.channel, thread_ts=place.thread_ts,
                                                      text=message.text, **_blocks(message))
        if place.thread_ts:
            self.threads.add(place.channel, place.thread_ts)
        return response["ts"]


def _blocks(message: SlackMessage) -> dict[str, list]:
    return {"blocks": message.blocks} if message.blocks else {}
