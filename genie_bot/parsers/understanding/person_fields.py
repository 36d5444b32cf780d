"""Which fields hold a person's name: the parser reads a name there, never a code of the field's pattern
(a pattern on "full_name" checks the shape of a name, "First Last")."""

from __future__ import annotations

import re

from ...language import english
from ...language.words import active
from ...spec import Field


def is_a_persons_name(f: Field) -> bool:
    """A name field ("full_name", "student_name") whose name or description says it is a person's."""
    return "name" in f.name.lower().split("_") and names_a_person(f)


def names_a_person(f: Field) -> bool:
    """A name field of a person: its name or description says whose ("full_name", "the patient's full
    name", the agent's users': "student_name"); not "course_name" or "the dog's name"."""
    words = set(f.name.lower().split("_"))
    description = f.description.lower()
    owner = re.search(r"\b([a-z]+)['’]s\s+(?:\w+\s+)?name\b", description)
    if owner and owner.group(1) not in (*english.USER_NOUNS, *active().users, *english.RELATIONS):
        return False
    people = {*english.NAME_OWNERS, *english.USER_NOUNS, *active().users}
    whose = words - {"name"} - english.GENERIC_FIELD_WORDS
    before_name = set(re.findall(r"\b([a-z]+)\s+name\b", description))  # "the full name of a guest"
    if whose and not before_name & people:  # the field's own name says whose: "student_name", "course_name"
        return bool(whose & people)
    return bool(set(re.findall(r"[a-z]+", description)) & people) or owner is not None or words == {"name"}


