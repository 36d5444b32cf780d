"""The analysis of a message: one pass, before any matcher, that nothing changes afterwards.

Recognisers find typed entities (numbers, amounts, dates, times, lengths of time, phone numbers,
emails, street addresses, names, the worksheet's formats, records and options), each by the
library or the declared data made for it. Overlapping entities are settled here, once, the
longest and most specific first (as spaCy's ``filter_spans``): the digits of a code, an address, a
time or an amount are never also a count. Entities over the very same words are kept side by
side (alternatives: "4471" is a number and a gate code; the slots choose by the field). Then the
dialogue acts mark what the message does with them: a value taken back ("tuesday, no wait,
wednesday"), denied ("not tuesday"), or asked about ("for 5 people?").
"""

from __future__ import annotations

import datetime as dt
import re
from dataclasses import replace
from typing import Any

from ....language import english
from ....language.tokens import phrase_pattern, tokenize
from ..spec_index import SpecIndex, record_nouns
from . import acts, contacts, dates, mentions, names, numbers, people
from .model import AMOUNT, DENY, NEGATION, OPTION, QUESTION, SELF_CORRECTION, SPECIFICITY, Analysis, Cue, Entity

__all__ = ["Analysis", "Entity", "analyse"]

MAX_SELF_CORRECTION_GAP = 40
"""Characters between a value taken back and the cue that takes it back, at most ("3, no wait, 5")."""


def analyse(text: str, index: SpecIndex, today: dt.date, knowledge: Any = None) -> Analysis:
    """The analysis of ``text`` (see the module docstring)."""
    tokens = tokenize(text)
    counted = numbers.find(text)
    moneyless = text  # an amount of money is no part of a date ("$1,250, 3 days ago")
    for e in counted:
        if e.kind == AMOUNT:
            moneyless = moneyless[:e.start] + " " * (e.end - e.start) + moneyless[e.end:]
    found = [*counted, *people.find(text), *dates.find(moneyless, today), *contacts.find(text),
             *mentions.find_codes(text, index), *mentions.find_options(text, tokens, index),
             *mentions.find_records(text, knowledge, index.tables, record_nouns(index.spec)), *names.find(text, tokens, index.owner_nouns)]
    clauses = tuple(acts.clause_spans(text))
    cues = tuple(acts.cues(text, list(clauses)))
    entities = _marked(text, settle(found), cues)
    whole = acts.whole_acts(text)
    if whole.get(DENY) and any(c.act == SELF_CORRECTION and c.start == 0 for c in cues) and entities:
        whole[DENY] = False  # "no wait its alexk@...": the no takes back what was said, it answers nothing
    return Analysis(text, tokens, tuple(entities), clauses, cues, tuple(mentions.find_fields(tokens, index)), whole)


def settle(found: list[Entity]) -> list[Entity]:
    """One reading per stretch of text: spans are taken longest first, then by the specificity of
    their kind, and one overlapping a span taken is dropped; entities over the same span stay together."""
    by_span: dict[tuple[int, int], list[Entity]] = {}
    for e in found:
        if e.end > e.start:
            by_span.setdefault(e.span, []).append(e)
    order = sorted(by_span, key=lambda s: (-(s[1] - s[0]), min(SPECIFICITY.index(e.kind) for e in by_span[s]), s[0]))
    taken: list[tuple[int, int]] = []
    for span in order:
        if not any(span[0] < e and s < span[1] for s, e in taken):
            taken.append(span)
    out = [e for span in sorted(taken) for e in sorted(by_span[span], key=lambda e: SPECIFICITY.index(e.kind))]
    kept: dict[tuple[str, int, int], Entity] = {}
    for e in out:  # one entity per kind and span (several recognisers may find the same number)
        kept.setdefault((e.kind, e.start, e.end), e)
    return list(kept.values())


def _marked(text: str, entities: list[Entity], cues: tuple[Cue, ...]) -> list[Entity]:
    """The entities with what the message does with them: taken back, denied, asked about."""
    retracted = _retracted(entities, [c for c in cues if c.act == SELF_CORRECTION]) | _second_choices(text, entities)
    negated = {e.span for c in cues if c.act == NEGATION for e in entities if _right_after(text, c.end, e.start)}
    questions = [c for c in cues if c.act == QUESTION]
    out = []
    for e in entities:
        asked = any(c.start <= e.start and e.end <= c.end and _asks_about(text, c, e, entities) for c in questions)
        if e.span in retracted or e.span in negated or asked:
            e = replace(e, retracted=e.span in retracted, negated=e.span in negated, in_question=asked)
        out.append(e)
    return out


def _retracted(entities: list[Entity], self_corrections: list[Cue]) -> set[tuple[int, int]]:
    """Spans of values a message takes back: the last value before "no wait" (or "i mean"), when a value
    of the same kind follows it ("tuesday, no wait, wednesday"; "a parrot, no wait, a cat")."""
    out = set()
    for cue in self_corrections:
        before = [e for e in entities if e.end <= cue.start and cue.start - e.end <= MAX_SELF_CORRECTION_GAP]
        after = [e for e in entities if e.start >= cue.end]
        if not before or not after:
            continue
        last, following = before[-1], after[0]
        if _comparable(last, following):
            out.add(last.span)
    return out


def _second_choices(text: str, entities: list[Entity]) -> set[tuple[int, int]]:
    """Spans of values said as a second guess after another value of the same thing ("either 9503 or 1596",
    "9431 but it could be 3941"): the first is the one to go with, in the order the user put them. Options joined
    by "or" are left alone: they may be a list ("afternoons or evenings")."""
    out = set()
    for b in entities:
        if b.kind != OPTION and any(_comparable(a, b) and a.end <= b.start and _SECOND_CHOICE.fullmatch(text[a.end:b.start].strip(" ,.…"))
               for a in entities):
            out.add(b.span)
    return out


_SECOND_CHOICE = re.compile(phrase_pattern(english.SECOND_CHOICES), re.I)


def _comparable(a: Entity, b: Entity) -> bool:
    """Two values of one thing: the same kind (options of a field they share)."""
    if a.kind != b.kind:
        return False
    if a.kind == OPTION:
        return bool({(h.worksheet, h.field) for h in a.value} & {(h.worksheet, h.field) for h in b.value})
    return True


def _right_after(text: str, end: int, start: int) -> bool:
    """The entity starts right after the cue (an article between is fine: "not the large one")."""
    gap = text[end:start].strip().lower()
    return start >= end and gap in ("", "a", "an", "the", "my", "on", "at", "for")


MAX_UNSURE_WORDS = 3
"""A clause this short that only a question mark makes a question is an unsure answer ("8pm?")."""


def _asks_about(text: str, cue: Cue, entity: Entity, entities: list[Entity]) -> bool:
    """Whether the question asks about the value (not a value said with a question mark: "8pm?")."""
    clause = text[cue.start:cue.end]
    if acts.asks_with_a_question_word(clause):
        return True
    inside = [e for e in entities if cue.start <= e.start and e.end <= cue.end]
    rest = clause
    for e in inside:
        rest = rest.replace(e.text, " ")
    return len(rest.split()) > MAX_UNSURE_WORDS
