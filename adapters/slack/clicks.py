"""Confirm / Cancel clicks to engine actions, and the card updated in place with the outcome.

Everything a click needs is in its payload: the pending action's id (the button), the session
(the card's channel and thread), and the card itself (the message's blocks), so a card posted
before a restart works the same. The click's answer replaces a "thinking" placeholder in the
thread; a refusal (someone else's action, one already finished) is told only to the clicker,
ephemerally, and leaves the card untouched for its owner.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from genie_bot.engine import Accepted, ClickOutcome, Decision, Engine, SessionKey

from .blocks import ACTION_ID, Block, SlackMessage, settled_card
from .messages import answer_with_placeholder
from .mrkdwn import to_mrkdwn
from .outcomes import classify
from .poster import Poster, Respond
from .sessions import Place, sequence, session_key
from .tasks import InOrder


@dataclass(frozen=True)
class Click:
    key: SessionKey
    user: str
    pending_action: str
    decision: Decision
    event_id: str
    sequence: int
    channel: str
    card_ts: str
    card: list[Block]

    @classmethod
    def of(cls, body: dict[str, Any], action: dict[str, Any]) -> "Click":
        """The click ``action`` of a ``block_actions`` payload ``body``."""
        message, channel = body["message"], body["channel"]["id"]
        return cls(key=session_key(body["team"]["id"], channel, message["ts"], message.get("thread_ts")),
                   user=body["user"]["id"], pending_action=action["value"],
                   decision=Decision(ACTION_ID.match(action["action_id"]).group(1)),
                   event_id=f"click:{body['trigger_id']}", sequence=sequence(action["action_ts"]),
                   channel=channel, card_ts=message["ts"], card=message.get("blocks", []))


class ClickTurns:
    def __init__(self, engine: Engine, poster: Poster, in_order: InOrder):
        self.engine = engine
        self.poster = poster
        self.in_order = in_order

    async def accept(self, click: Click) -> Accepted | None:
        """Record the click in the engine (before Slack is acknowledged); None if recorded before."""
        return await self.engine.accept_action(click.key, click.user, click.pending_action, click.decision,
                                               click.event_id, click.sequence)

    async def run(self, click: Click, accepted: Accepted, respond: Respond) -> None:
        place = Place.of(click.key)
        answered = await answer_with_placeholder(self.engine, self.poster, self.in_order, place, accepted)
        if answered is None:
            return
        replies, placeholder = answered
        outcome = classify(replies)
        if outcome.outcome is ClickOutcome.REFUSED:
            await self.poster.discard(place, placeholder)
            await respond(text="\n\n".join(to_mrkdwn(r.text) for r in replies), response_type="ephemeral",
                          replace_original=False)
        else:
            if outcome.settles_card:
                line = outcome.card_line(click.user)
                await self.poster.update(click.channel, click.card_ts, SlackMessage(line, settled_card(click.card, line)))
            await self.poster.post(place, replies, placeholder, accepted.event_id)
        await self.engine.delivered(click.key, accepted.event_id)
