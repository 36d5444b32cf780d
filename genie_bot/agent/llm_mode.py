"""LLM mode: the LLM parser (over the rule-based one), the LLM knowledge back-end and the LLM responder.

:mod:`.assembly` loads this module only when an LLM is configured: its parts bring the prompt
templates (jinja2) and SQL validation (sqlglot, SQLAlchemy), which offline mode does without.
"""

from __future__ import annotations

import datetime as dt
import logging
from collections.abc import Callable

from ..knowledge import KnowledgeStore
from ..knowledge.documents import DocumentIndex
from ..knowledge.llm_query import LLMKnowledge
from ..llm import LLMClient, LLMSettings
from ..llm.recording import TraceRecorder
from ..parsers import RuleParser
from ..parsers.llm import LLMParser
from ..responders.llm import LLMResponder
from ..spec import AgentSpec
from .components import AgentComponents

log = logging.getLogger(__name__)


def llm_components(spec: AgentSpec, settings: LLMSettings, client: LLMClient, store: KnowledgeStore | None,
                   clock: Callable[[], dt.datetime]) -> AgentComponents:
    """LLM parser, responder and knowledge back-end (over ``store`` and the agent's documents) on ``client``."""
    has_documents = any(kb.source == "documents" for kb in spec.knowledge.values())
    knowledge = LLMKnowledge(spec, client, store, documents=DocumentIndex(spec) if has_documents else None,
                             today=lambda: clock().date()) if store or has_documents else None
    recording = settings.record_dir if settings.replay_dir is None else None
    parser = LLMParser(client, RuleParser(store), fast_path=settings.fast_path, max_worksheets=settings.max_worksheets,
                       on_parse=TraceRecorder(recording) if recording is not None else None,
                       constrained=settings.constrained)
    message = settings.describe()
    log.info(message)
    responder = LLMResponder(client, check_questions=settings.check_questions,
                             template_replies=settings.template_replies)
    return AgentComponents(spec, parser, responder, knowledge, client, message, clock)
