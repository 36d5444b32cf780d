"""Strategy: values for fields the agent did not ask about, given in the same message.

A value counts when the field's type, its declared format, a "my X is Y" statement or a
preposition of its description makes it unambiguous; a filled field changes only when the
message corrects it ("actually make it 4 people") or restates it.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from typing import Any

from ...spec import NA, Field, TaskWorksheet
from ...state import WorksheetInstance
from .. import dates, extract
from .about import declines_unasked, stated_values
from .fields import fields_by_kind, has_pattern, is_free_text
from .reading import Reading
from .values import typed
from .words import CORRECTION


def volunteered(reading: Reading) -> list[str]:
    out = []
    for instance in reading.open_instances():
        ws = reading.spec.tasks[instance.worksheet]
        for f, value in volunteer_values(reading, ws, instance.name, instance):
            out.append(reading.assign(instance, f, value))
        taken = {f.name for f in ws.fields.values() if instance.values.get(f.name) is not None
                 or (instance.name, f.name) in reading.assigned or (instance.name, f.name) == reading.asked}
        for name, value in described_problem(reading, ws, taken).items():  # the problem, told later on
            out.append(reading.assign(instance, ws.fields[name], value))
    return out


def volunteer_values(reading: Reading, ws: TaskWorksheet, name: str,
                     instance: WorksheetInstance | None = None) -> Iterator[tuple[Field, Any]]:
    """(field, value) for each field of ``ws`` (instance ``name``; None while starting it) the message gives."""
    correcting = bool(CORRECTION.search(reading.text))
    starting = [ws] if instance is None else []
    same_kind = fields_by_kind([reading.spec.tasks[i.worksheet] for i in reading.open_instances()] + starting)
    target = instance or WorksheetInstance(name or ws.name, ws.name)  # checks values of a task being started
    for f in ws.fields.values():
        if f.kind != "input" or (name, f.name) in reading.assigned or (name, f.name) == reading.asked:
            continue
        current = instance.values.get(f.name) if instance is not None else None
        filled = current is not None and current != NA  # a declined field may still be given later
        restated = is_free_text(f) and extract.role_phrase(reading.text, f) is not None
        if filled and not (correcting or restated):
            continue
        value = _volunteered_value(reading, f, same_kind, target)
        if value is None and current is None and declines_unasked(reading, f):
            value = NA
        if value is not None and value != current:
            if instance is None:
                target.values[f.name] = value
            yield f, value


def described_problem(reading: Reading, ws: TaskWorksheet, taken: dict[str, Any] | set[str]) -> dict[str, str]:
    """Free-text fields the message already answers, when it opens a task or later on.

    A request that states the user's problem fills the free-text field whose description
    shares a word with it that is distinctive of that field, in neither its name nor the other
    fields (a field described as "what happened: unauthorised transfers, a stolen card...").
    """
    words = extract.content_words(reading.text)
    overlaps = {}
    for f in ws.fields.values():
        if f.kind != "input" or f.name in taken or not is_free_text(f):
            continue
        others = " ".join(f"{g.name.replace('_', ' ')} {g.description}" for g in ws.fields.values() if g is not f)
        described = extract.content_words(f.description) - extract.content_words(
            f"{f.name.replace('_', ' ')} {others}")
        overlaps[f.name] = len(words & described)
    best = max(overlaps, key=overlaps.get, default=None)
    return {best: reading.text} if best and overlaps[best] else {}


def _volunteered_value(reading: Reading, f: Field, same_kind: dict[str, int], instance: WorksheetInstance) -> Any:
    kind = f.type.kind
    text = reading.text
    if kind == "enum":
        return extract.mentioned_enum_value(text, f)
    if kind in ("int", "float"):
        number = extract.number_with_noun(text, f)
        return None if number is None else (int(number) if kind == "int" else number)
    if kind in ("date", "time", "datetime"):
        mentioned = extract.content_words(f.name.replace("_", " ")) & extract.content_words(text)
        calendar_date = kind != "date" or dates.mentions_date(text)  # "9503" is a PIN, not a year
        if (same_kind.get(kind, 0) == 1 and calendar_date) or mentioned:
            return typed(reading, f, text, whole_answer=False, instance=instance)
    if kind == "str" and has_pattern(f):
        return _pattern_value(reading, f)
    if kind == "str":
        return stated_values(reading).get(f.name) or extract.role_phrase(text, f)
    return None


def _pattern_value(reading: Reading, f: Field) -> str | None:
    """A value of the field's distinctive format (a ticket id, a PIN) the user gave unasked.

    Taken when its clause names the field ("my PIN is 7402"), or when no other open field's
    format fits it and the clause is not about a date (1930 is a year there).
    """
    others = [g for g in reading.open_fields() if g is not f and has_pattern(g)]
    for clause in extract.clauses(reading.text):
        for value in extract.pattern_values(clause, f.validation.pattern):
            if extract.mentions(clause, f):
                return value
            fits_other = any(re.fullmatch(g.validation.pattern, value) for g in others)
            if not fits_other and not dates.mentions_date(clause):
                return value
    return None
