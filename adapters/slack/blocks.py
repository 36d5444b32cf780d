"""Block Kit: engine replies as Slack messages, and the confirmation card before and after a click.

A reply with a pending action becomes a card: the reply's text, a section listing exactly
the values that will be submitted, an actions block with Confirm (``primary``, or ``danger``
with Slack's native confirm dialog when the action is destructive) and Cancel, and a
context line saying when it expires. Both buttons carry the pending action's id, in their
``action_id`` (``genie_confirm:<id>`` / ``genie_cancel:<id>``) and their ``value``, so a click
needs nothing but its own payload to reach the engine: no state in this process, and
buttons keep working after a restart. Once a click settles the action, the card is rebuilt
from the clicked message's own blocks, minus buttons and expiry, plus the outcome.

Limits respected: a section's text is at most 3000 characters, a field 2000, a section
10 fields, a button label 75, a dialog's title 100, its text 300 (the task's title is cut,
never the warning that it cannot be undone) and its buttons 30. A reply is at most
:data:`MOST_MESSAGES` messages, shortened if need be (:func:`~genie_bot.adapters.text.pieces_of`)
rather than posted as a burst that Slack would rate-limit (about one message per second per
channel). Values users typed are escaped (:func:`.mrkdwn.escape`).
"""

from __future__ import annotations

import datetime as dt
import re
from dataclasses import dataclass
from typing import Any

from genie_bot.adapters.text import pieces_of
from genie_bot.engine import Decision, PendingActionView, Reply

from .mrkdwn import escape, to_mrkdwn

SECTION_LIMIT = 3000
MOST_MESSAGES = 4
DIALOG_TEXT_LIMIT = 300
BUTTONS_BLOCK = "genie_buttons"
EXPIRY_BLOCK = "genie_expiry"
OUTCOME_BLOCK = "genie_outcome"
ACTION_ID = re.compile(r"^genie_(confirm|cancel):")
"""Matches the ``action_id`` of both buttons; the group is the :class:`Decision`."""

Block = dict[str, Any]


@dataclass(frozen=True)
class SlackMessage:
    text: str
    """mrkdwn; with blocks, the fallback shown in notifications."""
    blocks: list[Block] | None = None
    action_id: str | None = None
    """The pending action whose Confirm / Cancel card this message is."""


def reply_messages(reply: Reply) -> list[SlackMessage]:
    """The messages of one reply: its text shortened and split within Slack's limits, the last one
    carrying the card."""
    pieces = [p for p in pieces_of(to_mrkdwn(reply.text), SECTION_LIMIT, MOST_MESSAGES) if p.strip()]
    view = reply.pending_action
    if view is None:
        return [SlackMessage(piece) for piece in pieces]
    last = pieces.pop() if pieces else ""
    text = last or escape(view.title)
    return [SlackMessage(piece) for piece in pieces] + [SlackMessage(text, confirmation_card(view, last), view.id)]


def confirmation_card(view: PendingActionView, text: str = "") -> list[Block]:
    blocks = [_section(text)] if text else []
    fields = [_mrkdwn(_clip(f"*{escape(label)}*\n{escape(value)}", 2000)) for label, value in view.summary]
    blocks.append({"type": "section", "text": _mrkdwn(_clip(f"*{escape(view.title)}*", SECTION_LIMIT)),
                   **({"fields": fields[:10]} if fields else {})})
    blocks.extend({"type": "section", "fields": fields[i:i + 10]} for i in range(10, len(fields), 10))
    blocks.append({"type": "actions", "block_id": BUTTONS_BLOCK, "elements": [
        _button(Decision.CONFIRM, view.confirm_label, view.id, "danger" if view.destructive else "primary",
                _dialog(view) if view.destructive else None),
        _button(Decision.CANCEL, view.cancel_label, view.id)]})
    if view.expires_at is not None:
        blocks.append({"type": "context", "block_id": EXPIRY_BLOCK, "elements": [_mrkdwn(_expiry(view.expires_at))]})
    return blocks


def settled_card(blocks: list[Block], outcome: str) -> list[Block]:
    """The clicked card's ``blocks`` without its buttons and expiry, ending with ``outcome`` (mrkdwn)."""
    kept = [b for b in blocks if b.get("block_id") not in (BUTTONS_BLOCK, EXPIRY_BLOCK, OUTCOME_BLOCK)]
    return kept + [{"type": "section", "block_id": OUTCOME_BLOCK, "text": _mrkdwn(_clip(outcome, SECTION_LIMIT))}]


def _button(decision: Decision, label: str, action_id: str, style: str | None = None,
            confirm: Block | None = None) -> Block:
    button: Block = {"type": "button", "action_id": f"genie_{decision.value}:{action_id}",
                     "text": _plain(label, 75), "value": action_id}
    if style:
        button["style"] = style
    if confirm:
        button["confirm"] = confirm
    return button


def _dialog(view: PendingActionView) -> Block:
    warning = " cannot be undone."
    title = _clip_escaped(view.title, DIALOG_TEXT_LIMIT - len(warning) - 2)
    return {"title": _plain("Are you sure?", 100),
            "text": _mrkdwn(f"*{title}*{warning}"),
            "confirm": _plain(view.confirm_label, 30), "deny": _plain("Go back", 30), "style": "danger"}


def _expiry(expires_at: dt.datetime) -> str:
    """Slack shows ``<!date^...>`` in each reader's time zone; the store's times are naive UTC."""
    moment = expires_at.replace(tzinfo=dt.timezone.utc)
    return f"Expires <!date^{int(moment.timestamp())}^{{date_short_pretty}} at {{time}}|{moment:%Y-%m-%d %H:%M} UTC>"


def _section(text: str) -> Block:
    return {"type": "section", "text": _mrkdwn(text)}


def _mrkdwn(text: str) -> Block:
    return {"type": "mrkdwn", "text": text}


def _plain(text: str, limit: int) -> Block:
    return {"type": "plain_text", "text": _clip(text, limit), "emoji": True}


def _clip(text: str, limit: int) -> str:
    return text if len(text) <= limit else text[: limit - 1] + "…"


def _clip_escaped(text: str, limit: int) -> str:
    """``text`` escaped for mrkdwn in at most ``limit`` characters, never cutting an escape in two."""
    escaped = escape(text)
    if len(escaped) <= limit:
        return escaped
    text = text[:limit - 1]  # escaping never shortens
    while len(escape(text)) > limit - 1:
        text = text[:-1]
    return escape(text) + "…"
