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
from genie_bot.errors import GenieError


class AdapterStartFailed(GenieError):
    """A platform could not be reached, or refused the bot's credentials, when its adapter started.

    The message is one line naming the cause and the fix (which setting or variable to check);
    ``genie-bot run`` prints it instead of a traceback and exits 1.
    """


def unreachable(what: str, where: str, exc: BaseException, fix: str) -> AdapterStartFailed:
    """"cannot reach Slack at URL: <the connection's error in one line>; <fix>"."""
    reason = " ".join(str(exc).split()) or type(exc).__name__
    return AdapterStartFailed(f"cannot reach {what} at {where}: {reason}; {fix}")


class Adapter(Protocol):
    platform: str

    async def start(self, engine: Engine) -> None:
        """Connect to the platform and begin handing its events to ``engine``; return once running.
        Raises :class:`AdapterStartFailed` when the platform cannot be reached or refuses the credentials."""

    async def stop(self) -> None:
        """Stop receiving events and disconnect."""

    async def deliver(self, notification: Notification) -> None:
        """Post a message the engine sends on its own: reminders, expiries, closings, recovered replies."""
