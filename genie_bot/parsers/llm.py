"""The contextual semantic parser (paper section 5.1): an LLM writes the state-update statements.

The prompt holds the worksheet signatures, the current state as statements, the previous
turn's agent acts, only the last agent/user exchange, today's date, guidelines and the
agent's few-shot examples (templates: ``parser.system.j2`` / ``parser.user.j2``). The LLM's
text is never executed here: it is extracted as statement text, dry-run through the
runtime's safe interpreter, re-asked once with the interpreter's errors, and completed by
omission repair. The rule-based parser is the fast path in front of the LLM and the fallback
behind it when the LLM fails.
"""

from __future__ import annotations

import dataclasses
import datetime as dt
import re
from collections.abc import Callable

from ..llm.client import Completion, LLMClient, LLMError, Message
from ..llm.prompts import prompts_for
from ..parse import Parse
from ..rendering import acts_text, signatures, state_statements
from ..responders.templates import TemplateResponder
from ..runtime.turn import Update
from ..spec import AgentSpec
from ..state import DialogueState
from .fast_path import confident
from .repair import dry_run, omission_repair
from .rules import RuleParser
from .selection import relevant_worksheets

_CODE_BLOCK = re.compile(r"```[ \t]*(?:python|py)?[ \t]*\n(.*?)```", re.S | re.I)

TraceSink = Callable[[str, str, str], None]
"""Called with (user message, statements, today as ISO date) after every parse."""


class LLMParser:
    def __init__(self, client: LLMClient, rules: RuleParser | None = None, *, fast_path: bool = True,
                 max_worksheets: int = 20, on_parse: TraceSink | None = None):
        self.client = client
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
        attempt = _Attempt(self.client)
        messages = self.prompt(spec, state, text, today)
        try:
            statements = extract_statements(attempt.complete(messages).text)
        except LLMError as exc:
            return attempt.counted(dataclasses.replace(by_rules, notes=[f"LLM parser unavailable ({exc.kind})"]))
        update = dry_run(spec, state, statements, today)
        notes: list[str] = []
        if update.errors:
            statements, update = self._reask(spec, state, today, attempt, messages, statements, update)
            notes.append("re-asked with the interpreter's errors")
        repaired = omission_repair(spec, state, text, today, statements, update, self.rules)
        if repaired:
            statements = f"{statements}\n{repaired}".strip()
            notes.append("omission repaired by the rule-based extractor")
        # nothing written, or nothing the interpreter could apply: the reply says it did not understand
        understood = bool(repaired) or (bool(statements.strip()) and not (update.errors and not _effect(update)))
        return attempt.counted(Parse(statements, understood=understood, source="llm", notes=notes))

    def prompt(self, spec: AgentSpec, state: DialogueState, text: str, today: dt.date) -> list[Message]:
        """The chat messages for one parse (public so bot builders can inspect their prompts)."""
        library = prompts_for(spec.directory)
        shown = relevant_worksheets(spec, state, text, self.max_worksheets)
        return library.messages(
            "parser", agent=spec, signatures=signatures(spec, shown), examples=library.examples("parser"),
            today=today.isoformat(), weekday=today.strftime("%A"), state=state_statements(spec, state),
            acts=acts_text(state.last_acts, brief=True), agent_said=_agent_said(spec, state), user=text.strip())

    def _reask(self, spec: AgentSpec, state: DialogueState, today: dt.date, attempt: "_Attempt",
               messages: list[Message], statements: str, update: Update) -> tuple[str, Update]:
        """Ask once more with the errors; keep whichever answer the interpreter likes better."""
        repair = prompts_for(spec.directory).messages("parser_repair", errors=update.errors)
        conversation = [*messages, {"role": "assistant", "content": f"```python\n{statements}\n```"}, *repair]
        try:
            second = extract_statements(attempt.complete(conversation).text)
        except LLMError:
            return statements, update
        second_update = dry_run(spec, state, second, today)
        if _badness(second_update) <= _badness(update):
            return second, second_update
        return statements, update


class _Attempt:
    """Counts the calls and tokens of one parse."""

    def __init__(self, client: LLMClient):
        self.client = client
        self.calls = self.prompt_tokens = self.completion_tokens = 0

    def complete(self, messages: list[Message]) -> Completion:
        self.calls += 1
        completion = self.client.complete("parser", messages)
        self.prompt_tokens += completion.prompt_tokens
        self.completion_tokens += completion.completion_tokens
        return completion

    def counted(self, parse: Parse) -> Parse:
        return dataclasses.replace(parse, llm_calls=self.calls, prompt_tokens=self.prompt_tokens,
                                   completion_tokens=self.completion_tokens)


def _effect(update: Update) -> int:
    """How many changes the statements make (a rejected value counts: the user gave one)."""
    return len(update.assigned) + len(update.field_confirmations) + len(update.rejected) + update.new_query


def _badness(update: Update) -> tuple[int, int]:
    """Fewer errors first, then more effect (a syntax error applies nothing at all)."""
    return len(update.errors), -_effect(update)


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
