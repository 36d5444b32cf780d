"""What a Confirm / Cancel click came to, as the engine reports it (``Reply.outcome``).

A refusal that changed nothing (not the owner's click, an action already finished) goes to
the clicker alone and leaves the card as it is; a failed turn leaves the buttons in place for
another try; anything else settled the action (done, cancelled, or no longer valid and asked
again) and the card shows that outcome.
"""

from __future__ import annotations

from dataclasses import dataclass

from genie_bot.engine import ClickOutcome, Reply

from .mrkdwn import to_mrkdwn


@dataclass(frozen=True)
class ClickResult:
    outcome: ClickOutcome
    replies: list[Reply]

    @property
    def settles_card(self) -> bool:
        return self.outcome in (ClickOutcome.DONE, ClickOutcome.CANCELLED, ClickOutcome.STALE)

    def card_line(self, user: str) -> str:
        """The card's last line once settled, in mrkdwn; ``done`` shows its result."""
        if self.outcome is ClickOutcome.DONE:
            result = to_mrkdwn(self.replies[0].text.split("\n\n", 1)[0])
            quoted = "\n".join(f">{line}" for line in result.split("\n"))
            return f":white_check_mark: *Done* (confirmed by <@{user}>)\n{quoted}"
        if self.outcome is ClickOutcome.CANCELLED:
            return f":heavy_multiplication_x: *Cancelled* by <@{user}>"
        return f":hourglass: *No longer valid* ({self.replies[0].outcome_detail})"


def classify(replies: list[Reply]) -> ClickResult:
    """The outcome of a click answered (not a duplicate delivery) with ``replies``."""
    return ClickResult(replies[0].outcome or ClickOutcome.FAILED, replies)
