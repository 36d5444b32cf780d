"""A person's name given as an answer: "Jane Doe", "José de la Cruz", "tyler jones"; from "my name is
Jane Doe and I study physics" the name alone. A sentence ("this is so frustrating") or a description
("an international student") is no name: the agent asks again rather than filing it as one.
"""

from __future__ import annotations

import re

from ..language import english
from ..language.words import active
from ..spec import Field

_NAME_WORD = re.compile(r"[^\W\d_][\w'’.-]*$")
_PARTICLES = set(english.NAME_PARTICLES)
_NOT_IN_A_NAME = english.SENTENCE_WORDS
_INITIAL = re.compile(rf"[^\W\d_]\.|(?:{'|'.join(english.TITLES)})\.", re.I)
_CONNECTOR = re.compile(r"^(?:,|;|\.|!|-|\band\b|\bbut\b|\bbtw\b|\bplease\b|\bpls\b|\bthanks?\b|\bthank you\b|\bthx\b)", re.I)
_LEAD_FILLER = re.compile(r"^(?:(?:um+|uh+|er+m*|oh+|ah+|hmm+|well|so|ok(?:ay)?|yes|yeah|sure)\b[\s,.!]*)+", re.I)
MAX_NAME_WORDS = 6


def names_a_person(f: Field) -> bool:
    """Whether the free-text field holds a person's name: its name says whose ("full_name",
    "mothers_maiden_name", the agent's user's: "student_name"; not "course_name" or
    "childhood_pet_name"), or is just "name" for a person."""
    words = set(f.name.lower().split("_"))
    if f.type.kind != "str" or "name" not in words:
        return False
    if words == {"name"}:
        words = set(re.findall(r"[a-z]+", f.description.lower()))
    return bool(words & {*english.NAME_OWNERS, *english.USER_NOUNS, *active().users}) or bool(
        _PERSONAL_NAME.search(f.description))  # "the resident's full name"


_PERSONAL_NAME = re.compile(r"\b(?:full|first|last|given|family|maiden|middle|legal)\s+name\b", re.I)


def person_name(text: str) -> str | None:
    """The name a reply gives (its leading name-like words, up to a clause that follows), or None when
    the reply is not a name."""
    text = _LEAD_FILLER.sub("", text.strip())  # "oh Jones"
    words = re.findall(r"\S+", text)
    taken: list[str] = []
    for word in words[:MAX_NAME_WORDS + 1]:
        token = word.strip("\"'“”")
        initial = _INITIAL.fullmatch(token)  # "J. R. Smith", "Dr. Lee"
        bare = token if initial else token.rstrip(",;!.")
        if not bare or not _NAME_WORD.match(bare) or bare.lower() in _NOT_IN_A_NAME:
            break
        taken.append(bare)
        if not initial and token[-1:] in (",", ";", "!", "."):
            break  # the name ends with its clause
    if not taken or len(taken) > MAX_NAME_WORDS or all(w.lower() in _PARTICLES for w in taken):
        return None
    rest = text[_end_of(text, len(taken)):]
    if rest.strip() and not _CONNECTOR.match(rest.strip()):
        return None  # "Jane is my name"? "Jane lives here": not a bare name
    return " ".join(taken)


def _end_of(text: str, count: int) -> int:
    """Where the first ``count`` words of ``text`` end (with the punctuation that closes the last)."""
    spans = [m.end() for m in re.finditer(r"\S+", text)]
    end = spans[count - 1]
    return end - 1 if text[end - 1] in ",;!." and count < len(spans) else end
