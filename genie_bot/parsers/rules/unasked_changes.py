"""Strategy: a new value for a field that holds one already, said without a word of correcting.

"I want to reserve a restaurant for Friday" while the date is Saturday gives the date Friday, not
a special request "Friday": a date where the task has one date field is that field's, whether
or not it was set. So is a time, a number said with the field's noun ("15 boxes"), and an option
named as written that only one field has. The
change is read with the evidence of its value alone (no correction bonus: a value the
corrections strategy reads outweighs it), and it is a change: the reply names it ("the date is
now Friday"), so a misreading is never silent.
"""

from __future__ import annotations

import re
from typing import Any

from ...spec import NA, Field, TaskWorksheet
from .. import dates, enums, extract
from .evidence import proposal
from .fields import fields_by_kind
from .proposals import Proposal
from .reading import Reading

_ONE_OF_A_KIND = ("date", "time")
"""Kinds whose value belongs to the field of that kind when the open tasks have only one."""


def propose(reading: Reading) -> list[Proposal]:
    """Matcher: each value the message gives for a field that holds another one, as a change."""
    open_worksheets = [reading.spec.tasks[i.worksheet] for i in reading.open_instances()]
    per_kind = fields_by_kind(open_worksheets)
    out = []
    for instance in reading.open_instances():
        for f in reading.spec.tasks[instance.worksheet].fields.values():
            current = instance.values.get(f.name)
            if f.kind != "input" or current is None or current == NA or (instance.name, f.name) == reading.asked:
                continue
            scratch = reading.fresh()
            value = _new_value(scratch, f, per_kind, open_worksheets)
            if value is not None and value != current:
                statement = scratch.assign(instance, f, value)
                slot = f"{instance.name}.{f.name}"
                out.append(proposal(scratch, "changes", [statement], 0.0, corrects=(slot,), phase=1))
    return out


def _new_value(reading: Reading, f: Field, per_kind: dict[str, int], worksheets: list[TaskWorksheet]) -> Any:
    """The one value of ``f``'s kind the message gives, when it can only be ``f``'s."""
    kind = f.type.kind
    text = reading.text
    if kind in _ONE_OF_A_KIND and per_kind.get(kind, 0) == 1:
        found = dates.find_times(text) if kind == "time" else (
            dates.find_dates(text, reading.today) if dates.mentions_date(text) else ())
        said = [d for d in found if d.readings and not d.vague]
        if len(said) == 1:
            reading.used.append((said[0].start, said[0].end))
            return said[0].readings[0]
    if kind in ("int", "float") and not _asks_a_number(reading) and extract.numbers(text):  # "about 15 boxes"
        number = extract.number_with_noun(text, f)
        if number is not None and not _also_of_an_empty_field(reading, f, number):
            reading.take_number(number)
            return int(number) if kind == "int" and float(number).is_integer() else number
    if kind == "enum":
        normalised = extract.normalise(text)
        named = [m for m in f.values if re.search(enums.as_written(m), normalised) and not enums.said_negated(text, m)]
        others = {m.lower() for ws in worksheets for g in ws.fields.values() if g is not f for m in g.values}
        if len(named) == 1 and named[0].lower() not in others:
            return named[0]
    return None



def _asks_a_number(reading: Reading) -> bool:
    """The agent's question asks for a number: one said answers it ("question 4" for the next
    question), it changes no other number."""
    instance, name = reading.asked
    asked = reading.state.instances.get(instance or "")
    f = reading.spec.tasks[asked.worksheet].fields.get(name or "") if asked is not None else None
    return f is not None and f.type.kind in ("int", "float")


def _also_of_an_empty_field(reading: Reading, f: Field, number: float) -> bool:
    """Another number field, not given yet, is said by the same words ("question 4" for the next
    question, not a change of the first): the number is that field's."""
    return any(g is not f and g.kind == "input" and g.type.kind in ("int", "float") and i.values.get(g.name) is None
               and extract.number_with_noun(reading.text, g) == number
               for i in reading.open_instances() for g in reading.spec.tasks[i.worksheet].fields.values())
