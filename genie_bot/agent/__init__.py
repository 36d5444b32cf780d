"""An agent, and the one place that decides what it is made of.

:class:`Agent` runs turns: parser -> deterministic runtime -> responder. What parser,
responder and knowledge back-end an agent gets is decided here and nowhere else:

- :mod:`.components`: the offline parts (rule-based parser, templated replies, keyword
  queries), which are also what an ``Agent(spec)`` gets for any part it is not given;
- :mod:`.assembly`: LLM mode when an LLM is configured, else offline mode (said at start-up),
  for the command line (:func:`agent_components`, :func:`build_agent`), for ``genie-bot replay
  --parser llm`` (:func:`llm_parser_for_replay`), and for the engine from genie.yaml's ``llm:``
  section (:func:`agent_builder`, where a bot builder's ``package.module:factory`` hooks are
  resolved).
"""

from .agent import Agent, AgentReply
from .assembly import (AgentBuilder, LLMNotConfigured, ReplayParser, agent_builder, agent_components, build_agent,
                       llm_parser_for_replay, settings_from_config)
from .components import OFFLINE_MESSAGE, AgentComponents, offline_components

__all__ = ["OFFLINE_MESSAGE", "Agent", "AgentBuilder", "AgentComponents", "AgentReply", "LLMNotConfigured",
           "ReplayParser", "agent_builder", "agent_components", "build_agent", "llm_parser_for_replay",
           "offline_components", "settings_from_config"]
