"""``/genie``: which conversation and which caller, then the engine's admin commands.

Permissions are the engine's (:func:`genie_bot.engine.admin.run_admin_command`); this module
only says who is asking (with ``workspace_admins``, a Slack workspace admin or owner counts
as a platform admin) and which conversation is meant. Slack does not allow slash commands in
threads, so ``reset`` and ``state`` act on the DM they are typed in, or, in a channel, on the
thread whose link follows them (a message's "Copy link" in the thread); ``agents`` tells
which agent answers in the channel. Replies are ephemeral.
"""

from __future__ import annotations

import logging
import re
from typing import Any

from slack_sdk.errors import SlackApiError

from genie_bot.adapters.text import split_message
from genie_bot.engine import Engine, SessionKey
from genie_bot.engine.admin import Caller, run_admin_command

from .mrkdwn import to_mrkdwn
from .poster import Respond
from .sessions import PLATFORM, is_direct_message, session_key
from .workspaces import Workspaces

log = logging.getLogger(__name__)

THREAD_LINK = re.compile(r"/archives/(?P<channel>[A-Z0-9]+)/p(?P<seconds>\d{10})(?P<micros>\d{6})"
                         r"(?:\?\S*?thread_ts=(?P<thread_ts>\d+\.\d+))?")
PER_CONVERSATION = frozenset({"reset", "state"})
RESPONSE_LIMIT = 3000
MAX_RESPONSES = 5
"""A ``response_url`` takes at most five messages."""


def conversation(command: dict[str, Any]) -> SessionKey | None:
    """The session ``command`` is about; None when it needs a thread link and has none."""
    team, channel, text = command["team_id"], command["channel_id"], command.get("text", "")
    name = text.strip().split(" ", 1)[0].lower()
    link = THREAD_LINK.search(text)
    if link:
        return session_key(team, link["channel"], f"{link['seconds']}.{link['micros']}", link["thread_ts"])
    if name in PER_CONVERSATION and not is_direct_message(channel):
        return None
    return SessionKey(PLATFORM, team, channel)  # a whole DM's session; in a channel, what routing sees


class GenieCommand:
    def __init__(self, engine: Engine, workspaces: Workspaces, workspace_admins: bool):
        self.engine = engine
        self.workspaces = workspaces
        self.workspace_admins = workspace_admins

    async def answer(self, command: dict[str, Any], respond: Respond) -> None:
        for text in await self._responses(command):
            await respond(text=text, response_type="ephemeral")

    async def _responses(self, command: dict[str, Any]) -> list[str]:
        """The ephemeral messages (mrkdwn) answering ``command``."""
        key = conversation(command)
        if key is None:
            name = command["text"].split()[0]
            text = (f"Slash commands cannot be used inside threads, so tell me which conversation: copy the link "
                    f"of a message in its thread and run `{command['command']} {name} <link>`.")
        else:
            caller = Caller(PLATFORM, command["user_id"],
                            await self._workspace_admin(command["team_id"], command["user_id"]))
            text = await run_admin_command(self.engine, caller, key, command.get("text", ""))
        return split_message(to_mrkdwn(text), RESPONSE_LIMIT)[:MAX_RESPONSES]

    async def _workspace_admin(self, team: str, user: str) -> bool:
        if not self.workspace_admins:
            return False
        try:
            client = (await self.workspaces.get(team)).client
            info = (await client.users_info(user=user))["user"]
        except SlackApiError as exc:  # e.g. missing_scope: the app lacks users:read
            log.warning("cannot tell whether %s is a workspace admin: %s", user, exc.response.get("error"))
            return False
        return bool(info.get("is_admin") or info.get("is_owner"))
