"""The evidence for a value read from a message: which words say it, and how plainly.

A matcher finds a value for a field; this module finds where the message says it (the record's
name, the date, the option's words, the free text) and scores how it is said, by the weights of
``proposals``: a declared format or an option named as written is stronger evidence than an
option guessed from the words of its description, and naming the field ("my email is", "3 units")
adds to either. Matchers build their proposals from these figures, so that one scale decides
between them all.
"""

from __future__ import annotations

import datetime as dt
import re
from dataclasses import dataclass
from typing import Any

from ...knowledge.mentions import SHORT_SCORE, squashed
from ...language.tokens import tokens_within
from ...spec import NA, Field
from .. import dates, enums, extract
from . import proposals as weights
from .about import MAX_SHORT_ANSWER_WORDS
from .fields import has_pattern, is_free_text
from .proposals import Proposal
from .reading import Reading, Taken
from .records import described_among_listed, named_by_values, table_of

Span = tuple[int, int]


@dataclass(frozen=True)
class Evidence:
    """How a value is said: the score it earns and the words (token indexes of the whole message) that say it."""

    score: float
    claims: frozenset[int]
    why: tuple[str, ...]


def of_value(reading: Reading, f: Field, value: Any, spans: list[Span], instance: str = "") -> Evidence:
    """The evidence for ``value`` of ``f`` (for ``instance``) in the reading's text; ``spans``: where the
    reader found it, when it knows (a record's name, a date), in the reading's own offsets."""
    located = spans or _located(reading, f, value)
    score, why = _strength(reading, f, value, located)
    if _held_by_another(reading, f, value, instance):
        score -= weights.PHRASING_PENALTY
        why += ("held by another part",)
    if (located and value not in (None, NA) and not is_free_text(f)
            and extract.mentions(_clause_around(reading.text, located[0]), f)):
        score += weights.NAMED_FIELD
        why += ("names the field",)
    return Evidence(score, claims_of(reading, located), why)


def _held_by_another(reading: Reading, f: Field, value: Any, instance: str) -> bool:
    """A record another instance of the worksheet (one being made: ``instance`` "") holds, named
    again: it says which part the message is about ("the units for cs242 is 4"), it is not the value
    of another part anew."""
    table = table_of(reading.spec, f)
    if table is None or value in (None, NA):
        return False
    said = _record_of(reading, table, value)
    return any(other.name != instance and reading.spec.tasks[other.worksheet].fields.get(f.name) is f
               and other.values.get(f.name) not in (None, NA) and _record_of(reading, table, other.values[f.name]) == said
               for other in reading.state.instances.values())


def _record_of(reading: Reading, table: str, value: Any) -> Any:
    """The record a value names ("cs 221" and "artificial intelligence: principles and techniques" name
    one course), else its name squashed."""
    if isinstance(value, dict):
        return value
    names = reading.knowledge.record_names(table) if reading.knowledge is not None else None
    found = names.find(str(value)) if names is not None else []
    return found[0].record if found else squashed(str(value))


def _shared(evidence: Evidence, reading: Reading, taken: Taken) -> Evidence:
    """A detail of a nested worksheet being made, or an option implied by the rest, owns no words
    (and so adds little to the score):
    "CS 224V and CS 229 for a letter grade" gives both courses the grading, and "sent it by email"
    says Submitted with words that are the method's."""
    if taken.implied or (not taken.instance and table_of(reading.spec, taken.field) is None):
        return Evidence(evidence.score * SHARED_SHARE, frozenset(), evidence.why)
    return evidence


SHARED_SHARE = 0.1
"""Of its evidence, what a value owning no words adds to a reading: it breaks ties, never outweighs words."""


def claims_of(reading: Reading, spans: list[Span]) -> frozenset[int]:
    """Token indexes of the whole message the spans (in the reading's offsets) cover."""
    out: set[int] = set()
    for start, end in spans:
        out |= tokens_within(reading.whole_tokens, start + reading.offset, end + reading.offset)
    return frozenset(out)


def whole(reading: Reading) -> frozenset[int]:
    """Every word of the reading's text."""
    return claims_of(reading, [(0, len(reading.text))])


def _strength(reading: Reading, f: Field, value: Any, located: list[Span]) -> tuple[float, tuple[str, ...]]:
    if value is NA or value == NA:
        return weights.TYPED, ("declined",)
    if value is None:
        return weights.TYPED, ("taken out",)
    kind = f.type.kind
    if has_pattern(f):
        return weights.FORMAT + weights.TYPED, ("format",)
    if table_of(reading.spec, f) is not None:
        best = max((m.score for t in [table_of(reading.spec, f)] for m in reading.mentions(t or "")
                    if any(m.start < e and s < m.end for s, e in located)), default=None)
        table = table_of(reading.spec, f) or ""
        if best is None and value in (described_among_listed(reading, table, mark=False),
                                      named_by_values(reading, table, mark=False)):
            return weights.TYPED * (1 + SHORT_SCORE / 100), ("record described",)  # "the thursday 5:30 one", "a corolla"
        if best is None:
            return weights.DESCRIBED, ("record in focus",)
        return weights.TYPED * (1 + best / 100), (f"record named ({best:.0f})",)
    if kind == "enum":
        said = any(re.search(enums.as_written(v), extract.normalise(reading.text)) for v in [str(value)])
        return (weights.TYPED, ("option named",)) if said else (weights.DESCRIBED, ("option described",))
    if kind in ("date", "time", "datetime", "int", "float", "bool", "confirm"):
        return weights.TYPED, (kind,)
    if kind == "list":
        return weights.TYPED, ("list",)
    return weights.DESCRIBED, ("free text",)


def _located(reading: Reading, f: Field, value: Any) -> list[Span]:
    """Where the text says ``value`` when the reader did not say: as written, else by its words; a
    decline by the clauses that decline; an option said by no word of its own in a short reply (a
    yes for "Submitted") by the whole reply."""
    text = reading.text
    if value is None or isinstance(value, bool):
        return [(0, len(text))]
    if value is NA or value == NA:
        return [_declining_part(reading, f, s, e) for s, e in extract.clause_spans(text)
                if extract.declines(text[s:e]) or extract.says_unknown(text[s:e]) or extract.yes_no(text[s:e]) is False]
    if f.type.kind == "enum":
        found = re.search(enums.as_written(str(value)), text.lower())
        if found:
            return [found.span()]
        words = enums.member_words(f, str(value))
        by_word = [(t.start, t.end) for t in reading.tokens
                   if extract.content_words(t.text) & words or enums.misspells(t.lower, str(value))]
        return by_word or ([(0, len(text))] if len(text.split()) <= MAX_SHORT_ANSWER_WORDS else [])
    if isinstance(value, (dt.date, dt.time)):
        return _where_dated(reading, value)
    said = str(value)
    found = re.search(re.escape(said).replace(r"\ ", r"\s+"), text, re.I)
    if found:
        return [found.span()]
    pieces = [p.strip() for p in re.split(r"\s{2,}", said) if p.strip()]
    if len(pieces) > 1:  # free text with values of other fields left out ("it's either      or     ")
        spans, at = [], 0
        for piece in pieces:
            match = re.compile(re.escape(piece), re.I).search(text, at)
            if match is None:
                break
            spans.append(match.span())
            at = match.end()
        if len(spans) == len(pieces):
            return spans
    if isinstance(value, (int, float)):
        number = re.search(rf"(?<![\w.]){value:g}(?!\w)", text)
        return [number.span()] if number else [(0, len(text))]
    return [(0, len(text))]


def _where_dated(reading: Reading, value: dt.date | dt.time) -> list[Span]:
    """Where the text says a date, a time, or both ("tomorrow at 7pm"): the phrases that read as it."""
    spans = []
    times = dates.find_times(reading.text)
    if isinstance(value, dt.date):
        day = value.date() if isinstance(value, dt.datetime) else value
        for found in dates.find_dates(reading.text, reading.today):
            if day in found.readings:  # "tomorrow at 7pm": the date's words, not the time's
                end = min([t.start for t in times if found.start < t.start < found.end], default=found.end)
                spans.append((found.start, end))
    if isinstance(value, (dt.time, dt.datetime)):
        hour = value.time() if isinstance(value, dt.datetime) else value
        spans += [(f.start, f.end) for f in times if hour in f.readings]
    return spans or [(0, len(reading.text))]


def _declining_part(reading: Reading, f: Field, start: int, end: int) -> Span:
    """Where a clause declines: from "I can't remember" to the field it names, else to its end
    ("Katarina Miller 351531510 I can't remember my pin", "I forgot my account number buy my pin is
    3941": the other words give other values); a clause without such words declines whole."""
    unknown = extract.UNKNOWN.search(reading.text, start, end)
    if unknown is None:
        return start, end
    named = extract.name_words(f)
    to = next((t.end for t in reading.tokens if unknown.end() <= t.start and t.end <= end
               and extract.content_words(t.text) & {extract.stem(w) for w in named}), end)
    return unknown.start(), to


def _clause_around(text: str, span: Span) -> str:
    """The clause of ``text`` that holds ``span``."""
    for start, end in extract.clause_spans(text):
        if start <= span[0] < end:
            return text[start:end]
    return text


def proposal(reading: Reading, matcher: str, statements: list[str], base: float, *,
             claims: frozenset[int] = frozenset(), slots: frozenset[str] = frozenset(),
             taken: list[Taken] | None = None, **flags: Any) -> Proposal:
    """A proposal of ``statements`` scored from ``base`` and the evidence of the values it gives
    (``taken``: by default every value the reading took)."""
    values = reading.taken if taken is None else taken
    evidence = [of_value(reading, t.field, t.value, t.spans, t.instance) for t in values]
    found = [_shared(e, reading, t) for e, t in zip(evidence, values)]
    claimed = claims.union(*(e.claims for e in found))
    says = frozenset().union(*(e.claims for e in evidence))
    free_text = bool(values) and all(is_free_text(t.field) for t in values) and not flags.get("describes")
    given = frozenset(f"{t.instance}.{t.field.name}" for t in values if t.instance)
    score = base + sum(e.score for e in found) + weights.PER_WORD * len(claimed)
    why = tuple(w for e in found for w in e.why)
    statements = [*statements, *(s for s in reading.listed if s not in statements)]
    return Proposal(matcher, tuple(statements), score, claimed, given | slots, evidence=why, says=says,
                    free_text=free_text, details={"taken": list(values)}, **flags)
