"""The LLM response generator (paper section 5.3): agent acts to a natural reply.

The prompt (``responder.system.j2`` / ``responder.user.j2``) holds the agent's description,
this turn's acts, the state, the user's message and the templated reply for the same acts,
which carries every fact and question in plain form. The LLM must perform every act and
invent nothing. Whatever goes wrong (timeout, HTTP error, garbage, empty text, or a reply
that fails :mod:`.output_check`: code, internal names, prompt text, a promise to "check"
something, far too long, a result left out) the user gets the templated reply instead; with
``check_questions``, a reply that leaves out the question the acts ask gets the templated
question appended.
"""

from __future__ import annotations

from collections.abc import Collection

import logging
from collections import Counter

from ..acts import Act, AskField, AskForConfirmation, Report
from ..llm.client import LLMClient, LLMError
from ..llm.prompts import prompts_for
from ..parse import CHIT_CHAT, Parse
from ..rendering import acts_text, state_statements
from ..spec import AgentSpec
from ..state import DialogueState
from .output_check import reply_problem
from .templates import TemplateResponder

log = logging.getLogger(__name__)


class LLMResponder:
    def __init__(self, client: LLMClient, fallback: TemplateResponder | None = None, *, check_questions: bool = True,
                 template_replies: bool = True):
        self.client = client
        self.template_replies = template_replies
        self.fallback = fallback or TemplateResponder()
        self.check_questions = check_questions
        self.rejections: Counter[str] = Counter()
        """Replies replaced by the templated one, by reason (see :func:`.output_check.reply_problem`)."""

    def respond(self, spec: AgentSpec, state: DialogueState, acts: list[Act], user_text: str, parse: Parse,
                changed: Collection[tuple[str, str]] = ()) -> str:
        templated = self.fallback.respond(spec, state, acts, user_text, parse, changed)
        if self.template_replies and template_serves(spec, state, acts, parse):
            return templated
        library = prompts_for(spec.directory)
        messages = library.messages(
            "responder", agent=spec, examples=library.examples("responder"), acts=acts_text(acts),
            state=state_statements(spec, state), searched=_searched(state, acts),
            user=user_text.strip(), understood=parse.understood, templated=templated)
        try:
            reply = self.client.complete("responder", messages).text.strip()
        except LLMError:
            return templated
        problem = reply_problem(spec, state, acts, templated, reply)
        if problem is not None:
            self.rejections[problem] += 1
            log.info("the LLM's reply was replaced by the templated one: %s", problem)
            return templated
        return self._with_question(spec, state, acts, reply) if self.check_questions else reply

    def _with_question(self, spec: AgentSpec, state: DialogueState, acts: list[Act], reply: str) -> str:
        question = next((a for a in acts if a.is_question), None)
        if question is None or "?" in reply:
            return reply
        return f"{reply}\n\n{self.fallback.render(spec, state, question)}"


def template_serves(spec: AgentSpec, state: DialogueState, acts: list[Act], parse: Parse) -> bool:
    """Whether the builder wrote every word the reply needs, so that an LLM would only rephrase it: the message
    was read without a word to say about it, and the turn asks a question in the field's own ``ask:``, shows
    the summary to confirm, or answers thanks in kind. Such a turn costs no phrasing call."""
    if not parse.understood or parse.reason or parse.corrected or parse.unplaced:
        return False
    if parse.statements.strip() == CHIT_CHAT:  # "thanks!": "You're welcome!" needs no rephrasing
        return all(a.is_question for a in acts)
    return bool(acts) and all(isinstance(a, AskForConfirmation) or (isinstance(a, AskField) and a.reason is None
                                                       and _asks_in_builders_words(spec, state, a)) for a in acts)


def _asks_in_builders_words(spec: AgentSpec, state: DialogueState, act: AskField) -> bool:
    instance = state.instances.get(act.instance)
    worksheet = spec.tasks.get(instance.worksheet) if instance is not None else None
    f = worksheet.fields.get(act.field) if worksheet is not None else None
    return f is not None and bool(f.ask)


def _searched(state: DialogueState, acts: list[Act]) -> str | None:
    """The query behind this turn's knowledge report, if there is one."""
    reported = any(isinstance(a, Report) and a.query_or_instance.startswith("answer(") for a in acts)
    return state.answer.query if reported and state.answer else None
