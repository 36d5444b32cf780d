"""The rule-based parser: offline mode, and the fast path in front of the LLM parser.

It writes the same statements an LLM parser would, driven by what the spec declares (field
types, descriptions, enum values and their descriptions, formats, knowledge tables), so a new
agent is understood without rules of its own. A message is read by a pipeline of strategies,
each a module of this package, tested on its own:

1. ``commands``: cancel, start over, goodbye (the whole message is the command);
2. ``questions``: a question starts the task it asks for, or goes to the knowledge base about
   the thing in focus (``focus``); it is never a field's value;
3. ``searches``: a description of records the agent asks for, or that no task is requested with,
   is a search ("quiet places in Seattle"), with the typed values it also gives;
4. ``asked``: the answer to the question just asked;
5. ``other_field``: else, a short typed answer to another open field;
6. ``tasks``: starting the task the message asks for, with every value it gives;
7. ``volunteered``: values for other fields of the open tasks, and corrections (``corrections``),
   and values said for each of several parts by naming it (``per_record``: "4 for 229 and 3 for 231n");
8. ``ahead`` and ``otherwise``: when nothing else was read, a bare value for the question
   asked next, or a remark meaning "go on";
9. the agent's only task; small talk and remarks.

When it understands nothing it says so (``understood=False``) rather than guessing, so no
action ever runs on a guess.
"""

from __future__ import annotations

import datetime as dt
from typing import Any

from ...acts import AskField, AskForConfirmation, ProposeWorksheet
from ...spec import AgentSpec
from ...state import DialogueState
from .. import extract
from ...parse import Parse
from .ahead import answers_a_later_question
from .asked import answer_question
from .commands import command
from .corrections import corrections
from .fields import is_free_text
from .other_field import answers_another_field
from .otherwise import otherwise
from .questions import information_question, knowledge_question, tentative_answer
from .per_record import values_per_record
from .reading import Reading
from .searches import record_search
from .segments import parts
from .tasks import (opens_the_only_task, requests_a_new_task, restates_open_task, start_requested_task,
                    task_match_requested)
from .volunteered import volunteered
from .words import ABOUT_THE_AGENT, CHITCHAT, QUESTION, REQUEST, SENTENCE, plea_for_help

__all__ = ["QUESTION", "RuleParser"]


class RuleParser:
    """Deterministic parser; ``knowledge`` (a KnowledgeStore) lets it name records offline."""

    def __init__(self, knowledge: Any = None):
        self.knowledge = knowledge

    def parse(self, spec: AgentSpec, state: DialogueState, text: str, today: dt.date) -> Parse:
        return read(Reading(spec, state, text.strip(), today, self.knowledge))

    def answer_for(self, spec: AgentSpec, state: DialogueState, text: str, today: dt.date) -> str | None:
        """Statements answering exactly the question just asked, or None (used for omission repair)."""
        return "\n".join(answer_question(Reading(spec, state, text.strip(), today, self.knowledge))) or None


MAX_ATTEMPT_WORDS = 6
"""A reply this short to a question, not a sentence, is an attempt to answer it ("cs 106a")."""
MAX_MESSAGE_CHARS = 2_000
"""A longer message is not read (its cost would grow with it); the user is asked for the gist."""
TOO_LONG = ("That message is too long for me to read in one go. Could you send just what answers my question, "
            "in a few sentences?")


def read(reading: Reading) -> Parse:
    """Run the pipeline on one message."""
    if not reading.text:
        return Parse("# nothing was said")  # a bare @mention: the agent greets or asks its question again
    if len(reading.text) > MAX_MESSAGE_CHARS:
        return Parse("", understood=False, reason=TOO_LONG)
    steered = command(reading)
    if steered is not None:
        return Parse(steered)
    if ABOUT_THE_AGENT.match(reading.text):  # "what can you do?": what the agent is for, then its question
        return Parse("# a question about the agent", reason=" ".join((reading.spec.greeting or reading.spec.description).split()))
    statements = reading.statements
    if information_question(reading.text) is not None and not tentative_answer(reading):
        if start_requested_task(reading, answered_already=False):  # "what's the status of TKT-00042?"
            statements.extend(volunteered(reading))
            return Parse("\n".join(statements))
        asked = knowledge_question(reading)
        if asked:
            return Parse("\n".join(asked))
    searched = record_search(reading)
    if searched and not task_match_requested(reading):
        return Parse("\n".join(searched + volunteered(reading, free_text=False)))
    spans = parts(reading) if reading.open_instances() and not requests_a_new_task(reading) else []
    if spans:  # "cs 106a for credit/no credit 5 units and cs 103 letter 4 units": each course its own details
        said = [read_values(reading.part(start, end)) for start, end in spans]
        statements.extend(line for parse in said for line in parse.statements.splitlines() if parse.understood)
        return Parse("\n".join(statements)) if statements else _nothing_to_do(reading)
    return read_values(reading, searched)


def read_values(reading: Reading, searched: list[str] | None = None) -> Parse:
    """The pipeline from corrections on: the values a message (or one part of it) gives."""
    statements = reading.statements
    corrected = values_per_record(reading)
    corrected += corrections(reading)
    statements.extend(corrected)
    answered = [] if corrected and _not_an_answer(reading) else answer_question(reading)
    statements.extend(answered)
    if not answered:
        statements.extend(answers_another_field(reading))
    started = start_requested_task(reading, answered_already=bool(answered))
    statements.extend(volunteered(reading))
    if not statements:
        statements.extend(answers_a_later_question(reading))
    if not statements:
        statements.extend(otherwise(reading))
    if not statements and opens_the_only_task(reading):
        started = True
    if not statements and restates_open_task(reading):
        return Parse("# the request is already being handled")
    if not statements:
        return _nothing_to_do(reading)
    if searched and started:  # "a table for two tonight somewhere romantic in new york": and the places
        statements.extend(record_search(reading, " ".join(reading.masked().split())))
    return Parse("\n".join(statements), answers_question=bool(answered) and not started
                 and len(statements) == len(answered),
                 corrected=tuple(line.split(" = ", 1)[0] for line in corrected if " = " in line))


def _not_an_answer(reading: Reading) -> bool:
    """A correction answers no free-text question, and is no "no" to a summary: the change itself
    makes the agent show the summary again."""
    act = reading.question
    if isinstance(act, (AskForConfirmation, ProposeWorksheet)):
        return True
    instance = reading.state.instances.get(getattr(act, "instance", None) or "")
    f = reading.spec.tasks[instance.worksheet].fields.get(act.field) if instance and isinstance(act, AskField) else None
    return f is not None and (is_free_text(f) or f.type.kind == "confirm")  # "is this list correct?" too


def _nothing_to_do(reading: Reading) -> Parse:
    """Small talk is understood as such, and so is a remark said in passing (the agent asks its
    question again, as a person would); a short reply that tries to answer and gives nothing
    the agent can use was not understood (the agent says so, rather than repeating itself as
    if nothing had been said)."""
    text = reading.text
    if reading.problem:  # a value was given but cannot be taken as said ("in august" is no day)
        return Parse("", understood=False, reason=reading.problem)
    if CHITCHAT.match(text) or extract.is_thanks(text) or plea_for_help(text):
        return Parse("# chit-chat")
    attempt = isinstance(reading.question, AskField) and len(text.split()) <= MAX_ATTEMPT_WORDS \
        and not SENTENCE.search(text)
    if not (QUESTION.search(text) or REQUEST.search(text) or attempt):
        return Parse("# a remark, not a request")
    return Parse("", understood=False)
