"""Whether a turn's replies are already in their conversation: Slack message metadata as receipts.

Every message the bot posts for a turn carries the turn's event id in Slack message metadata
(the "thinking" placeholder too). The engine's outbox posts a turn's replies again when the
process that ran it died before acknowledging them, and that process may have died *after*
posting them. Before posting such a recovered reply, the adapter reads the conversation
(``include_all_metadata``) and skips a part already there; a placeholder the dead process left
for the event is replaced by the reply instead of saying "thinking" forever.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from slack_sdk.web.async_client import AsyncWebClient

from .sessions import Place

REPLY = "genie_reply"
THINKING = "genie_thinking"
PAGES = 10
"""At most this many pages (200 messages each) of a thread are read; a whole DM's latest page."""


def reply_metadata(event_id: str, part: int) -> dict[str, Any]:
    return {"event_type": REPLY, "event_payload": {"event_id": event_id, "part": part}}


def thinking_metadata(event_id: str) -> dict[str, Any]:
    return {"event_type": THINKING, "event_payload": {"event_id": event_id}}


@dataclass
class Receipts:
    """What the conversation holds of one event's messages."""

    parts: set[int] = field(default_factory=set)
    """The replies (by their place among the event's replies) already posted."""
    placeholder: str | None = None
    """The ``ts`` of the event's "thinking" message, if it is still there."""


async def receipts(client: AsyncWebClient, place: Place, event_id: str) -> Receipts:
    found = Receipts()
    for message in await _messages(client, place):
        metadata = message.get("metadata") or {}
        payload = metadata.get("event_payload") or {}
        if payload.get("event_id") != event_id:
            continue
        if metadata.get("event_type") == REPLY:
            found.parts.add(int(payload.get("part", 0)))
        elif metadata.get("event_type") == THINKING:
            found.placeholder = message["ts"]
    return found


async def _messages(client: AsyncWebClient, place: Place) -> list[dict[str, Any]]:
    if place.thread_ts is None:  # a whole DM: its latest messages
        page = await client.conversations_history(channel=place.channel, limit=200, include_all_metadata=True)
        return page.get("messages", [])
    messages: list[dict[str, Any]] = []
    cursor = None
    for _ in range(PAGES):
        page = await client.conversations_replies(channel=place.channel, ts=place.thread_ts, limit=200,
                                                  include_all_metadata=True, **({"cursor": cursor} if cursor else {}))
        messages += page.get("messages", [])
        cursor = (page.get("response_metadata") or {}).get("next_cursor")
        if not page.get("has_more") or not cursor:
            break
    return messages
