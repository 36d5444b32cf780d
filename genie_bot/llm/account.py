"""The token and latency account: one record per LLM call, successful or not.

A bot runs for weeks, so only the latest ``keep`` records are kept; the totals per role
cover every call since start-up.
"""

from __future__ import annotations

import threading
from collections import deque
from dataclasses import dataclass

KEEP = 10_000
_TOTALS = ("calls", "errors", "prompt_tokens", "completion_tokens", "latency_ms")


@dataclass(frozen=True)
class CallRecord:
    role: str
    model: str
    prompt_tokens: int
    completion_tokens: int
    latency_ms: float
    retries: int = 0
    error: str | None = None
    """The failure kind (timeout, status, malformed, empty...), or None for a good completion."""


class Account:
    """Thread-safe; turns run in threads and share one client."""

    def __init__(self, keep: int = KEEP) -> None:
        self._lock = threading.Lock()
        self._records: deque[CallRecord] = deque(maxlen=keep)
        self._count = 0
        self._totals: dict[str, dict[str, float]] = {}

    def add(self, record: CallRecord) -> None:
        with self._lock:
            self._records.append(record)
            self._count += 1
            totals = self._totals.setdefault(record.role, dict.fromkeys(_TOTALS, 0))
            totals["calls"] += 1
            totals["errors"] += record.error is not None
            totals["prompt_tokens"] += record.prompt_tokens
            totals["completion_tokens"] += record.completion_tokens
            totals["latency_ms"] += record.latency_ms

    @property
    def records(self) -> list[CallRecord]:
        """The latest records, oldest first."""
        with self._lock:
            return list(self._records)

    def mark(self) -> int:
        """A position to count from with :meth:`since` (e.g. the start of a turn)."""
        with self._lock:
            return self._count

    def since(self, mark: int) -> list[CallRecord]:
        """The records added after ``mark`` (as many of them as are still kept)."""
        with self._lock:
            newer = self._count - mark
            return list(self._records)[-newer:] if newer > 0 else []

    def totals(self, role: str | None = None) -> dict[str, float]:
        """Calls, errors, tokens and latency since start-up, for one role or all of them."""
        with self._lock:
            per_role = [t for r, t in self._totals.items() if role is None or r == role]
            return {key: sum(t[key] for t in per_role) for key in _TOTALS}
