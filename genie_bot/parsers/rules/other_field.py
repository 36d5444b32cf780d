"""Strategy: a short reply that is a typed answer to another open field than the one asked.

The user answered a question the agent did not ask ("walk" when asked where to go, "3" when
asked whether to go on): it counts when exactly one unfilled field of a distinctive type (not
free text, not yes/no) reads it as a whole answer.
"""

from __future__ import annotations

from ...spec import NA
from .about import MAX_SHORT_ANSWER_WORDS
from .fields import is_free_text
from .reading import Reading
from .values import typed


def answers_another_field(reading: Reading) -> list[str]:
    if len(reading.text.split()) > MAX_SHORT_ANSWER_WORDS:
        return []
    found = [(instance, f, value) for instance in reading.open_instances()
             for f in reading.spec.tasks[instance.worksheet].fields.values()
             if f.kind == "input" and not is_free_text(f) and not f.type.is_boolean and not f.type.referenced()
             and (instance.name, f.name) != reading.asked and instance.values.get(f.name) in (None, NA)
             for value in [typed(reading, f, reading.text, whole_answer=True, instance=instance)] if value is not None]
    return [reading.assign(*found[0])] if len(found) == 1 else []
