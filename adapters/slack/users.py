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

from .workspaces import NotInstalled, Workspaces

log = logging.getLogger(__name__)
LOOKUP_SECONDS = 2.0


class UserNames:
    def __init__(self, workspaces: Workspaces, capacity: int = 10_000):
        self.workspaces = workspaces
        self.capacity = capacity
        self._names: OrderedDict[tuple[str, str], str] = OrderedDict()
        """By (workspace, user id)."""

    async def of(self, team: str, users: Iterable[str]) -> dict[str, str]:
        """The names of ``users`` of workspace ``team`` that are known or could be looked up in time."""
        users = list(users)
        missing = [user for user in users if (team, user) not in self._names]
        if missing:
            await asyncio.gather(*(self._look_up(team, user) for user in missing))
        return {user: self._names[(team, user)] for user in users if (team, user) in self._names}

    async def _look_up(self, team: str, user: str) -> None:
        try:
            client = (await self.workspaces.get(team)).client
            info = (await asyncio.wait_for(client.users_info(user=user), LOOKUP_SECONDS))["user"]
        except (SlackApiError, TimeoutError, NotInstalled) as exc:
            reason = exc.response.get("error") if isinstance(exc, SlackApiError) else str(exc) or "no answer in time"
            log.warning("cannot look up the name of %s: %s", user, reason)
            return
        profile = info.get("profile") or {}
        self._names[(team, user)] = profile.get("display_name") or profile.get("real_name") or info.get("name") or user
        self._names.move_to_end((team, user))
        while len(self._names) > self.capacity:
            self._names.popitem(last=False)
