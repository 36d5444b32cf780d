"""Values as a person would write them, and the summary of what a task will submit.

Shared by the templated replies and the platforms' confirmation cards, so a user reads the
same words in both: labels from the spec (never code names), values by type, nested
worksheets lifted into the summary or, when several of one kind sit side by side (a list of
courses), one line each.
"""

from __future__ import annotations

import datetime as dt
import re
from collections.abc import Collection
from typing import Any

from ..spec import NA, AgentSpec, Field, InstanceRef, KnowledgeWorksheet, TaskWorksheet
from ..state import DialogueState
from ..language.words import using
from .wording import label

_CAMEL = re.compile(r"(?<=[a-z])(?=[A-Z])")


def display_value(value: Any, f: Field | None = None, state: DialogueState | None = None,
                  spec: AgentSpec | None = None) -> str:
    """``value`` as text for a user: yes/no, dates in words, enum members in words, records by name."""
    if value is None:
        return "(not given)"
    if value == NA:
        return "(skipped)"
    if isinstance(value, bool):
        return "yes" if value else "no"
    if isinstance(value, dt.datetime):
        return value.strftime("%A, %B %-d, %Y at %-I:%M %p")
    if isinstance(value, dt.date):
        return value.strftime("%A, %B %-d, %Y")
    if isinstance(value, dt.time):
        return value.strftime("%-I:%M %p")
    if isinstance(value, InstanceRef) and state is not None and value.name in state.instances:
        instance = state.instances[value.name]
        ws = spec.tasks.get(instance.worksheet) if spec is not None else None
        return inline_summary(spec, ws, instance.values) if ws is not None else _plain_pairs(instance.values)
    if isinstance(value, dict):
        return record_name(value) or _called(value, spec.knowledge.get(f.type.ref or "") if spec and f else None) \
            or _plain_pairs(value)
    if isinstance(value, (list, tuple)):
        return join_words([display_value(v, None, state, spec) for v in value])
    if isinstance(value, float):
        return number_text(value)
    if f is not None and f.type.kind == "enum":
        return member_label(f, str(value))
    return str(value)


def number_text(value: float) -> str:
    """A number as people write it: 1149.0 -> "1149", 4.25 -> "4.25", 2/3 -> "0.67"."""
    if value.is_integer():
        return str(int(value))
    return f"{value:.2f}".rstrip("0").rstrip(".")


def member_label(f: Field, member: str) -> str:
    """An enum member as the bot writes it: its ``label:``, else as the spec writes it ("VPN", "Wi-Fi");
    only a CamelCase code name is put in words ("TroubleShoot" -> "Troubleshoot" or "Trouble Shoot")."""
    if member in f.value_labels:
        return f.value_labels[member]
    if not _CAMEL_CASE_NAME.match(member):
        return member
    return _as_the_worksheet_writes(member, f) or enum_words(member)


_CAMEL_CASE_NAME = re.compile(r"[A-Za-z0-9]*[a-z0-9][A-Z][A-Za-z0-9]*\Z")


def _as_the_worksheet_writes(value: str, f: Field) -> str | None:
    """A CamelCase member as the field's own wording writes it as one word ("TroubleShoot" is
    "Troubleshoot" when the question says "troubleshooting"), or None."""
    joined = value.lower()
    if not re.search(rf"\b{re.escape(joined)}", f"{f.ask or ''} {f.description}".lower()):
        return None
    return joined.capitalize()


def enum_words(value: str) -> str:
    """An enum member as words: ``TroubleShoot`` -> "Trouble Shoot"; "Join Waitlist" stays."""
    return _CAMEL.sub(" ", value).replace("_", " ") if " " not in value else value


def record_name(record: dict[str, Any]) -> str | None:
    """What a knowledge record is called (its name or title), if it says."""
    for key in ("name", "title"):
        if record.get(key):
            return str(record[key])
    return None


CALLED_BY_VALUES = 2
"""Text values a record without a name is called by ("Toyota Corolla")."""


def _called(record: dict[str, Any], kb: KnowledgeWorksheet | None) -> str | None:
    """What a record without a name or title is called: its text key, which users name it by ("A04"), then its
    first short text values but the key ("A04 (Aspen tent)"). The key is the table's primary key, else its
    first identifier column ("site_id")."""
    key = kb.primary_key if kb is not None else next((c for c in record if _ID.search(c)), None)
    said = " ".join([v for c, v in record.items() if isinstance(v, str) and c != key and not _ID.search(c)
                     and 0 < len(v.split()) <= 3][:CALLED_BY_VALUES])
    named_by = record.get(key) if key else None
    if isinstance(named_by, str) and named_by.strip():
        return f"{named_by} ({said})" if said else named_by
    return said or None


_ID = re.compile(r"(?:^|_)id$", re.I)


def join_words(items: list[str], conjunction: str = "and") -> str:
    """"a", "a and b", "a, b and c" (or "a, b or c")."""
    if len(items) <= 2:
        return f" {conjunction} ".join(items)
    return ", ".join(items[:-1]) + f" {conjunction} " + items[-1]


def summary_lines(spec: AgentSpec, worksheet: str, values: dict[str, Any],
                  changed: Collection[tuple[str, ...]] = ()) -> list[tuple[str, str]]:
    """(label, value) lines of a worksheet's values as the user confirms them.

    Only what the user gave and the API will receive: confirmations, flow questions ("would
    you like a third course?") and unset fields are left out. A nested worksheet's lines are
    lifted into the summary, unless siblings of the same kind sit beside it (a list of
    courses): then it is one line under its field's label. A line whose value this turn changed
    (its path of field names in ``changed``, or a path below it) is marked so.
    """
    with using(spec.vocabulary.lexicon()):
        return _summary_lines(spec, worksheet, values, frozenset(changed), ())


CHANGED = " (changed)"
"""After a value a summary shows that this turn changed."""


def _summary_lines(spec: AgentSpec, worksheet: str, values: dict[str, Any], changed: frozenset[tuple[str, ...]],
                   at: tuple[str, ...]) -> list[tuple[str, str]]:
    ws = spec.tasks.get(worksheet)
    if ws is None:
        return [(k.replace("_", " "), display_value(v)) for k, v in values.items()]
    out: list[tuple[str, str]] = []
    kinds = [f.type.ref for f in ws.fields.values() if f.name in values and f.type.ref in spec.tasks]
    for f in shown_fields(ws):
        value = values.get(f.name)
        if value is None or value == NA:
            continue
        nested = spec.tasks.get(f.type.ref or "")
        if nested is not None and isinstance(value, dict):
            path = (*at, f.name)
            if kinds.count(nested.name) > 1:
                marked = any(p[:len(path)] == path for p in changed)
                out.append((label(f), inline_summary(spec, nested, value) + (CHANGED if marked else "")))
            else:
                out.extend(_summary_lines(spec, nested.name, value, changed, path))
        else:
            out.append((label(f), display_value(value, f) + (CHANGED if (*at, f.name) in changed else "")))
    return out


def inline_summary(spec: AgentSpec | None, ws: TaskWorksheet, values: dict[str, Any]) -> str:
    """A nested worksheet on one line: its first value, then the others with their labels."""
    parts: list[str] = []
    for f in shown_fields(ws):
        value = values.get(f.name)
        if value is None or value == NA:
            continue
        nested = spec.tasks.get(f.type.ref or "") if spec is not None else None
        text = inline_summary(spec, nested, value) if nested is not None and isinstance(value, dict) \
            else display_value(value, f)
        parts.append(text if not parts else f"{label(f).lower()}: {text}")
    return ", ".join(parts)


def shown_fields(ws: TaskWorksheet) -> list[Field]:
    """The fields a summary shows: inputs, except confirmations and the yes/no questions that
    only steer which other fields are asked (their predicates name them)."""
    steering = {name for f in ws.fields.values() if f.predicate is not None for name in f.predicate.names}
    return [f for f in ws.fields.values() if f.kind == "input" and f.type.kind != "confirm"
            and not (f.type.is_boolean and f.name in steering)]


def _plain_pairs(values: dict[str, Any]) -> str:
    return ", ".join(f"{k.replace('_', ' ')}: {display_value(v)}" for k, v in values.items()
                     if not isinstance(v, (dict, list)) and len(str(v)) <= 60)


QUOTED_WORDS = 6
"""Of a message the reply is about, the words quoted back: the user sees which message it answers,
and two replies about two messages are not word for word the same."""


def quoted(user_text: str) -> str:
    """The user's words in quotes (the first :data:`QUOTED_WORDS` of a long message, then "…"); "" for none."""
    words = user_text.split()
    if not words:
        return ""
    return "“" + " ".join(words[:QUOTED_WORDS]) + ("…" if len(words) > QUOTED_WORDS else "") + "”"
