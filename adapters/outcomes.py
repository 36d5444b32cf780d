"""What a Confirm / Cancel click came to, as the engine reports it (``Reply.outcome``), in the
words every platform shows on the settled card.

A click that changed nothing is answered to the clicker alone and leaves the card as it is:
refused (not the owner's click, an action already finished), failed (the turn failed), or
deferred (the store is away: the click runs later, and its outcome is posted then). Anything
else settled the action, and the card says what really happened: done (the call went
through), failed (the call was made and failed), cancelled, or no longer valid (expired,
superseded by other details or by a reload of the agent, interrupted). A card never says
"done" for a call that did not go through.
"""

from __future__ import annotations

from dataclasses import dataclass

from genie_bot.engine import ClickOutcome, Reply

SETTLING = (ClickOutcome.DONE, ClickOutcome.ERROR, ClickOutcome.CANCELLED, ClickOutcome.STALE)


@dataclass(frozen=True)
class ClickResult:
    outcome: ClickOutcome
    replies: list[Reply]

    @classmethod
    def of(cls, replies: list[Reply]) -> "ClickResult":
        """The outcome of a click answered (not a duplicate delivery) with ``replies``."""
        return cls(replies[0].outcome or ClickOutcome.FAILED, replies)

    @property
    def settles_card(self) -> bool:
        return self.outcome in SETTLING

    def headline(self, who: str) -> tuple[str, str]:
        """The settled card's outcome as (its word, what follows it), e.g. ``("Done", " (confirmed by
        @ann)")``; ``who`` is the clicker as the platform mentions people."""
        detail = self.replies[0].outcome_detail
        return {
            ClickOutcome.DONE: ("Done", f" (confirmed by {who})"),
            ClickOutcome.ERROR: ("Failed", f" (confirmed by {who}); nothing was done"),
            ClickOutcome.CANCELLED: ("Cancelled", f" by {who}"),
        }.get(self.outcome, ("No longer valid", f" ({detail})" if detail else ""))

    @property
    def result_text(self) -> str | None:
        """What the call gave (the reply's first paragraph), for a card settled by a call made."""
        if self.outcome in (ClickOutcome.DONE, ClickOutcome.ERROR):
            return self.replies[0].text.split("\n\n", 1)[0]
        return None
