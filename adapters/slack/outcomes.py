"""What a Confirm / Cancel click came to, read from the replies the engine gave it.

The engine answers a click with replies only, so the adapter recognises its fixed answers:
a refusal that changed nothing (not the owner's click, or an action already finished) goes
to the clicker alone and leaves the card as it is; anything else settled the action (done,
cancelled, or no longer valid and asked again) and the card shows that outcome. A turn that
failed leaves the card's buttons in place, since the engine changed nothing.
"""

from __future__ import annotations

import enum
import re
from dataclasses import dataclass

from genie_bot.engine import Decision, Reply
from genie_bot.engine.turns import APOLOGY, NOT_OWNER

from .mrkdwn import to_mrkdwn

REFUSALS = frozenset({
    NOT_OWNER,
    # genie_bot/engine/turns.py answers a click on an action that is no longer pending with these:
    "That was already done.",
    "That is being done right now.",
    "That was cancelled.",
    "I can't find that action any more.",
})
_STALE = re.compile(r"^That confirmation is no longer valid \((?P<reason>[^)]*)\)\.")


class Outcome(enum.Enum):
    DONE = "done"
    CANCELLED = "cancelled"
    STALE = "stale"
    """Expired or invalidated: the engine said so and asked again."""
    REFUSED = "refused"
    FAILED = "failed"


@dataclass(frozen=True)
class ClickOutcome:
    outcome: Outcome
    replies: list[Reply]

    @property
    def settles_card(self) -> bool:
        return self.outcome in (Outcome.DONE, Outcome.CANCELLED, Outcome.STALE)

    def card_line(self, user: str) -> str:
        """The card's last line once settled, in mrkdwn; ``done`` shows its result."""
        if self.outcome is Outcome.DONE:
            result = to_mrkdwn(self.replies[0].text.split("\n\n", 1)[0])
            quoted = "\n".join(f">{line}" for line in result.split("\n"))
            return f":white_check_mark: *Done* (confirmed by <@{user}>)\n{quoted}"
        if self.outcome is Outcome.CANCELLED:
            return f":heavy_multiplication_x: *Cancelled* by <@{user}>"
        return f":hourglass: *No longer valid* ({_STALE.match(self.replies[0].text)['reason']})"


def classify(decision: Decision, replies: list[Reply]) -> ClickOutcome:
    """The outcome of a click given ``decision`` and answered (not a duplicate delivery) with ``replies``."""
    first = replies[0]
    if len(replies) == 1 and first.pending_action is None and first.text in REFUSALS:
        outcome = Outcome.REFUSED
    elif first.text == APOLOGY:
        outcome = Outcome.FAILED
    elif _STALE.match(first.text):
        outcome = Outcome.STALE
    else:
        outcome = Outcome.DONE if decision is Decision.CONFIRM else Outcome.CANCELLED
    return ClickOutcome(outcome, replies)
