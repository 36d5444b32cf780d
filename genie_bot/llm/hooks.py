"""Adapters for the deployment config's ``llm:`` section (``genie.yaml``).

The engine builds each agent offline and then calls ``llm.parser`` / ``llm.responder``
factories, given as ``package.module:factory``, with (agent, llm config). These are those
factories for the LLM components::

    llm:
      parser: genie_bot.llm.hooks:parser
      responder: genie_bot.llm.hooks:responder
      model: gpt-4o-mini            # base_url, api_key and timeout_seconds as usual

Everything the config section does not set comes from the environment (see
:class:`~genie_bot.llm.settings.LLMSettings`); without any LLM both fall back to offline mode.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from ..agent import Agent
from ..parsers import Parser
from ..responders import Responder, TemplateResponder
from ..responders.llm import LLMResponder
from ..runtime import LocalApiExecutor
from .factory import agent_components, make_client
from .settings import LLMSettings


def settings_from_config(llm: Any, environ: Mapping[str, str] | None = None) -> LLMSettings:
    """LLMSettings from a config object with ``model``, ``base_url``, ``api_key``, ``timeout_seconds``."""
    given = {"model": llm.model, "base_url": llm.base_url, "timeout": llm.timeout_seconds}
    settings = LLMSettings.from_mapping({k: v for k, v in given.items() if v is not None}, environ)
    return settings.replace(api_key=llm.api_key, configured=True) if llm.api_key else settings


def parser(agent: Agent, llm: Any) -> Parser:
    """The LLM parser; the agent's executor also gets the LLM knowledge backend."""
    components = agent_components(agent.spec, settings_from_config(llm), clock=agent.runtime.clock)
    if components.knowledge is not None and isinstance(agent.runtime.executor, LocalApiExecutor):
        agent.runtime.executor.knowledge = components.knowledge
    return components.parser


def responder(agent: Agent, llm: Any) -> Responder:
    settings = settings_from_config(llm)
    if not settings.enabled:
        return TemplateResponder()  # the parser hook has already logged that the bot runs offline
    return LLMResponder(make_client(settings), check_questions=settings.check_questions)

