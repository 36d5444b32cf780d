"""How many people a party is, counted from who is in it: "me and my wife" is 2, "me plus 3 friends"
is 4, "just me" 1, "my wife, me and our 2 kids" 4.

A count is given only when every person said can be counted: "me and some friends" or "my wife and
kids" give none (the agent asks), never a guess. "4 of us including me" is a number said, not people
listed, and is left to the number readers.
"""

from __future__ import annotations

import re
from collections.abc import Collection

from ..language import english
from ..language.tokens import phrase_pattern

NUMBER_WORDS = english.NUMBER_WORDS

_LINK = r"(?:,|\band\b|\bplus\b|&|\+|\bwith\b)"
SELF = re.compile(rf"\b(?:me|myself)\s*{_LINK}|{_LINK}\s*(?:me|myself)\b|\bi\s+(?:and|plus|&)\s|"
                  rf"(?:\band|&|\bplus)\s+i\b(?=\s*(?:$|[,.!;]|are\b|will\b|would\b|both\b))|"
                  rf"^\W*(?:just|only)?\s*(?:me|myself)(?:\s+alone)?\W*$|\b(?:i'?ll|i will|i'?m|i am)\s+(?:be\s+)?"
                  rf"bring(?:ing)?\b", re.I)
"""The writer, as one of the people listed ("me and my wife", "my wife and I", "just me", "I'll bring
3 friends"); not "book me a table for 2", where the writer is no item of a list."""
ONE_PERSON = re.compile(rf"\b(?:my|a|our|the|his|her|their)\s+(?:(?:\w+)\s+)?({phrase_pattern(english.RELATIONS)})", re.I)
"""One person: "my wife", "a friend"."""
PAIR = re.compile(rf"\b(?:my|our|his|her|their)\s+({phrase_pattern(english.PAIRS)})", re.I)
"""Two people: "my parents"."""
_COUNT = r"\d{1,2}|" + "|".join(w for w in NUMBER_WORDS if w not in ("a", "an", "single", "dozen"))


def _counted_pattern(nouns: Collection[str]) -> re.Pattern:
    """People said with a number ("3 friends", "2 kids", and the nouns the field counts: "4 guests")."""
    return re.compile(rf"\b({_COUNT})\s+(?:(?:\w+)\s+)?({phrase_pattern([*english.COUNTED_PEOPLE, *nouns])})", re.I)


COUNTED = _counted_pattern(())
LISTED = re.compile(rf"{_LINK}\s*(?:{phrase_pattern(english.POSSESSORS)}\s+)?({_COUNT})\s+(?:\w+\s+)?([a-z]+s)\b", re.I)
"""People of any kind said with a number in a list with the writer ("me and my 3 classmates")."""
UNCOUNTED = re.compile(phrase_pattern(english.UNCOUNTED_PEOPLE), re.I)
"""People in a number the text does not say ("me, my wife and kids"), once the counted ones are taken out."""
NUMBER_SAID = re.compile(r"\b(including|incl\.?|counting|with)\s+(me|myself)\b|\b(of us|in total|total|altogether|all together)\b",
                         re.I)


def head_count(text: str, nouns: Collection[str] = ()) -> int | None:
    """The number of people in a party the text lists (the writer counted when named), or None when it
    lists nobody, or somebody it cannot count. ``nouns``: what else the field counts ("4 guests")."""
    if NUMBER_SAID.search(text):
        return None
    counted, rest = _counted(text, nouns)
    if UNCOUNTED.search(rest):
        return None
    has_self = bool(SELF.search(rest))
    if not has_self and counted == 0:
        return None
    if not has_self and not _several_named(text, nouns):
        return None  # "3 friends" alone may or may not include the writer
    return counted + (1 if has_self else 0)


def uncounted(text: str) -> str | None:
    """The people listed with others but without a number ("the kids" in "me, my wife and the kids"), or None."""
    if NUMBER_SAID.search(text):
        return None
    counted, rest = _counted(text, ())
    match = UNCOUNTED.search(rest)
    return match.group(0) if match and (counted or SELF.search(rest)) else None


def _counted(text: str, nouns: Collection[str]) -> tuple[int, str]:
    """The people the text counts (by number, pair or one by one), and the text without them."""
    counted, rest = 0, text
    patterns: list[tuple[re.Pattern, int | None]] = [(_counted_pattern(nouns) if nouns else COUNTED, None)]
    if SELF.search(text):
        patterns.append((LISTED, None))
    for pattern, size in (*patterns, (PAIR, 2), (ONE_PERSON, 1)):
        for match in pattern.finditer(rest):
            counted += size or _number(match.group(1))
        rest = pattern.sub(" ", rest)
    return counted, rest


def _several_named(text: str, nouns: Collection[str]) -> bool:
    """Two or more kinds of people joined ("6 adults and 2 kids", "my parents and my sister")."""
    counted = _counted_pattern(nouns) if nouns else COUNTED
    return sum(len(p.findall(text)) for p in (counted, PAIR, ONE_PERSON)) >= 2


def _number(word: str) -> int:
    return int(word) if word.isdigit() else NUMBER_WORDS[word.lower()]
