"""What a parser made of one user message: statements for the runtime, and how they were obtained.

Parsers (rule-based, LLM, recorded) make it; responders read it (a message the parser did not
understand is answered so); the engine records it in the turn's trace.
"""

from __future__ import annotations

from dataclasses import dataclass, field

NOTHING_SAID = "# nothing was said"
"""A bare @mention: the agent greets or asks its question again."""
CHIT_CHAT = "# chit-chat"
"""Talk that asks for nothing (thanks, greetings): answered in kind."""
ALREADY_HANDLED = "# the request is already being handled"
"""The user asked for the task in progress: its next question is the answer."""
SAID_AGAIN = "# said again: "
"""Before ``instance.field``: the message gives a value its field holds already (the reply says so)."""


@dataclass
class Parse:
    """Statements for the interpreter, and how they were obtained."""

    statements: str
    understood: bool = True
    """False when the parser could not make sense of the message (the reply says so)."""
    reason: str | None = None
    """Said to the user before the agent's acts: why the message could not be understood, when
    there is more to say than "sorry", or the answer to a question about the agent itself."""
    corrected: tuple[str, ...] = ()
    """``instance.field`` of the values the message changed (a correction): the reply says so."""
    answers_question: bool = False
    """True when the statements answer exactly the question the agent just asked."""
    unplaced: tuple[str, ...] = ()
    """Values the message gives (a date, a number, an option, a name...) that no statement uses: the reply
    must say something about each rather than drop it without a word."""
    margin: float | None = None
    """The rule parser's confidence: of the values it read, the smallest margin (how much less the best
    reading without that value scores); None when it read no value. The LLM is skipped above a margin."""
    source: str = "rules"
    llm_calls: int = 0
    prompt_tokens: int = 0
    completion_tokens: int = 0
    notes: list[str] = field(default_factory=list)
    repaired: bool = False
    """The LLM's statements were completed by omission repair (the rules read the field it left out)."""
    reasked: bool = False
    """The LLM was asked a second time, with the errors of its first statements."""
