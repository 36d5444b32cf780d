"""The rule-based parser: offline mode, and the fast path in front of the LLM parser.

It writes the same statements an LLM parser would, driven by what the spec declares (field
types, descriptions, enum values and their descriptions, formats, knowledge tables), so a new
agent is understood without rules of its own.

A message is read by matchers, one module each, that propose readings of it; none decides. Each
proposal says which words it explains, which fields it fills, what it means and how strongly the
evidence supports it (``proposals``, ``evidence``); one resolver (``resolver``) picks the best set
of proposals that explain different words and fill different fields. The matchers:

- ``commands``: cancel, start over, goodbye, a question about the agent (the whole message);
- ``questions``: a question for the knowledge base about the thing in focus (``focus``);
- ``searches``: a description of records ("quiet places in Seattle"), with the typed values it gives;
- ``corrections``: changes of values given before, and values given per part by naming it (``per_record``);
- ``asked``: the answer to the question just asked, with the nested worksheets it opens;
- ``other_field``: a short typed answer to another open field;
- ``tasks``: the task the message asks for, started with every value it gives;
- ``volunteered``: each value for another field of the open tasks;
- ``ahead`` and ``otherwise``: a bare value for the question asked next, or a remark meaning "go on";
- last resorts: the agent's only task, a request restated, small talk and remarks.

A message naming several records each with details of its own ("cs 106a for 5 units and cs 103
letter") is read one part at a time (``segments``), each part resolved in turn. When nothing is
understood the parse says so (``understood=False``) rather than guessing, so no action ever runs
on a guess.
"""

from __future__ import annotations

import datetime as dt
from collections.abc import Callable
from typing import Any

from ...acts import AskField
from ...language.words import Lexicon, using
from ...parse import CHIT_CHAT, NOTHING_SAID, Parse
from ...spec import AgentSpec
from ...state import DialogueState
from .. import extract
from . import (ahead, asked, commands, corrections, other_field, otherwise, questions, restated, searches, tasks,
               unasked_changes, volunteered)
from .asked import answer_question
from .evidence import whole
from .proposals import DECISIVE, NOTHING, Proposal
from .reading import Reading
from .tasks import requests_a_new_task
from .resolver import resolve
from .segments import parts
from .words import CHITCHAT, QUESTION, REQUEST, SENTENCE, plea_for_help

__all__ = ["QUESTION", "RuleParser"]

Matcher = Callable[[Reading], list[Proposal]]
WHOLE_MESSAGE_MATCHERS: tuple[Matcher, ...] = (commands.propose, questions.propose, searches.propose)
"""Matchers that read the message as a whole."""
VALUE_MATCHERS: tuple[Matcher, ...] = (corrections.propose, asked.propose, other_field.propose, tasks.propose,
                                       volunteered.propose, ahead.propose, otherwise.propose, tasks.propose_fallbacks,
                                       restated.propose, unasked_changes.propose)
"""Matchers that read values, of the whole message or of one part of it."""


class RuleParser:
    """Deterministic parser; ``knowledge`` (a KnowledgeStore) lets it name records offline."""

    def __init__(self, knowledge: Any = None):
        self.knowledge = knowledge

    def parse(self, spec: AgentSpec, state: DialogueState, text: str, today: dt.date) -> Parse:
        with using(lexicon(spec)):
            return read(Reading(spec, state, text.strip(), today, self.knowledge))

    def answer_for(self, spec: AgentSpec, state: DialogueState, text: str, today: dt.date) -> str | None:
        """Statements answering exactly the question just asked, or None (used for omission repair)."""
        with using(lexicon(spec)):
            return "\n".join(answer_question(Reading(spec, state, text.strip(), today, self.knowledge))) or None


def lexicon(spec: AgentSpec) -> Lexicon:
    """The agent's words, put in effect while one of its messages is read."""
    return spec.vocabulary.lexicon()


MAX_ATTEMPT_WORDS = 6
"""A reply this short to a question, not a sentence, is an attempt to answer it ("cs 106a")."""
MAX_MESSAGE_CHARS = 2_000
"""A longer message is not read (its cost would grow with it); the user is asked for the gist."""
TOO_LONG = ("That message is too long for me to read in one go. Could you send just what answers my question, "
            "in a few sentences?")


def read(reading: Reading) -> Parse:
    """Propose readings of the message, resolve them, and write the chosen ones as a parse."""
    if not reading.text:
        return Parse(NOTHING_SAID)
    if len(reading.text) > MAX_MESSAGE_CHARS:
        return Parse("", understood=False, reason=TOO_LONG)
    proposals = [p for matcher in WHOLE_MESSAGE_MATCHERS for p in matcher(reading)]
    if any(p.exclusive and p.score >= DECISIVE for p in proposals):
        return _written(resolve(proposals))
    spans = parts(reading) if reading.open_instances() and not requests_a_new_task(reading) else []
    if spans:  # "cs 106a for credit/no credit 5 units and cs 103 letter 4 units": each course its own details
        proposals.extend(_read_in_parts(reading, spans))
    else:
        proposals.extend(_value_proposals(reading))
    proposals.append(_nothing_to_do(reading))
    return _written(_resolved(reading, proposals))


def _value_proposals(reading: Reading) -> list[Proposal]:
    """The value matchers' proposals."""
    out = []
    for matcher in VALUE_MATCHERS:
        out.extend(matcher(reading))
    return out


def _resolved(reading: Reading, proposals: list[Proposal]) -> list[Proposal]:
    """The best readings; when nothing is understood but a value the message gives cannot be taken
    ("in august" is no day), the reading that says why."""
    chosen = resolve(proposals)
    if sum(p.score for p in chosen) < PROBLEM:
        problem = _problem(reading)
        if problem is not None:
            return [problem]
    return chosen


PROBLEM = 3 * NOTHING
"""The weight of saying why a value cannot be taken: more than reading the message as nothing,
less than any value."""


def _problem(reading: Reading) -> Proposal | None:
    """Why a value the message gives cannot be taken (or placed), found by reading it as the answer,
    as values and as changes (read only when nothing else is understood: it costs as much as the
    readings themselves)."""
    for read_as in (answer_question, volunteered.volunteered, corrections.corrections):
        scratch = reading.fresh()
        read_as(scratch)
        if scratch.problem:
            return Proposal("problem", (), PROBLEM, whole(reading), exclusive=True, understood=False,
                            reason=scratch.problem)
    return None


def _read_in_parts(reading: Reading, spans: list[tuple[int, int]]) -> list[Proposal]:
    """One proposal for the whole message from its parts, each resolved in turn: what a part gave is
    taken when the next is read ("letter" goes to the course named just before it)."""
    statements: list[str] = []
    corrected: tuple[str, ...] = ()
    score = 0.0
    for start, end in spans:
        part = reading.part(start, end)
        chosen = [p for p in _resolved(part, _value_proposals(part)) if p.understood]
        for p in chosen:
            _take(reading, p)
        statements.extend(line for p in sorted(chosen, key=_order) for line in p.statements)
        score += sum(p.score for p in chosen)
        corrected += tuple(c for p in chosen for c in p.corrects)
    if not statements:
        return []
    return [Proposal("segments", tuple(statements), score, whole(reading), corrects=corrected, phase=1)]


def _take(reading: Reading, chosen: Proposal) -> None:
    """What a chosen reading of one part gave, taken before the next part is read."""
    for taken in chosen.details.get("taken", []):
        reading.assigned.add((taken.instance, taken.field.name))
        reading.given[(taken.instance, taken.field.name)] = taken.value
        reading.note_choice(taken.field, taken.value)
    for slot in chosen.slots:
        instance, _, name = slot.partition(".")
        reading.assigned.add((instance, name))
    reading.corrected.update(c.split(".", 1)[-1] for c in chosen.corrects)


def _order(p: Proposal) -> tuple[int, int]:
    """Where a chosen reading's statements go: by phase, then where the message says it."""
    return p.phase, min(p.claims, default=0)


def _written(chosen: list[Proposal]) -> Parse:
    """The parse of the chosen readings; a remark beside a value is dropped ("i'd like to order a
    pizza" while ordering gives the dish, and carrying on goes without saying)."""
    if any(not _remark(p) for p in chosen):
        chosen = [p for p in chosen if not _remark(p)]
    chosen = sorted(chosen, key=_order)
    statements = "\n".join(line for p in chosen for line in p.statements)
    if any(not p.understood for p in chosen):
        return Parse(statements, understood=False, reason=next(p.reason for p in chosen if not p.understood))
    reason = next((p.reason for p in chosen if p.reason), None)
    return Parse(statements, reason=reason, answers_question=bool(chosen) and all(p.answers for p in chosen),
                 corrected=tuple(c for p in chosen for c in p.corrects))


def _remark(p: Proposal) -> bool:
    return bool(p.statements) and all(line.startswith("#") for line in p.statements)


def _nothing_to_do(reading: Reading) -> Proposal:
    """The reading of last resort. Small talk is understood as such, and so is a remark said in
    passing (the agent asks its question again, as a person would); a short reply that tries to
    answer and gives nothing the agent can use was not understood (the agent says so, rather than
    repeating itself as if nothing had been said)."""
    text = reading.text
    if CHITCHAT.match(text) or extract.is_thanks(text) or plea_for_help(text):
        return Proposal("nothing", (CHIT_CHAT,), NOTHING, whole(reading), exclusive=True)
    attempt = isinstance(reading.question, AskField) and len(text.split()) <= MAX_ATTEMPT_WORDS \
        and not SENTENCE.search(text)
    if not (QUESTION.search(text) or REQUEST.search(text) or attempt):
        return Proposal("nothing", ("# a remark, not a request",), NOTHING, whole(reading), exclusive=True)
    return Proposal("nothing", (), NOTHING, whole(reading), exclusive=True, understood=False)
