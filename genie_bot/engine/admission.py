"""How many turns may compute at once in this process: :data:`COMPUTING` at most; any number may
wait for their LLM calls meanwhile (up to ``engine.turn_threads`` turns in all).

The turns' Python work and the event loop share one GIL. A turn spends most of its time waiting
for the LLM, when it needs no CPU at all; between its calls it computes (claiming, parsing,
applying, committing). Turns that compute at once only queue for the GIL beyond a few, and every
one of them makes the event loop, which acknowledges Slack (within 3 s, or Slack retries and
eventually drops the message), wait longer for its turn at the interpreter. So a turn holds one
of a few computing slots while it computes and gives it back while it waits for a completion
(:func:`genie_bot.llm.waiting`, which the LLM client calls): the CPU stays busy whatever the
LLM's latency, however many turns are waiting for it, and the event loop waits behind at most
:data:`COMPUTING` turns.

An earlier version limited the turns *running* (waiting for the LLM included), shrinking the
limit while the event loop was late. On a machine busy with other work the loop is late
whatever this process does: in the load test with 200 users on a shared machine the limit sat
between 4 and 29 of 64 turns while the bot used 0.2 to 0.7 of a core, and its replies queued.

Slots are handed over in order: a turn coming back from its LLM call first (it is closer to its
reply and holds its session's lease), then new turns, first come first served.
"""

from __future__ import annotations

import threading
from collections import deque
from collections.abc import Iterator
from contextlib import contextmanager

COMPUTING = 4
"""Turns computing at once: enough to keep the GIL busy while some of them wait for the database
or the sandbox; more only queue for the GIL, ahead of the event loop."""


class TurnAdmission:
    def __init__(self, limit: int = COMPUTING):
        self.limit = limit
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

    def _take(self, line: deque[threading.Lock]) -> None:
        with self._lock:
            if self.computing < self.limit:
                self.computing += 1
                return
            handed = threading.Lock()
            handed.acquire()
            line.append(handed)
        handed.acquire()  # released by _give, which passes its slot on

    def _give(self) -> None:
        with self._lock:
            line = self._resuming or self._starting
            if line:
                line.popleft().release()
            else:
                self.computing -= 1
