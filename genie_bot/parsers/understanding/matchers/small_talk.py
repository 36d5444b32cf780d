"""Matcher: what asks for nothing: thanks, greetings, a remark said in passing, and the reading of last
resort, a message not understood (the agent says so rather than guessing)."""

from __future__ import annotations

from ....acts import AskField
from ....parse import CHIT_CHAT
from ..analysis.model import GREETING, QUESTION, REQUEST, THANKS
from ..context import Context
from ..proposals import LINES, Proposal

MAX_ATTEMPT_WORDS = 6
"""A reply this short to a question, not a sentence, is an attempt to answer it ("cs 106a")."""


def propose(ctx: Context) -> list[Proposal]:
    whole = ctx.analysis.whole
    if whole.get(THANKS) or whole.get(GREETING):
        return [Proposal(LINES, frozenset({"small talk"}), ctx.every_token, exclusive=True, lines=(CHIT_CHAT,))]
    asks = any(c.act in (QUESTION, REQUEST) for c in ctx.analysis.cues)
    attempt = isinstance(ctx.question, AskField) and len(ctx.text.split()) <= MAX_ATTEMPT_WORDS
    if not asks and not attempt and ctx.analysis.tokens:
        return [Proposal(LINES, frozenset({"remark"}), ctx.every_token, exclusive=True,
                         lines=("# a remark, not a request",))]
    return [Proposal(LINES, frozenset({"not understood"}), ctx.every_token, exclusive=True, understood=False)]
