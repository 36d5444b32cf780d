"""Strategy: a short reply that is a typed answer to another open field than the one asked.

The user answered a question the agent did not ask ("walk" when asked where to go, "3" when
asked whether to go on): it counts when exactly one unfilled field of a distinctive type (not
free text, not yes/no) reads it as a whole answer.
"""

from __future__ import annotations

from .evidence import proposal
from .proposals import Proposal
from .reading import Reading
from .values import short_reply_readers
from .volunteered import opened


def propose(reading: Reading) -> list[Proposal]:
    """Matcher: a short typed answer to an open field other than the one asked."""
    scratch = reading.fresh()
    found = answers_another_field(scratch)
    if not found:
        return []
    extended = opened(scratch)
    return [proposal(scratch, "other_field", found + [s for s, _ in extended], 0.0,
                     slots=frozenset(slot for _, slot in extended), phase=3)]


def answers_another_field(reading: Reading) -> list[str]:
    found = short_reply_readers(reading)
    return [reading.assign(*found[0])] if len(found) == 1 else []
