"""Strategy: a question for the knowledge base, asked about the thing in focus; never a field's value.

"who teaches CS 107?" asked while the units are pending is a question, not 107 units; "is it
good for kids?" is about the restaurant being booked. A request phrased as a question ("can
you book me a table?") is a request, and a question about the conversation itself ("why do
you need my name?") is for the agent, not the knowledge base.
"""

from __future__ import annotations

import datetime as dt
import re

from ...language import english
from ...language.tokens import phrase_pattern
from ...language.words import question_lead
from .evidence import whole
from .focus import in_focus, resolved, results_listed
from .proposals import QUESTION_MARK, QUESTION_WORD, Proposal
from .reading import Reading
from .requested import gives_a_typed_value
from .tasks import start_requested_task

_ASKING = re.compile(rf"\?\s*$|^{phrase_pattern(english.QUESTION_LEADS)}", re.I)
_POLITE_LEAD = re.compile(r"^(hey|hi|so|ok(ay)?|oh|and|also|btw|um+|uh+|hm+|quick question)[\s,.!]+|"
                          r"^(can|could|would|will) (you|u) (please )?(tell me|let me know|check|find out|look up|show me)"
                          r"\s+|^do (you|u) know\s+|^(do|does) (you|u) have\s+|^i (want|would like|'?d like) to know\s+|^i wonder\s+", re.I)
_ACTION_REQUEST = re.compile(r"^(please )?(can|could|would|will) (you|u|i) (please )?\w+", re.I)
_ASKING_TO_DO = re.compile(r"^(?:\w+\s+){0,2}?(?:can|could|may)\s+(?:we|i)\b", re.I)
_TELLING_NOT_TO = re.compile(r"^(?:do\s+not|don'?t|dont)\b(?!.*\?\s*$)", re.I)
_ABOUT_THE_AGENT = re.compile(r"\b(you|your|u)\b", re.I)


def propose(reading: Reading) -> list[Proposal]:
    """Matcher: a question for the knowledge base, read whole. Asked with a question word it is a
    question, never a value; with only a question mark it may be an unsure answer ("8pm?"), which
    then outweighs it. A question that asks for a task ("what's the status of TKT-00042?") starts
    the task instead (the ``tasks`` matcher)."""
    if information_question(reading.text, reading.today) is None or start_requested_task(reading.fresh(), answered_already=False):
        return []
    asked = knowledge_question(reading)
    if not asked:
        return []
    worded = question_lead(_POLITE_LEAD.sub("", reading.text.strip())) is not None
    return [Proposal("questions", tuple(asked), QUESTION_WORD if worded else QUESTION_MARK, whole(reading),
                     exclusive=True)]


def information_question(text: str, today: dt.date) -> str | None:
    """The question itself ("who teaches CS 107?" from "hey, do you know who teaches CS 107?"),
    or None when the message is no question for the knowledge base."""
    question = text.strip()
    for _ in range(3):
        stripped = _POLITE_LEAD.sub("", question).strip()
        if stripped == question:
            break
        question = stripped
    if not question or not _ASKING.search(question) or _TELLING_NOT_TO.match(question):
        return None  # "do not book it" tells, it does not ask
    if _ACTION_REQUEST.match(question) or _ABOUT_THE_AGENT.search(question):
        return None  # "can you book me a table?", "why do you need my name?"
    if _ASKING_TO_DO.match(question) and gives_a_typed_value(question, today):
        return None  # "can we do 8pm instead" asks for a value, not about the records
    return question


def knowledge_question(reading: Reading) -> list[str]:
    if not reading.spec.knowledge:
        return []
    question = information_question(reading.text, reading.today)
    if question is None:
        return []
    question = resolved(reading, question)
    focus = in_focus(reading)
    listed = results_listed(reading)
    if listed is not None and not _names_anything(reading, question):
        question = f"{question} (of: {listed})"  # "which one has the best rating?" after Italian places in SF
    elif focus is not None and not _names_anything(reading, question):
        question = f"{question} ({focus})"  # "what's the max units?" while CS224N is being enrolled in
    return [f"answer({question!r})"]


def _names_anything(reading: Reading, question: str) -> bool:
    """Whether the question names a record or a value of a table's column (else it is about the thing in focus)."""
    store = reading.knowledge
    return store is None or any(store.record_names(t).find(question) or store.column_values(t).find(question)
                                for t in store.tables)
