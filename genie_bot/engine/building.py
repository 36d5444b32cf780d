"""Building an :class:`Agent` for a spec from the ``llm`` settings of the configuration.

``parser: auto`` / ``responder: auto`` (the defaults) use an LLM when one is configured, else
run offline; ``rules`` and ``templates`` force offline mode. Any other value is
``package.module:factory``: the parser factory is called with the agent (whose default
parser and knowledge store it may wrap) and the LLM settings; the responder factory likewise.
"""

from __future__ import annotations

import importlib
from collections.abc import Callable
from typing import Any

from ..agent import Agent
from ..config import LlmConfig
from ..spec import AgentSpec
from .agents import AgentBuilder


def load_factory(reference: str) -> Callable[..., Any]:
    module_name, _, attribute = reference.partition(":")
    if not attribute:
        raise ValueError(f"'{reference}' is not of the form package.module:factory")
    return getattr(importlib.import_module(module_name), attribute)


AUTO = {"parser": "genie_bot.llm.hooks:parser", "responder": "genie_bot.llm.hooks:responder"}
"""What ``auto`` means: the LLM components, which fall back to offline mode (and say so) when no
LLM is configured."""


def agent_builder(llm: LlmConfig) -> AgentBuilder:
    parser = None if llm.parser == "rules" else load_factory(AUTO["parser"] if llm.parser == "auto" else llm.parser)
    responder = None if llm.responder == "templates" else load_factory(
        AUTO["responder"] if llm.responder == "auto" else llm.responder)

    def build(spec: AgentSpec) -> Agent:
        agent = Agent(spec)
        if parser is not None:
            agent.parser = parser(agent, llm)
        if responder is not None:
            agent.responder = responder(agent, llm)
        return agent

    return build
