"""Matcher: a field declined: "no", "nope", "skip", "n/a", "not really", "i don't know" to the question
asked, "no code", "no <label>" for any optional field the message names, or not knowing a field the
message names ("i forgot my PIN", "i can't recall my account number"), whether asked or not.

An optional field of any type is declined by the plain ways people say no to it; a required one
only by not knowing it ("i don't remember my pin"), which the runtime then handles (its on_decline,
or asking again). A yes/no field is answered no, not declined.
"""

from __future__ import annotations

import re

from ....language import english
from ....language.tokens import phrase_pattern
from ....language.words import content_words
from ....spec import NA
from ..analysis.model import AFFIRM, DECLINE, DENY, NAME, NOTHING_MORE, UNKNOWN, FieldMention
from ..context import Context, Target
from ..field_classes import ACCOUNT, TEXT, expects_capitalised_text, field_class
from ..proposals import VALUE, Proposal
from ..text import a_number_alone

_NO_LEAD = re.compile(rf"{phrase_pattern(english.NO_LEADS)}\s+$", re.I)


def propose(ctx: Context) -> list[Proposal]:
    out = [p for mention in ctx.analysis.fields for p in _not_known(ctx, mention)]
    asked = ctx.asked
    of_another = bool(out) and not any(p.answers for p in out)  # "i forgot my PIN" does not decline the name asked
    if asked is not None and not of_another and not asked.field.type.is_boolean and _declined(ctx, asked):
        claims = ctx.every_token
        if any(e.usable for e in ctx.analysis.entities):  # "dunno exactly, around noon": the noon is no decline
            claims = ctx.tokens_in([c for c in ctx.analysis.clauses if any(
                cue.act in (DECLINE, UNKNOWN, DENY) and c[0] <= cue.start < c[1] for cue in ctx.analysis.cues)][:1])
        out.append(_decline(ctx, asked, claims, {"declined the question", "asked"}, answers=True))
    elif asked is not None and _moved_on(ctx, asked):
        out.append(_decline(ctx, asked, frozenset(), {"only other values to an optional question", "asked"},
                            answers=True))
    for mention in ctx.analysis.fields:
        before = ctx.text[max(0, mention.start - 24):mention.start]
        if not _NO_LEAD.search(before):
            continue
        for target in ctx.targets:
            asked_now = asked is not None and asked.key == target.key  # "i dont want a new one" to "which new course?"
            if (target.worksheet, target.field.name) == (mention.worksheet, mention.field) and (
                    not target.field.required or asked_now):
                lead = _NO_LEAD.search(before)
                start = mention.start - (len(before) - lead.start()) if lead else mention.start
                out.append(_decline(ctx, target, ctx.tokens_in([(start, mention.end)]), {"declined by name"},
                                    answers=asked_now))
    return out


def _not_known(ctx: Context, mention: FieldMention) -> list[Proposal]:
    """A field the user says they do not know, in the clause that names it ("my account number is 85731890, I
    can't remember my PIN though"): declined, required or not (the runtime then does what the task says)."""
    clause_start, _ = ctx.analysis.clause_of(mention.start)
    cue = next((c for c in ctx.analysis.cues if c.act == UNKNOWN and clause_start <= c.start and c.end <= mention.start),
               None)
    if cue is None:
        return []
    asked = ctx.asked
    return [_decline(ctx, target, ctx.tokens_in([(cue.start, mention.end)]), {"declined by name"},
                     answers=asked is not None and asked.key == target.key)
            for target in ctx.targets if (target.worksheet, target.field.name) == (mention.worksheet, mention.field)]


def _declined(ctx: Context, asked: Target) -> bool:
    whole = ctx.analysis.whole
    if whole.get(UNKNOWN):
        return True
    if asked.field.required:  # a plain "no" to a required question is an answer ("not yet"), or none: no decline
        return bool(whole.get(DECLINE) and not whole.get(AFFIRM) and not whole.get(DENY))
    if whole.get(DECLINE) and not whole.get(AFFIRM):
        return True
    return bool((whole.get(DENY) or whole.get(NOTHING_MORE)) and len(ctx.text.split()) <= 6) or _starts_with_no(ctx)


def _starts_with_no(ctx: Context) -> bool:
    """The first clause is a plain no ("no. my name is Jane Doe and ...")."""
    if len(ctx.analysis.clauses) < 2:
        return False
    start, end = ctx.analysis.clauses[0]
    cues = [c for c in ctx.analysis.cues if c.act in (DENY, DECLINE) and start <= c.start and c.end <= end]
    rest = ctx.text[start:end]
    for c in cues:
        rest = rest.replace(ctx.text[c.start:c.end], " ")
    return bool(cues) and not content_words(rest)


def _moved_on(ctx: Context, asked: Target) -> bool:
    """An optional free-text question answered with other fields' values only ("Jane Doe, jane@x.com" to
    "anything else?"): the user has nothing to say to it."""
    if asked.field.required or field_class(asked.field, ctx.index) not in (TEXT, ACCOUNT):
        return False
    usable = [e for e in ctx.analysis.entities if e.usable]
    if a_number_alone(ctx) or (len(usable) == 1 and usable[0].kind == NAME and not usable[0].owner
                               and expects_capitalised_text(asked.field)):
        return False  # "3" to "what is your answer?", "Happy Birthday Mia" to "what should it say?": the answer
    rest = ctx.text
    for start, end in sorted([*(e.span for e in usable), *((m.start, m.end) for m in ctx.analysis.fields)],
                             reverse=True):  # the values, and the names they are said with ("my email is ...")
        rest = rest[:start] + " " * (end - start) + rest[end:]
    return bool(usable) and not content_words(rest)


def _decline(ctx: Context, target: Target, claims: frozenset[int], features: set[str], answers: bool) -> Proposal:
    kind = "optional" if not target.field.required else "required"
    return Proposal(VALUE, frozenset({*features, "decline", f"decline of a {kind} field"}), claims,
                    frozenset({target.key}), target=target, value=NA, answers=answers, phase=2)



