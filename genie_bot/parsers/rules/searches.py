"""Strategy: a search for records, said as a description rather than a name.

"quiet places in Seattle" at "Which restaurant would you like to book?", or as a first message,
names no restaurant but values of the restaurants table's columns (a city): the user is looking
for one; so is "something in winter on tue/thu" at "Which course?". It goes to the knowledge base; it is neither a restaurant's name nor a special request.
"""

from __future__ import annotations

from ...acts import AskField
from .evidence import proposal, whole
from .focus import resolved
from .proposals import SEARCH, TYPED, Proposal
from .reading import Reading
from .records import described_values, named_by_values, table_of
from .requested import task_match_requested
from .volunteered import volunteered


def propose(reading: Reading) -> list[Proposal]:
    """Matcher: a description of records, with the typed values it also gives ("a quiet place in
    Seattle for 4"); a search said while asking for a task goes with the task (``tasks``)."""
    if task_match_requested(reading):
        return []
    scratch = reading.fresh()
    searched = record_search(scratch)
    if not searched:
        return []
    values = volunteered(scratch, free_text=False)
    described = len(described_values(reading, reading.text, list(reading.knowledge.tables)))
    return [proposal(scratch, "searches", searched + values, SEARCH + TYPED * described, claims=whole(reading),
                     phase=7)]


def record_search(reading: Reading, text: str | None = None) -> list[str]:
    """``answer(...)`` for a message describing records of the table being asked about, else nothing
    (``text``: the words of the message left to describe them, once other values were read)."""
    if reading.knowledge is None:
        return []
    tables = _tables_wanted(reading)
    if any(reading.mentions(table) or named_by_values(reading, table, mark=False) for table in tables):
        return []  # a record named (by its name, or by values only it has: "a corolla") is a choice, not a search
    if described_values(reading, reading.text, tables):
        return [f"answer({resolved(reading, text or reading.text)!r})"]
    return []


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
