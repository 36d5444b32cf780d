"""How the engine's replies look in Discord, within Discord's size limits.

A reply's markdown becomes at most :data:`MOST_MESSAGES` messages of at most 2000 characters
(a longer reply is shortened, see :func:`~genie_bot.adapters.text.pieces_of`). A pending action
becomes an embed summarising the values, sent with the Confirm and Cancel buttons on the
reply's last message, so the question and its buttons stay together.

What users typed is shown as typed: the summary's values are escaped (no markdown, no masked
link), and since a reply may quote values among the agent's own words, no masked link
``[text](url)`` in a reply renders as one (the bot never shows a link whose target hides
behind its text; a bare URL stays visible). Bidirectional controls are dropped everywhere
(:mod:`genie_bot.adapters.bidi`).

Every message of a turn gets a nonce derived from the turn's event id and its place among the
turn's messages (see :mod:`.poster`).
"""

from __future__ import annotations

import datetime as dt
import hashlib
import re
from dataclasses import dataclass

import discord

from genie_bot.adapters.bidi import displayable
from genie_bot.adapters.text import pieces_of
from genie_bot.engine import PendingActionView, Reply

from .views import confirmation_view, disabled_view

MESSAGE_LIMIT = 2000
MOST_MESSAGES = 3
TITLE_LIMIT = 256
DESCRIPTION_LIMIT = 4096
OUTCOME_FIELD = "Outcome"
_MASKED_LINK = re.compile(r"(?<!\\)\[([^\]\n]*)\]\(")


@dataclass(frozen=True)
class Outgoing:
    """One message to send."""

    content: str | None
    embed: discord.Embed | None = None
    view: discord.ui.View | None = None


def clip(text: str, limit: int) -> str:
    return text if len(text) <= limit else text[:limit - 1].rstrip() + "…"


def without_masked_links(markdown: str) -> str:
    """``markdown`` with every ``[text](url)`` shown as typed rather than as a link labelled ``text``."""
    return _MASKED_LINK.sub(r"\\[\1](", markdown)


def as_typed(value: str) -> str:
    """A value a user typed, shown literally: no markdown, no masked link."""
    return discord.utils.escape_markdown(value)


def outgoing(reply: Reply) -> list[Outgoing]:
    reply = displayable(reply)
    text = without_masked_links(reply.text)
    pieces = pieces_of(text, MESSAGE_LIMIT, MOST_MESSAGES) if text.strip() else []
    action = reply.pending_action
    if action is None:
        return [Outgoing(piece) for piece in pieces]
    last = pieces.pop() if pieces else None
    return [*(Outgoing(piece) for piece in pieces), Outgoing(last, summary_embed(action), confirmation_view(action))]


def nonce(event_id: str, part: int, piece: int) -> str:
    """The nonce of one message of an event's replies (Discord allows 25 characters)."""
    return hashlib.blake2b(f"{event_id}:{part}:{piece}".encode(), digest_size=12).hexdigest()


def summary_embed(action: PendingActionView) -> discord.Embed:
    lines = [f"**{as_typed(label)}**: {as_typed(value)}" for label, value in action.summary]
    if action.expires_at is not None:  # the engine's timestamps are naive UTC
        expires = action.expires_at.replace(tzinfo=dt.timezone.utc)
        lines.append(f"Expires {discord.utils.format_dt(expires, 'R')}.")
    colour = discord.Colour.red() if action.destructive else discord.Colour.blurple()
    return discord.Embed(title=clip(action.title, TITLE_LIMIT), description=clip("\n".join(lines), DESCRIPTION_LIMIT),
                         colour=colour)


def settled(message: discord.Message, outcome: str) -> tuple[discord.Embed, discord.ui.View]:
    """The summary message after a click: its buttons disabled, the outcome added to its embed."""
    return with_outcome(message.embeds[0] if message.embeds else discord.Embed(), outcome), disabled_view(message)


def with_outcome(embed: discord.Embed, outcome: str) -> discord.Embed:
    """A summary's embed ending with ``outcome``.

    The summary lives in the embed's description, so its only field is the outcome, replaced
    rather than repeated if the message is settled again.
    """
    embed = embed.copy()
    embed.clear_fields()
    embed.add_field(name=OUTCOME_FIELD, value=outcome, inline=False)
    return embed
