"""Matcher: yes or no to what the agent asked to confirm: a summary, a proposal, whether to cancel,
a value to check. "book it" or "submit it" (the task's own words) is a yes; "yes but change the time"
is no yes (nothing goes ahead on a change); "that's all" at a summary is neither.
"""

from __future__ import annotations

import re

from ....acts import AskForConfirmation, AskForFieldConfirmation, AskToCancel, ProposeWorksheet
from ....language import english
from ....language.tokens import phrase_pattern
from ....language.words import content_words
from ..analysis.model import AFFIRM, CHANGE, DENY, NOTHING_MORE, OPTION, PROPOSAL
from ..context import Context
from ..proposals import LINES, PROBLEM, Proposal

MAX_GO_AHEAD_WORDS = 4
_NEGATION = re.compile(phrase_pattern(english.NEGATIONS), re.I)
NOTHING_TO_ADD = "Got it, nothing more to add. Please answer yes or no to this:"
WHAT_TO_CHANGE = "What should I change? Tell me the new value (for example “make it 8pm”)."


def propose(ctx: Context) -> list[Proposal]:
    act = ctx.question
    if not isinstance(act, (AskForConfirmation, ProposeWorksheet, AskToCancel, AskForFieldConfirmation)):
        return []
    whole = ctx.analysis.whole
    said = True if whole.get(AFFIRM) else False if whole.get(DENY) else None
    features = {"confirmation"}
    if said is None and isinstance(act, (AskForConfirmation, ProposeWorksheet)):
        said = _go_ahead(ctx, act.worksheet)
        features.add("task's own words")
    if isinstance(act, AskForConfirmation) and whole.get(NOTHING_MORE) and not whole.get(AFFIRM):
        return [Proposal(PROBLEM, frozenset({"confirmation", "nothing more to add"}), ctx.every_token, exclusive=True,
                         reason=NOTHING_TO_ADD, understood=False)]
    if said is None:
        return []
    changing = any(c.act in (CHANGE, PROPOSAL) for c in ctx.analysis.cues)
    if said and changing and isinstance(act, (AskForConfirmation, AskForFieldConfirmation)):
        return [Proposal(PROBLEM, frozenset({"confirmation", "yes with a change"}), ctx.every_token,
                         reason=WHAT_TO_CHANGE, understood=False)]
    alone = not any(e.usable for e in ctx.analysis.entities) and not ctx.analysis.fields
    if alone:
        features.add("yes or no alone")
    elif said and isinstance(act, (AskForConfirmation, ProposeWorksheet)) and _go_ahead(ctx, act.worksheet, _without_yes(ctx)):
        features.add("yes in the task's own words")  # "yes submit it"
    else:
        features.add("yes or no with more")
    if isinstance(act, AskToCancel):
        lines = (f"exitws({act.instance}, confirmed=True)",) if said else ("# keep going",)
    elif isinstance(act, AskForFieldConfirmation):
        lines = (f"{act.instance}.{act.field}.confirmed = {said}",)
    else:
        lines = (f"{act.instance}.confirmed = {said}",)
    return [Proposal(LINES, frozenset(features), ctx.every_token,
                     frozenset({f"{getattr(act, 'instance', '')}.confirmed"}), lines=lines, answers=True, phase=2)]


def _go_ahead(ctx: Context, worksheet: str | None, text: str | None = None) -> bool | None:
    """"book it", "submit it": a short imperative in the task's words goes ahead; "don't book it" does not, nor
    does a value, whatever words the task's examples use ("sfo airport" is a branch, not a go-ahead)."""
    text = ctx.text if text is None else text
    ws = ctx.spec.tasks.get(worksheet or "")
    words = content_words(_NEGATION.sub(" ", text))
    if ws is None or not words or len(text.split()) > MAX_GO_AHEAD_WORDS or _a_value_for(ctx, ws.name):
        return None
    confirming = " ".join(f.description for f in ws.fields.values() if f.type.kind == "confirm")
    if not words <= content_words(" ".join((ws.description, *ws.examples, ws.phrase or "", confirming))):
        return None
    return _NEGATION.search(text) is None


def _a_value_for(ctx: Context, worksheet: str) -> bool:
    """The message gives a value: a typed one, or an option of the task's own fields by its name or synonym."""
    return any(e.usable and (e.kind != OPTION or any(h.worksheet == worksheet and h.how in ("name", "synonym")
                                                      for h in e.value))
               for e in ctx.analysis.entities)


def _without_yes(ctx: Context) -> str:
    text = ctx.text
    for cue in sorted((c for c in ctx.analysis.cues if c.act == AFFIRM), key=lambda c: -c.start):
        text = text[:cue.start] + " " + text[cue.end:]
    return text
