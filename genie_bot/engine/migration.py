"""Carrying a live session's state over to a new version of its agent's spec.

Applied on the session's next turn after a reload: instances of removed worksheets and values
of removed fields are dropped, values of retyped fields are converted to the new type (and
dropped when they do not convert), and the policy then simply asks again for whatever is
missing. A worksheet that lost input values also loses its confirmation.
"""

from __future__ import annotations

import datetime as dt
from dataclasses import dataclass, field
from typing import Any

from ..spec import NA, AgentSpec, CoercionError, Field, FieldType, InstanceRef, coerce
from ..state import DialogueState, WorksheetInstance


@dataclass
class Migration:
    state: DialogueState
    dropped: list[str] = field(default_factory=list)
    """``instance`` or ``instance.field`` entries that could not be carried over."""


def migrate_state(state: DialogueState, spec: AgentSpec, today: dt.date) -> Migration:
    new = state.copy()
    out = Migration(new)
    for name in [n for n, i in new.instances.items() if i.worksheet not in spec.tasks]:
        del new.instances[name]
        out.dropped.append(name)
    for instance in new.instances.values():
        fields = spec.tasks[instance.worksheet].fields
        for name, value in list(instance.values.items()):
            f = fields.get(name)
            converted = _MISSING if f is None else _converted(new, f, f.type, value, today)
            if converted is _MISSING:
                del instance.values[name]
                out.dropped.append(f"{instance.name}.{name}")
                if f is None or f.kind == "input":
                    instance.confirmed = None
            else:
                instance.values[name] = converted
        instance.confirmed_fields = [n for n in instance.confirmed_fields if n in instance.values]
        if instance.parent and instance.parent[0] not in new.instances:
            instance.parent = None
    new.last_acts = [a for a in new.last_acts if _still_meaningful(new, spec, a)]
    return out


_MISSING = object()


def _converted(state: DialogueState, f: Field, ftype: FieldType, value: Any, today: dt.date) -> Any:
    if value is None or value == NA:
        return value
    if ftype.kind == "list" and ftype.item is not None and isinstance(value, list):
        items = [_converted(state, f, ftype.item, v, today) for v in value]
        return _MISSING if any(v is _MISSING for v in items) else items
    if isinstance(value, InstanceRef):
        target = state.instances.get(value.name)
        return value if ftype.is_ref and target is not None and target.worksheet == ftype.ref else _MISSING
    if ftype.is_ref:
        return value if isinstance(value, dict) else _MISSING  # a knowledge record
    try:
        return coerce(ftype, value, f.values, today)
    except CoercionError:
        return _MISSING


def _still_meaningful(state: DialogueState, spec: AgentSpec, act: Any) -> bool:
    """Keep the last acts the parser reads ("what was just asked") only if they still make sense."""
    name = getattr(act, "instance", None)
    if name is None or name == "answer":
        return True
    instance: WorksheetInstance | None = state.instances.get(name)
    if instance is None:
        return False
    field_name = getattr(act, "field", None)
    return field_name is None or field_name in spec.tasks[instance.worksheet].fields
