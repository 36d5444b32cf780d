"""The Prometheus metrics of one engine process.

Each :class:`Metrics` has a registry of its own (not prometheus_client's global one), so
several engines can live in one process (tests) and ``/metrics`` shows exactly this one.
Counters and histograms count what this process did; the two gauges read the shared
database when scraped, so every replica reports the same cluster-wide value (aggregate them
with ``max``, not ``sum``).
"""

from __future__ import annotations

from collections.abc import Mapping

from prometheus_client import CollectorRegistry, Counter, Gauge, Histogram, generate_latest
from prometheus_client.exposition import CONTENT_TYPE_LATEST

from ..llm.account import CallRecord
from ..store.traces import TraceRow

CONTENT_TYPE = CONTENT_TYPE_LATEST
STAGES = ("queue", "load", "parse", "runtime", "respond", "confirmations", "total")
"""The latencies a turn trace records (ms): waiting in the inbox, loading the state, the parser
(LLM), interpreter + policy, the responder (LLM), planning confirmations, and the whole turn."""
SECONDS = (0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1.0, 2.5, 5.0, 10.0, 30.0)
FALLBACK_SOURCE = "fallback"
"""The parse source of a turn whose LLM parser failed, so the rule-based parse was used."""
_FALLBACK_ROLES = ("responder", "knowledge")
"""Roles whose failed call is answered by their offline counterpart (templates, keyword query)."""


class Metrics:
    def __init__(self) -> None:
        self.registry = CollectorRegistry()
        r = self.registry
        self.turns = Counter("genie_turns", "Turns run, by agent, kind (message|action) and outcome "
                             "(ok|refused|failed|interrupted)", ["agent", "kind", "outcome"], registry=r)
        self.stage_seconds = Histogram("genie_turn_stage_seconds", "Time per turn stage (see STAGES)", ["stage"],
                                       buckets=SECONDS, registry=r)
        self.parses = Counter("genie_parses", "Messages parsed, by parse source (rules|llm|fast-path|fallback|...)",
                              ["source"], registry=r)
        self.llm_calls = Counter("genie_llm_calls", "LLM calls by role, model and result (ok or the failure kind)",
                                 ["role", "model", "result"], registry=r)
        self.llm_tokens = Counter("genie_llm_tokens", "LLM tokens by role, model and direction (prompt|completion)",
                                  ["role", "model", "direction"], registry=r)
        self.llm_cost = Counter("genie_llm_cost_usd", "Estimated LLM cost in USD (llm.prices)", ["role", "model"],
                                registry=r)
        self.llm_seconds = Histogram("genie_llm_call_seconds", "LLM call latency, retries included", ["role"],
                                     buckets=SECONDS, registry=r)
        self.errors = Counter("genie_errors", "Errors by kind: turn_failed, interrupted, parked (a message set "
                              "aside), statement (rejected by the interpreter), lease_lost, llm_<kind>", ["kind"], registry=r)
        self.fallbacks = Counter("genie_fallbacks", "LLM failures answered by the offline counterpart, by component "
                                 "(parser|responder|knowledge)", ["component"], registry=r)
        self.pending_actions = Gauge("genie_pending_actions", "Pending actions by status (whole database)",
                                     ["status"], registry=r)
        self.active_sessions = Gauge("genie_active_sessions", "Sessions with a conversation in progress "
                                     "(whole database), by agent", ["agent"], registry=r)
        self.turn_limit = Gauge("genie_turn_limit", "Turns this process lets compute at once (4 to 16: more while "
                                "its event loop is on time and turns wait; turns waiting for their LLM calls do "
                                "not count)", registry=r)
        self.turns_computing = Gauge("genie_turns_computing", "Turns computing now in this process (at most a few; "
                                     "turns waiting for their LLM calls are not counted)", registry=r)
        self.turns_waiting_to_compute = Gauge("genie_turns_waiting_to_compute", "Turns of this process waiting "
                                              "for one of the computing slots", registry=r)

    def turn(self, trace: TraceRow) -> None:
        self.turns.labels(trace.agent or "", trace.kind, trace.outcome).inc()
        for stage in STAGES:
            if stage in trace.latencies:
                self.stage_seconds.labels(stage).observe(trace.latencies[stage] / 1000)
        if trace.kind == "message" and trace.parse_source:
            self.parses.labels(trace.parse_source).inc()
        if trace.parse_source == FALLBACK_SOURCE:
            self.fallbacks.labels("parser").inc()
        if trace.outcome in ("failed", "interrupted", "parked"):
            self.errors.labels({"failed": "turn_failed"}.get(trace.outcome, trace.outcome)).inc()
        elif trace.errors:
            self.errors.labels("statement").inc(sum(not e.startswith("migrated from") for e in trace.errors))

    def llm_call(self, record: CallRecord, cost_usd: float) -> None:
        self.llm_calls.labels(record.role, record.model, record.error or "ok").inc()
        self.llm_tokens.labels(record.role, record.model, "prompt").inc(record.prompt_tokens)
        self.llm_tokens.labels(record.role, record.model, "completion").inc(record.completion_tokens)
        self.llm_cost.labels(record.role, record.model).inc(cost_usd)
        self.llm_seconds.labels(record.role).observe(record.latency_ms / 1000)
        if record.error is not None:
            self.errors.labels(f"llm_{record.error}").inc()
            if record.role in _FALLBACK_ROLES:
                self.fallbacks.labels(record.role).inc()

    def lease_lost(self) -> None:
        self.errors.labels("lease_lost").inc()

    def database_state(self, pending_by_status: Mapping[str, int], active_by_agent: Mapping[str, int]) -> None:
        """Set the gauges read from the database (at each scrape)."""
        for gauge, values in ((self.pending_actions, pending_by_status), (self.active_sessions, active_by_agent)):
            gauge.clear()
            for label, value in values.items():
                gauge.labels(label).set(value)

    def render(self) -> bytes:
        return generate_latest(self.registry)
