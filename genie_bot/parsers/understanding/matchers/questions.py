"""Matcher: a question for the knowledge base ("who teaches cs 107?", "is it good for kids?"), asked
alone or inside a message that also gives values ("ok lemongrass sounds good, is it good for kids
tho?"): it is answered, and what else the message gives is taken too.

A question that proposes a value ("can we do 8pm instead?"), asks the agent to do something ("can
you book me a table?"), or is about the agent itself ("why do you need my name?") is no question for
the knowledge base; what is asked about is the thing in focus when the question names nothing.
"""

from __future__ import annotations

import re

from ....language import english
from ....language.tokens import phrase_pattern
from ..analysis.acts import asks_with_a_question_word
from ..analysis.model import QUESTION
from ..context import Context
from ..focus import in_focus, resolved, results_listed
from ..proposals import LINES, Proposal

_POLITE_LEAD = re.compile(rf"^(?:(?:{phrase_pattern(english.POLITE_QUESTION_LEADS)})[\s,.!]+)+", re.I)
_ACTION_REQUEST = re.compile(rf"^(?:{phrase_pattern(english.ACTION_REQUESTS)})\s+\w+", re.I)
_ABOUT_THE_AGENT = re.compile(phrase_pattern(english.SECOND_PERSON), re.I)
_AUXILIARY = re.compile(phrase_pattern(english.AUXILIARIES), re.I)
_ASKING_THE_RECORDS = re.compile(phrase_pattern(english.ASKING_ABOUT_WHAT_IS_OFFERED), re.I)
_TELLING_NOT_TO = re.compile(rf"^{phrase_pattern(english.NEGATIONS)}\b", re.I)


def propose(ctx: Context) -> list[Proposal]:
    if not ctx.spec.knowledge:
        return []
    out = []
    for cue in ctx.analysis.cues:
        if cue.act != QUESTION:
            continue
        question = information_question(ctx.text[cue.start:cue.end].strip() + "?")
        if question is None:
            continue
        worded = asks_with_a_question_word(question) or (_AUXILIARY.match(question) is not None and "?" in question)
        whole = (cue.start, cue.end) == (ctx.analysis.clauses[0][0], ctx.analysis.clauses[-1][1]) if ctx.analysis.clauses else True
        features = {"question", "question word" if worded else "question mark only",
                    "whole message" if whole else "part of a message"}
        out.append(Proposal(LINES, frozenset(features), ctx.tokens_in([(cue.start, cue.end)]), exclusive=whole,
                            lines=(f"answer({_about(ctx, question)!r})",), phase=8))
    return out


def information_question(text: str) -> str | None:
    """The question itself ("who teaches CS 107?" from "hey, do you know who teaches CS 107?"), or None
    when it asks the agent to do something, or about the agent."""
    question = _POLITE_LEAD.sub("", text.strip()).strip()
    if not question or _TELLING_NOT_TO.match(question):
        return None
    if _ACTION_REQUEST.match(question) or _ABOUT_THE_AGENT.search(_ASKING_THE_RECORDS.sub(" ", question)):
        return None
    return question


def _about(ctx: Context, question: str) -> str:
    """The question, with a pronoun replaced by the thing in focus, or the thing in focus (or the list just
    shown) added when it names nothing."""
    question = resolved(ctx, question)
    if _names_anything(ctx, question):
        return question
    listed = results_listed(ctx)
    if listed is not None:
        return f"{question} (of: {listed})"
    focus = in_focus(ctx)
    return f"{question} ({focus})" if focus is not None else question


def _names_anything(ctx: Context, question: str) -> bool:
    store = ctx.knowledge
    return store is None or any(store.record_names(t).find(question) or ctx.values_named(t, question)
                                for t in store.tables)
