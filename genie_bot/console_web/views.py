"""A session as the page shows it: JSON-ready views of its turns, its actions and its state.

A turn's view always comes from the engine's trace (what ``genie-bot sessions show``
prints); for the console's own conversations a :class:`~.inspection.TurnCapture` adds the
state diff, the parser's notes, rejections, API calls, knowledge queries and each LLM call.
With content redacted (``logging.include_content: false``) user text, statements, replies,
act values, quoted values in errors, summaries and states are left out, as in the turn log.
"""

from __future__ import annotations

import json
import re
from collections.abc import Callable, Mapping
from typing import Any

from ..config import LlmConfig
from ..engine import PendingActionView
from ..observability.turnlog import act_outline, redact_quoted
from ..state import DialogueState
from ..store.pending import PendingRow
from ..store.sessions import SessionRow
from ..store.traces import TraceRow
from ..values import decode_value, encode_value
from .inspection import TurnCapture
from .state_diff import shown, state_diff

Cards = Callable[[SessionRow, PendingRow], PendingActionView | None]
"""The confirmation card of a pending action, as the platforms render it (None if its agent is unknown)."""

CLICK = re.compile(r"^\[(confirm|cancel) (\S+)\]$")
"""The message the engine's trace records for a Confirm or Cancel click."""
DATA_LIMIT = 4000
"""Characters of an API result or knowledge result shown; the rest is cut."""


def redacted(text: str | None) -> str:
    return f"[redacted: {len(text or '')} characters]"


def data_text(value: Any) -> str:
    """A value (API arguments, a result) as indented JSON, cut at :data:`DATA_LIMIT` characters."""
    text = json.dumps(encode_value(value), ensure_ascii=False, indent=1, default=str)
    return text if len(text) <= DATA_LIMIT else text[:DATA_LIMIT] + f"… ({len(text) - DATA_LIMIT} more characters)"


def session_view(row: SessionRow, traces: list[TraceRow], actions: list[PendingRow], *, cards: Cards,
                 captures: Mapping[str, TurnCapture], include_content: bool, llm: LlmConfig) -> dict[str, Any]:
    by_id = {a.id: action_view(a, cards(row, a), include_content) for a in actions}
    state = DialogueState.from_json(row.state) if row.state and include_content else None
    return {
        "key": row.key, "agent": row.agent, "spec_version": row.spec_version, "owner": row.owner,
        "status": "active" if row.state is not None else "closed", "updated_at": _time(row.updated_at),
        "redacted": not include_content,
        "turns": [turn_view(t, captures.get(t.event_id or ""), by_id, include_content, llm) for t in traces],
        "actions": list(by_id.values()),
        "state": data_text(state.to_dict()["instances"]) if state is not None else None,
    }


def empty_session_view(key: str, agent: str) -> dict[str, Any]:
    """A conversation of the console that has no turn yet."""
    return {"key": key, "agent": agent, "spec_version": None, "owner": None, "status": "new", "updated_at": None,
            "redacted": False, "turns": [], "actions": [], "state": None}


def turn_view(trace: TraceRow, capture: TurnCapture | None, actions: Mapping[str, dict[str, Any]],
              include_content: bool, llm: LlmConfig) -> dict[str, Any]:
    def content(text: str | None) -> str | None:
        return text if include_content or text is None else redacted(text)

    click = CLICK.match(trace.message or "") if trace.kind == "action" else None
    view: dict[str, Any] = {
        "number": trace.turn, "kind": trace.kind, "outcome": trace.outcome, "at": _time(trace.created_at),
        "user_id": trace.user_id, "event_id": trace.event_id,
        "message": None if click else content(trace.message),
        "click": {"decision": click[1], "action_id": click[2]} if click else None,
        "parse_source": trace.parse_source, "statements": content(trace.statements),
        "acts": trace.acts if include_content else [act_outline(a) for a in trace.acts],
        "reply": content(trace.reply),
        "errors": trace.errors if include_content else [redact_quoted(e) for e in trace.errors],
        "latencies": {stage: round(ms, 1) for stage, ms in trace.latencies.items()},
        "llm": {"calls": trace.llm_calls, "prompt_tokens": trace.prompt_tokens,
                "completion_tokens": trace.completion_tokens, "cost_usd": None, "records": None},
        "pending_action": actions.get(trace.pending_action_id or ""),
        "inspected": capture is not None,
        "notes": None, "rejections": None, "state_diff": None, "knowledge": None, "api_calls": None,
    }
    if capture is not None:
        view.update(_captured(capture))
        costs = [llm.cost(r.model, r.prompt_tokens, r.completion_tokens) for r in capture.llm_calls]
        records = [{"role": r.role, "model": r.model, "prompt_tokens": r.prompt_tokens,
                    "completion_tokens": r.completion_tokens, "latency_ms": round(r.latency_ms, 1),
                    "retries": r.retries, "error": r.error, "cost_usd": cost}
                   for r, cost in zip(capture.llm_calls, costs)]
        view["llm"].update(records=records, cost_usd=sum(costs))
    return view


def _captured(capture: TurnCapture) -> dict[str, Any]:
    reply = capture.reply
    return {
        "notes": list(reply.parse.notes) + ([] if reply.parse.understood else
                                            [f"not understood{': ' + reply.parse.reason if reply.parse.reason else ''}"]),
        "rejections": [{"instance": r.instance, "field": r.field, "value": shown(r.value), "reason": r.reason}
                       for r in reply.update.rejected],
        "state_diff": [{"instance": c.instance, "worksheet": c.worksheet, "change": c.change,
                        "fields": [{"field": f.field, "before": shown(f.before), "after": shown(f.after)}
                                   for f in c.fields]}
                       for c in state_diff(capture.before, reply.state)],
        "knowledge": [{"question": q.question, "query": q.query, "result": data_text(q.result), "error": q.error}
                      for q in capture.knowledge],
        "api_calls": [{"function": c.request.function, "instance": c.request.instance,
                       "side_effects": c.request.side_effects, "args": data_text(c.request.args),
                       "result": None if c.error else data_text(c.result), "error": c.error}
                      for c in capture.api_calls],
    }


def action_view(action: PendingRow, card: PendingActionView | None, include_content: bool) -> dict[str, Any]:
    """A pending action with its status, and its card (title, summary lines, button labels)."""
    summary = card.summary if card is not None else \
        [(name, shown(value)) for name, value in decode_value(json.loads(action.summary or "{}")).items()]
    result = decode_value(json.loads(action.result)) if action.result else None
    return {
        "id": action.id, "status": str(action.status), "reason": action.reason, "api": action.api,
        "instance": action.instance, "title": card.title if card is not None else action.api or action.worksheet,
        "summary": [[label, value] for label, value in summary] if include_content else [],
        "confirm_label": card.confirm_label if card is not None else "Confirm",
        "cancel_label": card.cancel_label if card is not None else "Cancel",
        "destructive": action.destructive, "expires_at": _time(action.expires_at),
        "result": data_text(result) if include_content and result is not None else None,
    }


def session_summary(row: SessionRow) -> dict[str, Any]:
    """One line of the list of sessions (no user content)."""
    return {"key": row.key, "platform": row.platform, "workspace": row.workspace, "agent": row.agent,
            "status": "active" if row.state is not None else "closed",
            "turns": row.turns, "owner": row.owner, "updated_at": _time(row.updated_at)}


def _time(moment: Any) -> str | None:
    return moment.isoformat(sep=" ", timespec="seconds") if moment is not None else None
