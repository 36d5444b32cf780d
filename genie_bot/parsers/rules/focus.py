"""What the conversation is about: the record a pronoun stands for ("is it good for kids?").

The thing in focus is, most recent first: the one record the agent just reported, else a
record or a named value (a course code) held by the task being filled, most recently touched
first. A message naming its own record needs no focus.
"""

from __future__ import annotations

import re
from typing import Any

from ...acts import Report
from ...language import english
from ...language.tokens import phrase_pattern
from ...language.words import content_words
from ...responders.display import join_words
from ...spec import AgentSpec, InstanceRef
from .reading import Reading

_PRONOUN = re.compile(phrase_pattern(english.PRONOUNS), re.I)
_POINTING = re.compile(rf"{phrase_pattern(english.DEMONSTRATIVES)}\s+(?P<noun>[a-z]+)\b", re.I)


def pronoun(reading: Reading, text: str | None = None) -> re.Match | None:
    """The first word that stands for the thing in focus: "it", "this one", or "this" or "the" before a
    noun for the records of a table ("this restaurant", "the class" where "class" means course)."""
    text = reading.text if text is None else text
    nouns = _record_nouns(reading.spec)
    found = [m for m in _POINTING.finditer(text) if content_words(m.group("noun")) & nouns]
    found += list(_PRONOUN.finditer(text))
    return min(found, key=lambda m: m.start(), default=None)


def _record_nouns(spec: AgentSpec) -> frozenset[str]:
    """The words for a table's records: of its name ("restaurants": restaurant), and of the fields that
    take its records ("course_name": course), stemmed (the agent's synonyms apply to what is said)."""
    tables = [k.name for k in spec.knowledge.values() if k.source == "table"]
    names = [t.replace("_", " ") for t in tables]
    names += [" ".join(w for w in f.name.split("_") if w not in english.GENERIC_FIELD_WORDS)
              for ws in spec.tasks.values() for f in ws.fields.values() if f.values_from or f.type.ref in tables]
    return frozenset().union(*(content_words(n) for n in names)) if names else frozenset()


def in_focus(reading: Reading) -> str | None:
    """The name of the thing the conversation is about, or None."""
    reported = _reported_record(reading)
    if reported is not None:
        return reported
    for instance in reading.open_instances():
        ws = reading.spec.tasks[instance.worksheet]
        for f in ws.fields.values():
            value = instance.values.get(f.name)
            if isinstance(value, dict) and f.type.ref in reading.spec.knowledge:
                name = _record_name(value)
                if name:
                    return name
            if f.values_from and isinstance(value, str) and value not in ("NA", ""):
                return value
    return None


def focus_record(reading: Reading, table: str) -> dict[str, Any] | None:
    """The record of ``table`` in focus: the one just reported, else the one the task holds."""
    answer = reading.state.answer
    rows = answer.result if answer is not None and isinstance(answer.result, list) else []
    if answer is not None and _just_reported(reading) and len(rows) == 1 and isinstance(rows[0], dict) \
            and answer.table in (None, table):
        return rows[0]
    for instance in reading.open_instances():
        for f in reading.spec.tasks[instance.worksheet].fields.values():
            value = instance.values.get(f.name)
            if f.type.ref == table and isinstance(value, dict) and not isinstance(value, InstanceRef):
                return value
    return None


def resolved(reading: Reading, text: str) -> str:
    """``text`` with a pronoun for the thing in focus replaced by its name; "they" after a short
    list, by the names listed ("what are their hours?")."""
    listed = _listed_names(reading)
    if listed and PLURAL_PRONOUN.search(text):
        return PLURAL_PRONOUN.sub(join_words(listed), text, count=1)
    name = in_focus(reading)
    found = pronoun(reading, text) if name is not None else None
    return text if found is None or name is None else text[:found.start()] + name + text[found.end():]


PLURAL_PRONOUN = re.compile(phrase_pattern(english.PLURAL_PRONOUNS), re.I)
MAX_LISTED = 5
"""A list this short is what "they" refers to (the agent showed every name of it)."""


def _listed_names(reading: Reading) -> list[str]:
    answer = reading.state.answer
    rows = answer.result if answer is not None and isinstance(answer.result, list) else []
    if not _just_reported(reading) or not 2 <= len(rows) <= MAX_LISTED:
        return []
    names = [_record_name(r) for r in rows if isinstance(r, dict)]
    return [n for n in names if n] if all(names) else []


def results_listed(reading: Reading) -> str | None:
    """The question whose results the agent just listed, when they are several records: a question
    that names nothing is asked of them ("is it good for kids?" after Thai places in Seattle)."""
    answer = reading.state.answer
    rows = answer.result if answer is not None and isinstance(answer.result, list) else []
    if not _just_reported(reading) or len(rows) < 2 or _reported_record(reading) is not None:
        return None
    return answer.question if answer is not None else None


def _reported_record(reading: Reading) -> str | None:
    """The one thing the agent just reported on: one record, or rows that all name the same one
    (a course's offerings)."""
    answer = reading.state.answer
    rows = answer.result if answer is not None and isinstance(answer.result, list) else []
    if not _just_reported(reading) or not rows or not all(isinstance(r, dict) for r in rows):
        return None
    names = {_record_name(r) for r in rows}
    return names.pop() if len(names) == 1 else None


def _just_reported(reading: Reading) -> bool:
    return any(isinstance(a, Report) and a.query_or_instance.startswith("answer(") for a in reading.state.last_acts)


def _record_name(record: dict[str, Any]) -> str | None:
    """A record's name or title, after its code when it has one ("CS231N Deep Learning for Computer
    Vision": other tables, such as a course's offerings, know it by the code), else its first text value."""
    code = next((v for v in record.values() if isinstance(v, str) and _CODE.fullmatch(v)), None)
    for key in ("name", "title"):
        if record.get(key):
            return f"{code} {record[key]}" if code and code != record[key] else str(record[key])
    return next((v for v in record.values() if isinstance(v, str) and v), None)


_CODE = re.compile(r"(?=[A-Za-z]*\d)(?=\d*[A-Za-z])[A-Za-z0-9]{3,12}")
"""A code: letters and digits, both (CS231N)."""
