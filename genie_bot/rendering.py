"""The spec and the dialogue state as prompt text, in the language the parser writes.

Signatures list each worksheet's fields with types, enum options and descriptions
(internal fields hidden). The state is rendered as the statements that would rebuild it
(``course_0 = Course(course_name='CS 224V')``), limited to what the turn can touch: open
tasks and the most recently finished one, never the whole history, so prompts stay flat
over a long conversation. Knowledge records and results are abbreviated to their key and
name columns for the same reason.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from .acts import Act, Report, formal_value
from .spec import NA, AgentSpec, Field, InstanceRef, KnowledgeWorksheet, TaskWorksheet
from .state import AnswerStatus, DialogueState, InstanceStatus, WorksheetInstance

RESULTS_SHOWN = 5
TEXT_SHOWN = 160
_NAME_COLUMNS = ("name", "title")


# -- signatures ---------------------------------------------------------------------------------------
def signatures(spec: AgentSpec, names: Iterable[str] | None = None) -> str:
    """The worksheets ``names`` (default: all) as compact declarations."""
    wanted = set(spec.worksheet_names() if names is None else names)
    blocks = [_task_signature(ws) for ws in spec.tasks.values() if ws.name in wanted]
    blocks += [_knowledge_signature(kb) for kb in spec.knowledge.values() if kb.name in wanted]
    return "\n\n".join(blocks)


def _task_signature(ws: TaskWorksheet) -> str:
    lines = [f"{ws.name}: {ws.description}".rstrip(": ")]
    for f in ws.fields.values():
        if f.kind != "internal":
            lines.extend(_field_lines(f))
    return "\n".join(lines)


def _field_lines(f: Field) -> list[str]:
    kind = "confirm (bool)" if f.type.kind == "confirm" else \
        "enum[" + ", ".join(repr(v) for v in f.values) + "]" if f.type.kind == "enum" else str(f.type)
    notes = []
    if f.kind == "output":
        notes.append("output, set by the agent: never assign it")
    elif not f.required:
        notes.append("optional")
    if f.dont_ask:
        notes.append("never asked; fill it only when the user mentions it")
    if f.predicate is not None:
        notes.append(f"only when {f.predicate.source.strip()}")
    comment = "; ".join(filter(None, [f.description, *notes]))
    lines = [f"  {f.name}: {kind}" + (f"  # {comment}" if comment else "")]
    lines += [f"      {v!r}: {d}" for v, d in f.value_descriptions.items() if d]
    return lines


def _knowledge_signature(kb: KnowledgeWorksheet) -> str:
    if kb.source == "documents":
        return f"{kb.name}: documents (ask with answer('...')): {kb.description}".rstrip(": ")
    key = kb.primary_key or next(iter(kb.columns), "id")
    columns = ", ".join(kb.columns)
    return (f"{kb.name}: knowledge table (ask with answer('...'); a record is written {kb.name}({key}=...))"
            f"\n  {kb.description.strip()}\n  columns: {columns}").rstrip()


# -- the state ----------------------------------------------------------------------------------------
def state_statements(spec: AgentSpec, state: DialogueState) -> str:
    """The part of the state a turn can touch, as statements; children before their parents."""
    lines: list[str] = []
    for root in _shown_roots(state):
        _instance_lines(spec, state, root, lines)
    if state.answer is not None:
        lines.append(_answer_line(spec, state))
    return "\n".join(lines)


def _shown_roots(state: DialogueState) -> list[WorksheetInstance]:
    """Open top-level tasks, plus the most recently finished one (the user may refer to it)."""
    roots = [i for i in state.instances.values() if i.parent is None and not i.discarded]
    open_roots = [i for i in roots if i.open]
    finished = [i for i in roots if i.status == InstanceStatus.COMPLETED]
    latest = max(finished, key=lambda i: i.touched, default=None)
    return sorted(open_roots + ([latest] if latest else []), key=lambda i: i.touched)


def _instance_lines(spec: AgentSpec, state: DialogueState, instance: WorksheetInstance, lines: list[str]) -> None:
    for value in instance.values.values():
        child = state.resolve(value) if isinstance(value, InstanceRef) else None
        if isinstance(child, WorksheetInstance) and not child.discarded:
            _instance_lines(spec, state, child, lines)
    ws = spec.tasks[instance.worksheet]
    args = ", ".join(f"{f.name}={_value(instance.values[f.name], f.type.ref or '')}" for f in ws.fields.values()
                     if f.name in instance.values and f.kind != "internal")
    notes = []
    if instance.status == InstanceStatus.COMPLETED:
        notes.append("completed")
    elif instance.status == InstanceStatus.PROPOSED:
        notes.append("proposed by the agent, not yet accepted")
    if instance.confirmed is not None and instance.status != InstanceStatus.PROPOSED:
        notes.append("confirmed" if instance.confirmed else "confirmation declined")
    if instance.confirmed_fields:
        notes.append("confirmed fields: " + ", ".join(instance.confirmed_fields))
    lines.append(f"{instance.name} = {instance.worksheet}({args})" + (f"  # {'; '.join(notes)}" if notes else ""))


def _value(value: Any, table: str) -> str:
    if isinstance(value, dict):
        return record_text(value, table)
    if isinstance(value, str) and value != NA:
        return repr(_shorten(value))
    return formal_value(value)


def record_text(record: dict[str, Any], table: str = "") -> str:
    """A knowledge record by its identifying columns: ``restaurants(id=3, name='Thai Basil')``."""
    keys = [k for k in record if k in ("id", *_NAME_COLUMNS) or k.endswith("_id")][:3] or list(record)[:2]
    return f"{table}(" + ", ".join(f"{k}={formal_value(record[k])}" for k in keys) + ")"


def _answer_line(spec: AgentSpec, state: DialogueState) -> str:
    answer = state.answer
    assert answer is not None, "only a state with a knowledge answer has its line"
    table = answer.table or (next(iter(spec.knowledge)) if len(spec.knowledge) == 1 else "")
    params = "".join(f", {k}={formal_value(v)}" for k, v in answer.params.items())
    line = f"answer({answer.question!r}{params})"
    if answer.status == AnswerStatus.NEEDS_PARAM:
        return line + f"  # waiting for: {answer.missing}"
    rows = answer.result if isinstance(answer.result, list) else []
    if answer.status != AnswerStatus.DONE or not rows:
        return line + f"  # {answer.status}" + ("; no results" if answer.status == AnswerStatus.DONE else "")
    shown = ", ".join(record_text(r, table) if isinstance(r, dict) else formal_value(r) for r in rows[:RESULTS_SHOWN])
    more = f" and {len(rows) - RESULTS_SHOWN} more" if len(rows) > RESULTS_SHOWN else ""
    return line + f"  # {len(rows)} result{'s' if len(rows) != 1 else ''}: [{shown}]{more}"


# -- acts ---------------------------------------------------------------------------------------------
def acts_text(acts: Iterable[Act], brief: bool = False) -> str:
    """Formal acts, one per line, with long results abbreviated; ``brief`` names records by their keys only."""
    return "\n".join(_act_text(a, brief) for a in acts)


def _act_text(act: Act, brief: bool) -> str:
    if isinstance(act, Report) and isinstance(act.result, list):
        rows = [record_text(r) if brief and isinstance(r, dict) else _row_text(r) for r in act.result[:RESULTS_SHOWN]]
        more = f", ...{len(act.result) - RESULTS_SHOWN} more" if len(act.result) > RESULTS_SHOWN else ""
        return f"Report({act.query_or_instance}, [{', '.join(rows)}{more}])"
    return act.formal()


def _row_text(row: Any) -> str:
    if not isinstance(row, dict):
        return formal_value(row)
    items = (f"{k!r}: {formal_value(_shorten(v) if isinstance(v, str) else v)}" for k, v in row.items())
    return "{" + ", ".join(items) + "}"


def _shorten(text: str) -> str:
    return text if len(text) <= TEXT_SHOWN else text[: TEXT_SHOWN - 1].rstrip() + "…"
