"""The Slack adapter (slack_bolt, async): threads as sessions, Block Kit confirmations, ``/genie``.

``genie-bot run`` calls :func:`create_adapter` when genie.yaml lists ``platforms.slack``;
see ``docs/slack.md`` to set up the Slack app, and :mod:`.sessions` for how Slack
conversations map to engine sessions.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from genie_bot.config import Config

from .adapter import SlackAdapter
from .settings import SlackSettings, SlackSettingsInvalid

__all__ = ["SlackAdapter", "SlackSettings", "SlackSettingsInvalid", "create_adapter"]


def create_adapter(config: Config, settings: Mapping[str, Any]) -> SlackAdapter:
    """The adapter for ``platforms.slack`` (``settings``); raises :class:`SlackSettingsInvalid`.

    ``config`` is not needed: the engine the adapter is started with carries it.
    """
    return SlackAdapter(SlackSettings.from_mapping(settings))
