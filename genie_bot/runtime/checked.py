"""What checking a parse finds (:mod:`.trials`), as a sandbox worker sends it back."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

from .turn import Update

Batch = Sequence[tuple[Sequence[str], Sequence[str]]]
"""Parses to check: for each, its statements (chunks) and the errors already found in it (syntax)."""


@dataclass
class Checked:
    """The statements kept from a parse, what they change, and why the others were dropped."""

    chunks: list[str] = field(default_factory=list)
    update: Update = field(default_factory=Update)
    effect: int = 0
    dropped: list[str] = field(default_factory=list)
    """One error per statement dropped (syntax or interpreter)."""
    values: dict[tuple[str, str], Any] = field(default_factory=dict)
    """(instance, field) -> the value the kept statements give it."""
    free_text: set[tuple[str, str]] = field(default_factory=set)
    """The (instance, field) of ``values`` that take any text (a rule-based reading may be the leftovers)."""

    @property
    def statements(self) -> str:
        return "\n".join(self.chunks)

    def badness(self) -> tuple[int, int]:
        """Fewer statements dropped first, then more effect."""
        return len(self.dropped), -self.effect
