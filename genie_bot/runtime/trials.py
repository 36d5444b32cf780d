"""Trial runs of a parser's statements: each tried in turn on a throw-away copy of the state.

What :mod:`genie_bot.parsers.checking` asks of the runtime: which statements of a parse apply
without error (those that do not are dropped, with their errors), and what the kept ones
change. It is pure (the spec, the state, the day, the statements), so a sandbox runs it in a
worker process as one call for a whole batch of parses (:meth:`~.isolation.StatementSandbox.check`),
rather than one call per statement tried.
"""

from __future__ import annotations

import datetime as dt
from collections.abc import Sequence
from typing import Any

from ..spec import AgentSpec, InstanceRef
from ..state import DialogueState, KnowledgeAnswer
from .checked import Batch, Checked
from .executor import KnowledgeResult
from .isolation import active_sandbox
from .statements import apply_statements
from .turn import Turn

__all__ = ["Batch", "Checked", "NoIO", "check_all", "check_one", "effect", "new_task"]

class NoIO:
    """Applying statements performs no I/O; the policy (which does) is not run in a trial."""

    def call_api(self, request: object) -> object:
        raise AssertionError("a trial run must not call APIs")

    def query_knowledge(self, answer: KnowledgeAnswer) -> KnowledgeResult:
        raise AssertionError("a trial run must not query knowledge")


def check_all(spec: AgentSpec, state: DialogueState, batch: Batch, today: dt.date) -> list[Checked]:
    """:func:`check_one` of each parse of ``batch``: in the active sandbox (one call), else here."""
    sandbox = active_sandbox()
    if sandbox is not None:
        return sandbox.check(spec, state, batch, today)
    return [check_one(spec, state, chunks, today, dropped) for chunks, dropped in batch]


def check_one(spec: AgentSpec, state: DialogueState, chunks: Sequence[str], today: dt.date,
              dropped: Sequence[str] = ()) -> Checked:
    """The chunks that apply without error, one after the other, and the effect of those kept."""
    trial = _turn(spec, state, today)
    kept, errors = [], list(dropped)
    for chunk in chunks:
        before = len(trial.update.errors)
        apply_statements(trial, chunk)
        if len(trial.update.errors) > before:
            errors.extend(trial.update.errors[before:])
            del trial.update.errors[before:]
        else:
            kept.append(chunk)
    final = _turn(spec, state, today)  # the kept ones alone: a dropped statement may have changed something
    apply_statements(final, "\n".join(kept))
    values = {(i, f): _value(final, i, f) for i, f in final.update.assigned}
    free_text = {(i, f) for i, f in values if _free_text(spec, final, i, f)}
    return Checked(kept, final.update, effect(state, final), errors, values, free_text)


def effect(before: DialogueState, turn: Turn) -> int:
    """How many changes the turn's statements made (a rejected value counts: the user gave one)."""
    u = turn.update
    after = turn.state.instances
    created = sum(1 for name in after if name not in before.instances)
    changed = sum(1 for name, i in before.instances.items() if name in after and after[name].status != i.status)
    return (len(u.assigned) + len(u.field_confirmations) + len(u.rejected) + len(u.declined) + len(u.cancel_requests)
            + len(u.cancelled) + int(u.new_query) + created + changed)


def new_task(state: DialogueState, key: tuple[str, str], value: Any) -> bool:
    """A field of a task ``state`` does not have, or the link to one."""
    return key[0] not in state.instances or (isinstance(value, InstanceRef) and value.name not in state.instances)


def _value(turn: Turn, instance: str, name: str) -> Any:
    found = turn.state.instances.get(instance)
    return found.values.get(name) if found else None


def _free_text(spec: AgentSpec, turn: Turn, instance: str, name: str) -> bool:
    found = turn.state.instances.get(instance)
    ws = spec.tasks.get(found.worksheet) if found else None
    f = ws.fields.get(name) if ws else None
    return f is None or (f.type.kind == "str" and not f.values)


def _turn(spec: AgentSpec, state: DialogueState, today: dt.date) -> Turn:
    return Turn(spec, state.copy(), NoIO(), today, dt.datetime.combine(today, dt.time(12)))
