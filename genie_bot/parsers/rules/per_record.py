"""Strategy: values given for each of several parts by naming them ("4 for 229 and 3 for 231n").

When a task holds several parts of one kind, each named by a record (two courses), a clause
that names one of those records and gives a value belongs to that part: "4 units for 229 and
3 for 231n" gives CS229's units 4 and CS231N's 3, whichever course was asked about.
"""

from __future__ import annotations

import re
from typing import Any

from ...spec import NA, Field
from ...state import WorksheetInstance
from ...knowledge.mentions import squashed
from .. import enums, extract
from .reading import Reading
from .words import correcting
from .records import table_of

_PARTS = re.compile(r"[^,;]+?(?=,|;|\band\b|$)", re.I)


def values_per_record(reading: Reading) -> list[str]:
    if reading.knowledge is None:
        return []
    named = _parts_by_name(reading)
    if len(named) < 2 and not (named and correcting(reading.text)):
        return []  # one part and nothing corrected: the other strategies read it
    text = reading.text
    for m in _mentions(reading, 0, len(text)):  # "artificial intelligence: principles and techniques" is one name
        text = text[:m.start] + re.sub(r"[^\s]", "x", text[m.start:m.end]) + text[m.end:]
    out, instance, carried = [], None, ""
    for match in _PARTS.finditer(text):
        start, end = match.span()
        spans = _phrases(reading.text, start, end) + [(m.start, m.end) for m in _mentions(reading, start, end)]
        owners = [(i, span) for i, names in named for span in spans if squashed(reading.text[span[0]:span[1]]) in names]
        if len({i.name for i, _ in owners}) > 1:
            instance = None
            continue
        if owners:  # a clause without a name is about the part named just before ("..., it should be 4")
            instance, (said_start, said_end) = max(owners, key=lambda o: o[1][1] - o[1][0])
        else:
            said_start = said_end = start
        if instance is None:
            continue
        before = re.sub(r"\b(for|of|in|on)\s*$", "", reading.text[start:said_start])  # "the units for <it> to 3"
        rest = before + " " + reading.text[said_end:end]
        carried = rest if owners else f"{carried} {rest}"  # "the units for cs 242 is wrong, it should be 4"
        for f in _fields(reading, instance):
            value = _value(f, carried if not owners else rest, changing=instance.values.get(f.name) is not None)
            if value is not None and value != instance.values.get(f.name):
                out.append(reading.assign(instance, f, value))
                reading.used.append((start, end))
                break
    return out


_WORD = re.compile(r"[A-Za-z0-9][\w'&-]*")


def _phrases(text: str, start: int, end: int) -> list[tuple[int, int]]:
    """Spans of the words and pairs of words between ``start`` and ``end`` ("229", "cs 229")."""
    words = [m.span() for m in _WORD.finditer(text, start, end)]
    return words + [(a[0], b[1]) for a, b in zip(words, words[1:])]


def _parts_by_name(reading: Reading) -> list[tuple[WorksheetInstance, set[str]]]:
    """Instances of the open tasks whose naming field holds a record, with the ways to name it:
    as given, by its key, and by the number of a code ("229" for CS 229)."""
    out = []
    for instance in reading.state.instances.values():
        if not reading.state.root_of(instance).open:
            continue
        for f in reading.spec.tasks[instance.worksheet].fields.values():
            table, held = table_of(reading.spec, f), instance.values.get(f.name)
            if table is None or held in (None, NA):
                continue
            key = reading.spec.knowledge[table].primary_key
            records = [held] if isinstance(held, dict) else [
                m.record for m in reading.knowledge.record_names(table).find(str(held))[:1]]
            said = [str(held)] + [str(r.get(c)) for r in records for c in (key, "name", "title") if c and r.get(c)]
            names = {squashed(v) for v in said}
            names |= {code.group(1) for n in list(names) for code in [re.match(r"^[a-z]+(\d+[a-z]?)$", n)] if code}
            out.append((instance, names))
    return out


def _mentions(reading: Reading, start: int, end: int) -> list[Any]:
    """Records named between ``start`` and ``end`` ("deep generative models", a course's title)."""
    tables = {k.name for k in reading.spec.knowledge.values() if k.source == "table"}
    return [m for t in tables for m in reading.mentions(t) if start <= m.start and m.end <= end]


def _fields(reading: Reading, instance: WorksheetInstance) -> list[Field]:
    """The part's typed fields no other strategy gave a value in this message, unfilled ones first."""
    ws = reading.spec.tasks[instance.worksheet]
    fields = [f for f in ws.fields.values() if f.kind == "input" and table_of(reading.spec, f) is None
              and (instance.name, f.name) not in reading.assigned]
    return sorted(fields, key=lambda f: instance.values.get(f.name) is not None)


def _value(f: Field, text: str, changing: bool) -> Any:
    """A typed value the clause gives the field: a number for a count, an option for a choice; a
    value already given changes only when the clause says what it counts ("3 units")."""
    if f.type.kind in ("int", "float"):
        number = extract.number_with_noun(text, f) or (
            extract.number_for(text, f) if not changing or extract.mentions(text, f) else None)
        return None if number is None else (int(number) if f.type.kind == "int" and number.is_integer() else number)
    if f.type.kind == "enum":
        return enums.mentioned_enum_value(text, f, explicit=True)
    return None
