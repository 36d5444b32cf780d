"""When the rule-based parse is good enough to skip the LLM parser call.

Most turns of a form-filling dialogue are short, direct answers to the question just asked
("CS 224V", "letter", "yes"). The rule-based parser reads those exactly, and an LLM call
would only add latency and cost. We take its parse only when the parser itself is sure:
it asks nothing of the knowledge base, every value it read won by at least :data:`MIN_MARGIN`
over the best reading without it (the resolver's margin), it left nothing of the message
unplaced, and the message says little more than the statements hold: at most
``MAX_LEFTOVER_WORDS`` content words they do not account for ("I want to join the waitlist"
answers "what do you need help with?" but says more than the enum value). A free-text answer
accounts for every word it swallows, so it must also be very short.
"""

from __future__ import annotations

import re

from ..acts import AskField
from ..language.words import content_words
from ..parse import Parse
from ..spec import AgentSpec
from ..state import DialogueState

_ASKS_THE_KNOWLEDGE = re.compile(r"\banswer\(")
"""A question for the knowledge base: the LLM writes its query."""
MAX_WORDS = 6
MAX_FREE_TEXT_WORDS = 4
MAX_LEFTOVER_WORDS = 2
MIN_MARGIN = 1.0
"""The resolver's margin (in units of the fitted weights) below which the LLM reads the message too:
see docs/benchmarks.md for the LLM calls per turn it gives (``python -m tests.benchmarks.llm_calls``)."""


def confident(spec: AgentSpec, state: DialogueState, parse: Parse, text: str) -> bool:
    if not (parse.understood and parse.statements.strip()) or parse.unplaced or _ASKS_THE_KNOWLEDGE.search(parse.statements):
        return False
    if parse.margin is not None and parse.margin < MIN_MARGIN:
        return False
    words = len(text.split())
    if words > MAX_WORDS:
        return False
    if words > MAX_FREE_TEXT_WORDS and _asks_free_text(spec, state):
        return False
    leftover = content_words(text) - content_words(parse.statements.replace("_", " "))
    return len(leftover) <= MAX_LEFTOVER_WORDS


def _asks_free_text(spec: AgentSpec, state: DialogueState) -> bool:
    act = next((a for a in reversed(state.last_acts) if a.is_question), None)
    if not isinstance(act, AskField):
        return False
    if act.instance == "answer":
        return True  # knowledge parameters are read as text
    instance = state.instances.get(act.instance)
    f = spec.tasks[instance.worksheet].fields.get(act.field) if instance else None
    return f is not None and f.type.kind == "str"
