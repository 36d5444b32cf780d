"""Matcher: the task the message asks for ("book a dental appointment", "expense an uber", "renew my
book"), started with the values other readings give its fields; a request for the task already in
progress asks for nothing new; the first message to an agent with one task asks for it.
"""

from __future__ import annotations

from ....parse import ALREADY_HANDLED
from ..analysis.model import GREETING, THANKS
from ..context import Context
from ..field_classes import ACCOUNT, TEXT, field_class
from ..proposals import LINES, START, Proposal
from ..requests import THRESHOLD, task_requests

STARTED = "a task started"
"""A slot every task started takes: one message starts one task."""


def propose(ctx: Context) -> list[Proposal]:
    requests = task_requests(ctx)
    open_roots = {ctx.state.root_of(i).worksheet for i in ctx.open_instances}
    out = []
    for ws in ctx.index.top_level_tasks:
        score = requests.scores.get(ws.name, 0.0)
        if score < THRESHOLD:
            continue
        words = requests.words_for(ws.name)
        strength = "task asked for strongly" if score >= 0.8 else "task asked for"
        rank = "the task asked for most" if requests.best()[0] == ws.name else "a task asked for less"
        if ws.name in open_roots:
            if not requests.asks_in_words(ws.name):
                continue
            out.append(Proposal(LINES, frozenset({"task already open", strength}), ctx.every_token, exclusive=True,
                                lines=(ALREADY_HANDLED,), phase=9))
        else:
            out.append(Proposal(START, frozenset({"start a task", strength, rank, *_first_message(ctx)}), words,
                                frozenset({f"new:{ws.name}", STARTED}), worksheet=ws.name, shares_words=True, phase=4))
    tasks = ctx.index.top_level_tasks
    if len(tasks) == 1 and not ctx.state.instances and not out and not (
            ctx.analysis.whole.get(GREETING) or ctx.analysis.whole.get(THANKS)):
        out.append(Proposal(START, frozenset({"start a task", "the only task"}), ctx.every_token,
                            frozenset({f"new:{tasks[0].name}", STARTED}), worksheet=tasks[0].name, phase=4))
    return out


def _first_message(ctx: Context) -> set[str]:
    if not ctx.state.instances:
        return {"first message"}
    if not ctx.open_instances:
        return set()
    asked = ctx.asked
    free_text = asked is not None and field_class(asked.field, ctx.index) in (TEXT, ACCOUNT)
    return {"another task is open", *(("a free-text question is asked",) if free_text else ())}
