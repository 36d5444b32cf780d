"""The rule-based parser: offline mode, and the fast path in front of the LLM parser.

A message is read in four steps, each of its own module:

1. **Analysis** (:mod:`.analysis`): once per message, before anything else, and frozen: tokens,
   typed entities (numbers, amounts, dates, times, lengths of time, phones, emails, addresses,
   names, the worksheet's formats, records, options), field mentions and dialogue-act cues.
2. **Matchers** (:mod:`.matchers`): pure functions of the context that propose readings, each
   with its evidence. Values go to fields by the slot mappings (:mod:`.slots`), a readable table
   of which entities fill which fields and when.
3. **Resolver** (:mod:`.resolver`): the best set of readings that fit together, scored by one
   fitted weight table (:mod:`.weights`); a value too close to call is asked about instead.
4. **Writer** (:mod:`.writer`): statements for the safe interpreter, and what to tell the user.

It writes the same statements an LLM parser would, driven by what the spec declares, so a new
agent is understood without rules of its own.
"""

from __future__ import annotations

import datetime as dt
from typing import Any

from ...language.words import Lexicon, using
from ...parse import NOTHING_SAID, Parse
from ...spec import AgentSpec
from ...state import DialogueState
from .analysis import analyse
from .context import Context
from .matchers import changes, commands, confirmations, declines, questions, searches, small_talk, tasks, values
from .proposals import Proposal
from .resolver import resolve
from .spec_index import index_of
from .weights import Weights, fitted
from .writer import written

__all__ = ["MATCHERS", "MAX_MESSAGE_CHARS", "RuleParser", "TOO_LONG", "lexicon"]

MATCHERS = (values.propose, declines.propose, confirmations.propose, tasks.propose, commands.propose,
            questions.propose, searches.propose, changes.propose, small_talk.propose)
"""Every matcher; their order means nothing (a test shuffles it)."""
MAX_MESSAGE_CHARS = 2_000
"""A longer message is not read (its cost would grow with it); the user is asked for the gist."""
TOO_LONG = ("That message is too long for me to read in one go. Could you send just what answers my question, "
            "in a few sentences?")


class RuleParser:
    """Deterministic parser; ``knowledge`` (a KnowledgeStore) lets it name records offline."""

    def __init__(self, knowledge: Any = None, weights: Weights | None = None):
        self.knowledge = knowledge
        self.weights = weights

    def parse(self, spec: AgentSpec, state: DialogueState, text: str, today: dt.date) -> Parse:
        text = text.strip()
        if not text:
            return Parse(NOTHING_SAID)
        if len(text) > MAX_MESSAGE_CHARS:
            return Parse("", understood=False, reason=TOO_LONG)
        with using(lexicon(spec)):
            ctx = context(spec, state, text, today, self.knowledge)
            return written(ctx, resolve(proposals(ctx), self.weights or fitted()))


def context(spec: AgentSpec, state: DialogueState, text: str, today: dt.date, knowledge: Any) -> Context:
    index = index_of(spec)
    return Context(spec, state, today, knowledge, index, analyse(text, index, today, knowledge))


def proposals(ctx: Context) -> list[Proposal]:
    return [p for matcher in MATCHERS for p in matcher(ctx)]


def lexicon(spec: AgentSpec) -> Lexicon:
    """The agent's words, put in effect while one of its messages is read."""
    return spec.vocabulary.lexicon()
