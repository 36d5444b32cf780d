"""Updates the engine applies directly, without parser text: the answer of a Confirm or Cancel click.

The runtime applies an update exactly as the statement it renders to (``main_0.confirmed =
True``); that rendering is what the turn's trace records, so an exported session replays a
click as that statement.
"""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class ConfirmInstance:
    """The user's answer to ``AskForConfirmation`` of ``instance`` (or to a proposal of it)."""

    instance: str
    yes: bool

    def statement(self) -> str:
        """The parser statement with the same effect, for traces and replays."""
        return f"{self.instance}.confirmed = {self.yes}"
