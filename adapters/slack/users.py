"""The names of users a message mentions: Slack sends ``<@U0G9QF9C6>``, the agent should read "@Ann".

Names come from ``users.info`` (the profile's display name, else the real name, else the
handle) and are kept (bounded, most recent first): a workspace's names rarely change, and
each message is read before Slack is acknowledged, so a lookup may take at most
:data:`LOOKUP_SECONDS`; one that fails or is late leaves the id, and is tried again next time.
"""

from __future__ import annotations

import asyncio
import logging
from collections import OrderedDict
from collections.abc import Iterable

from slack_sdk.errors import SlackApiError
from slack_sdk.web.async_client import AsyncWebClient

log = logging.getLogger(__name__)
LOOKUP_SECONDS = 2.0


class UserNames:
    def __init__(self, client: AsyncWebClient, capacity: int = 10_000):
        self.client = client
        self.capacity = capacity
        self._names: OrderedDict[str, str] = OrderedDict()

    async def of(self, users: Iterable[str]) -> dict[str, str]:
        """The names of ``users`` that are known or could be looked up in time."""
        users = list(users)
        missing = [user for user in users if user not in self._names]
        if missing:
            await asyncio.gather(*(self._look_up(user) for user in missing))
        return {user: self._names[user] for user in users if user in self._names}

    async def _look_up(self, user: str) -> None:
        try:
            info = (await asyncio.wait_for(self.client.users_info(user=user), LOOKUP_SECONDS))["user"]
        except (SlackApiError, TimeoutError) as exc:
            log.warning("cannot look up the name of %s: %s", user,
                        exc.response.get("error") if isinstance(exc, SlackApiError) else "no answer in time")
            return
        profile = info.get("profile") or {}
        self._names[user] = profile.get("display_name") or profile.get("real_name") or info.get("name") or user
        self._names.move_to_end(user)
        while len(self._names) > self.capacity:
            self._names.popitem(last=False)
