"""When the replies waiting in the outbox are posted again, with backoff.

A turn's replies stay in the outbox (``genie_events.delivered_at`` empty) until the adapter
says it posted them (:meth:`Engine.delivered`). They are posted again, as notifications with
their event id and part (so the adapter skips what is already in the conversation), when:

- the process that ran the turn died: at once, by whichever process notices;
- the adapter of this process could not post them (:meth:`Engine.delivery_failed`: the
  platform was down, or kept answering "rate limited" beyond the client's own retries):
  after :data:`FIRST_RETRY`, then twice as long each time up to :data:`LONGEST_RETRY`;
- the adapter got them and said nothing for :data:`HAND_OFF_GRACE` (its task died): then
  they count as not posted. That grace is longer than posting ever takes, paced and
  rate-limited, so a reply is not posted twice while its first posting is still under way.

A live process thus never leaves a reply silently unposted, and never posts one twice at once.
The schedule lives in memory: after a restart, the process is a dead one and its replies are
posted at once by the others.
"""

from __future__ import annotations

import datetime as dt
from collections import OrderedDict
from collections.abc import Callable

Key = tuple[str, str]
"""(platform, event id)"""

FIRST_RETRY = dt.timedelta(seconds=5)
LONGEST_RETRY = dt.timedelta(minutes=5)
HAND_OFF_GRACE = dt.timedelta(minutes=2)


class RetrySchedule:
    """When each reply of this process that is out of the outbox's hands may be posted again."""

    def __init__(self, clock: Callable[[], dt.datetime], capacity: int = 100_000):
        self.clock = clock
        self.capacity = capacity
        self._due: OrderedDict[Key, dt.datetime] = OrderedDict()
        self._failures: dict[Key, int] = {}

    def handed(self, key: Key) -> None:
        """The adapter got the replies of ``key`` to post."""
        self._set(key, self.clock() + HAND_OFF_GRACE)

    def delivered(self, key: Key) -> None:
        self._due.pop(key, None)
        self._failures.pop(key, None)

    def failed(self, key: Key) -> dt.timedelta:
        """Posting the replies of ``key`` failed (again); returns how long until the next try."""
        failures = self._failures.get(key, 0) + 1
        self._failures[key] = failures
        wait = min(FIRST_RETRY * 2 ** (failures - 1), LONGEST_RETRY)
        self._set(key, self.clock() + wait)
        return wait

    def failures(self, key: Key) -> int:
        return self._failures.get(key, 0)

    def due(self, key: Key, not_before: dt.datetime | None = None) -> bool:
        """Whether the replies of ``key`` may be posted now; ``not_before`` applies when nothing
        was scheduled for them (e.g. replies finished here whose caller never got them)."""
        at = self._due.get(key, not_before)
        return at is None or at <= self.clock()

    def _set(self, key: Key, at: dt.datetime) -> None:
        self._due[key] = at
        self._due.move_to_end(key)
        while len(self._due) > self.capacity:
            old, _ = self._due.popitem(last=False)
            self._failures.pop(old, None)
