"""The chat platforms ``genie-bot run`` can serve, by the name genie.yaml lists them under ``platforms``.

Each platform's package (and its library: slack_bolt, discord.py) is imported when that platform
is created, so a Slack-only deployment never loads discord.py, and the other commands neither.
"""

from __future__ import annotations

import importlib

from genie_bot.config import Config

from .base import Adapter

ADAPTERS: dict[str, str] = {
    "slack": "genie_bot.adapters.slack",
    "discord": "genie_bot.adapters.discord",
}
"""Platform name -> the package whose ``create_adapter(config, settings)`` makes its adapter."""


def create_adapter(platform: str, config: Config) -> Adapter:
    """The adapter of ``platform`` for ``config.platforms[platform]``; raises if its settings are invalid."""
    package = importlib.import_module(ADAPTERS[platform])
    adapter: Adapter = package.create_adapter(config, config.platforms.get(platform, {}))
    return adapter
