"""Persistent Confirm and Cancel buttons.

Each button is a :class:`discord.ui.DynamicItem` whose ``custom_id`` carries everything a
click needs (the decision and the pending-action id), so no view has to be kept in memory
and any process, including one started after a restart, can answer a click once
:data:`DecisionButton` is registered with ``Client.add_dynamic_items``. The session comes
from the channel the button's message is in.

A click is handed to the adapter as the client event ``genie_decision`` (``on_genie_decision
(interaction, action_id, decision)``), which keeps this module free of the adapter's state.
"""

from __future__ import annotations

import re
from typing import Any

import discord

from genie_bot.engine import Decision, PendingActionView

DECISION_EVENT = "genie_decision"
LABEL_LIMIT = 80


def custom_id(decision: Decision, action_id: str) -> str:
    return f"genie:{decision.value}:{action_id}"


class DecisionButton(discord.ui.DynamicItem[discord.ui.Button],
                     template=r"genie:(?P<decision>confirm|cancel):(?P<action_id>[\w-]+)"):
    """The Confirm or Cancel button of one pending action."""

    def __init__(self, decision: Decision, action_id: str, *, label: str, style: discord.ButtonStyle):
        super().__init__(discord.ui.Button(label=label[:LABEL_LIMIT], style=style,
                                           custom_id=custom_id(decision, action_id)))
        self.decision = decision
        self.action_id = action_id

    @classmethod
    async def from_custom_id(cls, interaction: discord.Interaction, item: discord.ui.Item[Any],
                             match: re.Match[str], /) -> DecisionButton:
        assert isinstance(item, discord.ui.Button), "a decision is a button"
        return cls(Decision(match["decision"]), match["action_id"], label=item.label or "", style=item.style)

    async def callback(self, interaction: discord.Interaction) -> None:
        interaction.client.dispatch(DECISION_EVENT, interaction, self.action_id, self.decision)


def confirmation_view(action: PendingActionView) -> discord.ui.View:
    """Confirm (green, or red when the action is destructive) and Cancel for ``action``."""
    view = discord.ui.View(timeout=None)
    for decision, label, style in _buttons(action):
        view.add_item(DecisionButton(decision, action.id, label=label, style=style))
    return view


def disabled_confirmation_view(action: PendingActionView) -> discord.ui.View:
    """The buttons of ``action``, greyed out: a card that is no longer live (stopped, see :func:`disabled_view`)."""
    view = discord.ui.View(timeout=None)
    for decision, label, style in _buttons(action):
        view.add_item(discord.ui.Button(label=label[:LABEL_LIMIT], style=style, disabled=True,
                                        custom_id=custom_id(decision, action.id)))
    view.stop()
    return view


def _buttons(action: PendingActionView) -> list[tuple[Decision, str, discord.ButtonStyle]]:
    confirm_style, cancel_style = ((discord.ButtonStyle.danger, discord.ButtonStyle.secondary) if action.destructive
                                   else (discord.ButtonStyle.success, discord.ButtonStyle.danger))
    return [(Decision.CONFIRM, action.confirm_label, confirm_style), (Decision.CANCEL, action.cancel_label, cancel_style)]


def disabled_view(message: discord.Message) -> discord.ui.View:
    """The buttons of ``message`` as they are, greyed out.

    The view is stopped before it is sent: a finished view is not kept by discord.py's view
    store, which would otherwise hold one inert view per answered confirmation forever.
    """
    view = discord.ui.View.from_message(message, timeout=None)
    for item in view.children:
        if isinstance(item, (discord.ui.Button, discord.ui.Select)):
            item.disabled = True
    view.stop()
    return view
