"""A conversation as a conversation test (``AGENT_DIR/tests/*.yaml``), checked by running it.

Each turn that changed something becomes a ``user:`` line (a Confirm or Cancel click becomes
a typed "yes" or "no") expecting the turn's acts; turns the console ran itself also expect
the values they changed, and the side-effecting calls they made (``api_calls``,
``submissions``). Every API function called is stubbed with the result it gave (``apis:``),
so the test makes no side effect and does not depend on what the ledger holds. The YAML is
then run as ``genie-bot test`` runs it (offline agent, stubs), and the problems, if any, are
returned with it: a conversation held with an LLM parser may not replay with the rules.
"""

from __future__ import annotations

import datetime as dt
import json
import re
import tempfile
from collections.abc import Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import yaml

from ..agent import Agent
from ..scenarios import run_scenario
from ..spec import AgentSpec, InstanceRef
from ..store.pending import ActionStatus
from ..values import decode_value
from .inspection import TurnCapture
from .sources import SessionRecord
from .state_diff import ABSENT, REMOVED, state_diff
from .views import CLICK

_WORDS = re.compile(r"[^a-z0-9]+")
_ACT = re.compile(r"(?P<kind>\w+)\((?:(?P<target>\w+)(?=[,)])(?:, (?P<field>\w+)(?=[,)]))?)?")
"""An act's formal text: its kind, and its first arguments when they are names (not ``answer("...")``)."""
_FIELD_ACTS = frozenset({"AskField", "AskForFieldConfirmation"})
_PLAIN = (str, int, float, bool, dt.date, dt.time, type(None))


@dataclass
class ScenarioExport:
    text: str
    filename: str
    problems: list[str] = field(default_factory=list)
    """What ``genie-bot test`` reports for it; empty when it passes."""


def export_scenario(spec: AgentSpec, record: SessionRecord, captures: Mapping[str, TurnCapture]) -> ScenarioExport:
    turns: list[dict[str, Any]] = []
    apis: dict[str, Any] = {}
    today: dt.date | None = None
    side_effects = 0
    for trace in record.traces:
        if trace.outcome != "ok" or not (trace.message or "").strip():
            continue  # refused, failed and interrupted turns changed nothing
        capture = captures.get(trace.event_id or "")
        click = CLICK.match(trace.message or "") if trace.kind == "action" else None
        expect: dict[str, Any] = {"acts": [act_pattern(a) for a in trace.acts]}
        if capture is not None:
            today = today or capture.today
            expect.update(_state_expectations(capture))
            made = [c for c in capture.api_calls if c.error is None]
            for call in made:
                apis.setdefault(str(call.request.function), _plain(call.result))
            effects = [c for c in made if c.request.side_effects]
            if effects:
                side_effects += len(effects)
                expect["submissions"] = side_effects
                expect["api_calls"] = [{str(c.request.function): _plain(c.request.args)} for c in effects]
        turns.append({"user": ("yes" if click[1] == "confirm" else "no") if click else trace.message,
                      "expect": expect})
    if today is None:  # nothing captured (a stored session): what its confirmed actions returned
        for action in record.actions:
            if action.status == ActionStatus.DONE and action.api and action.result:
                apis.setdefault(str(action.api), _plain(decode_value(json.loads(action.result))))
    today = today or (record.traces[0].created_at.date() if record.traces else dt.date.today())
    first = next((t["user"] for t in turns), "")
    document: dict[str, Any] = {"name": f"{spec.name}: {first[:60]}" if first else spec.name,
                                "today": today.isoformat()}
    if apis:
        document["apis"] = apis
    document["turns"] = turns
    text = yaml.safe_dump(document, sort_keys=False, allow_unicode=True, width=110, default_flow_style=None)
    filename = (_WORDS.sub("_", first.lower()).strip("_")[:48] or "conversation") + ".yaml"
    return ScenarioExport(text, filename, check_scenario(spec, text) if turns else ["no turn to export"])


def check_scenario(spec: AgentSpec, text: str) -> list[str]:
    """The problems ``genie-bot test`` finds in scenario ``text`` (empty when it passes)."""
    with tempfile.TemporaryDirectory(prefix="genie-console-") as directory:
        path = Path(directory) / "scenario.yaml"
        path.write_text(text, encoding="utf-8")
        result = run_scenario(lambda clock: Agent(spec, clock=clock), path)
    return [problem.replace(str(path), "scenario") for problem in result.invalid] + \
        [str(failure) for failure in result.failures]


def act_pattern(formal: str) -> str:
    """The pattern a conversation test writes for an act: ``AskField main_0.email``, ``Report main_0``, ``Say``."""
    match = _ACT.match(formal)
    if match is None:
        return formal
    kind, target, name = match["kind"], match["target"], match["field"]
    if kind in _FIELD_ACTS and target and name:
        return f"{kind} {target}.{name}"
    return f"{kind} {target}" if target else kind


def _state_expectations(capture: TurnCapture) -> dict[str, Any]:
    """``state:`` with the plain values this turn changed, and ``errors:`` when statements were rejected."""
    state: dict[str, Any] = {}
    for change in state_diff(capture.before, capture.reply.state):
        if change.change == REMOVED:
            continue
        for f in change.fields:
            name = "status" if f.field == "(status)" else f.field
            value = str(f.after) if name == "status" else f.after
            if f.after is not ABSENT and not name.startswith("(") and _is_plain(value):
                state[f"{change.instance}.{name}"] = _plain(value)
    out: dict[str, Any] = {"state": state} if state else {}
    if capture.reply.errors:
        out["errors"] = len(capture.reply.errors)
    return out


def _is_plain(value: Any) -> bool:
    if isinstance(value, InstanceRef):
        return False
    if isinstance(value, (list, tuple)):
        return all(_is_plain(v) for v in value)
    if isinstance(value, dict):
        return all(isinstance(k, str) and _is_plain(v) for k, v in value.items())
    return isinstance(value, _PLAIN)


def _plain(value: Any) -> Any:
    """``value`` as YAML can write it and read back (references by name, tuples as lists, times as text)."""
    if isinstance(value, InstanceRef):
        return value.name
    if isinstance(value, str):
        return str(value)  # an enum member of a StrEnum as the plain text YAML writes
    if isinstance(value, dt.time):
        return value.isoformat()  # YAML has no times; a test compares a time with its ISO text
    if isinstance(value, (list, tuple)):
        return [_plain(v) for v in value]
    if isinstance(value, dict):
        return {str(k): _plain(v) for k, v in value.items()}
    return value if isinstance(value, _PLAIN) else str(value)
