"""The Discord adapter (discord.py): channels, threads and DMs as sessions, persistent
confirmation buttons, and the ``/genie`` commands. See docs/discord.md.

This package is ``genie_bot.adapters.discord``; every ``import discord`` inside it is absolute and
therefore the discord.py library, never this package.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from genie_bot.config import Config

from .adapter import DiscordAdapter
from .settings import DiscordSettings, DiscordSettingsInvalid

__all__ = ["DiscordAdapter", "DiscordSettings", "DiscordSettingsInvalid", "create_adapter"]


def create_adapter(config: Config, settings: Mapping[str, Any]) -> DiscordAdapter:
    """The adapter ``genie-bot run`` starts for ``platforms.discord``; raises on invalid settings.

    The rest of the configuration (admins, routing, confirmations) reaches the adapter through
    the engine it is started with.
    """
    return DiscordAdapter(DiscordSettings.parse(settings))
