"""Wiring an agent for LLM mode, or offline mode when no LLM is configured.

``agent_components`` returns the parser, responder and knowledge backend to use, with a
start-up message saying which mode the bot runs in (it is also logged), and makes the
:class:`~genie_bot.agent.Agent` from them (``.agent()``); ``build_agent`` does both at once. ``llm_parser_for_replay`` gives
``genie-bot replay --parser llm`` its parser.
"""

from __future__ import annotations

import datetime as dt
import logging
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from ..agent import Agent
from ..errors import GenieError
from ..knowledge import KeywordQuery, KnowledgeStore
from ..knowledge.documents import DocumentIndex
from ..knowledge.llm_query import LLMKnowledge
from ..parsers import Parse, Parser, RuleParser
from ..parsers.llm import LLMParser
from ..responders import Responder, TemplateResponder
from ..responders.llm import LLMResponder
from ..runtime import LocalApiExecutor
from ..spec import AgentSpec
from ..state import DialogueState
from .client import LLMClient, Transport
from .recording import RecordingTransport, ReplayTransport, TraceRecorder
from .settings import LLMSettings
from .transport import OpenAITransport, make_openai_client

log = logging.getLogger(__name__)

OFFLINE_MESSAGE = ("Offline mode: no LLM is configured (set OPENAI_API_KEY, or OPENAI_BASE_URL for a local "
                   "OpenAI-compatible server), so the bot uses the rule-based parser and templated replies.")


class LLMNotConfigured(GenieError, RuntimeError):
    pass


@dataclass
class AgentComponents:
    spec: AgentSpec
    parser: Parser
    responder: Responder
    knowledge: Any
    """The knowledge backend for ``LocalApiExecutor(spec, knowledge=...)``, or None without knowledge."""
    client: LLMClient | None
    message: str
    """What to tell the operator at start-up: LLM mode and its models, or offline mode."""
    clock: Callable[[], dt.datetime] = dt.datetime.now

    @property
    def offline(self) -> bool:
        return self.client is None

    def agent(self) -> Agent:
        """The agent made of these components (its executor queries ``knowledge``)."""
        return Agent(self.spec, parser=self.parser, responder=self.responder,
                     executor=LocalApiExecutor(self.spec, knowledge=self.knowledge), clock=self.clock)


def make_client(settings: LLMSettings) -> LLMClient:
    """The client for the settings: recorded completions when replaying, else the API (recorded if asked)."""
    transport: Transport
    if settings.replay_dir is not None:
        transport = ReplayTransport(settings.replay_dir)
    else:
        transport = OpenAITransport(make_openai_client(settings))
        if settings.record_dir is not None:
            transport = RecordingTransport(transport, settings.record_dir)
    return LLMClient(settings, transport)


def agent_components(spec: AgentSpec, settings: LLMSettings | None = None, *, client: LLMClient | None = None,
                     clock: Callable[[], dt.datetime] = dt.datetime.now) -> AgentComponents:
    settings = settings or LLMSettings.from_env()
    store = KnowledgeStore(spec) if any(kb.source == "table" for kb in spec.knowledge.values()) else None
    rules = RuleParser(store)
    if client is None and not settings.enabled:
        log.warning(OFFLINE_MESSAGE)
        offline_knowledge = KeywordQuery(store) if store else None
        return AgentComponents(spec, rules, TemplateResponder(), offline_knowledge, None, OFFLINE_MESSAGE, clock)
    client = client or make_client(settings)
    has_documents = any(kb.source == "documents" for kb in spec.knowledge.values())
    knowledge = LLMKnowledge(spec, client, store, documents=DocumentIndex(spec) if has_documents else None,
                             today=lambda: clock().date()) if store or has_documents else None
    recording = settings.record_dir is not None and settings.replay_dir is None
    parser = LLMParser(client, rules, fast_path=settings.fast_path, max_worksheets=settings.max_worksheets,
                       on_parse=TraceRecorder(settings.record_dir) if recording else None)
    message = settings.describe()
    log.info(message)
    responder = LLMResponder(client, check_questions=settings.check_questions)
    return AgentComponents(spec, parser, responder, knowledge, client, message, clock)


def build_agent(spec: AgentSpec, settings: LLMSettings | None = None, *,
                clock: Callable[[], dt.datetime] = dt.datetime.now) -> Agent:
    """An agent in LLM mode when ``settings`` (default: the environment) configure an LLM, else offline."""
    return agent_components(spec, settings, clock=clock).agent()


@dataclass
class ReplayParser:
    """A parser for :func:`genie_bot.replay.replay`: (state before the turn, trace line) -> statements.

    The date of each turn is ``today`` if given, else the line's ``"today"`` (recorded traces
    carry it), else the current date. Every :class:`Parse` is kept in ``parses`` (LLM calls,
    tokens, fast-path turns) for reporting.
    """

    spec: AgentSpec
    parser: Parser
    knowledge: Any
    today: dt.date | None = None
    parses: list[Parse] = field(default_factory=list)

    def __call__(self, state: DialogueState, line: dict[str, Any]) -> str:
        today = self.today or (dt.date.fromisoformat(line["today"]) if line.get("today") else dt.date.today())
        parse = self.parser.parse(self.spec, state, str(line.get("user", "")), today)
        self.parses.append(parse)
        return parse.statements


def llm_parser_for_replay(spec: AgentSpec, settings: LLMSettings | None = None,
                          today: dt.date | None = None) -> ReplayParser:
    """The configured LLM parser for ``genie-bot replay --parser llm``; raises LLMNotConfigured offline."""
    clock = (lambda: dt.datetime.combine(today, dt.time(12))) if today else dt.datetime.now
    components = agent_components(spec, settings, clock=clock)
    if components.offline:
        raise LLMNotConfigured(components.message)
    return ReplayParser(spec, components.parser, components.knowledge, today)
