"""The interface between the engine and a chat-platform adapter.

Each platform's adapter package exposes ``create_adapter(config, settings)`` returning an
:class:`Adapter`; :mod:`.platforms` maps platform names to them, and ``genie-bot run`` starts
the adapters of the platforms listed under ``platforms`` in genie.yaml (the :mod:`.console`
adapter when none is). An adapter turns platform events into ``engine.handle_message`` /
``engine.handle_action`` calls (passing the platform's event id, and the time the user sent
the message as ``sequence``), renders each returned :class:`~genie_bot.engine.Reply`
(markdown text; a pending action as a summary with Confirm and Cancel buttons whose clicks
call ``handle_action``), and posts the notifications the engine sends on its own through
:meth:`Adapter.deliver`.
"""

from __future__ import annotations

from typing import Protocol

from genie_bot.engine import Engine, Notification


class Adapter(Protocol):
    platform: str

    async def start(self, engine: Engine) -> None:
        """Connect to the platform and begin handing its events to ``engine``; return once running."""

    async def stop(self) -> None:
        """Stop receiving events and disconnect."""

    async def deliver(self, notification: Notification) -> None:
        """Post a message the engine sends on its own: reminders, expiries, closings, recovered replies."""
