"""Work that runs after Slack was acknowledged: tracked so that stopping lets it finish, and
started in arrival order per place, so the answers of quick successive messages keep their order."""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Awaitable
from typing import Any

from genie_bot.keyed_locks import KeyedLocks

log = logging.getLogger(__name__)


class Background:
    def __init__(self) -> None:
        self._tasks: set[asyncio.Task] = set()

    def spawn(self, work: Awaitable[Any], name: str) -> None:
        task = asyncio.create_task(_awaited(work), name=name)
        self._tasks.add(task)
        task.add_done_callback(self._done)

    def _done(self, task: asyncio.Task) -> None:
        self._tasks.discard(task)
        if not task.cancelled() and task.exception() is not None:
            log.error("%s failed", task.get_name(), exc_info=task.exception())

    async def drain(self, timeout: float) -> None:
        """Wait up to ``timeout`` seconds for the work in flight, then cancel what is left."""
        if not self._tasks:
            return
        _, late = await asyncio.wait(set(self._tasks), timeout=timeout)
        for task in late:
            log.warning("%s did not finish in time and is cancelled", task.get_name())
            task.cancel()
        await asyncio.gather(*late, return_exceptions=True)


class InOrder(KeyedLocks):
    """One FIFO lock per place: tasks spawned in arrival order pass in that order.

    A turn holds its place's lock only until its "thinking" placeholder is posted, so the
    placeholders (which its replies then replace) appear in the order the messages arrived,
    whatever each task awaited before (a thread lookup); the turns themselves still overlap.
    """

    turn = KeyedLocks.hold


async def _awaited(work: Awaitable[Any]) -> None:
    """``work`` as a coroutine, which a task needs (slack_bolt types ``respond(...)`` as any awaitable)."""
    await work
