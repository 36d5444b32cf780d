"""Threads the bot answers in: a message there is for the bot even without a mention.

A thread the bot created is its own (``owner_id``). Any other thread becomes its own once it
answered there (someone mentioned it in a forum post or in a thread they opened): remembered
when it posts there, and, for a thread this process has not seen yet (after a restart), told
by the engine, which has a session for it. Every answer is kept (bounded), so a busy thread
the bot is not in costs one database read, not one per message; a guild's events all reach
one process (its shard), so nothing else can make the bot answer there meanwhile.
"""

from __future__ import annotations

from collections import OrderedDict

import discord

from genie_bot.engine import Engine

from .sessions import session_key


class BotThreads:
    def __init__(self, capacity: int = 10_000):
        self.capacity = capacity
        self._known: OrderedDict[int, bool] = OrderedDict()

    def add(self, thread_id: int) -> None:
        """The bot posts in this thread."""
        self._remember(thread_id, True)

    async def answers_in(self, thread: discord.Thread, engine: Engine) -> bool:
        known = self._known.get(thread.id)
        if known is None:
            known = await engine.has_session(session_key(thread))
            self._remember(thread.id, known or self._known.get(thread.id, False))
        return known or bool(self._known.get(thread.id))

    def _remember(self, thread_id: int, mine: bool) -> None:
        self._known[thread_id] = mine
        self._known.move_to_end(thread_id)
        while len(self._known) > self.capacity:
            self._known.popitem(last=False)
