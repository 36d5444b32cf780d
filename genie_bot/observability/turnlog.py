"""The turn log: one structured record per turn, with what users wrote redacted by default.

The record carries what an operator needs to follow a turn without reading anyone's
messages: session, agent, outcome, per-stage latencies, LLM calls, tokens and estimated
cost, and the acts reduced to their kind and target (``AskField main_0.email``). User text,
statements, replies, values inside acts and quoted values in error messages are personal
data: they appear only with ``logging.include_content: true`` (the database keeps them
anyway, for ``genie-bot sessions show``, until ``scheduler.retention_days``).
"""

from __future__ import annotations

import re
from typing import Any

from ..store.traces import TraceRow

REDACTED = "[redacted]"
_ACT = re.compile(r"(?P<kind>\w+)\((?P<target>\w+)?(?:, (?P<field>\w+))?")
_FIELD_ACTS = frozenset({"AskField", "AskForFieldConfirmation"})
"""Acts whose second argument is a field name; in the others it is a value."""
_QUOTED = re.compile(r"'(?:[^'\\]|\\.)*'|\"(?:[^\"\\]|\\.)*\"")


def act_outline(formal: str) -> str:
    """``AskField(main_0, email, "...")`` -> ``AskField main_0.email``; values are left out."""
    match = _ACT.match(formal)
    if match is None:
        return REDACTED
    target = match["target"] or ""
    if match["kind"] in _FIELD_ACTS and match["field"]:
        target = f"{target}.{match['field']}"
    return f"{match['kind']} {target}".strip()


def redact_quoted(text: str) -> str:
    """An error message with its quoted values (what the user said) replaced."""
    return _QUOTED.sub("'…'", text)


def turn_record(trace: TraceRow, cost_usd: float, include_content: bool) -> dict[str, Any]:
    record: dict[str, Any] = {
        "event": "turn", "session": trace.session_key, "agent": trace.agent, "spec_version": trace.spec_version,
        "turn": trace.turn, "kind": trace.kind, "event_id": trace.event_id, "user": trace.user_id,
        "outcome": trace.outcome, "parse_source": trace.parse_source,
        "latency_ms": {stage: round(ms, 3) for stage, ms in trace.latencies.items()},
        "llm": {"calls": trace.llm_calls, "prompt_tokens": trace.prompt_tokens,
                "completion_tokens": trace.completion_tokens, "cost_usd": round(cost_usd, 6)},
        "acts": trace.acts if include_content else [act_outline(a) for a in trace.acts],
        "pending_action": trace.pending_action_id,
        "errors": trace.errors if include_content else [redact_quoted(e) for e in trace.errors],
    }
    texts = {"text": trace.message, "statements": trace.statements, "reply": trace.reply}
    if include_content:
        record.update(texts)
    else:
        record.update({f"{name}_chars": len(value or "") for name, value in texts.items()})
    return record
