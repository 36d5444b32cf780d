"""The parser interface shared by the rule-based, LLM and recorded parsers."""

from __future__ import annotations

import datetime as dt
from dataclasses import dataclass, field
from typing import Protocol

from ..spec import AgentSpec
from ..state import DialogueState


@dataclass
class Parse:
    """Statements for the interpreter, and how they were obtained."""

    statements: str
    understood: bool = True
    """False when the parser could not make sense of the message (the reply says so)."""
    answers_question: bool = False
    """True when the statements answer exactly the question the agent just asked."""
    source: str = "rules"
    llm_calls: int = 0
    prompt_tokens: int = 0
    completion_tokens: int = 0
    notes: list[str] = field(default_factory=list)


class Parser(Protocol):
    def parse(self, spec: AgentSpec, state: DialogueState, text: str, today: dt.date) -> Parse: ...
