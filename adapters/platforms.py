"""The chat platforms ``genie-bot run`` can serve, by the name genie.yaml lists them under ``platforms``."""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any

from genie_bot.config import Config

from . import discord, slack
from .base import Adapter

ADAPTERS: dict[str, Callable[[Config, Mapping[str, Any]], Adapter]] = {
    "slack": slack.create_adapter,
    "discord": discord.create_adapter,
}


def create_adapter(platform: str, config: Config) -> Adapter:
    """The adapter of ``platform`` for ``config.platforms[platform]``; raises if its settings are invalid."""
    return ADAPTERS[platform](config, config.platforms.get(platform, {}))
