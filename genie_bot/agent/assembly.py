"""Assembling an agent: LLM mode when an LLM is configured, else offline mode, said at start-up.

Every choice of parser, responder and knowledge back-end is made in this package; the parts of
LLM mode (:mod:`.llm_mode`) are imported when an LLM is configured, so offline start-up does not
pay for them. Three callers:

- the command line and tests: :func:`agent_components` / :func:`build_agent`, from
  :class:`~genie_bot.llm.LLMSettings` (default: the environment);
- ``genie-bot replay --parser llm``: :func:`llm_parser_for_replay`;
- the engine, from genie.yaml's ``llm:`` section: :func:`agent_builder`. ``parser: auto`` and
  ``responder: auto`` (the defaults) use the LLM when one is configured there or in the
  environment, else run offline; ``rules`` and ``templates`` force offline mode. Any other
  value is a bot builder's hook, ``package.module:factory``, resolved here and only here
  (:func:`load_hook`): the factory is called with the agent built so far (offline parts in
  place, which it may wrap) and the ``llm`` section, and returns the parser (or responder).
"""

from __future__ import annotations

import datetime as dt
import importlib
import logging
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from ..config import LlmConfig
from ..errors import GenieError
from ..llm import LLMClient, LLMSettings, make_client
from ..parse import Parse
from ..parsers import Parser
from ..responders import Responder
from ..runtime import Knowledge, LocalApiExecutor
from ..spec import AgentSpec
from ..state import DialogueState
from .agent import Agent
from .components import OFFLINE_MESSAGE, AgentComponents, knowledge_store, offline_components

if TYPE_CHECKING:
    from ..knowledge import KnowledgeDatabase

log = logging.getLogger(__name__)

AgentBuilder = Callable[[AgentSpec], Agent]
ParserHook = Callable[[Agent, LlmConfig], Parser]
ResponderHook = Callable[[Agent, LlmConfig], Responder]

AUTO = "auto"
OFFLINE_PARSER = "rules"
OFFLINE_RESPONDER = "templates"


class LLMNotConfigured(GenieError, RuntimeError):
    """An LLM is required (``genie-bot replay --parser llm``) but none is configured."""


def agent_components(spec: AgentSpec, settings: LLMSettings | None = None, *, client: LLMClient | None = None,
                     clock: Callable[[], dt.datetime] = dt.datetime.now,
                     knowledge: KnowledgeDatabase | None = None) -> AgentComponents:
    """LLM parser, responder and knowledge when ``settings`` (default: the environment) configure an
    LLM or ``client`` is given, else the offline components; the mode is logged. Knowledge tables
    are read in ``knowledge`` (default: the process's knowledge database)."""
    settings = settings or LLMSettings.from_env()
    store = knowledge_store(spec, knowledge)
    if client is None and not settings.enabled:
        log.warning(OFFLINE_MESSAGE)
        return offline_components(spec, clock, store)
    from .llm_mode import llm_components  # its prompt templates and SQL checks are for LLM mode only

    return llm_components(spec, settings, client or make_client(settings), store, clock)


def build_agent(spec: AgentSpec, settings: LLMSettings | None = None, *,
                clock: Callable[[], dt.datetime] = dt.datetime.now) -> Agent:
    """An agent in LLM mode when ``settings`` (default: the environment) configure an LLM, else offline."""
    return Agent.from_components(agent_components(spec, settings, clock=clock))


# -- genie.yaml -------------------------------------------------------------------------------------
def settings_from_config(llm: LlmConfig, environ: Mapping[str, str] | None = None) -> LLMSettings:
    """LLMSettings from genie.yaml's ``llm`` section (``model``, ``base_url``, ``api_key``,
    ``timeout_seconds``, and every key of :meth:`LLMSettings.from_mapping`); everything it does not
    set comes from the environment. Raises LLMSettingsInvalid."""
    given = {"model": llm.model, "base_url": llm.base_url, "timeout": llm.timeout_seconds}
    settings = LLMSettings.from_mapping({**{k: v for k, v in given.items() if v is not None}, **llm.options}, environ)
    return settings.replace(api_key=llm.api_key, configured=True) if llm.api_key else settings


def agent_builder(llm: LlmConfig, clock: Callable[[], dt.datetime] = dt.datetime.now,
                  knowledge: KnowledgeDatabase | None = None) -> AgentBuilder:
    """How the engine builds each agent from genie.yaml's ``llm`` section (see the module's docstring),
    its knowledge tables read in ``knowledge`` (genie.yaml's ``knowledge`` section)."""
    settings = settings_from_config(llm)
    parser_hook: ParserHook | None = None if llm.parser in (AUTO, OFFLINE_PARSER) else load_hook(llm.parser)
    responder_hook: ResponderHook | None = None if llm.responder in (AUTO, OFFLINE_RESPONDER) else \
        load_hook(llm.responder)

    def build(spec: AgentSpec) -> Agent:
        automatic = agent_components(spec, settings, clock=clock, knowledge=knowledge) \
            if AUTO in (llm.parser, llm.responder) else None
        offline = offline_components(spec, clock, knowledge_store(spec, knowledge)) \
            if llm.parser != AUTO or llm.responder != AUTO else None
        parsing = automatic if llm.parser == AUTO else offline
        phrasing = automatic if llm.responder == AUTO else offline
        assert parsing is not None and phrasing is not None, "each made above when it is used"
        agent = Agent(spec, parsing.parser, phrasing.responder, LocalApiExecutor(spec, knowledge=parsing.knowledge),
                      clock)
        if parser_hook is not None:
            agent.parser = parser_hook(agent, llm)
        if responder_hook is not None:
            agent.responder = responder_hook(agent, llm)
        return agent

    return build


def load_hook(reference: str) -> Callable[..., Any]:
    """The factory a bot builder named in genie.yaml as ``package.module:factory``."""
    module_name, _, attribute = reference.partition(":")
    if not module_name or not attribute:
        raise ValueError(f"'{reference}' is not {AUTO}, nor of the form package.module:factory")
    return getattr(importlib.import_module(module_name), attribute)


# -- genie-bot replay --parser llm ------------------------------------------------------------------
@dataclass
class ReplayParser:
    """A parser for :func:`genie_bot.replay.replay`: (state before the turn, trace line) -> statements.

    The date of each turn is ``today`` if given, else the line's ``"today"`` (recorded traces
    carry it), else the current date. Every :class:`Parse` is kept in ``parses`` (LLM calls,
    tokens, fast-path turns) for reporting.
    """

    spec: AgentSpec
    parser: Parser
    knowledge: Knowledge | None
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
