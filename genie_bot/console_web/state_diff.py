"""The state before and after a turn as a diff: per instance, what was added, changed or removed.

The inspector shows it with values written as a parser statement writes them (``'Ann Lee'``,
``'2026-11-21'``, ``join_waitlist_0`` for a nested instance: :func:`shown`), so a bot builder
reads the diff in the same terms as the statements above it; a scenario export turns it into
``state:`` expectations.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from ..acts import formal_value
from ..state import DialogueState, WorksheetInstance

ADDED, CHANGED, REMOVED = "added", "changed", "removed"


ABSENT = object()
"""The value of a field that has none (or of an instance that does not exist)."""


@dataclass
class FieldChange:
    field: str
    """A field name, or ``(status)``, ``(confirmed)``, ``(result)`` for the instance's own."""
    before: Any
    after: Any


@dataclass
class InstanceChange:
    instance: str
    worksheet: str
    change: str
    """added, changed or removed."""
    fields: list[FieldChange] = field(default_factory=list)


def state_diff(before: DialogueState, after: DialogueState) -> list[InstanceChange]:
    """Every instance whose values, status, confirmation or result differ, in creation order."""
    changes = []
    for name in [*after.instances, *(n for n in before.instances if n not in after.instances)]:
        old, new = before.instances.get(name), after.instances.get(name)
        rows = _field_changes(_entries(old), _entries(new))
        if old is None or new is None or rows:
            change = ADDED if old is None else REMOVED if new is None else CHANGED
            worksheet = new.worksheet if new is not None else old.worksheet if old is not None else ""
            changes.append(InstanceChange(name, worksheet, change, rows))
    return changes


def _entries(instance: WorksheetInstance | None) -> dict[str, Any]:
    """Its field values, then its status, confirmation and result, in parentheses: ``(status)``."""
    if instance is None:
        return {}
    life = {"(status)": str(instance.status), "(confirmed)": instance.confirmed, "(result)": instance.result}
    return {**instance.values, **{k: v for k, v in life.items() if v is not None}}


def _field_changes(old: dict[str, Any], new: dict[str, Any]) -> list[FieldChange]:
    names = [*new, *(n for n in old if n not in new)]
    return [FieldChange(n, old.get(n, ABSENT), new.get(n, ABSENT)) for n in names
            if shown(old.get(n, ABSENT)) != shown(new.get(n, ABSENT))]


def shown(value: Any) -> str | None:
    """A value as a statement writes it; None for :data:`ABSENT`."""
    return None if value is ABSENT else formal_value(value)
