"""From an agent's turn to one STAR system-action label, as declared in the agent's ``labels.yaml``.

A turn's label is decided in this order:

1. when the parser did not understand the message and no API result is reported, the
   agent's reply starts with "Sorry, I didn't understand that": ``not_understood`` (STAR's
   ``out_of_scope``, "I don't quite understand what you mean");
2. otherwise the first act of the turn that a rule matches gives the label (a rule whose
   label is ``null`` passes the act over: it says nothing the turn is labelled by); a report of a
   failed API call (the wizard had not made that call yet in the recording) is ``query``,
   the action of calling the API, which STAR never scores: the prediction counts as an error;
3. otherwise the agent had nothing to say: ``greeting`` before any task was started,
   ``idle`` after.

A rule names an act type and optionally the worksheet of the act's instance, the field,
the values the instance holds after the turn (``when``) and, for ``Say``, the start of the
text::

    - {act: AskField, worksheet: Game, field: keep_playing, when: {outcome: correct},
       label: trivia_inform_answer_correct_ask_next}
"""

from __future__ import annotations

import dataclasses
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import yaml

from ..acts import ACT_TYPES, Act, Report, Say
from ..errors import GenieError
from ..state import DialogueState

LABELS_FILE = "labels.yaml"
API_PENDING = "query"
"""The label of a turn whose first act reports an API call the recording could not serve yet."""


class LabelSpecError(GenieError, ValueError):
    pass


@dataclass(frozen=True)
class Rule:
    act: str
    label: str | None
    """``None``: the act is passed over, the next act of the turn decides."""
    worksheet: str | None = None
    field: str | None = None
    when: dict[str, Any] = dataclasses.field(default_factory=dict)
    text: str | None = None

    def matches(self, act: Act, state: DialogueState) -> bool:
        if act.kind != self.act:
            return False
        if self.text is not None and not (isinstance(act, Say) and act.text.startswith(self.text)):
            return False
        if self.field is not None and getattr(act, "field", None) != self.field:
            return False
        if self.worksheet is None and not self.when:
            return True
        instance = state.instances.get(_instance_name(act) or "")
        if instance is None or (self.worksheet is not None and instance.worksheet != self.worksheet):
            return False
        return all(instance.values.get(name) == value for name, value in self.when.items())


@dataclass(frozen=True)
class LabelMap:
    rules: tuple[Rule, ...]
    greeting: str
    idle: str
    not_understood: str

    def label(self, acts: list[Act], state: DialogueState, understood: bool) -> str:
        if not understood and not any(isinstance(a, Report) for a in acts):
            return self.not_understood
        for act in acts:
            if _failed_api_call(act):
                return API_PENDING
            rule = next((r for r in self.rules if r.matches(act, state)), None)
            if rule is not None and rule.label is not None:
                return rule.label
        return self.greeting if not state.instances else self.idle


def load_label_map(agent_dir: Path) -> LabelMap:
    path = agent_dir / LABELS_FILE
    data = yaml.safe_load(path.read_text(encoding="utf-8"))
    try:
        rules = tuple(_rule(raw) for raw in data["rules"])
        return LabelMap(rules, str(data["greeting"]), str(data["idle"]), str(data["not_understood"]))
    except (KeyError, TypeError) as exc:
        raise LabelSpecError(f"{path}: needs rules, greeting, idle and not_understood ({exc})") from None


def _rule(raw: dict[str, Any]) -> Rule:
    unknown = set(raw) - {"act", "label", "worksheet", "field", "when", "text"}
    if unknown or raw.get("act") not in ACT_TYPES:
        raise LabelSpecError(f"bad label rule {raw}: act must be one of {', '.join(ACT_TYPES)}; "
                             f"keys are act, label, worksheet, field, when, text")
    return Rule(act=raw["act"], label=None if raw["label"] is None else str(raw["label"]), worksheet=raw.get("worksheet"), field=raw.get("field"),
                when=dict(raw.get("when") or {}), text=raw.get("text"))


def _instance_name(act: Act) -> str | None:
    return getattr(act, "instance", None) or getattr(act, "query_or_instance", None)


def _failed_api_call(act: Act) -> bool:
    return isinstance(act, Report) and isinstance(act.result, dict) and set(act.result) == {"error"}
