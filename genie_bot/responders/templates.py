"""The templated response generator: deterministic text for every act.

Used offline and whenever the LLM responder fails. Questions use the field's ``ask:``
phrasing when the bot builder wrote one, else a sentence built from the description; enum
options are listed; confirmations summarise the values; reports render records as short lists.
"""

from __future__ import annotations

import datetime as dt
from typing import Any

from ..acts import Act, AskField, AskForConfirmation, AskForFieldConfirmation, ProposeWorksheet, Report, Say
from ..parse import Parse
from ..spec import NA, AgentSpec, Field, InstanceRef
from ..state import DialogueState

MAX_LISTED = 5
FALLBACK = "Is there anything else I can help you with?"


def render_value(value: Any, state: DialogueState | None = None) -> str:
    """A value as a person would write it."""
    if value is None:
        return "(not set)"
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
        inner = state.instances[value.name].values
        return ", ".join(f"{_label(k)}: {render_value(v, state)}" for k, v in inner.items())
    if isinstance(value, dict):
        return _record_line(value)
    if isinstance(value, (list, tuple)):
        return ", ".join(render_value(v, state) for v in value)
    return str(value)


def _label(name: str) -> str:
    return name.replace("_", " ")


def _record_line(record: dict[str, Any]) -> str:
    if isinstance(record.get("answer"), str):  # an answer written from documents, with its sources
        sources = record.get("sources")
        cited = f" (sources: {', '.join(map(str, sources))})" if isinstance(sources, list) and sources else ""
        return record["answer"] + cited
    name = next((record[k] for k in ("name", "title") if k in record), None)
    details = [f"{_label(k)}: {render_value(v)}" for k, v in record.items()
               if k not in ("name", "title", "id") and not isinstance(v, (dict, list)) and len(str(v)) <= 60][:4]
    return f"**{name}** ({', '.join(details)})" if name else ", ".join(details)


class TemplateResponder:
    """Renders acts to markdown text; see the module docstring."""

    def respond(self, spec: AgentSpec, state: DialogueState, acts: list[Act], user_text: str, parse: Parse) -> str:
        parts = []
        if not parse.understood and not any(isinstance(a, Report) for a in acts):
            parts.append("Sorry, I didn't understand that.")
        parts.extend(self.render(spec, state, act) for act in acts)
        if not acts:
            parts.append(FALLBACK if any(not i.open for i in state.instances.values()) else _offer(spec))
        return "\n\n".join(p for p in parts if p)

    def render(self, spec: AgentSpec, state: DialogueState, act: Act) -> str:
        if isinstance(act, AskField):
            return self._ask(spec, state, act)
        if isinstance(act, AskForFieldConfirmation):
            f = self._field(spec, state, act.instance, act.field)
            label = f.description if f and f.description else _label(act.field)
            return f"Just to confirm: {label} is {render_value(act.value, state)}. Is that right?"
        if isinstance(act, AskForConfirmation):
            ws = spec.tasks.get(act.worksheet)
            lines = "\n".join(f"• {_label(k)}: {render_value(v, state)}" for k, v in _flatten(act.values))
            what = (ws.description[0].lower() + ws.description[1:]) if ws and ws.description else _label(act.worksheet)
            return f"Here is what I have:\n{lines}\nShall I go ahead and {what}? (yes / no)"
        if isinstance(act, Report):
            return self._report(act, state)
        if isinstance(act, Say):
            return act.text
        if isinstance(act, ProposeWorksheet):
            ws = spec.tasks.get(act.worksheet)
            what = ws.description.lower() if ws and ws.description else _label(act.worksheet)
            with_values = ", ".join(f"{_label(k)}: {render_value(v)}" for k, v in act.params.items())
            return f"Would you like to {what}" + (f" ({with_values})" if with_values else "") + "?"
        return act.formal()

    def _ask(self, spec: AgentSpec, state: DialogueState, act: AskField) -> str:
        prefix = f"{act.reason} " if act.reason else ""
        if act.instance == "answer":
            return f"{prefix}To look that up I need {act.description}."
        f = self._field(spec, state, act.instance, act.field)
        if f is None:
            return f"{prefix}What is the {act.description}?"
        question = f.ask or _question_from(f)
        if f.type.kind == "enum" and not f.ask:
            question += " Options: " + ", ".join(f.values) + "."
        elif f.type.kind in ("bool", "confirm") and not f.ask:
            question += " (yes / no)"
        if not f.required:
            question += "" if "skip" in question.lower() else " (optional, you can say skip)"
        return prefix + question

    def _report(self, act: Report, state: DialogueState) -> str:
        result = act.result
        if isinstance(result, dict) and set(result) == {"error"}:
            return f"Sorry, that did not work: {result['error']}."
        if act.query_or_instance.startswith("answer("):
            query = state.answer.query if state.answer else None
            searched = f" I searched with: `{_short_sql(query)}`." if query else ""
            if not result:
                return f"I couldn't find anything matching that.{searched}"
            rows = result if isinstance(result, list) else [result]
            listed = "\n".join(f"{i}. {render_value(r)}" for i, r in enumerate(rows[:MAX_LISTED], 1))
            more = f"\n…and {len(rows) - MAX_LISTED} more." if len(rows) > MAX_LISTED else ""
            return f"I found {len(rows)} result{'s' if len(rows) != 1 else ''}:{searched}\n{listed}{more}"
        if isinstance(result, dict):
            return "Done. " + ", ".join(f"{_label(k)}: {render_value(v, state)}" for k, v in result.items()) + "."
        if isinstance(result, list):
            return "Here is what I found: " + ", ".join(render_value(v, state) for v in result) + "."
        return f"Done: {render_value(result, state)}."

    @staticmethod
    def _field(spec: AgentSpec, state: DialogueState, instance: str, field: str) -> Field | None:
        found = state.instances.get(instance)
        ws = spec.tasks.get(found.worksheet) if found else None
        return ws.fields.get(field) if ws else None


def _offer(spec: AgentSpec) -> str:
    """What the agent can do, for a user who has not started anything yet."""
    nested = {f.type.referenced() for ws in spec.tasks.values() for f in ws.fields.values()}
    tasks = [ws.description or _label(ws.name) for ws in spec.tasks.values() if ws.name not in nested]
    things = [t[0].lower() + t[1:] for t in tasks if t]
    if spec.knowledge:
        things.append("answer questions about " + ", ".join(_label(k) for k in spec.knowledge))
    return "I can " + "; or ".join(things) + ". What would you like to do?" if things else "How can I help?"


def _question_from(f: Field) -> str:
    description = f.description or _label(f.name)
    if f.type.kind in ("bool", "confirm"):
        return f"Please tell me {description}."
    return f"What is {description}?" if description.split()[0].lower() in ("the", "your", "a", "an") else \
        f"What is the {description}?"


def _flatten(values: dict[str, Any]) -> list[tuple[str, Any]]:
    """Summary lines: a nested worksheet's values become one line of ``label: value`` pairs."""
    out = []
    for key, value in values.items():
        if isinstance(value, dict) and value and not ({"name", "title"} & set(value)):
            value = ", ".join(f"{_label(k)}: {render_value(v)}" for k, v in value.items()
                              if not isinstance(v, dict))
            nested = [(k, v) for k, v in values[key].items() if isinstance(v, dict)]
            out.append((key, value) if value else None)
            out.extend(_flatten(dict(nested)))
        else:
            out.append((key, value))
    return [line for line in out if line]


def _short_sql(sql: str) -> str:
    return " ".join(sql.split())
