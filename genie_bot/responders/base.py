"""The responder interface shared by the templated and the LLM response generators."""

from __future__ import annotations

from collections.abc import Collection
from typing import Protocol

from ..acts import Act
from ..parse import Parse
from ..spec import AgentSpec
from ..state import DialogueState


class Responder(Protocol):
    def respond(self, spec: AgentSpec, state: DialogueState, acts: list[Act], user_text: str, parse: Parse,
                changed: Collection[tuple[str, str]] = ()) -> str:
        """The reply to the user for a turn's acts; ``changed``: (instance, field) the turn set or changed,
        which a summary marks."""
