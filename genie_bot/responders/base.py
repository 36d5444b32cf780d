"""The responder interface shared by the templated and the LLM response generators."""

from __future__ import annotations

from typing import Protocol

from ..acts import Act
from ..parse import Parse
from ..spec import AgentSpec
from ..state import DialogueState


class Responder(Protocol):
    def respond(self, spec: AgentSpec, state: DialogueState, acts: list[Act], user_text: str, parse: Parse) -> str: ...
