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
from .analysis.model import CANCEL, CHANGE, DECLINE, START_OVER
from .context import Context
from .spec_index import record_nouns

_PRONOUN = re.compile(phrase_pattern(english.PRONOUNS), re.I)
_POINTING = re.compile(rf"{phrase_pattern(english.DEMONSTRATIVES)}\s+(?P<noun>[a-z]+)\b", re.I)


def pronoun(ctx: Context, text: str | None = None) -> re.Match | None:
    """The first word that stands for the thing in focus: "it", "this one", or "this" or "the" before a
    noun for the records of a table ("this restaurant", "the class" where "class" means course)."""
    own = text is None
    text = ctx.text if text is None else text
    nouns = record_nouns(ctx.spec)
    found = [m for m in _POINTING.finditer(text) if content_words(m.group("noun")) & nouns]
    found += list(_PRONOUN.finditer(text))
    if own:  # "forget it", "make it ...": the pronoun of a phrase that ends or changes something points at no record
        found = [m for m in found if not any(c.act in _ENDING and c.start <= m.start() < c.end
                                             for c in ctx.analysis.cues)]
    return min(found, key=lambda m: m.start(), default=None)


_ENDING = (CANCEL, START_OVER, DECLINE, CHANGE)


def in_focus(ctx: Context) -> str | None:
    """The name of the thing the conversation is about, or None."""
    reported = _reported_record(ctx)
    if reported is not None:
        return reported
    for instance in ctx.open_instances:
        ws = ctx.spec.tasks[instance.worksheet]
        for f in ws.fields.values():
            value = instance.values.get(f.name)
            if isinstance(value, dict) and f.type.ref in ctx.spec.knowledge:
                name = _record_name(value)
                if name:
                    return name
            if f.values_from and isinstance(value, str) and value not in ("NA", ""):
                return value
    return None


def focus_record(ctx: Context, table: str) -> dict[str, Any] | None:
    """The record of ``table`` in focus: the one just reported, else the one the task holds."""
    answer = ctx.state.answer
    rows = answer.result if answer is not None and isinstance(answer.result, list) else []
    if answer is not None and _just_reported(ctx) and len(rows) == 1 and isinstance(rows[0], dict) \
            and answer.table in (None, table):
        return rows[0]
    for instance in ctx.open_instances:
        for f in ctx.spec.tasks[instance.worksheet].fields.values():
            value = instance.values.get(f.name)
            if f.type.ref == table and isinstance(value, dict) and not isinstance(value, InstanceRef):
                return value
    return None


def resolved(ctx: Context, text: str) -> str:
    """``text`` with a pronoun for the thing in focus replaced by its name; "they" after a short
    list, by the names listed ("what are their hours?")."""
    listed = _listed_names(ctx)
    if listed and PLURAL_PRONOUN.search(text):
        return PLURAL_PRONOUN.sub(join_words(listed), text, count=1)
    name = in_focus(ctx)
    found = pronoun(ctx, text) if name is not None else None
    return text if found is None or name is None else text[:found.start()] + name + text[found.end():]


PLURAL_PRONOUN = re.compile(phrase_pattern(english.PLURAL_PRONOUNS), re.I)
MAX_LISTED = 5
"""A list this short is what "they" refers to (the agent showed every name of it)."""


def _listed_names(ctx: Context) -> list[str]:
    answer = ctx.state.answer
    rows = answer.result if answer is not None and isinstance(answer.result, list) else []
    if not _just_reported(ctx) or not 2 <= len(rows) <= MAX_LISTED:
        return []
    names = [_record_name(r) for r in rows if isinstance(r, dict)]
    return [n for n in names if n] if all(names) else []


def results_listed(ctx: Context) -> str | None:
    """The question whose results the agent just listed, when they are several records: a question
    that names nothing is asked of them ("is it good for kids?" after Thai places in Seattle)."""
    answer = ctx.state.answer
    rows = answer.result if answer is not None and isinstance(answer.result, list) else []
    if not _just_reported(ctx) or len(rows) < 2 or _reported_record(ctx) is not None:
        return None
    return answer.question if answer is not None else None


def _reported_record(ctx: Context) -> str | None:
    """The one thing the agent just reported on: one record, or rows that all name the same one
    (a course's offerings)."""
    answer = ctx.state.answer
    rows = answer.result if answer is not None and isinstance(answer.result, list) else []
    if not _just_reported(ctx) or not rows or not all(isinstance(r, dict) for r in rows):
        return None
    names = {_record_name(r) for r in rows}
    return names.pop() if len(names) == 1 else None


def _just_reported(ctx: Context) -> bool:
    return any(isinstance(a, Report) and a.query_or_instance.startswith("answer(") for a in ctx.state.last_acts)


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


def named_in_focus(ctx: Context, table: str) -> str | None:
    """The name of the record in focus when it is a record of ``table`` (CS106A after its offerings): the
    record's code (its key) rather than its title, when it has one."""
    name = in_focus(ctx)
    found = ctx.knowledge.record_names(table).find(name) if name and ctx.knowledge is not None else []
    if not found:
        return None
    key = ctx.spec.knowledge[table].primary_key
    code = found[0].record.get(key) if key else None
    return code if isinstance(code, str) and code else name
