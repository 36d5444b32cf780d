"""Which task a message asks for, and with which words.

A task is asked for by the words of its description or of one of its examples (the share of a
phrase's content words the message uses: "book a table" asks for "Book a table at a restaurant"),
by a verb only that task is asked with ("freeze", "renew"), by a record or an option only that task
takes ("spin on sunday", "a root canal"). Matchers read these scores; none of them decides alone.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import cached_property

from ...language.words import content_words
from .analysis.model import OPTION, RECORD
from .context import Context

THRESHOLD = 0.5
"""The share of a task phrase's content words a message must use to ask for it."""
DISTINCTIVE = 0.6
"""How well a message that uses a verb only one task is asked with matches that task."""
TAKEN_ONLY_BY = 0.5
"""How well a message naming an option or a record that only one task takes matches that task."""


def task_requests(ctx: Context) -> "TaskRequests":
    """The message's task requests, worked out once per message."""
    if "requests" not in ctx.memo:
        ctx.memo["requests"] = TaskRequests(ctx)
    return ctx.memo["requests"]


@dataclass
class TaskRequests:
    ctx: Context

    @cached_property
    def scores(self) -> dict[str, float]:
        """How well the message asks for each top-level task (0 to 1)."""
        said = content_words(self.ctx.text)
        out = {}
        only = self._taken_only_by
        for ws in self.ctx.index.top_level_tasks:
            phrases = self.ctx.index.task_phrases[ws.name]
            scores = [len(said & words) / len(words) for words in phrases if words]
            if said & self.ctx.index.distinctive_task_words.get(ws.name, frozenset()):
                scores.append(DISTINCTIVE)
            if ws.name in only:
                scores.append(TAKEN_ONLY_BY)
            out[ws.name] = max(scores, default=0.0)
        return out

    @cached_property
    def _taken_only_by(self) -> set[str]:
        """Tasks of which the message names an option or a record that no other task takes."""
        out = set()
        top = {ws.name for ws in self.ctx.index.top_level_tasks}
        for e in self.ctx.analysis.entities:
            if not e.usable:
                continue
            if e.kind == OPTION:
                tasks = {self._root(h.worksheet) for h in e.value}
            elif e.kind == RECORD:
                tables = {m.table for m in e.value}
                tasks = {self._root(ws.name) for ws in self.ctx.spec.tasks.values() for f in ws.fields.values()
                         if self.ctx.index.table_of(f) in tables}
            else:
                continue
            tasks &= top
            if len(tasks) == 1:
                out |= tasks
        return out

    def _root(self, worksheet: str) -> str:
        """The top-level task a worksheet belongs to (itself, or the task that nests it)."""
        for ws in self.ctx.index.top_level_tasks:
            if ws.name == worksheet or worksheet in _nested_in(self.ctx, ws.name):
                return ws.name
        return worksheet

    def best(self) -> tuple[str | None, float]:
        """The task asked for most, and its score; None when two are asked for as much (a tie decides nothing)."""
        if not self.scores:
            return None, 0.0
        top = max(self.scores.values())
        leaders = [n for n, v in self.scores.items() if v == top]
        return (leaders[0] if len(leaders) == 1 else None), top

    def asks_for(self, worksheet: str) -> bool:
        return self.scores.get(worksheet, 0.0) >= THRESHOLD

    def asks_in_words(self, worksheet: str) -> bool:
        """Whether the message asks for the task in words (its phrases, its own verbs), not only by naming
        something it takes ("the atlas one" names a project, it asks for no claim)."""
        return bool(self.words_for(worksheet)) and (self.scores.get(worksheet, 0.0) > TAKEN_ONLY_BY
                                                    or worksheet not in self._taken_only_by)

    def words_for(self, worksheet: str) -> frozenset[int]:
        """Token indexes of the words with which the message asks for the task."""
        phrase_words = frozenset().union(*self.ctx.index.task_phrases.get(worksheet, [frozenset()]))
        asking = phrase_words | self.ctx.index.distinctive_task_words.get(worksheet, frozenset())
        return frozenset(i for i, t in enumerate(self.ctx.analysis.tokens) if content_words(t.text) & asking)


def _nested_in(ctx: Context, worksheet: str, depth: int = 0) -> set[str]:
    if depth > 3:
        return set()
    out = set()
    for f in ctx.spec.tasks[worksheet].fields.values():
        ref = f.type.referenced()
        if ref in ctx.spec.tasks and ref != worksheet:
            out |= {ref} | _nested_in(ctx, ref, depth + 1)
    return out
