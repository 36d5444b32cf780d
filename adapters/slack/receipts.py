"""Whether a turn's replies are already in their conversation: Slack message metadata as receipts.

Every message the bot posts for a turn carries the turn's event id in Slack message metadata
(the "thinking" placeholder too), with its place: the reply (``part``) and, as a long reply
takes several messages, the message of that reply (``piece``). The engine's outbox posts a
turn's replies again when they were not all posted (the process died, or Slack refused a
message), and some of them may be there already. Before posting such a recovered reply, the
adapter reads the conversation (``include_all_metadata``) and posts only the messages that
are missing; a placeholder left for the event is replaced by the reply instead of saying
"thinking" forever. A provisional answer (the engine deferring the turn while its store is
away) is none of the event's replies: it carries notice metadata, so the replies that follow
it are posted.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from slack_sdk.web.async_client import AsyncWebClient

from .sessions import Place

REPLY = "genie_reply"
THINKING = "genie_thinking"
NOTICE = "genie_notice"
PAGES = 10
"""At most this many pages (200 messages each) of a thread are read; a whole DM's latest page."""


def reply_metadata(event_id: str, part: int, piece: int = 0) -> dict[str, Any]:
    return {"event_type": REPLY, "event_payload": {"event_id": event_id, "part": part, "piece": piece}}


def thinking_metadata(event_id: str) -> dict[str, Any]:
    return {"event_type": THINKING, "event_payload": {"event_id": event_id}}


def notice_metadata(event_id: str) -> dict[str, Any]:
    return {"event_type": NOTICE, "event_payload": {"event_id": event_id}}


@dataclass
class Receipts:
    """What the conversation holds of one event's messages."""

    pieces: set[tuple[int, int]] = field(default_factory=set)
    """The messages already posted, as (reply, message of that reply)."""
    whole: set[int] = field(default_factory=set)
    """Replies posted before messages were numbered within a reply: all there."""
    placeholder: str | None = None
    """The ``ts`` of the event's "thinking" message, if it is still there."""

    def posted(self, part: int, piece: int) -> bool:
        return (part, piece) in self.pieces or part in self.whole


async def receipts(client: AsyncWebClient, place: Place, event_id: str) -> Receipts:
    found = Receipts()
    for message in await _messages(client, place):
        metadata = message.get("metadata") or {}
        payload = metadata.get("event_payload") or {}
        if payload.get("event_id") != event_id:
            continue
        if metadata.get("event_type") == REPLY and "piece" in payload:
            found.pieces.add((int(payload.get("part", 0)), int(payload["piece"])))
        elif metadata.get("event_type") == REPLY:
            found.whole.add(int(payload.get("part", 0)))
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
