"""The parser interface shared by the rule-based, LLM and recorded parsers."""

from __future__ import annotations

import datetime as dt
from typing import Protocol

from ..parse import Parse
from ..spec import AgentSpec
from ..state import DialogueState


class Parser(Protocol):
    def parse(self, spec: AgentSpec, state: DialogueState, text: str, today: dt.date) -> Parse: ...
