"""How many people a party is, counted from who is in it: "me and my wife" is 2, "me plus 3 friends"
is 4, "just me" 1, "my wife, me and our 2 kids" 4.

A count is given only when every person said can be counted: "me and some friends" or "my wife and
kids" give none, never a guess. "4 of us including me" is a number said, not people listed, and is
left to the number recogniser, as is a party counted whole beside the people named ("my brother is coming too
so 4 people"). The count is a number entity over the words that list the party.
"""

from __future__ import annotations

import re

from ....language import english
from ....language.tokens import phrase_pattern
from .model import NUMBER, Entity

PEOPLE = "people"
_LINK = rf"(?:{phrase_pattern(w for w in english.PARTY_LINKS if w.isalpha())}|[,&+])"
_ME = phrase_pattern(english.SELF_WORDS)
_SELF = re.compile(rf"{_ME}\s*{_LINK}|{_LINK}\s*{_ME}|\bi\s+(?:and|plus|&)\s|"
                   rf"(?:\band|&|\bplus)\s+i\b(?=\s*(?:$|[,.!;]|are\b|will\b|would\b|both\b))|"
                   rf"^\W*{phrase_pattern(english.ALONE)}\W*$|{phrase_pattern(english.BRINGING)}", re.I)
_ONE = re.compile(rf"\b(?:{phrase_pattern(english.POSSESSORS)}|a)\s+(?:\w+\s+)?({phrase_pattern(english.RELATIONS)})", re.I)
_PAIR = re.compile(rf"\b(?:{phrase_pattern(english.POSSESSORS)})\s+({phrase_pattern(english.PAIRS)})", re.I)
_COUNT_WORDS = "|".join(w for w in english.NUMBER_WORDS if w not in english.VAGUE_NUMBER_WORDS)
_COUNT = rf"\d{{1,2}}|{_COUNT_WORDS}"
_COUNTED = re.compile(rf"\b({_COUNT})\s+(?:\w+\s+)?({phrase_pattern(english.COUNTED_PEOPLE)})", re.I)
_LISTED = re.compile(rf"{_LINK}\s*(?:{phrase_pattern(english.POSSESSORS)}\s+)?({_COUNT})\s+(?:\w+\s+)?([a-z]+s)\b", re.I)
_ALONE = re.compile(rf"^\W*{phrase_pattern(english.ALONE)}\W*$", re.I)
_UNCOUNTED = re.compile(phrase_pattern(english.UNCOUNTED_PEOPLE), re.I)
_NUMBER_SAID = re.compile(phrase_pattern(english.NUMBER_SAID_FOR_A_PARTY), re.I)
_TOTAL = re.compile(rf"\b(?:{_COUNT})\s+{phrase_pattern(english.PARTY_TOTAL_NOUNS)}", re.I)


def find(text: str) -> list[Entity]:
    """The party the text lists, as a number of people over the words that list it, or nothing."""
    count = head_count(text)
    if count is None:
        return []
    spans = [m.span() for p in (_SELF, _ONE, _PAIR, _COUNTED, _LISTED) for m in p.finditer(text)]
    start, end = min(s for s, _ in spans), max(e for _, e in spans)
    return [Entity(NUMBER, start, end, float(count), text[start:end], owner=PEOPLE)]


def head_count(text: str) -> int | None:
    """The number of people in a party the text lists (the writer counted when named), or None when it
    lists nobody, or somebody it cannot count."""
    if _NUMBER_SAID.search(text) or _a_total(text):
        return None
    counted, rest = _counted(text)
    if _UNCOUNTED.search(rest):
        return None
    has_self = bool(_SELF.search(text))
    if not has_self and (counted == 0 or not _several_named(text)):
        return None  # "3 friends" alone may or may not include the writer
    if counted == 0 and not _ALONE.search(text):
        return None  # "for me, card 2104..." lists nobody
    return counted + (1 if has_self else 0)


def _a_total(text: str) -> bool:
    """The party is counted whole ("so 4 people"): no other kind of people is counted beside it."""
    totals = _TOTAL.findall(text)
    return len(totals) == 1 and len(_COUNTED.findall(text)) == 1


def uncounted(text: str) -> str | None:
    """The people listed with others but without a number ("the kids" in "me, my wife and the kids")."""
    if _NUMBER_SAID.search(text):
        return None
    counted, rest = _counted(text)
    match = _UNCOUNTED.search(rest)
    return match.group(0) if match and (counted or _SELF.search(rest)) else None


def _counted(text: str) -> tuple[int, str]:
    counted, rest = 0, text
    patterns: list[tuple[re.Pattern[str], int | None]] = [(_COUNTED, None)]
    if _SELF.search(text):
        patterns.append((_LISTED, None))
    for pattern, size in (*patterns, (_PAIR, 2), (_ONE, 1)):
        for match in pattern.finditer(rest):
            counted += size or _number(match.group(1))
        rest = pattern.sub(" ", rest)
    return counted, rest


def _several_named(text: str) -> bool:
    return sum(len(p.findall(text)) for p in (_COUNTED, _PAIR, _ONE)) >= 2


def _number(word: str) -> int:
    return int(word) if word.isdigit() else english.NUMBER_WORDS[word.lower()]
