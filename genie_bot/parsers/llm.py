"""The contextual semantic parser (paper section 5.1): an LLM writes the state-update statements.

The prompt holds the worksheet signatures, the current state as statements, the previous
turn's agent acts, only the last agent/user exchange, today's date, guidelines and the
agent's few-shot examples (templates: ``parser.system.j2`` / ``parser.user.j2``). The LLM's
text is never executed here: it is extracted as statement text, cut into statements that are
dry-run one by one through the runtime's safe interpreter (those that fail are dropped, the
others kept: :mod:`.checking`, the LLM's and the rules' parses in one batch), re-asked once with the errors, and completed by omission
repair, itself checked on its own. The rule-based parser is the fast path in front of the LLM
and the fallback behind it when the LLM fails or its parse changes nothing: a weak model's
``# nothing yet`` never beats the rules.
"""

from __future__ import annotations

import dataclasses
import datetime as dt
import re
from collections.abc import Callable
from typing import Any

from ..llm.client import Completion, LLMClient, LLMError, Message
from ..llm.prompts import prompts_for
from ..parse import Parse
from ..rendering import acts_text, signatures, state_statements
from ..responders.templates import TemplateResponder
from ..spec import AgentSpec
from ..state import DialogueState
from .checking import Checked, check, check_texts, says_less, split_statements
from .constrained import JSON_INSTRUCTION, JSON_MODES, request_arguments, statements_from_json
from .fast_path import confident
from .repair import omission_repair
from .understanding import RuleParser
from .selection import relevant_worksheets

_CODE_BLOCK = re.compile(r"```[ \t]*(?:python|py)?[ \t]*\n(.*?)```", re.S | re.I)

UNAVAILABLE = "LLM parser unavailable"
"""How a parse notes that the LLM failed and the rule-based parse was given instead."""

TraceSink = Callable[[str, str, str], None]
"""Called with (user message, statements, today as ISO date) after every parse."""


class LLMParser:
    def __init__(self, client: LLMClient, rules: RuleParser | None = None, *, fast_path: bool = True,
                 max_worksheets: int = 20, on_parse: TraceSink | None = None, constrained: str = "none"):
        self.client = client
        self.constrained = constrained
        """How the completion is constrained to the statement language (:mod:`.constrained`)."""
        self.rules = rules or RuleParser()
        self.fast_path = fast_path
        self.max_worksheets = max_worksheets
        self.on_parse = on_parse

    def parse(self, spec: AgentSpec, state: DialogueState, text: str, today: dt.date) -> Parse:
        result = self._parse(spec, state, text, today)
        if self.on_parse is not None:
            self.on_parse(text, result.statements, today.isoformat())
        return result

    def _parse(self, spec: AgentSpec, state: DialogueState, text: str, today: dt.date) -> Parse:
        by_rules = self.rules.parse(spec, state, text, today)
        if self.fast_path and confident(spec, state, by_rules, text):
            return dataclasses.replace(by_rules, source="fast-path")
        value_given = bool(split_statements(by_rules.statements)[0])  # no escape into "# nothing yet" then
        attempt = _Attempt(self.client, request_arguments(self.constrained, spec, state, value_given))
        messages = self.prompt(spec, state, text, today)
        if self.constrained in JSON_MODES:
            messages = [*messages[:-1], {**messages[-1], "content": f"{messages[-1]['content']}\n\n{JSON_INSTRUCTION}"}]
        try:
            written = self._statements(attempt.complete(messages).text)
        except LLMError as exc:
            return attempt.counted(dataclasses.replace(by_rules, notes=[f"{UNAVAILABLE} ({exc.kind})"]))
        best, read_by_rules = check_texts(spec, state, [written, by_rules.statements], today)  # one sandbox call
        notes: list[str] = []
        reasked = bool(best.dropped)
        if reasked:
            best = self._reask(spec, state, today, attempt, messages, written, best)
            notes.append("re-asked with the interpreter's errors")
        if best.dropped:
            notes.append(f"{len(best.dropped)} statement(s) dropped: " + "; ".join(best.dropped)[:300])
        repaired = self._repaired(spec, state, text, today, best)
        if repaired is not None:
            best = repaired
            notes.append("omission repaired by the rule-based extractor")
        if best.effect == 0:  # "# nothing yet", "main_0 = Main()" again: the LLM said nothing the agent can use
            notes.append("the LLM's parse changed nothing; the rule-based parse was used")
            return attempt.counted(dataclasses.replace(by_rules, notes=[*by_rules.notes, *notes], reasked=reasked))
        if says_less(best, read_by_rules, state):
            notes.append("the rule-based parse says all the LLM's does and more; it was used")
            return attempt.counted(dataclasses.replace(by_rules, notes=[*by_rules.notes, *notes], reasked=reasked))
        return attempt.counted(Parse(best.statements, source="llm", notes=notes, repaired=repaired is not None,
                                     reasked=reasked))

    def _repaired(self, spec: AgentSpec, state: DialogueState, text: str, today: dt.date,
                  best: Checked) -> Checked | None:
        """The parse with the field just asked added by the rules, when it left it out; its statements
        are checked on their own, and kept only if they apply and change something."""
        repair = omission_repair(spec, state, text, today, best.statements, best.update, self.rules)
        if not repair:
            return None
        chunks, errors = split_statements(repair)
        combined = check(spec, state, best.chunks + chunks, today)
        return combined if combined.effect > best.effect and len(combined.dropped) == 0 and not errors else None

    def prompt(self, spec: AgentSpec, state: DialogueState, text: str, today: dt.date) -> list[Message]:
        """The chat messages for one parse (public so bot builders can inspect their prompts)."""
        library = prompts_for(spec.directory)
        shown = relevant_worksheets(spec, state, text, self.max_worksheets)
        return library.messages(
            "parser", agent=spec, signatures=signatures(spec, shown), examples=library.examples("parser"),
            today=today.isoformat(), weekday=today.strftime("%A"), state=state_statements(spec, state),
            acts=acts_text(state.last_acts, brief=True), agent_said=_agent_said(spec, state), user=text.strip())

    def _statements(self, text: str) -> str:
        """The statements of a completion: JSON in the JSON modes (or, failing that, as text)."""
        if self.constrained in JSON_MODES:
            statements = statements_from_json(text)
            if statements is not None:
                return statements
        return extract_statements(text)

    def _reask(self, spec: AgentSpec, state: DialogueState, today: dt.date, attempt: "_Attempt",
               messages: list[Message], written: str, first: Checked) -> Checked:
        """Ask once more with the errors; keep whichever answer the interpreter likes better."""
        repair = prompts_for(spec.directory).messages("parser_repair", errors=first.dropped)
        conversation = [*messages, {"role": "assistant", "content": f"```python\n{written}\n```"}, *repair]
        try:
            second = check_texts(spec, state, [self._statements(attempt.complete(conversation).text)], today)[0]
        except LLMError:
            return first
        return second if second.badness() <= first.badness() else first


class _Attempt:
    """Counts the calls and tokens of one parse; every call carries the same constraint."""

    def __init__(self, client: LLMClient, extra: dict[str, Any]):
        self.client = client
        self.extra = extra
        self.calls = self.prompt_tokens = self.completion_tokens = 0

    def complete(self, messages: list[Message]) -> Completion:
        self.calls += 1
        completion = self.client.complete("parser", messages, extra=self.extra)
        self.prompt_tokens += completion.prompt_tokens
        self.completion_tokens += completion.completion_tokens
        return completion

    def counted(self, parse: Parse) -> Parse:
        return dataclasses.replace(parse, llm_calls=self.calls, prompt_tokens=self.prompt_tokens,
                                   completion_tokens=self.completion_tokens)


def extract_statements(text: str) -> str:
    """The statements in an LLM reply: its fenced code blocks, else the whole text."""
    blocks = _CODE_BLOCK.findall(text)
    body = "\n".join(b.strip() for b in blocks) if blocks else text.replace("```", "")
    return "\n".join(line.rstrip() for line in body.strip().splitlines())


def _agent_said(spec: AgentSpec, state: DialogueState) -> str:
    """What the agent last said: the templated phrasing of its last acts (the state keeps no text)."""
    if state.turn == 0:
        return " ".join((spec.greeting or f"Hi! {spec.description}").split())
    return TemplateResponder().respond(spec, state, state.last_acts, "", Parse(""))
