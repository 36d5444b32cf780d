"""How many turns may compute at once in this process: :data:`MINIMUM` to :data:`MAXIMUM`; any
number may wait for their LLM calls meanwhile (up to ``engine.turn_threads`` turns in all).

The turns' Python work and the event loop share one GIL. A turn spends most of its time waiting
for the LLM, when it needs no CPU at all; between its calls it computes (claiming, parsing,
applying, committing). Turns that compute at once only queue for the GIL beyond a few, and every
one of them makes the event loop, which acknowledges Slack (within 3 s, or Slack retries and
eventually drops the message), wait longer for its turn at the interpreter. So a turn holds one
of a few computing slots while it computes and gives it back while it waits for a completion
(:func:`genie_bot.llm.waiting`, which the LLM client calls): the CPU stays busy whatever the
LLM's latency, however many turns are waiting for it, and the event loop waits behind a few
turns only.

How many is a trade: a turn also waits while it computes (for the database, SQLite's write
lock, the sandbox), and slots held by waiting turns leave the CPU idle, so more slots give more
turns per second (the throughput benchmark on SQLite: 109-119 turns/s with 4, 135 with 16); but
every slot is one more thread ahead of the event loop at the interpreter (the load test at 200
users, Slack acknowledgements: p99 586 ms with 4 slots, 1.6 s with 8, 2.3 s with 16, where Slack
retries after 3 s). So the limit starts at :data:`MINIMUM` and grows by one at every tick the
event loop is on time while turns wait for a slot, up to :data:`MAXIMUM`; at every tick it is
late it shrinks by one, never below :data:`MINIMUM`, so a machine busy with other work (whose
loop is late whatever this process does) still keeps :data:`MINIMUM` turns computing.

An earlier version limited the turns *running* (waiting for the LLM included), shrinking the
limit while the event loop was late. On a machine busy with other work the loop is late
whatever this process does: in the load test with 200 users on a shared machine the limit sat
between 4 and 29 of 64 turns while the bot used 0.2 to 0.7 of a core, and its replies queued.

Slots are handed over in order: a turn coming back from its LLM call first (it is closer to its
reply and holds its session's lease), then new turns, first come first served.
"""

from __future__ import annotations

import asyncio
import threading
from collections import deque
from collections.abc import Iterator
from contextlib import contextmanager

MINIMUM = 4
"""Turns computing at once, at least: enough to keep the GIL busy while some of them wait."""
MAXIMUM = 16
TICK_SECONDS = 0.1
LATE_SECONDS = 0.05
"""The loop is late when a 100 ms sleep overshoots by this much (an acknowledgement waits about that long)."""
ON_TIME_SECONDS = 0.01


class TurnAdmission:
    def __init__(self, limit: int = MINIMUM, maximum: int = MAXIMUM):
        self.limit = limit
        self.minimum = limit
        self.maximum = max(limit, maximum)
        self.computing = 0
        self._lock = threading.Lock()
        self._resuming: deque[threading.Lock] = deque()
        self._starting: deque[threading.Lock] = deque()

    @property
    def waiting(self) -> int:
        """Turns waiting for a slot (new ones, and ones back from their LLM calls)."""
        return len(self._resuming) + len(self._starting)

    @contextmanager
    def turn(self) -> Iterator[None]:
        """Hold a slot while this thread computes a turn (blocking until one is free); see :meth:`waits`."""
        self._take(self._starting)
        try:
            yield
        finally:
            self._give()

    @contextmanager
    def waits(self) -> Iterator[None]:
        """Inside :meth:`turn`: give the slot back while this thread waits, and take one again after,
        before any new turn."""
        self._give()
        try:
            yield
        finally:
            self._take(self._resuming)

    def observe(self, lag_seconds: float) -> None:
        """Adapt the limit to how late the event loop was at the last tick (see the module's docstring)."""
        with self._lock:
            if lag_seconds > LATE_SECONDS:
                self.limit = max(self.minimum, self.limit - 1)
            elif lag_seconds < ON_TIME_SECONDS and self.waiting and self.limit < self.maximum:
                self.limit += 1
                self._hand_over()

    async def watch(self) -> None:
        """Measure the event loop's lateness every tick, for ever (run it as a task)."""
        loop = asyncio.get_running_loop()
        while True:
            started = loop.time()
            await asyncio.sleep(TICK_SECONDS)
            self.observe(loop.time() - started - TICK_SECONDS)

    def _take(self, line: deque[threading.Lock]) -> None:
        with self._lock:
            if self.computing < self.limit and not self.waiting:
                self.computing += 1
                return
            handed = threading.Lock()
            handed.acquire()
            line.append(handed)
        handed.acquire()  # released by _give or observe, with a slot

    def _give(self) -> None:
        with self._lock:
            self.computing -= 1
            self._hand_over()

    def _hand_over(self) -> None:
        """Give free slots to the turns waiting longest, those back from their LLM calls first (holding the lock)."""
        while self.computing < self.limit and self.waiting:
            self.computing += 1
            (self._resuming or self._starting).popleft().release()
