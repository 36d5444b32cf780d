"""Confirm / Cancel clicks to engine actions, and the card updated in place with the outcome.

Everything a click needs is in its payload: the pending action's id (the button), the session
(the card's channel and thread), and the card itself (the message's blocks), so a card posted
before a restart works the same. A click posts no "thinking" message: it may be refused (not
the owner's, an action already finished), and a refusal is told only to the clicker,
ephemerally, leaving the conversation and the card untouched. A click from an ephemeral
message comes without the message: its card cannot be rebuilt, the rest is the same.
"""

from __future__ import annotations

import logging
from dataclasses import dataclass
from typing import Any

from genie_bot.adapters.delivery import deliver
from genie_bot.adapters.outcomes import ClickResult
from genie_bot.engine import Accepted, ClickOutcome, Decision, Engine, SessionKey

from .blocks import ACTION_ID, Block
from .messages import FAILURE
from .mrkdwn import to_mrkdwn
from .outcomes import card_line
from .poster import Poster, Respond, unless_uninstalled
from .sessions import Place, sequence, session_key

log = logging.getLogger(__name__)


@dataclass(frozen=True)
class Click:
    key: SessionKey
    user: str
    pending_action: str
    decision: Decision
    event_id: str
    sequence: int
    channel: str
    card_ts: str | None
    """The clicked message, unless it was ephemeral (Slack then sends no message)."""
    card: list[Block]

    @classmethod
    def of(cls, body: dict[str, Any], action: dict[str, Any]) -> "Click":
        """The click ``action`` of a ``block_actions`` payload ``body``."""
        container = body.get("container") or {}
        message = body.get("message")
        clicked = ACTION_ID.match(action["action_id"])
        assert clicked is not None, "the app routes only these action ids here"
        channel = (body.get("channel") or {}).get("id") or container.get("channel_id", "")
        ts = message["ts"] if message else container.get("message_ts", "")
        thread_ts = message.get("thread_ts") if message else container.get("thread_ts")
        return cls(key=session_key(body["team"]["id"], channel, ts, thread_ts),
                   user=body["user"]["id"], pending_action=action["value"],
                   decision=Decision(clicked.group(1)),
                   event_id=f"click:{body['team']['id']}/{body['trigger_id']}", sequence=sequence(action["action_ts"]),
                   channel=channel, card_ts=message["ts"] if message else None,
                   card=message.get("blocks", []) if message else [])


class ClickTurns:
    def __init__(self, engine: Engine, poster: Poster):
        self.engine = engine
        self.poster = poster

    async def accept(self, click: Click) -> Accepted | None:
        """Record the click in the engine (before Slack is acknowledged); None if recorded before."""
        return await self.engine.accept_action(click.key, click.user, click.pending_action, click.decision,
                                               click.event_id, click.sequence)

    async def run(self, click: Click, accepted: Accepted, respond: Respond) -> None:
        try:
            replies = await self.engine.replies_of(accepted)
        except Exception:  # noqa: BLE001 - the clicker must hear back even when the engine is down
            log.exception("the turn of %s failed", accepted.event_id)
            await respond(text=FAILURE, response_type="ephemeral", replace_original=False)
            return
        outcome = ClickResult.of(replies)
        if outcome.outcome in (ClickOutcome.REFUSED, ClickOutcome.DEFERRED):
            posting = respond(text="\n\n".join(to_mrkdwn(r.text) for r in replies), response_type="ephemeral",
                              replace_original=False)
        else:
            posting = self._settle_and_post(click, accepted, card_line(outcome, click.user) if outcome.settles_card
                                            else None, replies)
        await deliver(self.engine, click.key, accepted.event_id,
                      unless_uninstalled(posting, f"the replies of {accepted.event_id}"))

    async def _settle_and_post(self, click: Click, accepted: Accepted, line: str | None, replies: list) -> None:
        if line is not None:
            clicked = (click.channel, click.card_ts, click.card) if click.card_ts else None
            await self.poster.settle(click.key.workspace, click.pending_action, line, clicked)
        await self.poster.post(Place.of(click.key), replies, None, accepted.event_id)
