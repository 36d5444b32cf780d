"""Which threads the bot takes part in: a message there is for the bot even without a mention.

Every thread the bot posts in is remembered (most recent first, bounded); so is every thread
the engine has a session for (whichever process posted there). A thread known to neither
may still be the bot's (its sessions were purged, say), which only its history tells
(``conversations.replies``). That method is scarce (Slack allows non-Marketplace apps about
one call a minute), so each thread is looked up at most once, its answer kept either way,
and never before Slack is acknowledged: the message is acknowledged first and recorded
after the lookup. A thread found not to be the bot's becomes its own as soon as the bot
posts there (someone mentions it), in this process or, as its session then tells, another.
"""

from __future__ import annotations

import asyncio
import logging
from typing import Any
from collections import OrderedDict

from slack_sdk.errors import SlackApiError

from .workspaces import NotInstalled, Workspaces

log = logging.getLogger(__name__)

Thread = tuple[str, str, str]
"""(team, channel, thread_ts)"""


class BotThreads:
    def __init__(self, workspaces: Workspaces, capacity: int = 10_000):
        self.workspaces = workspaces
        self.capacity = capacity
        self._known: OrderedDict[Thread, bool] = OrderedDict()
        """Threads looked up or posted in: whether each is the bot's."""
        self._looking: dict[Thread, asyncio.Future[bool]] = {}
        """Lookups under way: the messages of a thread arriving meanwhile wait for the same answer."""

    def add(self, team: str, channel: str, thread_ts: str) -> None:
        """The bot posts in this thread (or has a session there): it is the bot's."""
        self._remember((team, channel, thread_ts), True)

    def known(self, team: str, channel: str, thread_ts: str) -> bool | None:
        """Whether the thread is the bot's, as far as this process knows; None if it does not know."""
        return self._known.get((team, channel, thread_ts))

    async def look_up(self, team: str, channel: str, thread_ts: str, bot_user_id: str) -> bool:
        """Whether the bot has posted in the thread, from its history (once per thread; call it after
        Slack was acknowledged). A failed lookup answers no, and is not kept."""
        thread = (team, channel, thread_ts)
        known = self.known(*thread)
        if known is not None:
            return known
        if thread not in self._looking:
            self._looking[thread] = asyncio.ensure_future(self._look_up(thread, bot_user_id))
            self._looking[thread].add_done_callback(lambda _: self._looking.pop(thread, None))
        return await asyncio.shield(self._looking[thread])

    async def _look_up(self, thread: Thread, bot_user_id: str) -> bool:
        team, channel, thread_ts = thread
        try:
            client = (await self.workspaces.get(team)).client
            history = await client.conversations_replies(channel=channel, ts=thread_ts, limit=200)
        except (SlackApiError, NotInstalled) as exc:
            log.warning("cannot read thread %s/%s to see whether it is the bot's: %s", channel, thread_ts,
                        exc.response.get("error") if isinstance(exc, SlackApiError) else exc)
            return False
        messages: list[dict[str, Any]] = history.get("messages", [])
        mine = any(message.get("user") == bot_user_id for message in messages)
        if self.known(*thread) is None:  # the bot may have posted there meanwhile
            self._remember(thread, mine)
        return self.known(*thread) or mine

    def _remember(self, thread: Thread, mine: bool) -> None:
        self._known[thread] = mine
        self._known.move_to_end(thread)
        while len(self._known) > self.capacity:
            self._known.popitem(last=False)
