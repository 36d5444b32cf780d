"""What the spec says about a field or a worksheet that decides how a message is read."""

from __future__ import annotations

import re

from ...language import english
from ...language.tokens import phrase_pattern
from ...spec import AgentSpec, Field, TaskWorksheet
from .. import extract
from ..person_names import names_a_person


def has_pattern(f: Field) -> bool:
    """The field declares a format (an email, a ticket id): a value of it is its own evidence."""
    return bool(pattern_of(f))


def pattern_of(f: Field) -> str:
    """The format the field declares (a regular expression), "" when none."""
    return (f.validation.pattern if f.validation else None) or ""


def has_pattern_value(text: str, f: Field) -> bool:
    return has_pattern(f) and bool(extract.pattern_values(text, pattern_of(f)))


def is_free_text(f: Field) -> bool:
    """A text field without a distinctive format: any message could be its value."""
    return f.type.kind == "str" and not has_pattern(f)


def is_description(f: Field) -> bool:
    """Free text in the user's own words (a problem, a request, a reason), not a name of someone or something."""
    return is_free_text(f) and not f.values_from and not names_a_person(f)


def is_account(f: Field) -> bool:
    """Free text that is the user's own account (a problem, a note, a reason: its name or description
    says so), whose every word is kept, not the name of something ("CS 224V for a letter grade")."""
    return is_description(f) and re.search(phrase_pattern(english.NARRATIVE_WORDS),
                                           f"{f.name.replace('_', ' ')} {f.description}", re.I) is not None


def top_level_tasks(spec: AgentSpec) -> list[TaskWorksheet]:
    """Tasks a user can ask for: those no other worksheet nests (and the start worksheet)."""
    nested = {f.type.referenced() for ws in spec.tasks.values() for f in ws.fields.values()}
    return [ws for ws in spec.tasks.values() if ws.name not in nested or ws.name == spec.start]


def fields_by_kind(worksheets: list[TaskWorksheet]) -> dict[str, int]:
    """How many input fields of each type the worksheets have (one date field makes any date its value)."""
    counts: dict[str, int] = {}
    for ws in worksheets:
        for f in ws.fields.values():
            if f.kind == "input":
                counts[f.type.kind] = counts.get(f.type.kind, 0) + 1
    return counts
