"""Which task a message asks for, and the words it asks with."""

from __future__ import annotations

from ...spec import TaskWorksheet
from .. import extract
from .fields import top_level_tasks
from .reading import Reading

TASK_THRESHOLD = 0.5
"""The share of a task description's (or example's) content words a message must use to ask for it."""


def task_match(reading: Reading) -> tuple[TaskWorksheet | None, float]:
    """The top-level task whose description or examples the message is most like, and how much."""
    words = extract.content_words(reading.text)
    if not words:
        return None, 0.0
    best, best_score = None, 0.0
    for ws in top_level_tasks(reading.spec):
        for phrase in (ws.description, *ws.examples):
            phrase_words = extract.content_words(phrase)
            if not phrase_words:
                continue
            overlap = len(words & phrase_words)
            score = overlap / len(phrase_words) if overlap else 0.0
            if score > best_score:
                best, best_score = ws, score
    return best, best_score


def task_match_requested(reading: Reading) -> bool:
    """Whether the message asks for a task (open already or not)."""
    ws, score = task_match(reading)
    return ws is not None and score >= TASK_THRESHOLD


def request_words(reading: Reading) -> frozenset[str]:
    """The content words with which the message asks for a task ("submit a ticket"): they choose the
    task, not an option of it (the leave form's status "Submitted")."""
    ws, score = task_match(reading)
    if ws is None or score < TASK_THRESHOLD:
        return frozenset()
    words = extract.content_words(reading.text)
    return max((words & extract.content_words(phrase) for phrase in (ws.description, *ws.examples)), key=len)
