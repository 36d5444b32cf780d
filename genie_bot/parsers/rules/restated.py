"""Strategy: a value the message gives again, as its field holds it already.

"I want to reserve a restaurant for Friday", said twice, says Friday for the date twice: the
second time its words are the date's, not a special request. The reading changes nothing; it
accounts for the words (so no free-text field takes them) and tells the reply to say the value
is had already (:data:`~genie_bot.parse.SAID_AGAIN`).
"""

from __future__ import annotations

import datetime as dt
import re
from typing import Any

from ...language import english
from ...language.tokens import phrase_pattern
from ...parse import SAID_AGAIN
from ...spec import NA, Field, InstanceRef
from .. import dates, enums, extract
from .evidence import claims_of
from .fields import is_free_text
from .proposals import TYPED, Proposal
from .reading import Reading
from .records import table_of

Span = tuple[int, int]


def propose(reading: Reading) -> list[Proposal]:
    """Matcher: each value of an open task the message says again, as a reading that changes nothing."""
    out = []
    for instance in reading.open_instances():
        for f in reading.spec.tasks[instance.worksheet].fields.values():
            current = instance.values.get(f.name)
            if f.kind != "input" or current is None or current == NA or is_free_text(f) \
                    or f.type.kind in ("confirm", "bool"):
                continue
            spans = _said(reading, f, current)
            if spans:
                out.append(Proposal("restated", (f"{SAID_AGAIN}{instance.name}.{f.name}",), TYPED,
                                    claims_of(reading, spans), frozenset({f"{instance.name}.{f.name}"})))
    return out


def _said(reading: Reading, f: Field, value: Any) -> list[Span]:
    """Where the message says ``value`` of ``f`` as it would give it anew; none when it does not."""
    text = reading.text
    kind = f.type.kind
    if table_of(reading.spec, f) is not None:
        key = _record_key(value)
        return [(m.start, m.end) for m in reading.mentions(table_of(reading.spec, f) or "")
                if key is not None and _record_key(m.record) == key]
    if kind == "enum":
        found = re.search(enums.as_written(str(value)), extract.normalise(text))
        return [found.span()] if found and not enums.said_negated(text, str(value)) else []
    if kind == "date" and isinstance(value, dt.date):
        return [(d.start, d.end) for d in dates.find_dates(text, reading.today) if d.readings[:1] == (value,)]
    if kind == "time" and isinstance(value, dt.time):
        return [(t.start, t.end) for t in dates.find_times(text) if t.readings[:1] == (value,)]
    if kind in ("int", "float") and not isinstance(value, bool):
        if extract.number_with_noun(text, f) != value:
            return []
        written = [rf"(?<![\w.]){value:g}(?!\w)"] + [phrase_pattern([w]) for w, n in english.NUMBER_WORDS.items()
                                                     if n == value and w not in english.VAGUE_NUMBER_WORDS]
        found = next((m for pattern in written for m in [re.search(pattern, text, re.I)] if m), None)
        return [found.span()] if found else []
    return []


def _record_key(record: Any) -> Any:
    """What tells a record apart: its key or name (a field holds a copy of the row, or a reference)."""
    if isinstance(record, InstanceRef):
        return None
    if isinstance(record, dict):
        return next((record[k] for k in ("id", "name", "title") if k in record), None) or tuple(sorted(record.items()))
    return record
