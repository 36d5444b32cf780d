"""What an agent is made of: its parser, responder and knowledge back-end, and the offline choice of them.

Offline (no LLM configured, or a part not given to :class:`~genie_bot.agent.Agent`): the
rule-based parser, templated replies and the keyword query matcher over the agent's knowledge
tables. LLM mode is chosen in :mod:`.assembly`.
"""

from __future__ import annotations

import datetime as dt
from collections.abc import Callable
from dataclasses import dataclass
from typing import TYPE_CHECKING

from .. import knowledge
from ..llm import LLMClient
from ..parsers import Parser, RuleParser
from ..responders import Responder, TemplateResponder
from ..runtime import Knowledge
from ..spec import AgentSpec

if TYPE_CHECKING:
    from ..knowledge import KnowledgeDatabase

OFFLINE_MESSAGE = ("Offline mode: no LLM is configured (set OPENAI_API_KEY, or OPENAI_BASE_URL for a local "
                   "OpenAI-compatible server), so the bot uses the rule-based parser and templated replies.")


@dataclass
class AgentComponents:
    """The parts of one agent, and what to tell the operator about them at start-up."""

    spec: AgentSpec
    parser: Parser
    responder: Responder
    knowledge: Knowledge | None
    """The knowledge back-end the agent's executor queries, or None without knowledge sources."""
    client: LLMClient | None = None
    """The LLM client the parts share; None in offline mode."""
    message: str = OFFLINE_MESSAGE
    """LLM mode and its models, or offline mode."""
    clock: Callable[[], dt.datetime] = dt.datetime.now

    @property
    def offline(self) -> bool:
        return self.client is None


def knowledge_store(spec: AgentSpec, database: KnowledgeDatabase | None = None) -> knowledge.KnowledgeStore | None:
    """The agent's knowledge tables in the knowledge database (default: the process's default one,
    see :mod:`genie_bot.knowledge.database`), imported there first if needed; None when it declares
    none (and then SQLAlchemy, which the tables need, is not even imported: see :mod:`genie_bot.knowledge`)."""
    if not any(kb.source == "table" for kb in spec.knowledge.values()):
        return None
    return knowledge.KnowledgeStore(spec, database)


def offline_components(spec: AgentSpec, clock: Callable[[], dt.datetime] = dt.datetime.now,
                       store: knowledge.KnowledgeStore | None = None) -> AgentComponents:
    """The rule-based parser, templated replies and keyword queries (over ``store``, default: a new one)."""
    store = store if store is not None else knowledge_store(spec)
    return AgentComponents(spec, RuleParser(store), TemplateResponder(),
                           knowledge.KeywordQuery(store) if store else None, clock=clock)
