"""Roles: which of two fields of one kind a value is for, by the words around it.

A field's description says its role with a verb or a last preposition ("the branch where the car
is picked up": from; "the day the car is returned": to; "the place the user leaves from"); a
message says a value's role the same way ("from sfo", "drop it off at oakland airport", "back dec 9").
"""

from __future__ import annotations

import re

from ...language import english
from ...language.tokens import phrase_pattern
from ...spec import Field
from .context import Context

MAX_WORDS_BEFORE = 5
_VERBS = {role: re.compile(phrase_pattern(verbs), re.I) for role, verbs in english.ROLE_VERBS.items()}
_PREPOSITIONS = {"from": re.compile(r"\bfrom\s+(?:the\s+)?$", re.I), "to": re.compile(r"\b(?:to|into)\s+(?:the\s+)?$", re.I)}


def field_role(f: Field) -> str | None:
    """The role a field's description gives it, or None."""
    description = f.description.lower().rstrip(" .")
    words = description.split()
    if len(words) >= 3 and words[-2] in english.LIST_OR:  # "the place the user needs to get to or near"
        words = words[:-2]
    last = words[-1] if words else ""
    if last in ("from", "to", "into"):
        return "to" if last == "into" else last
    roles = [role for role, verbs in _VERBS.items() if verbs.search(description)]
    if len(roles) == 1:
        return roles[0]
    said = [role for role, words in _DESCRIBED.items() if words.search(description)]
    return said[0] if len(said) == 1 else None


_DESCRIBED = {role: re.compile(phrase_pattern(words), re.I) for role, words in english.ROLES_IN_DESCRIPTIONS.items()}
_PHRASE_END = re.compile(rf"\s+(?:{phrase_pattern(english.PHRASE_ENDS)})(?=[\s.!?,;:]|$)|[.!?,;:]|$", re.I)
_STARTS = {"from": re.compile(rf"(?:\bfrom|{phrase_pattern(english.PRESENT_PLACES)})\s+(?:the\s+)?", re.I),
           "to": re.compile(rf"(?:\bto|\binto|{phrase_pattern((*english.WANTING, *english.NEAR_A_PLACE))})\s+(?:the\s+)?",
                            re.I)}
MAX_ROLE_WORDS = 6


def phrases_in_role(text: str, role: str) -> list[tuple[int, int]]:
    """Spans of the phrases the message says in ``role`` ("from cs 106b", "i'm in history 156 right now",
    "i want physics 148c instead"): after the words that give the role, to the end of the phrase."""
    out = []
    for start in _STARTS[role].finditer(text):
        if _INFINITIVE.search(text, 0, start.start()):
            continue  # "i want to change a course": what the user does, no place
        end = _PHRASE_END.search(text, start.end())
        stop = end.start() if end else len(text)
        phrase = text[start.end():stop].strip()
        if phrase and len(phrase.split()) <= MAX_ROLE_WORDS and phrase.split()[0].lower() not in _VERBS_FIRST:
            out.append((start.end(), start.end() + len(text[start.end():stop].rstrip())))
    return out


_INFINITIVE = re.compile(rf"{phrase_pattern(english.BEFORE_AN_INFINITIVE)}\s+$", re.I)
_VERBS_FIRST = frozenset((*english.COMMON_VERBS, *english.CHANGING_VERBS, *english.REPLACING_VERBS,
                          *english.REMOVING_VERBS, "me", "you", "my", "a", "it", "there", "here"))


def said_role(ctx: Context, start: int) -> str | None:
    """The role the words right before ``start`` give the value said there (in its clause), or None."""
    clause_start = ctx.analysis.clause_of(start)[0]
    before = ctx.text[clause_start:start]
    words = before.split()[-MAX_WORDS_BEFORE:]
    window = " ".join(words)
    for role, pattern in _PREPOSITIONS.items():
        if pattern.search(window):
            return role
    found = [(m.end(), role) for role, verbs in _VERBS.items() for m in verbs.finditer(window)]
    return max(found)[1] if found else None
