"""The interface between the engine and a chat-platform adapter.

An adapter lives in ``adapters/<platform>.py`` and exposes ``create_adapter(config, settings)``
returning an :class:`Adapter`; ``genie-bot run`` imports that module only when
``platforms.<platform>`` is configured. An adapter turns platform events into
``engine.handle_message`` / ``engine.handle_action`` calls (passing the platform's event id,
and the time the user sent the message as ``sequence``), renders each returned
:class:`~genie_bot.engine.Reply` (markdown text; a pending action as a summary with Confirm and
Cancel buttons whose clicks call ``handle_action``), and posts the notifications the engine
sends on its own through :meth:`Adapter.deliver`.
"""

from __future__ import annotations

import importlib
from typing import TYPE_CHECKING, Any, Protocol

if TYPE_CHECKING:
    from genie_bot.config import Config
    from genie_bot.engine import Engine, Notification


class Adapter(Protocol):
    platform: str

    async def start(self, engine: "Engine") -> None:
        """Connect to the platform and begin handing its events to ``engine``; return once running."""

    async def stop(self) -> None:
        """Stop receiving events and disconnect."""

    async def deliver(self, notification: "Notification") -> None:
        """Post a message the engine sends on its own: reminders, expiries, closings, recovered replies."""


def load_adapter(platform: str, config: "Config") -> Adapter:
    """The adapter of ``platform``, from ``adapters.<platform>.create_adapter(config, settings)``."""
    module: Any = importlib.import_module(f"adapters.{platform}")
    return module.create_adapter(config, config.platforms.get(platform, {}))
