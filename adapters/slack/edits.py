"""Edited messages (``message_changed`` events): answered with a note, never run as a turn
(see :mod:`genie_bot.adapters.incoming`).

A note is posted where the conversation is when a person changed the text of a message the
bot read: any message of a DM, a message that mentioned the bot, a message in a thread the
bot takes part in. Slack also sends ``message_changed`` for what is no edit of words (a link
unfurled, a file added) and for the bot's own updates of its messages: those are ignored, and
so is each edit after its first note (retries, or the same edit seen twice).
"""

from __future__ import annotations

from collections import OrderedDict
from dataclasses import dataclass
from typing import Any

from genie_bot.adapters.incoming import EDIT_NOT_APPLIED
from genie_bot.engine import Engine, Reply, SessionKey

from .poster import Poster
from .sessions import Place, is_direct_message, session_key
from .threads import BotThreads

EDITS_KEPT = 10_000
"""Edits already answered (the most recent): a retried event gets no second note."""


@dataclass(frozen=True)
class Edit:
    key: SessionKey
    """The session of the edited message."""
    edit: tuple[str, str, str]
    """(channel, the message's ts, the edit's ts): one edit."""
    mentioned_bot: bool
    in_thread: bool


def edit_of(body: dict[str, Any], bot_user_id: str) -> Edit | None:
    """The edit a ``message_changed`` callback ``body`` brings, if a person changed a message's words."""
    event = body["event"]
    if event.get("subtype") != "message_changed":
        return None
    new, old = event.get("message") or {}, event.get("previous_message") or {}
    if "bot_id" in new or new.get("user") in (None, bot_user_id) or "edited" not in new or \
            new.get("text") == old.get("text"):
        return None
    channel, ts, thread_ts = event["channel"], new["ts"], new.get("thread_ts")
    return Edit(session_key(body["team_id"], channel, ts, thread_ts), (channel, ts, new["edited"].get("ts", "")),
                f"<@{bot_user_id}>" in old.get("text", ""), bool(thread_ts) and thread_ts != ts)


class EditNotes:
    def __init__(self, engine: Engine, poster: Poster, threads: BotThreads):
        self.engine = engine
        self.poster = poster
        self.threads = threads
        self._answered: OrderedDict[tuple[str, str, str], None] = OrderedDict()

    async def answer(self, edit: Edit) -> None:
        """Post the note, if the message was the bot's to read and this edit was not answered yet."""
        if edit.edit in self._answered or not await self._was_read(edit):
            return
        self._answered[edit.edit] = None
        while len(self._answered) > EDITS_KEPT:
            self._answered.popitem(last=False)
        await self.poster.post(Place.of(edit.key), [Reply(EDIT_NOT_APPLIED)])

    async def _was_read(self, edit: Edit) -> bool:
        if is_direct_message(edit.key.channel) or edit.mentioned_bot:
            return True
        return edit.in_thread and (bool(self.threads.known(edit.key.workspace, edit.key.channel, edit.key.thread))
                                   or await self.engine.has_session(edit.key))
