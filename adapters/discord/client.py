"""The discord.py client the adapter runs: its gateway intents and its sharding.

Intents are the least the adapter needs: guilds (channels and threads in the cache, to know
which threads are the bot's), guild and direct messages, and the privileged message-content
intent, without which Discord blanks the text of guild messages that do not mention the bot,
i.e. every message of a conversation continuing in the bot's thread.

Bots in many servers shard: ``shard_count`` (a number, or ``auto`` for Discord's
recommendation) runs an :class:`discord.AutoShardedClient`, optionally only the shards in
``shard_ids`` when the bot is spread over several processes.
"""

from __future__ import annotations

from typing import Any

import discord

from .settings import DiscordSettings


def intents() -> discord.Intents:
    return discord.Intents(guilds=True, guild_messages=True, dm_messages=True, message_content=True)


def build_client(settings: DiscordSettings, **options: Any) -> discord.Client:
    """A client for ``settings``; ``options`` go to discord.py (tests shorten its timeouts).

    Replies never ping anyone: they may quote what users typed, "@everyone" included.
    """
    options.setdefault("allowed_mentions", discord.AllowedMentions.none())
    discord.VoiceClient.warn_nacl = False  # the bot never joins voice: no "PyNaCl is not installed" at every start
    if settings.shard_count is None:
        return discord.Client(intents=intents(), **options)
    shard_count = settings.shard_count if isinstance(settings.shard_count, int) else None  # None: AUTO
    if settings.shard_ids is not None:
        options["shard_ids"] = list(settings.shard_ids)
    return discord.AutoShardedClient(intents=intents(), shard_count=shard_count, **options)
