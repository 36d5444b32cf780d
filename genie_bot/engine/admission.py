"""How many turns may run at once in this process: ``engine.turn_threads`` at most, fewer while
the event loop is late.

The turns' Python work and the event loop share one GIL. A turn spends most of its time waiting
for the LLM, so many may run at once; but once the process is CPU-bound, every further running
turn only slows the others down and starves the event loop, and the event loop is what
acknowledges Slack (within 3 s, or Slack retries and eventually drops the message). Measured
with the load test at saturation: 64 turn threads, ack p50 2.7 s; 24, ack p50 6.5 ms at the same
turns per second. No fixed number is right for every LLM latency, so the limit adapts: it shrinks
by a fifth at every tick the loop is late, and grows by one at every tick it is on time.
Turns beyond the limit wait for a slot, first come first served (they would have waited for the
CPU anyway).
"""

from __future__ import annotations

import asyncio
from collections import deque
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager

TICK_SECONDS = 0.1
LATE_SECONDS = 0.05
"""The loop is late when a 100 ms sleep overshoots by this much (an acknowledgement waits about that long)."""
ON_TIME_SECONDS = 0.01
MINIMUM = 4


class TurnAdmission:
    def __init__(self, maximum: int):
        self.maximum = maximum
        self.limit = maximum
        self.running = 0
        self._waiting: deque[asyncio.Future[None]] = deque()

    @asynccontextmanager
    async def slot(self) -> AsyncIterator[None]:
        """Hold one of the slots while a turn runs; wait in line while none is free."""
        if self.running < self.limit and not self._waiting:
            self.running += 1
        else:
            handed: asyncio.Future[None] = asyncio.get_running_loop().create_future()
            self._waiting.append(handed)
            try:
                await handed
            except asyncio.CancelledError:
                if handed.done() and not handed.cancelled():  # the slot came with the cancellation
                    self._release()
                raise
        try:
            yield
        finally:
            self._release()

    def observe(self, lag_seconds: float) -> None:
        """Adapt the limit to how late the event loop was at the last tick."""
        if lag_seconds > LATE_SECONDS:
            self.limit = max(min(MINIMUM, self.maximum), int(self.limit * 0.8))
        elif lag_seconds < ON_TIME_SECONDS:
            self.limit = min(self.maximum, self.limit + 1)
            self._hand_over()

    async def watch(self) -> None:
        """Measure the event loop's lateness every tick, for ever (run it as a task)."""
        loop = asyncio.get_running_loop()
        while True:
            started = loop.time()
            await asyncio.sleep(TICK_SECONDS)
            self.observe(loop.time() - started - TICK_SECONDS)

    def _release(self) -> None:
        self.running -= 1
        self._hand_over()

    def _hand_over(self) -> None:
        """Give free slots to the turns waiting longest."""
        while self._waiting and self.running < self.limit:
            handed = self._waiting.popleft()
            if not handed.done():  # a cancelled waiter is skipped
                self.running += 1
                handed.set_result(None)
