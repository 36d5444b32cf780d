"""How many people a party is, counted from who is in it: "me and my wife" is 2, "me plus 3 friends"
is 4, "just me" 1, "my wife, me and our 2 kids" 4.

A count is given only when every person said can be counted: "me and some friends" or "my wife and
kids" give none (the agent asks), never a guess. "4 of us including me" is a number said, not people
listed, and is left to the number readers.
"""

from __future__ import annotations

import re

from .number_words import NUMBER_WORDS

_LINK = r"(?:,|\band\b|\bplus\b|&|\+|\bwith\b)"
SELF = re.compile(rf"\b(?:me|myself)\s*{_LINK}|{_LINK}\s*(?:me|myself)\b|\bi\s+(?:and|plus|&)\s|"
                  rf"(?:\band|&|\bplus)\s+i\b(?=\s*(?:$|[,.!;]|are\b|will\b|would\b|both\b))|"
                  rf"^\W*(?:just|only)?\s*(?:me|myself)(?:\s+alone)?\W*$|\b(?:i'?ll|i will|i'?m|i am)\s+(?:be\s+)?"
                  rf"bring(?:ing)?\b", re.I)
"""The writer, as one of the people listed ("me and my wife", "my wife and I", "just me", "I'll bring
3 friends"); not "book me a table for 2", where the writer is no item of a list."""
ONE_PERSON = re.compile(
    r"\b(?:my|a|our|the|his|her|their)\s+(?:(?:\w+)\s+)?(wife|husband|partner|spouse|boyfriend|girlfriend|bf|gf|fianc[eé]e?|date|"
    r"friend|buddy|colleague|coworker|co-worker|boss|client|guest|mom|mum|mother|dad|father|son|daughter|"
    r"brother|sister|sibling|cousin|aunt|uncle|niece|nephew|grandma|grandpa|grandmother|grandfather|grandson|"
    r"granddaughter|roommate|neighbou?r|kid|child|baby|toddler|mother-in-law|father-in-law|plus[- ]one)\b", re.I)
PAIR = re.compile(r"\b(?:my|our|his|her|their)\s+(parents|grandparents|in-laws|folks)\b", re.I)
"""Two people: "my parents"."""
COUNTED = re.compile(r"\b(\d{1,2}|" + "|".join(w for w in NUMBER_WORDS if w not in ("a", "an", "single", "dozen"))
                     + r")\s+(?:(?:\w+)\s+)?(friends|colleagues|coworkers|co-workers|kids|children|adults|guests|"
                       r"people|cousins|sisters|brothers|sons|daughters|grandkids|grandchildren|babies|toddlers|"
                       r"teenagers|teens|clients|others|more)\b", re.I)
UNCOUNTED = re.compile(r"\b(friends|colleagues|coworkers|kids|children|family|folks|guests|people|cousins|team|group|"
                       r"crew|gang|relatives|others|grandkids|grandchildren|siblings|classmates)\b", re.I)
"""People in a number the text does not say ("me, my wife and kids"), once the counted ones are taken out."""
NUMBER_SAID = re.compile(r"\b(including|incl\.?|counting|with)\s+(me|myself)\b|\b(of us|in total|total|altogether|all together)\b",
                         re.I)


def head_count(text: str) -> int | None:
    """The number of people in a party the text lists (the writer counted when named), or None when it
    lists nobody, or somebody it cannot count."""
    if NUMBER_SAID.search(text):
        return None
    counted, rest = _counted(text)
    if UNCOUNTED.search(rest):
        return None
    has_self = bool(SELF.search(rest))
    if not has_self and counted == 0:
        return None
    if not has_self and not _several_named(text):
        return None  # "3 friends" alone may or may not include the writer
    return counted + (1 if has_self else 0)


def uncounted(text: str) -> str | None:
    """The people listed with others but without a number ("the kids" in "me, my wife and the kids"), or None."""
    if NUMBER_SAID.search(text):
        return None
    counted, rest = _counted(text)
    match = UNCOUNTED.search(rest)
    return match.group(1) if match and (counted or SELF.search(rest)) else None


def _counted(text: str) -> tuple[int, str]:
    """The people the text counts (by number, pair or one by one), and the text without them."""
    counted, rest = 0, text
    for pattern, size in ((COUNTED, None), (PAIR, 2), (ONE_PERSON, 1)):
        for match in pattern.finditer(rest):
            counted += size or _number(match.group(1))
        rest = pattern.sub(" ", rest)
    return counted, rest


def _several_named(text: str) -> bool:
    """Two or more kinds of people joined ("6 adults and 2 kids", "my parents and my sister")."""
    return sum(len(p.findall(text)) for p in (COUNTED, PAIR, ONE_PERSON)) >= 2


def _number(word: str) -> int:
    return int(word) if word.isdigit() else NUMBER_WORDS[word.lower()]
