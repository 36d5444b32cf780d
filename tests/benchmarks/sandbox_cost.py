"""What the sandbox costs a turn: ``python -m tests.benchmarks.sandbox_cost [--rounds 20] [--agents ticket_submission]``.

Each example agent's recorded conversation (``tests/bench.jsonl``) is run turn by turn, in rounds
that alternate the two ways of applying statements, so that a busy machine slows both alike:

- **in-thread**: as conversation tests run them, in the calling thread;
- **sandboxed**: as the engine runs them (:mod:`genie_bot.runtime.sandbox`), in a worker process.

Two kinds of turn: a **statement application** (the trace's recorded parse applied by the runtime,
the offline turn's part that goes to the sandbox) and an **LLM-mode turn** (the LLM parser, its
model a scripted OpenAI-compatible server on loopback answering with the recorded parse, the fast
path off, so that its trial runs are checked as a weak model's would be; template replies).

Reported per turn: CPU time of this process (``time.process_time``) and of the sandbox's workers
(``/proc``), median of the rounds, in-thread against sandboxed; the sandbox's added CPU; and the
sandbox calls per turn. Works on any version with ``Sandbox``/``WorkerPool.call`` (to compare
before and after, run it in both checkouts).
"""

from __future__ import annotations

import argparse
import datetime as dt
import json
import os
import statistics
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager, nullcontext
from typing import Any

from genie_bot.agent import Agent
from genie_bot.llm import make_client
from genie_bot.parsers.llm import LLMParser
from genie_bot.replay import read_trace
from genie_bot.runtime import Runtime
from genie_bot.runtime.isolation import sandboxed
from genie_bot.runtime.sandbox import Sandbox
from genie_bot.spec import load_agent
from tests.conftest import WORKSHEETS
from tests.fakes.openai_server import ScriptedOpenAIServer
from tests.llm.conftest import make_settings

AGENTS = tuple(sorted(path.parent.parent.name for path in WORKSHEETS.glob("*/tests/bench.jsonl")))
"""The example agents with a recorded conversation."""
NOON = dt.datetime(2026, 11, 21, 12)
TICKS = os.sysconf("SC_CLK_TCK")


def worker_cpu() -> float:
    """CPU seconds used so far by this process's children (the sandbox workers), from /proc."""
    total = 0
    pids = []
    for task in os.listdir("/proc/self/task"):
        try:
            with open(f"/proc/self/task/{task}/children", encoding="ascii") as children:
                pids += children.read().split()
        except OSError:  # the thread ended meanwhile
            continue
    for pid in pids:
        try:
            with open(f"/proc/{pid}/stat", encoding="ascii") as stat:
                fields = stat.read().rsplit(")", 1)[1].split()
        except OSError:
            continue
        total += int(fields[11]) + int(fields[12])  # utime, stime
    return total / TICKS


class Counted:
    """Counts the calls the sandbox's pool serves."""

    def __init__(self, sandbox: Sandbox):
        self.calls = 0
        call = sandbox.pool.call

        def counted(*args: Any, **kwargs: Any) -> Any:
            self.calls += 1
            return call(*args, **kwargs)

        sandbox.pool.call = counted  # type: ignore[method-assign]


@contextmanager
def measured(figures: dict[str, list[float]], turns: int) -> Iterator[None]:
    """Adds this process's and the workers' CPU milliseconds per turn of the block to ``figures``."""
    own, workers = time.process_time(), worker_cpu()
    yield
    figures["process"].append((time.process_time() - own) * 1000 / turns)
    figures["workers"].append((worker_cpu() - workers) * 1000 / turns)


def conversation(agent_name: str) -> tuple[Any, list[dict[str, Any]]]:
    directory = WORKSHEETS / agent_name
    return load_agent(directory), read_trace(directory / "tests" / "bench.jsonl")


def applications(spec: Any, lines: list[dict[str, Any]]) -> Callable[[], int]:
    """One pass of the trace's parses applied by the runtime; the number of applications."""
    runtime = Runtime(spec, clock=lambda: NOON)
    parses = [line.get("parse", "") for line in lines]

    def run() -> int:
        state = runtime.new_state()
        for parse in parses:
            state = runtime.run_turn(state, parse).state
        return sum(1 for parse in parses if parse.strip())
    return run


def llm_turns(spec: Any, lines: list[dict[str, Any]], server: ScriptedOpenAIServer) -> Callable[[], int]:
    """One pass of the conversation in LLM mode, the model answering with the recorded parses."""
    agent = Agent(spec, clock=lambda: NOON)
    agent.parser = LLMParser(make_client(make_settings(server)), agent.parser, fast_path=False)

    def run() -> int:
        state = agent.new_state()
        for line in lines:
            server.enqueue(line.get("parse") or "# nothing yet")
            state = agent.respond(state, line["user"]).state
        return len(lines)
    return run


def compare(run: Callable[[], int], sandbox: Sandbox, counter: Counted, rounds: int) -> dict[str, Any]:
    here: dict[str, list[float]] = {"process": [], "workers": []}
    there: dict[str, list[float]] = {"process": [], "workers": []}
    turns = run()  # warm: caches, the worker's copy of the spec
    with sandboxed(sandbox):
        run()
    calls_before = counter.calls
    for _ in range(rounds):
        for figures, context in ((here, nullcontext()), (there, sandboxed(sandbox))):
            with context, measured(figures, turns):
                run()
    in_thread = statistics.median(here["process"])
    process, workers = statistics.median(there["process"]), statistics.median(there["workers"])
    return {"in_thread_ms": round(in_thread, 3), "sandboxed_process_ms": round(process, 3),
            "sandboxed_workers_ms": round(workers, 3), "added_process_ms": round(process - in_thread, 3),
            "added_total_ms": round(process + workers - in_thread, 3),
            "sandbox_calls_per_turn": round((counter.calls - calls_before) / (rounds * turns), 2)}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--rounds", type=int, default=20)
    parser.add_argument("--agents", default=",".join(AGENTS))
    args = parser.parse_args()
    sandbox = Sandbox()
    counter = Counted(sandbox)
    report: dict[str, Any] = {}
    with ScriptedOpenAIServer() as server:
        for name in args.agents.split(","):
            spec, lines = conversation(name)
            report[name] = {
                "statement_application": compare(applications(spec, lines), sandbox, counter, args.rounds),
                "llm_mode_turn": compare(llm_turns(spec, lines, server), sandbox, counter, max(2, args.rounds // 4)),
            }
            print(json.dumps({name: report[name]}), flush=True)
    print(json.dumps(report, indent=2))


if __name__ == "__main__":
    main()
