"""What a Confirm or Cancel click does.

Discord gives an interaction 3 seconds for its first answer, while the engine may run a slow
API call; so every click is recorded in the engine (a few milliseconds: from then on it runs
even if this process dies), then deferred (an invisible "update the message later" answer),
and the turn runs afterwards. Then the summary message is edited (buttons disabled, outcome
shown) and the engine's replies are posted in the conversation. A click that cannot be
recorded is answered, ephemerally, with a request to try again.

A click the engine reports as refused (not the owner's, an action already finished), failed or
deferred changed nothing: the answer goes to the clicker alone, ephemerally, and the buttons
stay live, for the owner or for another try. Otherwise the card says what the engine reports
happened (:mod:`genie_bot.adapters.outcomes`): done, failed, cancelled or no longer valid.

A second click on an action whose first click is still running (a double click) gets an
ephemeral note without reaching the engine: the engine would run the action only once
anyway, but would answer the second click "That was already done.", which must not land
in the conversation or re-settle the message.
"""

from __future__ import annotations

import logging

import discord

from genie_bot.adapters.delivery import deliver
from genie_bot.adapters.outcomes import ClickResult
from genie_bot.engine import Accepted, ClickOutcome, Decision, Engine, Reply

from .poster import Poster
from .render import settled
from .sessions import channel_of, session_key

log = logging.getLogger(__name__)

ALREADY_HANDLING = "That is already being handled."
NOT_RECORDED = "Sorry, I could not take that click just now. Please try again in a moment."


class DecisionClicks:
    def __init__(self, engine: Engine, poster: Poster):
        self.engine = engine
        self.poster = poster
        self._handling: set[str] = set()
        """Pending actions whose click is running in this process."""

    async def handle(self, interaction: discord.Interaction, action_id: str, decision: Decision) -> None:
        if action_id in self._handling:
            await interaction.response.send_message(ALREADY_HANDLING, ephemeral=True)
            return
        self._handling.add(action_id)
        try:
            accepted = await self._record(interaction, action_id, decision)
            if accepted is None:
                return
            async with channel_of(interaction).typing():
                replies = await self.engine.replies_of(accepted)
        finally:
            self._handling.discard(action_id)  # its outcome is known: another click gets the engine's answer
        result = ClickResult.of(replies)
        if not result.settles_card:  # changed nothing
            posting = interaction.followup.send(replies[0].text, ephemeral=True)
        else:
            posting = self._settle_and_post(interaction, action_id, card_line(result, interaction.user), replies)
        await deliver(self.engine, accepted.session_key, accepted.event_id, posting)

    async def _settle_and_post(self, interaction: discord.Interaction, action_id: str, line: str,
                               replies: list[Reply]) -> None:
        """The clicked card (and any other card of the action) shows the outcome; the replies follow."""
        assert interaction.message is not None, "a decision is clicked on a message"
        embed, view = settled(interaction.message, line)
        await interaction.edit_original_response(embed=embed, view=view)
        await self.poster.settle(action_id, line, clicked=interaction.message.id)
        await self.poster.post(channel_of(interaction), replies, str(interaction.id))

    async def _record(self, interaction: discord.Interaction, action_id: str, decision: Decision) -> Accepted | None:
        """Record the click, then answer Discord (defer). None when there is no turn to run: the click
        could not be recorded (its clicker is asked to try again), or it was seen before."""
        try:
            accepted = await self.engine.accept_action(session_key(channel_of(interaction)), str(interaction.user.id),
                                                       action_id, decision, str(interaction.id), interaction.id)
        except Exception:  # noqa: BLE001 - the clicker must hear back
            log.exception("could not record the click on %s", action_id)
            await interaction.response.send_message(NOT_RECORDED, ephemeral=True)
            return None
        await interaction.response.defer()
        return accepted


_ICONS = {ClickOutcome.DONE: "✅", ClickOutcome.ERROR: "❌", ClickOutcome.CANCELLED: "✖️", ClickOutcome.STALE: "⌛"}


def card_line(result: ClickResult, user: discord.abc.User) -> str:
    """The settled card's outcome line."""
    word, rest = result.headline(user.mention)
    return f"{_ICONS[result.outcome]} **{word}**{rest}"
