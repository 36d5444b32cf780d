"""How the engine's replies look in Discord, within Discord's size limits.

A reply's markdown becomes messages of at most 2000 characters. A pending action becomes an
embed summarising the values, sent with the Confirm and Cancel buttons on the reply's last
message, so the question and its buttons stay together.

Every message of a turn carries a nonce derived from the turn's event id, which Discord
enforces (``enforce_nonce``): sent again within minutes by the same bot, it returns the
message already posted instead of a second one. So a reply the engine's outbox recovers
after a crash (with the same event id) is never posted twice.
"""

from __future__ import annotations

import datetime as dt
import hashlib
from dataclasses import dataclass

import discord

from genie_bot.adapters.text import split_message
from genie_bot.engine import PendingActionView, Reply

from .views import confirmation_view, disabled_view

MESSAGE_LIMIT = 2000
TITLE_LIMIT = 256
DESCRIPTION_LIMIT = 4096
OUTCOME_FIELD = "Outcome"


@dataclass(frozen=True)
class Outgoing:
    """One message to send."""

    content: str | None
    embed: discord.Embed | None = None
    view: discord.ui.View | None = None


def clip(text: str, limit: int) -> str:
    return text if len(text) <= limit else text[:limit - 1].rstrip() + "…"


def outgoing(reply: Reply) -> list[Outgoing]:
    pieces = split_message(reply.text, MESSAGE_LIMIT) if reply.text.strip() else []
    action = reply.pending_action
    if action is None:
        return [Outgoing(piece) for piece in pieces]
    last = pieces.pop() if pieces else None
    return [*(Outgoing(piece) for piece in pieces), Outgoing(last, summary_embed(action), confirmation_view(action))]


async def post(channel: discord.abc.Messageable, replies: list[Reply], event_id: str | None = None,
               first_part: int = 0) -> None:
    """Send ``replies`` (those of ``event_id``, numbered from ``first_part``), each message with its nonce."""
    for part, reply in enumerate(replies, start=first_part):
        for piece, message in enumerate(outgoing(reply)):
            await channel.send(content=message.content, embed=message.embed, view=message.view,
                               nonce=None if event_id is None else nonce(event_id, part, piece))


def nonce(event_id: str, part: int, piece: int) -> str:
    """The nonce of one message of an event's replies (Discord allows 25 characters)."""
    return hashlib.blake2b(f"{event_id}:{part}:{piece}".encode(), digest_size=12).hexdigest()


def summary_embed(action: PendingActionView) -> discord.Embed:
    lines = [f"**{label}**: {value}" for label, value in action.summary]
    if action.expires_at is not None:  # the engine's timestamps are naive UTC
        expires = action.expires_at.replace(tzinfo=dt.timezone.utc)
        lines.append(f"Expires {discord.utils.format_dt(expires, 'R')}.")
    colour = discord.Colour.red() if action.destructive else discord.Colour.blurple()
    return discord.Embed(title=clip(action.title, TITLE_LIMIT), description=clip("\n".join(lines), DESCRIPTION_LIMIT),
                         colour=colour)


def settled(message: discord.Message, outcome: str) -> tuple[discord.Embed, discord.ui.View]:
    """The summary message after a click: its buttons disabled, the outcome added to its embed.

    The summary lives in the embed's description, so its only field is the outcome, replaced
    rather than repeated if the message is settled again.
    """
    embed = message.embeds[0].copy() if message.embeds else discord.Embed()
    embed.clear_fields()
    embed.add_field(name=OUTCOME_FIELD, value=outcome, inline=False)
    return embed, disabled_view(message)
