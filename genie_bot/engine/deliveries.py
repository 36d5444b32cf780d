"""Deliveries of the same event to this process, recorded once.

A platform delivers an event again when its acknowledgement came late (Slack retries after
3 s, 1 min and 5 min), and a process is late exactly when it is overloaded: every retry
costing another database write would feed the overload. So the events this process
recorded in the last minutes (or is recording right now) are remembered: a repeated
delivery waits for the first one's recording and is then known as a duplicate without
touching the database. A recording that failed is forgotten, so the platform's next
delivery tries again; anything older is left to the database (the inbox's event ids).
"""

from __future__ import annotations

import asyncio
import datetime as dt
from collections import OrderedDict
from collections.abc import Awaitable, Callable

Key = tuple[str, str]
REMEMBERED_FOR = dt.timedelta(minutes=10)
"""Longer than Slack's last retry (5 minutes after the first delivery)."""


class RecentDeliveries:
    def __init__(self, clock: Callable[[], dt.datetime], capacity: int = 10_000):
        self.clock = clock
        self.capacity = capacity
        self._recorded: OrderedDict[Key, tuple[dt.datetime, asyncio.Future[bool]]] = OrderedDict()

    async def record_once(self, key: Key, record: Callable[[], Awaitable[bool]]) -> bool:
        """``await record()`` for the first delivery of ``key``: True if new. A repeated delivery
        (while the first records, or after) gives False; if the first one's recording failed, it records."""
        now = self.clock()
        known = self._recorded.get(key)
        if known is not None and known[0] > now - REMEMBERED_FOR:
            try:
                await asyncio.shield(known[1])
                return False
            except Exception:  # noqa: BLE001 - the first delivery failed (and reported it): try again
                pass
        done: asyncio.Future[bool] = asyncio.get_running_loop().create_future()
        self._remember(key, now, done)
        try:
            new = await record()
        except BaseException as exc:
            self._recorded.pop(key, None)
            done.set_exception(exc)
            done.exception()  # retrieved: the caller of this delivery reports it
            raise
        done.set_result(new)
        return new

    def _remember(self, key: Key, now: dt.datetime, future: asyncio.Future[bool]) -> None:
        self._recorded[key] = (now, future)
        self._recorded.move_to_end(key)
        while len(self._recorded) > self.capacity:
            self._recorded.popitem(last=False)
