"""Matcher: changes said by what they replace or by the field they name, without a new value read
elsewhere: "change cs 229 to cs 230", "52 not 45", "the date is wrong" (asked again), "remove the
note" (declined when optional, asked again when required).
"""

from __future__ import annotations

import re
from typing import Any

from ....language import english
from ....language.tokens import normalise, phrase_pattern
from ....language.words import content_words
from ....spec import NA
from ..analysis.model import OPTION, RECORD
from ..context import Context, Target
from ..field_classes import TEXT, field_class
from ..proposals import VALUE, Proposal
from ..slots import candidates

_WRONG_AFTER = re.compile(rf"^\s*(?:{phrase_pattern(english.STATING_VERBS)})\s+(?:{phrase_pattern(english.WRONG_WORDS)})\b",
                          re.I)
_CHANGING_BEFORE = re.compile(rf"(?:{phrase_pattern(english.CHANGING_VERBS)})\s+(?:{phrase_pattern(english.POSSESSIVES)}\s+)?$",
                              re.I)
_REMOVING_BEFORE = re.compile(rf"(?:{phrase_pattern((*english.REMOVING_VERBS, *english.REMOVING_PHRASES))})\s+"
                              rf"(?:{phrase_pattern(english.POSSESSIVES)}\s+)?$", re.I)
_ADDING_BEFORE = re.compile(rf"(?:{phrase_pattern(english.ADDING_VERBS)})\s+(?:{phrase_pattern(english.ARTICLES)}\s+)?$",
                            re.I)
_REPLACING = re.compile(rf"(?:{phrase_pattern(english.REPLACING_VERBS)})\s+(?P<old>.+?)\s+"
                        rf"(?:{phrase_pattern(english.REPLACEMENT_LINKS)})\s+(?P<new>.+?)[.!?]*$", re.I)


def propose(ctx: Context) -> list[Proposal]:
    return _said_wrong_or_removed(ctx) + _replaced(ctx) + _list_edits(ctx)


def _list_edits(ctx: Context) -> list[Proposal]:
    """"remove the child seat", "add gps too": a list field that holds options or records loses or gains the
    ones the message names after a verb that removes or adds."""
    out = []
    for e in ctx.analysis.entities:
        if not e.usable or e.kind not in (OPTION, RECORD):
            continue
        before = ctx.text[max(0, e.start - 30):e.start]
        removing, adding = _REMOVING_BEFORE.search(before), _ADDING_BEFORE.search(before)
        if not (removing or adding):
            continue
        for target in ctx.targets:
            held = ctx.value_of(target)
            if target.field.type.kind != "list" or not target.exists:
                continue
            items = list(held) if isinstance(held, list) else []
            said = _items_named(ctx, e, target)
            if not said:
                continue
            lead = removing or adding
            start = e.start - (len(before) - lead.start()) if lead else e.start
            if removing:
                kept = [i for i in items if i not in said]
                if len(kept) < len(items):
                    out.append(_change(ctx, target, kept or (None if target.field.required else NA), [(start, e.end)],
                                       "taken off a list"))
            else:
                added = items + [i for i in said if i not in items]
                if len(added) > len(items):
                    out.append(_change(ctx, target, added, [(start, e.end)], "added to a list"))
    return out


def _items_named(ctx: Context, e: Any, target: Target) -> list[Any]:
    if e.kind == OPTION:
        return [h.member for h in e.value if (h.worksheet, h.field) == (target.worksheet, target.field.name)]
    table = ctx.index.table_of(target.field)
    return [m.record for m in e.value if m.table == table]


def _said_wrong_or_removed(ctx: Context) -> list[Proposal]:
    out = []
    for mention in ctx.analysis.fields:
        for target in _filled_targets(ctx, mention.worksheet, mention.field):
            before = ctx.text[max(0, mention.start - 30):mention.start]
            after = ctx.text[mention.end:mention.end + 30]
            given = any(c.value is not None for c in candidates(ctx, target))
            wrong = _WRONG_AFTER.match(after)
            if wrong is not None and not given:
                out.append(_change(ctx, target, None, [(mention.start, mention.end + wrong.end())], "said to be wrong"))
            elif _CHANGING_BEFORE.search(before) and not given and _rest_is_empty(ctx, mention.end):
                lead = _CHANGING_BEFORE.search(before)
                start = mention.start - (len(before) - lead.start()) if lead else mention.start
                out.append(_change(ctx, target, None, [(start, mention.end)], "asked to be changed"))
            elif _REMOVING_BEFORE.search(before):
                lead = _REMOVING_BEFORE.search(before)
                start = mention.start - (len(before) - lead.start()) if lead else mention.start
                out.append(_change(ctx, target, None if target.field.required else NA, [(start, mention.end)],
                                   "taken out"))
    return out


def _rest_is_empty(ctx: Context, end: int) -> bool:
    """Nothing but courtesy follows ("change the number of people please")."""
    return not (content_words(ctx.text[end:]) - content_words(" ".join(english.COURTESY_TAILS)))


def _replaced(ctx: Context) -> list[Proposal]:
    """"change cs 229 to cs 230", "52 not 45": the field holding the old value takes the new one."""
    out = []
    for old_span, new_span in _old_and_new(ctx):
        old = normalise(ctx.text[old_span[0]:old_span[1]])
        for target in _targets_holding(ctx, old):
            found = [c for c in candidates(ctx, target, as_asked=True)
                     if c.value is not None and all(new_span[0] <= s and e <= new_span[1] for s, e in c.spans)]
            out += [_change(ctx, target, c.value, [old_span, *c.spans], "replaces what it names") for c in found]
            if not found and _free_text(ctx, target, new_span):  # the new words are the value ("cs 108 not 107")
                out.append(_change(ctx, target, ctx.text[new_span[0]:new_span[1]], [old_span, new_span],
                                   "replaces what it names"))
    return out


def _free_text(ctx: Context, target: Target, span: tuple[int, int]) -> bool:
    """The field takes free text, and the new words are no typed value of another field (an option)."""
    return field_class(target.field, ctx.index) == TEXT and not any(
        e.usable and e.kind in (OPTION, RECORD) and e.start < span[1] and span[0] < e.end for e in ctx.analysis.entities)


def _old_and_new(ctx: Context) -> list[tuple[tuple[int, int], tuple[int, int]]]:
    """(old, new) spans: "change X to Y", and "Y not X" for each value the message denies."""
    out = []
    replacing = _REPLACING.search(ctx.text)
    if replacing:
        out.append((replacing.span("old"), replacing.span("new")))
    usable = [e for e in ctx.analysis.entities if e.usable]
    for denied in (e for e in ctx.analysis.entities if e.negated):
        said = [e for e in usable if e.end <= denied.start] or [e for e in usable if e.start >= denied.end]
        if said:
            nearest = min(said, key=lambda e: abs(e.start - denied.start))
            out.append((denied.span, nearest.span))
    return out


def _filled_targets(ctx: Context, worksheet: str, name: str) -> list[Target]:
    return [t for t in ctx.targets if t.exists and t.worksheet == worksheet and t.field.name == name
            and ctx.value_of(t) not in (None, NA)]


def _targets_holding(ctx: Context, said: str) -> list[Target]:
    return [t for t in ctx.targets if t.exists and _names(ctx.value_of(t), said)]


def _names(value: Any, said: str) -> bool:
    """Whether ``said`` is how the user would refer to ``value`` ("cs 229" for "CS 229", 45 for 45.0)."""
    if isinstance(value, dict):
        value = value.get("name") or value.get("title")
    if isinstance(value, (int, float)) and not isinstance(value, bool):
        return said.replace(",", "").strip() in (f"{value:g}", str(value))
    if not isinstance(value, str):
        return False
    squashed, held = re.sub(r"\W", "", said), re.sub(r"\W", "", value.lower())
    return squashed == held or (len(squashed) >= 3 and any(c.isdigit() for c in squashed) and held.endswith(squashed))


def _change(ctx: Context, target: Target, value: Any, spans: list[tuple[int, int]], how: str) -> Proposal:
    return Proposal(VALUE, frozenset({"change", how, "changes a value", *(["at a summary"] if ctx.at_summary else [])}),
                    ctx.tokens_in(spans), frozenset({target.key}), target=target, value=value, phase=1)
