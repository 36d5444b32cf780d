"""Strategy: a search for records, said as a description rather than a name.

"quiet places in Seattle" at "Which restaurant would you like to book?", or as a first message,
names no restaurant but values of the restaurants table's columns (a city): the user is looking
for one; so is "something in winter on tue/thu" at "Which course?". It goes to the knowledge base; it is neither a restaurant's name nor a special request.
"""

from __future__ import annotations

from ...acts import AskField
from ...knowledge.mentions import squashed
from .focus import resolved
from .reading import Reading
from .records import table_of


def record_search(reading: Reading, text: str | None = None) -> list[str]:
    """``answer(...)`` for a message describing records of the table being asked about, else nothing
    (``text``: the words of the message left to describe them, once other values were read)."""
    if reading.knowledge is None:
        return []
    tables = _tables_wanted(reading)
    if any(reading.mentions(table) for table in tables):
        return []  # a record named is a choice, not a search
    described = {squashed(v) for t in tables for v in reading.knowledge.column_values(t).find(reading.text).values()}
    if described - _options_of_open_fields(reading):
        return [f"answer({resolved(reading, text or reading.text)!r})"]
    return []


def _options_of_open_fields(reading: Reading) -> set[str]:
    """Values that are also options of a field being filled ("letter" is a grading option): an answer, not a search."""
    return {squashed(member) for f in reading.open_fields() if f.type.kind == "enum" for member in f.values}


def _tables_wanted(reading: Reading) -> list[str]:
    """The tables a description may be about when the agent asked for a record (any table: a
    course is also described by when it is offered), or before any task is open; else none."""
    act = reading.question
    instance = reading.state.instances.get(getattr(act, "instance", None) or "")
    if isinstance(act, AskField) and instance is not None:
        f = reading.spec.tasks[instance.worksheet].fields.get(act.field)
        if f is None or table_of(reading.spec, f) is None:
            return []
    elif reading.open_instances():
        return []
    return list(reading.knowledge.tables)
