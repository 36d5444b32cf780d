"""A settled confirmation card's last line in Slack (see :mod:`genie_bot.adapters.outcomes`)."""

from __future__ import annotations

from genie_bot.adapters.outcomes import ClickResult
from genie_bot.engine import ClickOutcome

from .mrkdwn import to_mrkdwn

_ICONS = {ClickOutcome.DONE: ":white_check_mark:", ClickOutcome.ERROR: ":x:",
          ClickOutcome.CANCELLED: ":heavy_multiplication_x:", ClickOutcome.STALE: ":hourglass:"}


def card_line(result: ClickResult, user: str) -> str:
    """The card's last line once settled, in mrkdwn; a call made shows what it gave, quoted."""
    word, rest = result.headline(f"<@{user}>")
    line = f"{_ICONS[result.outcome]} *{word}*{rest}"
    if result.result_text is None:
        return line
    return line + "\n" + "\n".join(f">{text}" for text in to_mrkdwn(result.result_text).split("\n"))
