"""Proper names in a message: a person's ("im Jenna Ortiz", "for my daughter Emma Ruiz") or another
named thing's ("my dog rex", "my golden retriever Biscuit").

A name is read after words that introduce one ("my name is", "i'm", "call me"), after a
possessive and the word for whose name it is (a relation, or what a name field's description
names: "the dog's name"), or as capitalised words inside a sentence. Words of a sentence ("i'm
sick", "my dog needs walks") are no name: a name's words are none of the language's common words,
and written in lower case they must follow words that introduce a name.
"""

from __future__ import annotations

import re

from ....language import english
from ....language.tokens import Token, phrase_pattern
from ....language.words import stem
from .model import NAME, Entity

SELF = "self"
MAX_NAME_WORDS = 4
_INTRODUCING = re.compile(rf"{phrase_pattern(english.NAME_INTRODUCTIONS)}\s*:?(?:\s+{phrase_pattern(english.HEDGES)})*\s+$",
                          re.I)
_CLAIMING = re.compile(rf"{phrase_pattern(english.SELF_INTRODUCTIONS)}\s+$", re.I)
_WORD_BEFORE = re.compile(r"([a-z'’]+)\s*$", re.I)


def _an_object(before: str) -> bool:
    """A word right before the claim ("me") that makes it an object: "book me into ...", not "it's me, Jane"."""
    word = _WORD_BEFORE.search(before)
    return word is not None and word.group(1).lower() not in (*english.SELF_INTRODUCTIONS, "is", "was")


_POSSESSIVE = re.compile(rf"{phrase_pattern(english.POSSESSORS)}\s+$", re.I)
_SENTENCE_END = re.compile(r"[.!?]\s*$")
_COMMON = frozenset(w for w in (*english.SENTENCE_WORDS, *english.STOP_WORDS, *english.FILLERS, *english.GREETINGS,
                                *english.THANKS, *english.YES_PHRASES, *english.NO_PHRASES, *english.NUMBER_WORDS,
                                *english.WEEKDAYS, *english.MONTHS, *english.DAY_WORDS, *english.COMMON_VERBS)
                    if " " not in w)


def find(text: str, tokens: tuple[Token, ...], owners: frozenset[str]) -> list[Entity]:
    """Names, each with whose it is (``owner``: "self", a relation or a noun, or "" when unsaid)."""
    out: list[Entity] = []
    taken: set[int] = set()
    owner_stems = frozenset(stem(o) for o in owners)
    for index, token in enumerate(tokens):
        if index in taken or not _could_start_a_name(token):
            continue
        owner = _owner(text, token, tokens[index - 1] if index else None, owner_stems)
        capitalised = token.text[:1].isupper() and (not _starts_a_sentence(text, token) or _capitalised_next(tokens, index))
        if owner is None and capitalised:
            owner = _possessed(text, token, tokens[index - 1] if index else None)
        if owner is None and not capitalised:
            continue
        run = _name_run(tokens, index, lower_ok=owner is not None)
        if not run or (owner == SELF and not capitalised and len(run) < 2 and not _INTRODUCING.search(
                text[max(0, token.start - 40):token.start])):
            continue  # "im sick": a lower-case word after "i'm" is a name only with a surname
        if owner is None and len(run) == 1 and token.text.isupper():
            continue  # "SAT", "AP": an acronym, no name
        taken.update(range(index, index + len(run)))
        start, end = run[0].start, run[-1].end
        out.append(Entity(NAME, start, end, text[start:end], text[start:end], owner=owner or ""))
    return out


def _could_start_a_name(token: Token) -> bool:
    return token.is_word and could_be_a_name(token.text)


def could_be_a_name(word: str) -> bool:
    """A word that is none of the language's common words, in any form ("needs" is "need")."""
    lower = word.lower()
    forms = (lower, *(f for f in (lower.removesuffix("s"), lower.removesuffix("es")) if len(f) >= MIN_STEM_CHARS))
    return not any(form in _COMMON for form in forms)


MIN_STEM_CHARS = 3
"""A word without its plural ending is compared only if this long: "ines" is no plural of "in"."""


def _capitalised_next(tokens: tuple[Token, ...], index: int) -> bool:
    """The next word is capitalised too ("Sam Patel" opening a message is a name)."""
    following = tokens[index + 1] if index + 1 < len(tokens) else None
    return following is not None and following.text[:1].isupper() and _could_start_a_name(following)


def _starts_a_sentence(text: str, token: Token) -> bool:
    before = text[:token.start].rstrip()
    return not before or bool(_SENTENCE_END.search(before))


def _owner(text: str, token: Token, previous: Token | None, owner_stems: frozenset[str]) -> str | None:
    """Whose name starts at ``token``: the user's ("my name is", "i'm"), a relation's or a named thing's
    ("my daughter", "my dog"), or None when nothing before it introduces a name."""
    before = text[max(0, token.start - 40):token.start]
    claim = _CLAIMING.search(before)
    if _INTRODUCING.search(before) or (claim and not _an_object(before[:claim.start()])):
        return SELF
    if previous is None or not (previous.lower in english.RELATIONS or stem(previous.lower) in owner_stems):
        return None
    return previous.lower if _POSSESSIVE.search(text[max(0, previous.start - 12):previous.start]) else None


_POSSESSED = re.compile(rf"\b(?:{phrase_pattern(english.POSSESSORS)})\s+(?:[\w'-]+\s+){{0,3}}$", re.I)


def _possessed(text: str, token: Token, previous: Token | None) -> str | None:
    """The thing a capitalised name after "my <words> <noun>" names: "my golden retriever Biscuit" is the
    retriever's name."""
    if previous is None or not previous.is_word or not could_be_a_name(previous.text) or previous.text[:1].isupper():
        return None
    return previous.lower if _POSSESSED.search(text[max(0, previous.start - 40):previous.start]) else None


def _name_run(tokens: tuple[Token, ...], index: int, lower_ok: bool) -> list[Token]:
    """The words of the name that starts at ``tokens[index]``: capitalised words (or, after words that
    introduce a name, words of no sentence), particles between them ("de la"), up to a sign."""
    run: list[Token] = []
    for token in tokens[index:index + MAX_NAME_WORDS + 2]:
        if not token.is_word:
            break
        lower = token.lower
        if lower in english.NAME_PARTICLES and run:
            run.append(token)
            continue
        if not _could_start_a_name(token) or lower.endswith(("ing", "ed", "ly")) and not token.text[:1].isupper():
            break
        if not token.text[:1].isupper() and not lower_ok:
            break
        run.append(token)
        if len(run) >= MAX_NAME_WORDS:
            break
    while run and run[-1].lower in english.NAME_PARTICLES:
        run.pop()
    return run
