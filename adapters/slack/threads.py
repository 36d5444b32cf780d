"""Which threads the bot takes part in: a message there is for the bot even without a mention.

Every thread the bot posts in is remembered (most recent first, bounded). A thread it does
not remember, e.g. after a restart, is looked up once in its history
(``conversations.replies``); only positive answers are kept, since the bot may be mentioned
in any thread later and then posts there. The lookup happens before Slack is acknowledged,
so it gives up after :data:`LOOKUP_SECONDS` (and Slack delivers the message again).
"""

from __future__ import annotations

import asyncio
import logging
from collections import OrderedDict

from slack_sdk.errors import SlackApiError
from slack_sdk.web.async_client import AsyncWebClient

log = logging.getLogger(__name__)
LOOKUP_SECONDS = 2.0


class BotThreads:
    def __init__(self, client: AsyncWebClient, capacity: int = 10_000):
        self.client = client
        self.capacity = capacity
        self._known: OrderedDict[tuple[str, str], None] = OrderedDict()

    def add(self, channel: str, thread_ts: str) -> None:
        self._known[(channel, thread_ts)] = None
        self._known.move_to_end((channel, thread_ts))
        while len(self._known) > self.capacity:
            self._known.popitem(last=False)

    def remembers(self, channel: str, thread_ts: str) -> bool:
        return (channel, thread_ts) in self._known

    async def contains(self, channel: str, thread_ts: str, bot_user_id: str) -> bool:
        if self.remembers(channel, thread_ts):
            return True
        try:
            history = await asyncio.wait_for(
                self.client.conversations_replies(channel=channel, ts=thread_ts, limit=200), LOOKUP_SECONDS)
        except SlackApiError as exc:
            log.warning("cannot read thread %s/%s to see whether it is the bot's: %s", channel, thread_ts,
                        exc.response.get("error"))
            return False
        if any(message.get("user") == bot_user_id for message in history.get("messages", [])):
            self.add(channel, thread_ts)
            return True
        return False
