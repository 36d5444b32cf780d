"""Several dates in one message, each to the date field it is for.

A task with more than one date field (the first and last day of a leave, the pick-up and return
days of a rental) is often given them together: "from dec 21 to jan 4", "pick up dec 18 and return
jan 3", "dec 5 10am, back dec 9". Each date goes to a field by the words before it (those that
describe one field and not the others: "return" for "the day the car is returned"), then the dates
of a range ("from X to Y", "between X and Y") or the dates left over, in the order the fields are
declared. One date the words do not place, said before any is given, is the first one (the
question the agent would ask first); said later, it is left for the question that asks for it.
"""

from __future__ import annotations

import re
from typing import Any

from ...language import english
from ...language.tokens import phrase_pattern
from ...runtime.policy import field_applies
from ...spec import NA, Field
from ...state import WorksheetInstance
from .. import dates, extract
from .reading import Reading
from .values import typed

_RANGE = re.compile(rf"{phrase_pattern(english.RANGE_STARTS)}\s+$", re.I)
_RANGE_END = re.compile(rf"^[\s,]*(?:{phrase_pattern(english.RANGE_ENDS)}|-|–)\s*$", re.I)


def date_of(reading: Reading, f: Field, target: WorksheetInstance) -> tuple[Any, tuple[int, int]] | None:
    """The date the message gives ``f`` of ``target`` among several date fields, with where it says it."""
    fields = _date_fields(reading, target)
    if f not in fields:
        return None
    return placed(reading, fields, target).get(f.name)


def _date_fields(reading: Reading, target: WorksheetInstance) -> list[Field]:
    ws = reading.spec.tasks[target.worksheet]
    return [g for g in ws.fields.values() if g.kind == "input" and g.type.kind in ("date", "datetime")
            and field_applies(reading.spec, reading.state, target, g, reading.today)]


def placed(reading: Reading, fields: list[Field], target: WorksheetInstance) -> dict[str, tuple[Any, tuple[int, int]]]:
    """{field name: (value, span)} for the dates of the message that can be placed (see the module docstring)."""
    text = reading.text
    if len(fields) < 2 or not dates.mentions_date(text):
        return {}
    found = [d for d in dates.find_dates(text, reading.today) if not d.vague]
    if not found:
        return {}
    roles = _role_words(fields)
    out: dict[str, tuple[Any, tuple[int, int]]] = {}
    left: list[int] = []
    for index, day in enumerate(found):
        before = text[found[index - 1].end if index else 0:day.start].split()[-ROLE_WINDOW:]
        words = extract.content_words(" ".join(before))
        owners = [g for g in fields if roles[g.name] & words and g.name not in out]
        if len(owners) == 1:
            out[owners[0].name] = (day, (day.start, day.end))
        else:
            left.append(index)
    ranged = len(found) >= 2 and (_RANGE.search(text[:found[0].start]) or _RANGE_END.match(
        text[found[0].end:found[1].start]))
    remaining = [g for g in fields if g.name not in out]  # in the order they are declared: from, then to
    if left and (ranged or len(left) == len(remaining) > 1):
        for index, g in zip(left, remaining):
            out[g.name] = (found[index], (found[index].start, found[index].end))
    elif len(found) == len(left) == 1 and not any(target.values.get(g.name) not in (None, NA) for g in fields):
        out[fields[0].name] = (found[0], (found[0].start, found[0].end))  # "a car from sfo dec 5": the first day
    return {name: (value, span) for name, (day, span) in out.items()
            for value in [_accepted(reading, next(g for g in fields if g.name == name), target, span)]
            if value is not None}


ROLE_WINDOW = 3
"""The words right before a date that may say which field it is for ("and return jan 3")."""


def _role_words(fields: list[Field]) -> dict[str, frozenset[str]]:
    """The words that describe one date field and no other ("return" for the day the car is returned);
    what a description says in parentheses is an aside."""
    said = {g.name: extract.content_words(f"{g.name.replace('_', ' ')} {_PARENTHESES.sub(' ', g.description)} "
                                          f"{' '.join(g.synonyms)}") for g in fields}
    return {name: words - frozenset().union(*(w for other, w in said.items() if other != name)) - _CALENDAR
            for name, words in said.items()}


_CALENDAR = extract.content_words("day date time")
_PARENTHESES = re.compile(r"\([^)]*\)")


def _accepted(reading: Reading, f: Field, target: WorksheetInstance, span: tuple[int, int]) -> Any:
    """The reading of the date at ``span`` that the field accepts (its year, its constraints)."""
    return typed(reading.fresh(), f, reading.text[span[0]:span[1]], whole_answer=True, instance=target)
