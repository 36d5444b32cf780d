"""``genie-bot bench``: per-turn cost of the deterministic core (interpreter + policy).

Replays a recorded trace many times and reports the distribution of turn times. API calls
go to a no-op executor so the figures measure the runtime, not the agent's I/O.
"""

from __future__ import annotations

import statistics
import time
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from .agent import Agent
from .replay import read_trace
from .runtime import ApiRequest, KnowledgeResult, Runtime
from .spec import AgentSpec
from .state import KnowledgeAnswer

DEFAULT_TRACE = Path("tests") / "bench.jsonl"


class NullExecutor:
    """Answers every API call and knowledge query instantly with an empty result."""

    def call_api(self, request: ApiRequest) -> Any:
        return {}

    def query_knowledge(self, answer: KnowledgeAnswer) -> KnowledgeResult:
        return KnowledgeResult(None, [])


@dataclass
class BenchFigures:
    turns: int
    median_ms: float
    p90_ms: float
    p99_ms: float
    max_ms: float

    def lines(self) -> list[str]:
        return [f"turns measured: {self.turns}",
                f"interpreter+policy per turn: median {self.median_ms:.3f} ms, p90 {self.p90_ms:.3f} ms, "
                f"p99 {self.p99_ms:.3f} ms, max {self.max_ms:.3f} ms"]


def _figures(timings: list[float]) -> BenchFigures:
    timings = sorted(timings)
    pick = lambda q: timings[min(len(timings) - 1, int(q * len(timings)))]  # noqa: E731
    return BenchFigures(len(timings), statistics.median(timings), pick(0.9), pick(0.99), timings[-1])


def bench_runtime(spec: AgentSpec, trace: Path, repeat: int = 200) -> BenchFigures:
    """Interpreter + policy per turn, applying each trace line's recorded ``parse``."""
    lines = read_trace(trace)
    runtime = Runtime(spec, NullExecutor())
    timings: list[float] = []
    for _ in range(repeat):
        state = runtime.new_state()
        for line in lines:
            start = time.perf_counter()
            state = runtime.run_turn(state, line.get("parse", "")).state
            timings.append((time.perf_counter() - start) * 1000)
    return _figures(timings)


def bench_offline(spec: AgentSpec, trace: Path, repeat: int = 50) -> tuple[BenchFigures, BenchFigures]:
    """(rule-based parse per utterance, whole offline turn: parse + runtime + templated reply)."""
    lines = read_trace(trace)
    agent = Agent(spec, executor=NullExecutor())
    parse_ms: list[float] = []
    turn_ms: list[float] = []
    for _ in range(repeat):
        state = agent.new_state()
        for line in lines:
            start = time.perf_counter()
            reply = agent.respond(state, line["user"])
            turn_ms.append((time.perf_counter() - start) * 1000)
            parse_ms.append(reply.latencies_ms["parse"])
            state = reply.state
    return _figures(parse_ms), _figures(turn_ms)
