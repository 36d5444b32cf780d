"""Matcher: a search for records, said as a description rather than a name ("quiet places in
Seattle", "something in winter on tue/thu", "what do u have thats vegetarian?"): it goes to the
knowledge base while the agent asks for a record, or before any task is open.
"""

from __future__ import annotations

import re

from ....acts import AskField
from ....language import english
from ....language.tokens import phrase_pattern
from ..analysis.model import OPTION, RECORD
from ..context import Context
from ..focus import resolved
from ..proposals import LINES, Proposal
from ..records import named_by_values
from ..requests import THRESHOLD, task_requests


def propose(ctx: Context) -> list[Proposal]:
    if ctx.knowledge is None:
        return []
    tables = _tables_wanted(ctx)
    if not tables or any(e.kind == RECORD and e.usable for e in ctx.analysis.entities) or any(
            named_by_values(ctx, t, asked=ctx.asked is not None) for t in tables):
        return []  # a record named (by its name, or by values only it has: "a corolla") is a choice, not a search
    described = {v for t in tables for v in ctx.values_named(t).values()}
    options = {_squash(m) for i in ctx.open_instances for f in ctx.spec.tasks[i.worksheet].fields.values() for m in f.values}
    described = {v for v in described if _squash(v) not in options}
    if not described:
        return []
    words = {w for v in described for w in re.findall(r"[a-z0-9]+", v.lower())}
    claims = frozenset(i for i, t in enumerate(ctx.analysis.tokens) if t.lower in words)
    option_tokens = ctx.tokens_in([e.span for e in ctx.analysis.entities if e.kind == OPTION and e.usable])
    if claims and claims <= option_tokens:
        return []  # "book a root canal": the words are an option of the task, not a description of records
    features = {"search", "describes records", f"{min(len(described), 3)} values described"}
    if _UNCHOSEN.search(ctx.text):
        features.add("says no record is chosen yet")
    if isinstance(ctx.question, AskField):
        features.add("a record is asked for")
    task, score = task_requests(ctx).best()
    if score >= THRESHOLD:
        features.add("a task is asked for")
        if task is not None and any(ctx.index.table_of(f) in tables for f in ctx.spec.tasks[task].fields.values()):
            features.add("a search for the record of the task asked for")
    return [Proposal(LINES, frozenset(features), claims, lines=(f"answer({resolved(ctx, ctx.text)!r})",), phase=8)]


_UNCHOSEN = re.compile(phrase_pattern(english.UNCHOSEN_RECORD), re.I)


def _tables_wanted(ctx: Context) -> list[str]:
    """The tables a description may be about when the agent asked for a record (any table: a course is
    also described by when it is offered), or before any task is open; else none."""
    asked = ctx.asked
    if asked is not None:
        return list(ctx.knowledge.tables) if ctx.index.table_of(asked.field) is not None else []
    return [] if ctx.open_instances else list(ctx.knowledge.tables)


def _squash(value: object) -> str:
    return re.sub(r"[^a-z0-9]", "", str(value).lower())
