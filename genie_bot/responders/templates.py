"""The templated response generator: deterministic text for every act.

Used offline and whenever the LLM responder fails, so it must read as if a careful person
wrote it: questions from ``ask:`` or built from the description (``wording``), values by type
and summaries with the spec's labels (``display``), results as short lists of names and
details, and never a code name, a statement or a query (``genie-bot chat --debug`` and the
traces show those).
"""

from __future__ import annotations

from collections.abc import Collection
from typing import Any

from ..acts import (Act, AskField, AskForConfirmation, AskForFieldConfirmation, AskToCancel, Cancelled, ProposeWorksheet,
                    Report, Say, Submitted)
from ..parse import Parse
from ..spec import AgentSpec, Field, InstanceRef, TaskWorksheet
from ..state import DialogueState, WorksheetInstance
from ..language.words import using
from .closing import CLOSED, closing
from .contract import ON_IT, asks_progress, changed_paths
from .display import display_value, join_words, member_label, quoted, record_name, summary_lines
from .knowledge_report import knowledge_report
from .wording import label, plural, question, says_optional, task_phrase, unsaid

FALLBACK = "Is there anything else I can help you with?"
NOT_UNDERSTOOD = "Sorry, I didn't catch that."
def not_understood(user_text: str) -> str:
    """"Sorry, I didn't catch “blorp”." (the first words of a long message, then "…")."""
    said = quoted(user_text)
    return f"Sorry, I didn't catch {said}." if said else NOT_UNDERSTOOD


class TemplateResponder:
    """Renders acts to markdown text; see the module docstring."""

    def respond(self, spec: AgentSpec, state: DialogueState, acts: list[Act], user_text: str, parse: Parse,
                changed: Collection[tuple[str, str]] = ()) -> str:
        with using(spec.vocabulary.lexicon()):  # the agent's word for its users: "the student's email" is "your email"
            return self._respond(spec, state, acts, user_text, parse, changed)

    def _respond(self, spec: AgentSpec, state: DialogueState, acts: list[Act], user_text: str, parse: Parse,
                 changed: Collection[tuple[str, str]]) -> str:
        goodbye = closing(state, acts, user_text, parse)
        if goodbye is not None:
            return goodbye
        parts = []
        if (parse.reason or not parse.understood) and not any(isinstance(a, Report) for a in acts):
            progress = not parse.reason and asks_progress(user_text) and any(i.open for i in state.instances.values())
            parts.append(ON_IT if progress else parse.reason or not_understood(user_text))  # "any update?"
        for index, act in enumerate(acts):
            if isinstance(act, Report) and _told_by_worksheet(acts[index + 1:]):
                continue  # the worksheet's own message after its API ran says it better
            parts.append(self.render(spec, state, act, changed))
        if not acts:
            parts.append(FALLBACK if any(not i.open for i in state.instances.values()) else offer(spec))
        return "\n\n".join(p for p in parts if p)

    def render(self, spec: AgentSpec, state: DialogueState, act: Act, changed: Collection[tuple[str, str]] = ()) -> str:
        """One act as text; ``changed``: (instance, field) this turn changed, marked in a summary."""
        if isinstance(act, AskField):
            return self._ask(spec, state, act, changed)
        if isinstance(act, AskForFieldConfirmation):
            f = _field(spec, state, act.instance, act.field)
            what = label(f).lower() if f else "that"
            return f"Just to confirm: your {what} is {display_value(act.value, f, state, spec)}. Is that right?"
        if isinstance(act, AskForConfirmation):
            ws = spec.tasks.get(act.worksheet)
            marked = changed_paths(state, act.instance, changed)
            return (f"Here is what I have:\n{_bullets(summary_lines(spec, act.worksheet, act.values, marked))}\n"
                    f"Shall I go ahead and {task_phrase(ws)}? (yes / no)")
        if isinstance(act, Report):
            return self._report(spec, state, act)
        if isinstance(act, Say):
            return act.text
        if isinstance(act, AskToCancel):
            return (f"Do you want me to stop and drop your request to {task_phrase(spec.tasks.get(act.worksheet))}? "
                    "Nothing has been submitted, and what you told me so far would be lost. (yes / no)")
        if isinstance(act, Cancelled):
            if _untouched_start(spec, state, act.instance):
                return CLOSED  # the task the greeting opened, never taken up
            return f"Okay, I've dropped your request to {task_phrase(spec.tasks.get(act.worksheet))}. Nothing was submitted."
        if isinstance(act, Submitted):
            lines = summary_lines(spec, act.worksheet, act.values)
            return (f"Your request to {task_phrase(spec.tasks.get(act.worksheet))} was submitted"
                    + (f" with:\n{_bullets(lines)}\n" if lines else ". ")
                    + "To change something or make another request, just tell me.")
        if isinstance(act, ProposeWorksheet):
            ws = spec.tasks.get(act.worksheet)
            details = summary_lines(spec, act.worksheet, act.params) if ws else []
            given = f" ({', '.join(f'{k.lower()}: {v}' for k, v in details)})" if details else ""
            return f"Would you like me to {task_phrase(ws)}{given}?"
        return ""

    def _ask(self, spec: AgentSpec, state: DialogueState, act: AskField, changed: Collection[tuple[str, str]] = ()) -> str:
        prefix = f"{act.reason} " if act.reason else ""
        if act.instance == "answer":
            return f"{prefix}To look that up I need {act.description}."
        f = _field(spec, state, act.instance, act.field)
        if f is None:
            return f"{prefix}{act.description[:1].upper()}{act.description[1:]}?"
        asked = question(f, record=f.type.ref in spec.knowledge)
        asked = unsaid(asked, act.reason) if act.reason else asked  # the reason may ask it already
        text = asked + which_one(spec, state, act.instance, f) if asked else ""
        if f.type.kind == "enum" and not f.ask:
            text += f" ({join_words([member_label(f, v) for v in f.values], 'or')})"
        if not f.required and not says_optional(text):
            text += " (optional: you can say skip)"
        if f.type.kind == "confirm":  # "is this list correct?" shows the list
            instance = state.instances[act.instance]
            lines = summary_lines(spec, instance.worksheet, _values_of(state, instance),
                                  changed_paths(state, instance.name, changed))
            text = f"Here is what I have:\n{_bullets(lines)}\n{text}" if lines else text
        return (prefix + text.lstrip()).strip()

    def _report(self, spec: AgentSpec, state: DialogueState, act: Report) -> str:
        result = act.result
        if isinstance(result, dict) and set(result) == {"error"}:
            return f"Sorry, that did not work: {result['error']}."
        if act.query_or_instance.startswith("answer("):
            return knowledge_report(spec, state.answer, result)
        instance = state.instances.get(act.query_or_instance)
        ws = spec.tasks.get(instance.worksheet) if instance else None
        if isinstance(result, dict) and ws is not None:  # a lookup shows what it looked up, a submission its outcome
            looked_up = not ws.needs_confirmation
            shown = [(f, result[f.name]) for f in ws.fields.values()
                     if f.name in result and (f.kind == "output" or looked_up)]
            if shown:
                said = "; ".join(f"{label(f)}: {display_value(v, f)}" for f, v in shown) + "."
                return said if looked_up else f"Done. {said}"
        if isinstance(result, dict):
            return f"Done: {record_name(result) or display_value(result)}."
        return f"Done: {display_value(result, None, state, spec)}."


def offer(spec: AgentSpec) -> str:
    """What the agent can do, for a user who has not started anything yet."""
    nested = {f.type.referenced() for ws in spec.tasks.values() for f in ws.fields.values()}
    things = [task_phrase(ws) for ws in spec.tasks.values() if ws.name not in nested]
    if spec.knowledge:
        things.append("answer questions about " + join_words([
            kb.plural or plural(kb.noun) if kb.noun else f"the {kb.name.replace('_', ' ')}"
            for kb in spec.knowledge.values()]))
    return f"I can {join_words(things, 'or')}. What would you like to do?" if things else "How can I help?"


def _told_by_worksheet(later: list[Act]) -> bool:
    return any(isinstance(a, Say) for a in later)


def _bullets(lines: list[tuple[str, str]]) -> str:
    return "\n".join(f"• {name}: {value}" for name, value in lines)


def _values_of(state: DialogueState, instance: WorksheetInstance) -> dict[str, Any]:
    """An instance's values with nested instances as dicts of theirs (as a summary shows them)."""
    out = {}
    for name, value in instance.values.items():
        child = state.resolve(value) if isinstance(value, InstanceRef) else None
        out[name] = _values_of(state, child) if isinstance(child, WorksheetInstance) else value
    return out


def _field(spec: AgentSpec, state: DialogueState, instance: str, field: str) -> Field | None:
    found = state.instances.get(instance)
    ws = spec.tasks.get(found.worksheet) if found else None
    return ws.fields.get(field) if ws else None


def which_one(spec: AgentSpec, state: DialogueState, name: str, asked: Field) -> str:
    """" (CS224N)" after a question about one of several instances of a worksheet (two courses): the
    value naming the one asked about, so "take it for" is not ambiguous."""
    instance = state.instances.get(name)
    if instance is None or len(state.of_worksheet(instance.worksheet, open_only=False)) < 2:
        return ""
    ws = spec.tasks[instance.worksheet]
    naming = next((f for f in ws.fields.values() if (f.values_from or f.type.ref in spec.knowledge)
                   and f is not asked and instance.values.get(f.name) not in (None, "NA")), None)
    return f" ({display_value(instance.values[naming.name], naming)})" if naming else ""


def _untouched_start(spec: AgentSpec, state: DialogueState, name: str) -> bool:
    """Whether the instance is the start task the greeting opened, which the user gave nothing (they
    came to check a ticket, say): dropping it is no request dropped."""
    instance = state.instances.get(name)
    return (instance is not None and instance.worksheet == spec.start
            and all(value is None for value in instance.values.values()))


def _asks_to_check(spec: AgentSpec, state: DialogueState, act: Act) -> bool:
    """The act asks the user to check a list ("is this list of courses correct?"), which shows it."""
    f = _field(spec, state, act.instance, act.field) if isinstance(act, AskField) else None
    return f is not None and f.type.kind == "confirm"
