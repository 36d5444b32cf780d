"""Checking and repairing LLM parser output before the turn runs (PyTOD style).

``dry_run`` applies statements to a throw-away copy of the state through the runtime's own
safe interpreter, so the parser learns exactly the errors the turn would report (misspelt
names are already snapped there). ``omission_repair`` covers the commonest LLM slip: the
agent asked for a field, the user answered it, and the parse forgot to assign it.
"""

from __future__ import annotations

import datetime as dt
import re

from ..acts import AskField
from ..runtime.statements import apply_statements
from ..runtime.trials import NoIO
from ..runtime.turn import Turn, Update
from ..spec import AgentSpec
from ..state import DialogueState
from . import understanding
from .checking import split_statements

_ASKS_OR_CANCELS = re.compile(r"\b(answer|exitws)\s*\(")


def dry_run(spec: AgentSpec, state: DialogueState, statements: str, today: dt.date) -> Update:
    """What applying ``statements`` would change, and the errors it would report."""
    turn = Turn(spec, state.copy(), NoIO(), today, dt.datetime.combine(today, dt.time(12)))
    apply_statements(turn, statements)
    return turn.update


def omission_repair(spec: AgentSpec, state: DialogueState, text: str, today: dt.date, statements: str,
                    update: Update, rules: understanding.RuleParser) -> str | None:
    """The rules' statement for the field just asked when the parse left it out and the message answers it.

    Not applied when the parse asks the knowledge base or cancels (the message is about
    something else). A free-text field is repaired only when the parse wrote nothing at all,
    since the rule-based extractor would take any message as its value.
    """
    asked = next((a for a in reversed(state.last_acts) if a.is_question), None)
    if not isinstance(asked, AskField) or asked.instance == "answer":
        return None
    if (asked.instance, asked.field) in update.assigned or any(
            (r.instance, r.field) == (asked.instance, asked.field) for r in update.rejected):
        return None
    if _ASKS_OR_CANCELS.search(statements):
        return None
    instance = state.instances.get(asked.instance)
    f = spec.tasks[instance.worksheet].fields.get(asked.field) if instance else None
    if f is None or (f.type.kind == "str" and statements.strip()):
        return None
    parse = rules.parse(spec, state, text, today)
    if not parse.understood:
        return None
    chunks, _ = split_statements(parse.statements)
    answer = [c for c in chunks if re.match(rf"{re.escape(asked.instance)}\.{re.escape(asked.field)}\s*=", c)]
    return "\n".join(answer) or None
