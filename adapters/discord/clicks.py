"""What a Confirm or Cancel click does.

Discord gives an interaction 3 seconds for its first answer, while the engine may run a slow
API call; so every click is deferred at once (an invisible "update the message later"
answer) and the engine runs afterwards. Then the summary message is edited (buttons
disabled, outcome shown) and the engine's replies are posted in the conversation.

A click the engine reports as refused (not the owner's, an action already finished) or failed
changed nothing: the answer goes to the clicker alone, ephemerally, and the buttons stay
live, for the owner or for another try.

A second click on an action whose first click is still running (a double click) gets an
ephemeral note without reaching the engine: the engine would run the action only once
anyway, but would answer the second click "That was already done.", which must not land
in the conversation or re-settle the message.
"""

from __future__ import annotations

import discord

from genie_bot.engine import ClickOutcome, Decision, Engine, Reply

from .render import post, settled
from .sessions import session_key

ALREADY_HANDLING = "That is already being handled."


class DecisionClicks:
    def __init__(self, engine: Engine):
        self.engine = engine
        self._handling: set[str] = set()
        """Pending actions whose click is running in this process."""

    async def handle(self, interaction: discord.Interaction, action_id: str, decision: Decision) -> None:
        if action_id in self._handling:
            await interaction.response.send_message(ALREADY_HANDLING, ephemeral=True)
            return
        self._handling.add(action_id)
        channel = interaction.channel
        try:
            await interaction.response.defer()
            async with channel.typing():
                replies = await self.engine.handle_action(session_key(channel), str(interaction.user.id), action_id,
                                                          decision, str(interaction.id), interaction.id)
            refused = _changed_nothing(replies)
            if refused:
                await interaction.followup.send(replies[0].text, ephemeral=True)
            else:
                embed, view = settled(interaction.message, outcome(decision, interaction.user))
                await interaction.edit_original_response(embed=embed, view=view)
        finally:
            self._handling.discard(action_id)
        if not refused:
            await post(channel, replies, str(interaction.id))
        await self.engine.delivered(session_key(channel), str(interaction.id))


def outcome(decision: Decision, user: discord.abc.User) -> str:
    if decision is Decision.CONFIRM:
        return f"✅ Confirmed by {user.mention}"
    return f"✖️ Cancelled by {user.mention}"


def _changed_nothing(replies: list[Reply]) -> bool:
    return replies[0].outcome in (ClickOutcome.REFUSED, ClickOutcome.FAILED)
