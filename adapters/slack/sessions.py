"""Where a Slack conversation lives: engine session keys, reply locations and message order.

A session is one thread. In a channel, an @mention outside a thread starts a thread on the
mention itself, so the session is ``(team, channel, thread_ts or ts)`` and the bot always
answers inside that thread. A direct message conversation is one session per DM channel
(``thread=""``, answered in the DM itself, no threads), because people chat with a bot in a DM
the way they do with a person; ``/genie reset`` starts it over. A thread opened inside a DM
is a session of its own, answered in that thread.

Every message the bot posts for a session goes to :class:`Place` ``.of(key)``, so buttons on
it carry their session with them (the message's ``thread_ts``), even after a restart.

One deployment may serve many workspaces ("Add to Slack"), and nothing says two workspaces
have no channel of the same id: the workspace is part of every session key, event id and
place, so two workspaces never share a session, an event or a card.
"""

from __future__ import annotations

from dataclasses import dataclass

from genie_bot.engine import SessionKey

PLATFORM = "slack"


def is_direct_message(channel: str) -> bool:
    """Slack's conversation ids of direct messages (IMs) start with ``D``."""
    return channel.startswith("D")


def session_key(team: str, channel: str, ts: str, thread_ts: str | None = None) -> SessionKey:
    """The session of a message ``ts`` (in thread ``thread_ts``, if any) of ``channel``."""
    if thread_ts:
        return SessionKey(PLATFORM, team, channel, thread_ts)
    return SessionKey(PLATFORM, team, channel, "" if is_direct_message(channel) else ts)


def message_event_id(team: str, channel: str, ts: str) -> str:
    """The engine's event id of a message: where it is (a ``ts`` is unique within its channel), so
    a message is one event however many Slack events bring it (retries, edits)."""
    return f"{team}/{channel}/{ts}"


def sequence(ts: str) -> int:
    """A Slack timestamp (``"1700000000.000100"``) in microseconds: the order users sent messages in."""
    seconds, _, fraction = ts.partition(".")
    return int(seconds) * 1_000_000 + int(fraction.ljust(6, "0")[:6])


@dataclass(frozen=True)
class Place:
    """Where the bot posts for a session: a workspace's channel, and the thread unless it is a whole DM."""

    team: str
    channel: str
    thread_ts: str | None

    @classmethod
    def of(cls, key: SessionKey) -> "Place":
        return cls(key.workspace, key.channel, key.thread or None)
