"""Checking an LLM's reply before a user sees it; a reply that fails gets the templated one instead.

A weak model shows users what was meant for it: Python from the state, act names, instance
names, "Templated reply" copied from the prompt, a rambling page, or a final report without
the ticket id. The templated reply for the same acts is correct by construction, so it is
the yardstick: a name or phrase it contains is never held against the LLM's reply, and each
value it shows from an action's result must be in the LLM's reply too.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from typing import Any

from ..acts import Act, Report
from ..spec import AgentSpec
from ..state import DialogueState

MAX_LENGTH_FACTOR = 3
"""A reply may be this many times the templated one's length (plus :data:`LENGTH_ALLOWANCE`)."""
LENGTH_ALLOWANCE = 300

_FENCE = re.compile(r"```|~~~")
_STATEMENT = re.compile(
    r"^\s*[A-Za-z_]\w*(\.\w+)*\s*=(?!=)\s*\S"             # main_0.student_task = ..., x = Main()
    r"|\b[A-Za-z_]\w*\((\s*\w+\s*=|\s*['\"][^'\"]*['\"]\s*[,)])"  # Main(student_task=..., answer('...')
    r"|^\s*(import|from\s+\w+\s+import|def|class|return)\b", re.M)
_INSTANCE_NAME = re.compile(r"\b[a-z][a-z0-9]*(?:_[a-z0-9]+)*_\d+\b")
_ACT_NAMES = ("AskField", "AskForFieldConfirmation", "AskForConfirmation", "ProposeWorksheet", "AskToCancel")
_ACT_CALL = re.compile(r"\b(Report|Say|Cancelled|Submitted|AskField|AskForFieldConfirmation|AskForConfirmation|"
                       r"ProposeWorksheet|AskToCancel)\s*\(")
_PROMPT_PHRASES = ("templated reply", "agent acts", "write the assistant's message", "correct but plain",
                   "nothing yet", "(no message)", "query that was run", "did not understand this message: say so",
                   "perform every act", "invent nothing", "rephrase it naturally", "state:")
_STALLING = re.compile(r"\b(let me (check|look|see|find|verify)|one moment|bear with me|i'?ll get back|"
                       r"give me a (moment|second|minute))\b", re.I)
"""Promises of work the agent is not doing: everything it did this turn is in the acts."""


def reply_problem(spec: AgentSpec, state: DialogueState, acts: list[Act], templated: str, reply: str) -> str | None:
    """Why ``reply`` must not reach the user (a short reason, for logs and benchmarks), or None."""
    plain = templated.lower()
    lowered = reply.lower()
    if _FENCE.search(reply) or _fresh(_STATEMENT.finditer(reply), plain):
        return "code"
    names = [m.group(0) for m in _INSTANCE_NAME.finditer(reply)] + [m.group(0) for m in _ACT_CALL.finditer(reply)]
    names += [n for n in (*_ACT_NAMES, *state.instances, *_field_identifiers(spec)) if _word(n).search(reply)]
    if any(name.lower() not in plain for name in names):
        return "internal names"
    if any(phrase in lowered and phrase not in plain for phrase in _PROMPT_PHRASES):
        return "prompt text"
    if _STALLING.search(reply):
        return "stalling"
    if len(reply) > MAX_LENGTH_FACTOR * len(templated) + LENGTH_ALLOWANCE:
        return "too long"
    if any(value.lower() not in lowered for value in _reported_values(acts, plain)):
        return "dropped a result"
    return None


def _fresh(matches: Iterator[re.Match[str]], plain: str) -> bool:
    return any(m.group(0).strip().lower() not in plain for m in matches)


def _word(name: str) -> re.Pattern[str]:
    return re.compile(rf"(?<![\w.]){re.escape(name)}(?![\w(])")


def _field_identifiers(spec: AgentSpec) -> set[str]:
    """Field names that cannot be ordinary words (``student_task``), and worksheet names in CamelCase."""
    fields = {f.name for ws in spec.tasks.values() for f in ws.fields.values() if "_" in f.name}
    worksheets = {n for n in (*spec.tasks, *spec.knowledge) if re.search(r"[a-z][A-Z]|_", n)}
    return fields | worksheets


def _reported_values(acts: list[Act], plain: str) -> list[str]:
    """The values of actions' results that the templated reply shows (ids, codes, amounts)."""
    values = []
    for act in acts:
        if isinstance(act, Report) and not act.query_or_instance.startswith("answer("):
            values += [v for v in _scalars(act.result) if len(v) >= 2 and v.lower() in plain]
    return values


def _scalars(value: Any, depth: int = 0) -> Iterator[str]:
    if depth > 3:
        return
    if isinstance(value, dict):
        for key, item in value.items():
            if key != "error":
                yield from _scalars(item, depth + 1)
    elif isinstance(value, (list, tuple)):
        for item in value[:20]:
            yield from _scalars(item, depth + 1)
    elif isinstance(value, (str, int, float)) and not isinstance(value, bool):
        yield str(value)
