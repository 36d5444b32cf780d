"""What the spec declares, found in a message: options, fields, formats and records.

Options are named by a member's name (in any form of its words: "fillings", "emailed"), a
synonym the builder declared ("uber", "$", "half hour"), a phrase the member's description lists,
or a long word of its name misspelt ("autum"); a member negated in the message is its opposite
when the enum has one ("haven't submitted" is Not Submitted). Fields are named by their label,
the words of their name, their synonyms and what they count. A declared format (a pattern) names
the fields it fits; records are named through the knowledge tables' name indexes.
"""

from __future__ import annotations

import re
from typing import Any

from rapidfuzz import fuzz
from rapidfuzz.distance import OSA

from ....language import english
from ....language.tokens import Token, phrase_pattern
from ....knowledge.mentions import SHARED_SCORE
from ....language.words import content_words, stem
from ..spec_index import FieldTarget, OptionTarget, PhraseIndex, SpecIndex
from .model import CODE, OPTION, RECORD, Entity, FieldMention, OptionHit

TYPO_SCORE = 85
_SIGNS = {"/", "-", ",", ".", "(", ")", "'", "_", ":"}
_NEGATION = re.compile(rf"(?:{phrase_pattern(english.NEGATIONS)}|\b[a-z]+n?['’]t\b)(?:\s+\w+){{0,2}}\s*$", re.I)
"""A negation right before an option, also typed fast ("havne't submitted")."""
_OTHER_SAID = re.compile(phrase_pattern(english.NONE_OF_THESE), re.I)


def _stems(tokens: tuple[Token, ...]) -> list[tuple[str, Token]]:
    """Each token's stem, the signs that join words left out ("cr/nc" is "cr nc")."""
    return [(stem(t.lower), t) for t in tokens if t.lower not in _SIGNS]


def _phrases_said(index: PhraseIndex, tokens: tuple[Token, ...], gaps: bool = False) -> list[tuple[int, int, Any]]:
    """(start, end, target) of every indexed phrase the tokens say, all of them (overlaps too); with
    ``gaps``, an article may stand between two of its words ("join a waitlist" says Join Waitlist)."""
    stems = _stems(tokens)
    out = []
    for i, (first, token) in enumerate(stems):
        for phrase in index.by_first.get(first, ()):
            end = _said_from(stems, i, phrase.stems, gaps)
            if end is not None and not _another_word_class(stems[i:end + 1], phrase.words):
                out.append((token.start, stems[end][1].end, phrase.target))
    return out


def _another_word_class(said: list[tuple[str, Token]], written: tuple[str, ...]) -> bool:
    """A word said in the past tense where the phrase has a plural of the same stem: "booked" says no "books"."""
    words = [t.lower for _, t in said if t.lower not in english.ARTICLES]
    return any(s.endswith("ed") and w.endswith("s") and not w.endswith("ss") for s, w in zip(words, written))


def _said_from(stems: list[tuple[str, Token]], i: int, phrase: tuple[str, ...], gaps: bool) -> int | None:
    """The index of the last token of ``phrase`` said from ``stems[i]`` on, or None."""
    at = i
    for k, wanted in enumerate(phrase):
        if at < len(stems) and stems[at][0] == wanted:
            at += 1
            continue
        if gaps and k and at + 1 < len(stems) and stems[at][1].lower in english.ARTICLES and stems[at + 1][0] == wanted:
            at += 2
            continue
        return None
    return at - 1


def find_options(text: str, tokens: tuple[Token, ...], index: SpecIndex) -> list[Entity]:
    """Option entities: for each stretch of words, every option of every field it names."""
    hits: dict[tuple[int, int], list[OptionHit]] = {}
    for start, end, target in _phrases_said(index.options, tokens, gaps=True):
        assert isinstance(target, OptionTarget)
        hits.setdefault((start, end), []).append(_negation_aware(text, start, index, target))
    known = {s for s, _ in _stems(tokens) if s in index.options.by_first}
    for token in tokens:
        word = token.lower
        if len(word) < 5 or not word.isalpha() or stem(word) in known or any(s <= token.start < e for s, e in hits):
            continue
        meant = _misspelt(word, [w for w in index.option_words if w[0] == word[0]])
        if meant is not None:
            hits.setdefault((token.start, token.end), []).extend(
                OptionHit(t.worksheet, t.field, t.member, "typo") for t in index.option_words[meant])
    for said in _OTHER_SAID.finditer(text):
        others = [OptionHit(ws.name, f.name, member, "other") for ws in index.spec.tasks.values()
                  for f in ws.fields.values() for member in f.values if _stands_for_the_rest(member, f.value_descriptions)]
        if others:
            hits.setdefault(said.span(), []).extend(others)
    return [Entity(OPTION, s, e, tuple(dict.fromkeys(found)), text[s:e]) for (s, e), found in _joined(text, hits)]


def _joined(text: str, hits: dict[tuple[int, int], list[OptionHit]]) -> list[tuple[tuple[int, int], list[OptionHit]]]:
    """Neighbouring stretches naming the same members, with nothing between but words of those members' names,
    are one mention of them ("downown san francisco": a typo and a word of Downtown San Francisco, "san" between),
    keeping the members both name."""
    out: list[tuple[tuple[int, int], list[OptionHit]]] = []
    for (start, end), found in sorted(hits.items()):
        if out and out[-1][0][1] <= start:
            (before_start, before_end), before = out[-1]
            both = {(h.worksheet, h.field, h.member) for h in before} & {(h.worksheet, h.field, h.member) for h in found}
            gap = text[before_end:start].lower().split()
            if both and all(any(w in member.lower().split() for _, _, member in both) for w in gap):
                kept = [h for h in (*before, *found) if (h.worksheet, h.field, h.member) in both]
                out[-1] = ((before_start, end), kept)
                continue
        out.append(((start, end), found))
    return out


def _misspelt(word: str, candidates: list[str]) -> str | None:
    """The word of an option ``word`` misspells, in any of its forms ("emialed" is "emailed", "wintr"
    "winter"), two neighbouring letters swapped counting as one slip."""
    best, score = None, 0.0
    for candidate in candidates:
        for form in _forms(candidate):
            said = 100.0 if sorted(form) == sorted(word) and OSA.distance(form, word) == 1 else fuzz.ratio(word, form)
            if said > score:
                best, score = candidate, said
    return best if score >= TYPO_SCORE else None


def _forms(word: str) -> tuple[str, ...]:
    stem_ = word[:-1] if word.endswith("e") else word
    return word, f"{word}s", f"{stem_}ed", f"{stem_}ing"


def _negation_aware(text: str, start: int, index: SpecIndex, target: OptionTarget) -> OptionHit:
    """The member named, or its opposite ("Not Submitted") when a negation comes right before it."""
    f = index.spec.tasks[target.worksheet].fields[target.field]
    opposite = next((v for v in f.values if v.lower() in (f"not {target.member.lower()}", f"no {target.member.lower()}")),
                    None)
    if opposite is not None and _NEGATION.search(text[max(0, start - 24):start]):
        return OptionHit(target.worksheet, target.field, opposite, target.how)
    return OptionHit(target.worksheet, target.field, target.member, target.how)


def _stands_for_the_rest(member: str, descriptions: dict[str, str]) -> bool:
    """A member for every other case ("Other", "Other: another external test")."""
    said = f"{member} {descriptions.get(member, '')}".lower()
    return re.match(phrase_pattern(english.THE_REST), said) is not None


def find_fields(tokens: tuple[Token, ...], index: SpecIndex) -> list[FieldMention]:
    """Every field the message names, each place by the longest phrase naming that field."""
    by_place: dict[tuple[str, str, int, int], FieldMention] = {}
    for start, end, t in _phrases_said(index.field_names, tokens):
        if isinstance(t, FieldTarget):
            by_place.setdefault((t.worksheet, t.field, start, end), FieldMention(t.worksheet, t.field, start, end, t.how))
    found = list(by_place.values())
    kept = [m for m in found if not any(k.start <= m.start and m.end <= k.end and (k.end - k.start) > (m.end - m.start)
                                        for k in found)]  # "last day" names the last day, not also the first
    return sorted(kept, key=lambda m: (m.start, m.end, m.worksheet, m.field))


def find_codes(text: str, index: SpecIndex) -> list[Entity]:
    """Values of the declared formats ("DC-10482", "jdoe@stanford.edu", "4471"): one entity per stretch of
    text, whichever fields' formats it fits (the slots check which). Digits typed in groups ("0634 5678") are
    read as one value when the groups together fit a format."""
    spans: dict[tuple[int, int], tuple[bool, str]] = {}

    def add(span: tuple[int, int], value: str, distinctive: bool) -> None:
        kept = spans.get(span)
        spans[span] = (distinctive or (kept is not None and kept[0]), value)

    for _, pattern, distinctive in index.patterns:
        for match in pattern.finditer(text):
            if match.group(0).strip():
                add(match.span(), match.group(0).strip(), distinctive)
        for group in _DIGIT_GROUPS.finditer(text):
            joined = re.sub(r"[\s-]", "", group.group(0))
            if pattern.fullmatch(joined) and not pattern.fullmatch(group.group(0)) and group.span() not in spans:
                add(group.span(), joined, distinctive)
    return [Entity(CODE, s, e, value, text[s:e], vague=not distinctive) for (s, e), (distinctive, value) in sorted(spans.items())]


_DIGIT_GROUPS = re.compile(r"(?<![\w-])\d{2,}(?:[ -]\d{2,})+(?![\w-])")


def find_records(text: str, knowledge: Any, tables: tuple[str, ...], nouns: frozenset[str]) -> list[Entity]:
    """Records of the tables named by their names (one entity per stretch and table, with every record
    the words name: namesakes are all named). The word for the records is no short name of theirs: "a
    restaurant" names none of Addis Restaurant and Harar Restaurant."""
    if knowledge is None:
        return []
    out = []
    for table in tables:
        spans: dict[tuple[int, int], list[Any]] = {}
        for mention in knowledge.record_names(table).find(text):
            if mention.score == SHARED_SCORE and content_words(text[mention.start:mention.end]) <= nouns:
                continue
            spans.setdefault((mention.start, mention.end), []).append(mention)
        out += [Entity(RECORD, s, e, tuple(found), text[s:e]) for (s, e), found in spans.items()]
    return out
