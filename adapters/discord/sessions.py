"""Which Discord conversations are genie sessions, and which messages are meant for the bot.

A session is a DM channel, a guild channel, or a thread. Its key is
``(discord, guild id or "dm", channel id, thread id or "")``: a thread is keyed under its
parent channel, so a genie.yaml route for a channel also serves the channel's threads.

Only what people type starts a turn: messages of the default and reply types, never a
system message (a pin, a member added to a thread, a join...) nor a bot's message. Such a
message is for the bot in a DM, when it mentions the bot, and in a thread that is the bot's:
one it created, or one it has answered in (a forum post, a thread someone opened and
mentioned it in), as a Slack thread is. Mentioning the bot's own role counts as mentioning
the bot: Discord gives every bot a role of its name, and offers it first to whoever types "@genie".
"""

from __future__ import annotations

import re
from typing import TYPE_CHECKING

import discord

from genie_bot.engine import SessionKey

from .render import clip

if TYPE_CHECKING:
    from discord.abc import MessageableChannel

PLATFORM = "discord"
TYPED = frozenset({discord.MessageType.default, discord.MessageType.reply})
"""The message types people type; every other type is a system message."""
DM_WORKSPACE = "dm"
THREAD_NAME_LIMIT = 100
DEFAULT_THREAD_NAME = "Conversation with genie"

def channel_of(interaction: discord.Interaction) -> MessageableChannel:
    """The channel a /genie command or a click came from (Discord sends both only from one)."""
    channel = interaction.channel
    assert channel is not None and not isinstance(channel, (discord.ForumChannel, discord.CategoryChannel))
    return channel


def session_key(channel: MessageableChannel) -> SessionKey:
    """The session a channel or thread holds."""
    if isinstance(channel, discord.Thread):
        return SessionKey(PLATFORM, str(channel.guild.id), str(channel.parent_id), str(channel.id))
    guild = getattr(channel, "guild", None)
    return SessionKey(PLATFORM, str(guild.id) if guild else DM_WORKSPACE, str(channel.id))


def channel_id(key: SessionKey) -> int:
    """Where the messages of a session go: its thread, else its channel."""
    return int(key.thread or key.channel)


def typed_by_a_person(message: discord.Message) -> bool:
    return not message.author.bot and message.type in TYPED


def is_for_bot(message: discord.Message, bot: discord.ClientUser) -> bool | None:
    """Whether a message a person typed is for the bot: a DM, a mention, a thread the bot created;
    None when it is in a thread the bot may have answered in (only its sessions tell).

    Only an explicit mention counts (not @everyone or @here), so a broadcast never starts a
    conversation with every bot in the channel.
    """
    if message.guild is None or mentions_bot(message, bot):
        return True
    if isinstance(message.channel, discord.Thread):
        return True if message.channel.owner_id == bot.id else None
    return False


def mentions_bot(message: discord.Message, bot: discord.ClientUser) -> bool:
    """Whether ``message`` mentions the bot, by name or by its own role."""
    if any(user.id == bot.id for user in message.mentions):
        return True
    role = message.guild.self_role if message.guild else None
    return role is not None and role.id in message.raw_role_mentions


def without_mention(content: str, bot_id: int, role_id: int | None = None) -> str:
    """The message as the user meant it for the agent: the bot's mention (or its role's) removed."""
    role = rf"|<@&{role_id}>" if role_id is not None else ""
    return re.sub(rf"<@!?{bot_id}>{role}", " ", content).strip()


def thread_name(text: str) -> str:
    """A thread named after the message that started the conversation."""
    return clip(" ".join(text.split()), THREAD_NAME_LIMIT) or DEFAULT_THREAD_NAME
