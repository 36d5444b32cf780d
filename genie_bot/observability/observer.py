"""What the engine reports once per turn, and per LLM call: the turn log and the metrics."""

from __future__ import annotations

import logging
from collections.abc import Callable
from typing import Any

from ..config import LlmConfig, LoggingSettings
from ..llm.account import CallRecord
from ..parse import Parse
from ..store.traces import TraceRow
from .metrics import FALLBACK_SOURCE, Metrics
from .turnlog import turn_record
from .usage import TurnUsage, meter_llm_clients

log = logging.getLogger("genie_bot.turns")
PARSER_UNAVAILABLE = "LLM parser unavailable"
"""How the LLM parser notes that it failed and gave the rule-based parse instead."""


def parse_source(parse: Parse) -> str:
    """Where a turn's statements came from; ``fallback`` when the LLM parser failed over to the rules."""
    if any(note.startswith(PARSER_UNAVAILABLE) for note in parse.notes):
        return FALLBACK_SOURCE
    return parse.source


class TurnObserver:
    def __init__(self, metrics: Metrics, llm: LlmConfig, logging_settings: LoggingSettings):
        self.metrics = metrics
        self.llm = llm
        self.include_content = logging_settings.include_content

    def metered(self, build: Callable[[Any], Any]) -> Callable[[Any], Any]:
        """``build`` (spec -> agent) whose agents report each LLM call here."""
        def build_metered(spec: Any) -> Any:
            agent = build(spec)
            meter_llm_clients(agent, self.llm_call)
            return agent
        return build_metered

    def llm_call(self, record: CallRecord) -> None:
        self.metrics.llm_call(record, self.llm.cost(record.model, record.prompt_tokens, record.completion_tokens))

    def finished(self, trace: TraceRow, usage: TurnUsage) -> None:
        """A turn was committed (or its failure recorded): count it and write its log line."""
        self.metrics.turn(trace)
        cost = sum(self.llm.cost(r.model, r.prompt_tokens, r.completion_tokens) for r in usage.records)
        if log.isEnabledFor(logging.INFO):
            record = turn_record(trace, cost, self.include_content)
            log.info("turn %s of %s: %s in %.0f ms", trace.turn, trace.session_key, trace.outcome,
                     trace.latencies.get("total", 0.0), extra={"fields": record})

    def lease_lost(self) -> None:
        self.metrics.lease_lost()
