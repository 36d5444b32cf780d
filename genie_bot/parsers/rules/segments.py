"""Several parts described in one message, each with its own details.

"cs 106a for credit/no credit 5 units and cs 103 letter 4 units" names two courses, and the
words after each name are that course's: the message is read one part at a time, each part
from a course's name to the next, so that "letter" and "4 units" go to CS 103 only. When a part
says nothing but the name ("CS 224V and CS 229 for a letter grade") the details are shared, and
the message is read whole.
"""

from __future__ import annotations

import re

from .reading import Reading
from .records import table_of

_CONNECTIVES = re.compile(r"\b(and|also|plus|then|with|too|as well|&)\b|[,;.!]", re.I)


def parts(reading: Reading) -> list[tuple[int, int]]:
    """The spans of the message to read one by one, or [] to read it whole."""
    if reading.knowledge is None:
        return []
    tables = {t for ws in reading.spec.tasks.values() for f in ws.fields.values()
              for t in [table_of(reading.spec, f)] if t is not None}
    mentions = sorted((m for t in tables for m in reading.mentions(t)), key=lambda m: m.start)
    if len(mentions) < 2:
        return []
    starts = [0, *(m.start for m in mentions[1:])]
    ends = [*(m.start for m in mentions[1:]), len(reading.text)]
    details = [reading.text[m.end:end] for m, end in zip(mentions, ends)]
    if not all(_CONNECTIVES.sub(" ", d).strip() for d in details):
        return []  # a name with nothing of its own: what follows the last one is for all
    return list(zip(starts, ends))
