"""Pending actions after a turn: which to create, keep or close, and how to show them.

When the policy asks for confirmation, the engine freezes what would run: the summary shown
to the user and the exact API arguments, obtained by a dry run of the confirmation with an
executor that captures the call instead of making it. An identical question asked again (the
user chatted in between) keeps the same action, so buttons already on screen stay valid; a
changed summary replaces it. An open action whose worksheet changed, closed or was declined
is closed as well.

A new action for a task whose last attempt was interrupted (the outcome of its call is unknown)
belongs to the same intent: it takes that attempt's idempotency key, so that the API receives
the key it may have seen already and can tell the request is the same (docs/exactly-once.md),
and the user is told the outcome is unknown before being asked again
(:data:`~.turns.UNKNOWN_BEFORE_OFFER`).
"""

from __future__ import annotations

import datetime as dt
import json
import uuid
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

from ..acts import Act, AskForConfirmation
from ..agent import Agent
from ..config import ConfirmationSettings
from ..responders import summary_lines
from ..runtime import ApiRequest, ConfirmInstance, KnowledgeUnavailable
from ..runtime.policy import summary_values
from ..runtime.turn import Turn
from ..state import DialogueState, KnowledgeAnswer
from ..store.pending import ActionStatus, PendingRow
from ..values import decode_value, encode_value
from .agents import LoadedAgent
from .types import PendingActionView


def frozen(value: Any) -> str:
    """Values (a summary, API arguments) as stored with a pending action."""
    return json.dumps(encode_value(value), ensure_ascii=False, default=str)


def same_values(stored: str, value: Any) -> bool:
    """Whether ``value`` equals values stored by :func:`frozen` (key order aside)."""
    return json.loads(stored) == json.loads(frozen(value))


class _Capture:
    """Executor of a dry run: makes no call (each returns None; the dry run's turn is thrown away),
    and keeps the request of the first one when it is the side effect of ``instance``."""

    def __init__(self, instance: str):
        self.instance = instance
        self.calls = 0
        self.request: ApiRequest | None = None

    def call_api(self, request: ApiRequest) -> Any:
        self.calls += 1
        if self.calls == 1 and request.side_effects and request.instance == self.instance:
            self.request = request
        return None

    def query_knowledge(self, answer: KnowledgeAnswer) -> Any:
        raise KnowledgeUnavailable("dry run")


def frozen_arguments(agent: Agent, state: DialogueState, instance: str) -> dict[str, Any] | None:
    """The arguments the API of ``instance`` would receive if the user confirmed now."""
    capture = _Capture(instance)
    try:
        agent.runtime.run_turn(state, executor=capture, updates=[ConfirmInstance(instance, True)])
    except Exception:  # noqa: BLE001 - a dry run that fails only means the arguments are unknown
        pass
    return capture.request.args if capture.request else None


@dataclass
class ConfirmationPlan:
    create: list[PendingRow] = field(default_factory=list)
    close: list[tuple[str, str, str]] = field(default_factory=list)
    """(action id, final status, reason)."""
    shown: PendingRow | None = None
    """The action this turn's reply asks the user to confirm."""
    unknown: PendingRow | None = None
    """The interrupted attempt whose key ``shown`` took: its outcome is unknown, the user must hear it."""


def plan_confirmations(loaded: LoadedAgent, state: DialogueState, acts: list[Act], open_actions: list[PendingRow], *,
                       session_key: str, owner: str | None, now: dt.datetime, settings: ConfirmationSettings,
                       settled: set[str], interrupted: Sequence[PendingRow] = ()) -> ConfirmationPlan:
    """Compare the turn's outcome with the session's open actions; ``settled`` were handled by the turn;
    ``interrupted`` are the session's attempts whose outcome is unknown."""
    plan = ConfirmationPlan()
    by_instance = {a.instance: a for a in open_actions if a.id not in settled}
    for act in acts:
        if not isinstance(act, AskForConfirmation):
            continue
        existing = by_instance.pop(act.instance, None)
        fingerprint = loaded.fingerprints.get(act.worksheet, "")
        if existing and same_values(existing.summary, act.values) and existing.api_fingerprint == fingerprint \
                and existing.expires_at > now:
            plan.shown = existing
            continue
        if existing:
            plan.close.append((existing.id, ActionStatus.INVALIDATED, "asked again with other details"))
        args = frozen_arguments(loaded.agent, state, act.instance)
        plan.unknown = max((a for a in interrupted if a.instance == act.instance and a.expires_at > now),
                           key=lambda a: a.updated_at, default=None)
        action_id = uuid.uuid4().hex
        plan.shown = PendingRow(
            id=action_id, session_key=session_key, instance=act.instance, worksheet=act.worksheet, api=act.api,
            summary=frozen(act.values), args=None if args is None else frozen(args), api_fingerprint=fingerprint,
            spec_version=loaded.version, owner=owner, destructive=act.api in loaded.config.destructive_apis,
            status=ActionStatus.PENDING, created_at=now,
            expires_at=now + dt.timedelta(minutes=settings.expires_after_minutes),
            updated_at=now, idempotency_key=plan.unknown.key if plan.unknown else action_id)
        plan.create.append(plan.shown)
    turn = Turn(loaded.spec, state, loaded.agent.runtime.executor, now.date(), now)
    for action in by_instance.values():
        instance = state.instances.get(action.instance)
        if instance is not None and instance.confirmed is False:
            plan.close.append((action.id, ActionStatus.CANCELLED, "declined"))
        elif instance is None or not instance.open:
            plan.close.append((action.id, ActionStatus.INVALIDATED, "the task was closed"))
        elif loaded.fingerprints.get(action.worksheet) != action.api_fingerprint:
            plan.close.append((action.id, ActionStatus.INVALIDATED, "the agent was updated"))
        elif not same_values(action.summary, summary_values(turn, instance)):
            plan.close.append((action.id, ActionStatus.INVALIDATED, "the details changed after the summary was shown"))
    return plan


def view_of(action: PendingRow, loaded: LoadedAgent, settings: ConfirmationSettings) -> PendingActionView:
    ws = loaded.spec.tasks.get(action.worksheet)
    title = ws.description if ws and ws.description else action.worksheet
    return PendingActionView(
        id=action.id, title=title, summary=summary_lines(loaded.spec, action.worksheet, decode_value(json.loads(action.summary))),
        confirm_label=settings.confirm_label, cancel_label=settings.cancel_label, destructive=action.destructive,
        expires_at=action.expires_at)
