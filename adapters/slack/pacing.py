"""Posting at the pace Slack allows: about one message per second per channel, in short bursts.

Slack answers messages posted faster with HTTP 429 (and the Web API client then waits as long
as ``Retry-After`` says, see :mod:`.adapter`); pacing keeps a busy channel from getting there.
Each channel has a burst allowance that refills at one message per second (the "generic cell
rate" form of a token bucket): a turn's placeholder and a few messages go out at once, a
longer sequence is spread out. Each post reserves its slot before it waits, so posts leave in
the order they asked. The clock and the sleep are injectable, so tests need not wait.
"""

from __future__ import annotations

import asyncio
import time
from collections import OrderedDict
from collections.abc import Awaitable, Callable, Hashable

PER_SECOND = 1.0
BURST = 4


class ChannelPacer:
    def __init__(self, per_second: float = PER_SECOND, burst: int = BURST, *,
                 clock: Callable[[], float] = time.monotonic,
                 sleep: Callable[[float], Awaitable[None]] = asyncio.sleep, capacity: int = 10_000):
        self.interval = 1.0 / per_second
        self.burst = burst
        self.clock = clock
        self.sleep = sleep
        self.capacity = capacity
        self._next: OrderedDict[Hashable, float] = OrderedDict()
        """Per channel (any key naming one, e.g. its workspace and id), when its allowance is whole again
        (the theoretical arrival time)."""

    def reserve(self, channel: Hashable) -> float:
        """Take the next slot of ``channel``; returns how many seconds to wait before posting."""
        now = self.clock()
        full_at = max(self._next.pop(channel, now), now)
        self._next[channel] = full_at + self.interval
        while len(self._next) > self.capacity:
            self._next.popitem(last=False)
        return max(0.0, full_at - (self.burst - 1) * self.interval - now)

    async def wait(self, channel: Hashable) -> None:
        """Return when a message may be posted to ``channel``."""
        delay = self.reserve(channel)
        if delay > 0:
            await self.sleep(delay)
