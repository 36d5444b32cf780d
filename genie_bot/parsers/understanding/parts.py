"""Parts: which of several like worksheets of a task each piece of a message is about.

A task may hold several worksheets of one kind (the first, second, third course of an enrollment).
A message names them by the record each is about ("cs 106a for credit/no credit 5 units and cs 103
letter 4 units") or by their label ("the second course should be CS 224V"). Each such naming
starts a part of the message, which runs to the next one: the values said in it are that
worksheet's. A record a part already holds names that part; a record none holds names the next
part not filled yet, in order. Computed once per message, from the analysis and the state, for
the matchers to read.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Any

from ...language import english
from ...language.tokens import phrase_pattern
from ...spec import NA, InstanceRef
from .analysis.model import IDENTIFIER, NUMBER, RECORD
from .context import Context


@dataclass(frozen=True)
class Part:
    owners: tuple[str, ...]
    """The worksheets the part is about (several when it names several records that share its details:
    "CS 224V and CS 229 for a letter grade"): instances' names, or paths of ones not made yet."""
    start: int
    end: int


@dataclass(frozen=True)
class _Sibling:
    owner: str
    name_field: str
    held: Any


def parts(ctx: Context) -> list[Part]:
    """The parts of the message, in order (none when it names no part)."""
    if "parts" not in ctx.memo:
        ctx.memo["parts"] = _parts(ctx)
    return ctx.memo["parts"]


def part_at(ctx: Context, start: int) -> Part | None:
    return next((p for p in parts(ctx) if p.start <= start < p.end), None)


def is_a_part(ctx: Context, owner: str) -> bool:
    """Whether ``owner`` is one of several like worksheets of a task (a part, named or not)."""
    if "siblings" not in ctx.memo:
        ctx.memo["siblings"] = {s.owner for group in _sibling_groups(ctx) for s in group}
    return owner in ctx.memo["siblings"]


def anchor_at(ctx: Context, span: tuple[int, int]) -> str | None:
    """The part the words at ``span`` name, when they name one."""
    if "anchors" not in ctx.memo:
        ctx.memo["anchors"] = _anchors(ctx)
    return next((owner for s, e, owner in ctx.memo["anchors"] if (s, e) == span), None)


def every_part(ctx: Context, part: Part | None = None) -> bool:
    """The message says its details are for every part ("letter grade for both", "3 units each"); with
    ``part``, that part of it does ("5 units for 106a" in "letter grade for both, 5 units for 106a" does not)."""
    return _FOR_ALL.search(ctx.text if part is None else ctx.text[part.start:part.end]) is not None


_FOR_ALL = re.compile(phrase_pattern(english.FOR_ALL), re.I)
_JOIN = re.compile(rf"[,;]+|{phrase_pattern(english.LIST_JOINS)}", re.I)


def _parts(ctx: Context) -> list[Part]:
    """Pieces of the message (cut at commas and "and"), each about the part it names, or about the part of
    the piece before it; pieces that name a part and say nothing else share the details of the next one."""
    if "anchors" not in ctx.memo:
        ctx.memo["anchors"] = _anchors(ctx)
    anchors = ctx.memo["anchors"]
    if not anchors:
        return []
    pieces = _pieces(ctx.text)
    named: list[tuple[int, int, list[str], bool]] = []
    for start, end in pieces:
        owners = [owner for s, e, owner in anchors if start <= s < end]
        bare = bool(owners) and not any(x.usable and start <= x.start < end and x.kind not in (RECORD,)
                                         and not any(s <= x.start < e for s, e, _ in anchors)
                                         for x in ctx.analysis.entities)
        named.append((start, end, owners, bare))
    out: list[Part] = []
    current: list[str] = []
    waiting: list[str] = []
    for index, (start, end, owners, bare) in enumerate(named):
        if owners and bare and index + 1 < len(named):
            waiting += owners
            current = owners
        elif owners:
            current = waiting + owners
            waiting = []
        elif not current:
            current = next((o for _, _, o, _ in named if o), [])
        out.append(Part(tuple(dict.fromkeys(current)), start, end))
    return out


def _pieces(text: str) -> list[tuple[int, int]]:
    spans, start = [], 0
    for match in [*_JOIN.finditer(text), None]:
        end = match.start() if match else len(text)
        if text[start:end].strip():
            spans.append((start, end))
        if match:
            start = match.end()
    if spans:
        spans[0] = (0, spans[0][1])
        spans[-1] = (spans[-1][0], len(text))
    return spans


def _anchors(ctx: Context) -> list[tuple[int, int, str]]:
    """(start, end, owner) of each naming of a part: a record it holds or a new one, a number its record's
    code ends with ("229" for CS 229), or its label ("the second course")."""
    anchors: list[tuple[int, int, str]] = []
    for siblings in _sibling_groups(ctx):
        table = ctx.index.table_of(ctx.spec.tasks[_worksheet(ctx, siblings[0])].fields[siblings[0].name_field])
        labels = [(mention.start, mention.end, s.owner) for mention in ctx.analysis.fields for s in siblings
                  if _field_of(ctx, s) == (mention.worksheet, mention.field) and mention.how == "label"]
        labelled = [(start, end) for start, end in _pieces(ctx.text) if any(start <= s < end for s, _, _ in labels)]
        taken: set[str] = set()
        for e in ctx.analysis.entities:
            if not e.usable:
                continue
            if e.kind == RECORD and any(m.table == table for m in e.value):
                owner = _holder(siblings, e.text) or _holder_of(
                    siblings, [m.record for m in e.value if m.table == table], ctx.knowledge.record_names(table).naming)
                if owner is None and not any(start <= e.start < end for start, end in labelled):
                    owner = _next_empty(siblings, taken)  # "the second course should be CS 224V": the label's
            elif e.kind in (NUMBER, IDENTIFIER):
                owner = _holder(siblings, e.text, by_ending=True)
            else:
                continue
            if owner is not None:
                taken.add(owner)
                anchors.append((e.start, e.end, owner))
        anchors += labels
    return sorted(anchors)


def _sibling_groups(ctx: Context) -> list[list[_Sibling]]:
    """For each instance in progress holding two worksheets of one kind or more: those worksheets, in order."""
    out = []
    for instance in ctx.in_progress:
        ws = ctx.spec.tasks[instance.worksheet]
        by_kind: dict[str, list[str]] = {}
        for f in ws.fields.values():
            nested = f.type.ref if f.type.ref in ctx.spec.tasks else None
            if nested is not None:
                by_kind.setdefault(nested, []).append(f.name)
        for kind, names in by_kind.items():
            name_field = next((g.name for g in ctx.spec.tasks[kind].fields.values() if ctx.index.table_of(g)), None)
            if len(names) < 2 or name_field is None:
                continue
            group = []
            for name in names:
                value = instance.values.get(name)
                child = ctx.state.resolve(value) if isinstance(value, InstanceRef) else None
                owner = child.name if child is not None else f"{instance.name}.{name}"
                held = child.values.get(name_field) if child is not None else None
                group.append(_Sibling(owner, name_field, held))
            out.append(group)
    return out


def _worksheet(ctx: Context, sibling: _Sibling) -> str:
    if sibling.owner in ctx.state.instances:
        return ctx.state.instances[sibling.owner].worksheet
    parent, name = sibling.owner.rsplit(".", 1)
    return ctx.spec.tasks[ctx.state.instances[parent].worksheet].fields[name].type.ref or ""


def _field_of(ctx: Context, sibling: _Sibling) -> tuple[str, str] | None:
    """(worksheet, field) of the parent field that holds the sibling, to match it with label mentions."""
    if sibling.owner in ctx.state.instances:
        parent = ctx.state.instances[sibling.owner].parent
        if parent is None:
            return None
        return ctx.state.instances[parent[0]].worksheet, parent[1]
    parent_name, name = sibling.owner.rsplit(".", 1)
    return ctx.state.instances[parent_name].worksheet, name


def _holder(siblings: list[_Sibling], said: str, by_ending: bool = False) -> str | None:
    """The sibling whose record the words name ("cs 242" for the course held as "CS 242"; with
    ``by_ending``, "229" for CS 229: the end of a code of letters and digits)."""
    squashed = _squash(said)
    found = []
    for s in siblings:
        held = s.held.get("name") if isinstance(s.held, dict) else s.held
        if held in (None, NA) or not isinstance(held, str):
            continue
        code = _squash(held)
        if code == squashed or (by_ending and len(squashed) >= 3 and code.endswith(squashed) and code != squashed):
            found.append(s.owner)
    return found[0] if len(found) == 1 else None


def _holder_of(siblings: list[_Sibling], records: list[dict[str, Any]], naming: list[str]) -> str | None:
    """The sibling holding the record by another of its names (its ``naming`` columns): "artificial
    intelligence: principles and techniques" for the course held as "cs 221"."""
    names = {_squash(str(r[c])) for r in records for c in naming if r.get(c) is not None}
    found = [s.owner for s in siblings if isinstance(s.held, str) and _squash(s.held) in names]
    return found[0] if len(found) == 1 else None


def _next_empty(siblings: list[_Sibling], taken: set[str]) -> str | None:
    return next((s.owner for s in siblings if s.held in (None, NA) and s.owner not in taken), None)


def _squash(text: str) -> str:
    return re.sub(r"[^a-z0-9]", "", text.lower())
