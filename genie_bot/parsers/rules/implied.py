"""Which enum member the details of a message imply.

A member often decides which other fields apply (a form's submission method and date are asked
only once the form "Submitted"; the test type only for "External Test Credits"). A message that
gives values for the fields one member opens, and for no other member's, says that member
even when it does not name it: "I already sent the form by email on oct 30th" has been
Submitted; "the university never received my IB scores" is about External Test Credits.
"""

from __future__ import annotations

import re
from collections.abc import Set as AbstractSet

from ...runtime.policy import field_applies
from ...spec import Field, TaskWorksheet
from ...state import WorksheetInstance
from .. import dates, enums, extract
from .fields import has_pattern, pattern_of
from .reading import Reading
from .records import table_of

MAX_DEPTH = 2
"""How deep into nested worksheets details are looked for."""


def implied_member(reading: Reading, instance: WorksheetInstance, f: Field) -> str | None:
    """The one member of enum ``f`` whose dependent fields the message gives values for, or None."""
    ws = reading.spec.tasks[instance.worksheet]
    dependents = [g for g in ws.fields.values() if g is not f and g.predicate is not None
                  and f.name in g.predicate.names and g.kind == "input"]
    if not dependents:
        return None
    evidence = {}
    said = _without_the_request(reading, reading.state.root_of(instance) if instance.name in reading.state.instances
                                else instance)
    for member in f.values:
        target = WorksheetInstance(instance.name, instance.worksheet, {**instance.values, f.name: member})
        opened = [g for g in dependents if field_applies(reading.spec, reading.state, target, g, reading.today)]
        evidence[member] = sum(_gives_value(said, g, MAX_DEPTH) for g in opened)
    best = max(evidence.values())
    winners = [m for m, n in evidence.items() if n == best]
    return winners[0] if best > 0 and len(winners) == 1 else None


def _without_request_words(text: str, request: AbstractSet[str]) -> str:
    return re.sub(r"[A-Za-z']+", lambda m: " " * len(m.group(0)) if extract.content_words(m.group(0)) & request
                  else m.group(0), text)


def _without_the_request(reading: Reading, root: WorksheetInstance) -> Reading:
    """The reading without the words that ask for the task itself: "submit" in "can you help me
    submit a ticket" (an example of the task) says nothing of a form submitted."""
    ws = reading.spec.tasks[root.worksheet]
    request = extract.content_words(" ".join(ws.examples)) - extract.content_words(
        " ".join(f"{f.name.replace('_', ' ')} {f.description}" for f in ws.fields.values()
                 if f.kind == "input" and f.type.kind != "confirm"))
    text = _without_request_words(reading.text, request) if request else reading.text
    return reading if text == reading.text else Reading(reading.spec, reading.state, text, reading.today,
                                                         reading.knowledge)


def _gives_value(reading: Reading, g: Field, depth: int) -> int:
    """How many values the message states for field ``g`` (for a nested worksheet, for its fields)."""
    nested = reading.spec.tasks.get(g.type.ref or "")
    if nested is not None:
        return _gives_values(reading, nested, depth - 1) if depth > 0 else 0
    text = reading.text
    if g.type.kind == "enum":  # a nested worksheet's option may be said by its description ("the class is full")
        named = enums.mentioned_enum_value(text, g, explicit=True)
        return int(named is not None or (depth < MAX_DEPTH and enums.described_member(text, g) is not None))
    if g.type.kind in ("date", "datetime"):
        return int(dates.mentions_date(text) and bool(dates.find_dates(text, reading.today)))
    if g.type.kind == "str" and has_pattern(g):
        return int(bool(extract.pattern_values(text, pattern_of(g))))
    table = table_of(reading.spec, g)
    return int(bool(table and reading.mentions(table)))


def _gives_values(reading: Reading, ws: TaskWorksheet, depth: int) -> int:
    return sum(_gives_value(reading, g, depth) for g in ws.fields.values() if g.kind == "input")
