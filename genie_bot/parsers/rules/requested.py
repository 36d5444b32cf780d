"""Which task a message asks for, and the words it asks with."""

from __future__ import annotations

import datetime as dt
import re
from functools import lru_cache

from ...language import english
from ...knowledge.mentions import RecordNames
from ...language.words import question_lead
from ...spec import TaskWorksheet
from .. import dates, extract
from .fields import top_level_tasks
from .reading import Reading
from .records import table_of

TASK_THRESHOLD = 0.5
"""The share of a task description's (or example's) content words a message must use to ask for it."""
DISTINCTIVE = 0.6
"""How well a message that uses a word only one task is asked with ("freeze", "book") matches that task."""


def task_match(reading: Reading) -> tuple[TaskWorksheet | None, float]:
    """The top-level task the message asks for, and how well it matches: the share of the words of
    the task's description or of one of its examples the message uses, or ``DISTINCTIVE`` when it
    uses a word that only this task is described or asked with, and often ("book a class" for an
    agent whose other tasks never say "book")."""
    words = extract.content_words(reading.text)
    if not words:
        return None, 0.0
    best, best_score = None, 0.0
    distinctive = _distinctive_words(reading)
    for ws in top_level_tasks(reading.spec):
        tables = _tables_of(reading, ws)
        said = words | _record_slots(reading, reading.text, tables)
        scores = [len(said & phrase_words) / len(phrase_words)
                  for phrase_words in _phrase_words(reading, (ws.description, *ws.examples), tables) if phrase_words]
        if words & distinctive.get(ws.name, frozenset()):
            scores.append(DISTINCTIVE)
        if any(f"<{t}>" in said and _only_task_of(reading, t) is ws for t in tables) and not _asks(reading.text):
            scores.append(TASK_THRESHOLD)  # "spin on sunday 7ish": a record only one task takes, named
        score = max(scores, default=0.0)
        if score > best_score:
            best, best_score = ws, score
    return best, best_score


def _tables_of(reading: Reading, ws: TaskWorksheet) -> list[str]:
    """The knowledge tables whose records are values of the task's fields."""
    if reading.knowledge is None:
        return []
    return sorted({t for f in ws.fields.values() if (t := table_of(reading.spec, f)) is not None})


def _only_task_of(reading: Reading, table: str) -> TaskWorksheet | None:
    """The one top-level task with a field whose values are records of ``table``, if only one has."""
    found = [ws for ws in top_level_tasks(reading.spec) if table in _tables_of(reading, ws)]
    return found[0] if len(found) == 1 else None


def _asks(text: str) -> bool:
    """A question ("when is spin?"): it asks about a record, it does not ask for it."""
    return "?" in text or question_lead(text) is not None


def _record_slots(reading: Reading, text: str, tables: list[str]) -> set[str]:
    """A slot word for each table a record of which ``text`` names: "sign me up for zumba" and the
    example "sign me up for hiit" share it (the record, whichever it is)."""
    return {f"<{t}>" for t in tables if reading.knowledge.record_names(t).find(text)}


def _phrase_words(reading: Reading, phrases: tuple[str, ...], tables: list[str]) -> list[frozenset[str]]:
    """The content words of a task's description and examples, those naming a record replaced by the
    record's slot (:func:`_record_slots`): an example's record is an example of any record."""
    words = [extract.content_words(p) for p in phrases]
    for t in tables:
        named = _named_in(reading.knowledge.record_names(t), phrases)
        words = [(w - n) | {f"<{t}>"} if n else w for w, n in zip(words, named)]
    return words


@lru_cache(maxsize=256)
def _named_in(names: RecordNames, phrases: tuple[str, ...]) -> list[frozenset[str]]:
    """For each phrase, the content words of the records of ``names``' table it names (looked up
    at once: the phrases joined, a name across two of them not counted)."""
    joined = SEPARATOR.join(phrases)
    bounds, at = [], 0
    for phrase in phrases:
        bounds.append((at, at + len(phrase)))
        at += len(phrase) + len(SEPARATOR)
    named: list[frozenset[str]] = [frozenset()] * len(phrases)
    for mention in names.find(joined, exact=True):
        index = next((i for i, (s, e) in enumerate(bounds) if s <= mention.start and mention.end <= e), None)
        if index is not None:
            named[index] = named[index] | extract.content_words(joined[mention.start:mention.end])
    return named


SEPARATOR = " ; "


def _distinctive_words(reading: Reading) -> dict[str, frozenset[str]]:
    """For each top-level task, the verbs that ask for it and no other: the first word of its
    description or of one of its examples ("Book a spot in a class", "freeze my membership"), used in
    its description or in two of its phrases, and in no phrase of another task."""
    tasks = top_level_tasks(reading.spec)
    phrases = {ws.name: [(ws.description, *ws.examples)] for ws in tasks}
    said = {name: [extract.content_words(p) for p in texts[0]] for name, texts in phrases.items()}
    everyone = {name: frozenset().union(*words) for name, words in said.items()}
    out = {}
    for ws in tasks:
        others = frozenset().union(*(words for name, words in everyone.items() if name != ws.name))
        leading = {first for p in phrases[ws.name][0] for first in _first_word(p)}
        central = {w for w in leading if w in said[ws.name][0] or sum(w in p for p in said[ws.name]) >= 2}
        out[ws.name] = frozenset(central - others)
    return out


def _first_word(phrase: str) -> list[str]:
    """The first word of a phrase that carries meaning, as ``content_words`` writes it."""
    for word in phrase.split():
        found = extract.content_words(word)
        if found:
            return list(found)
    return []


def task_match_requested(reading: Reading) -> bool:
    """Whether the message asks for a task (open already or not)."""
    ws, score = task_match(reading)
    return ws is not None and score >= TASK_THRESHOLD


def only_asks_for_a_task(reading: Reading) -> bool:
    """Whether the message asks for a task and says nothing more ("help with an order"): none of its
    words is left for a value once the task's own words and words of asking are taken out."""
    if gives_a_typed_value(reading.text, reading.today):
        return False  # "reserve a table for Friday": the example's words, but a date too
    asking = extract.content_words(" ".join(english.ASKING_WORDS))
    wanted = request_words(reading)
    return bool(wanted) and not (extract.content_words(reading.text) - wanted - asking)


def gives_a_typed_value(text: str, today: dt.date) -> bool:
    """A number, a time or a date: a value, whatever words of a task's examples (or of a question) say it."""
    return bool(re.search(r"\d", text) or extract.numbers(text) or dates.find_times(text)
                or (dates.mentions_date(text) and dates.find_dates(text, today)))


def request_words(reading: Reading) -> frozenset[str]:
    """The content words with which the message asks for a task ("submit a ticket"): they choose the
    task, not an option of it (the leave form's status "Submitted")."""
    ws, score = task_match(reading)
    if ws is None or score < TASK_THRESHOLD:
        return frozenset()
    words = extract.content_words(reading.text)
    by_phrase = max((words & extract.content_words(phrase) for phrase in (ws.description, *ws.examples)), key=len)
    return by_phrase | (words & _distinctive_words(reading).get(ws.name, frozenset()))
