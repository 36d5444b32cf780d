"""Time and memory of one interpreter run per hostile statement (tests/core/hostile.py).

``python -m tests.benchmarks.interpreter_bounds [--statements 5000] [--seed 1] [--max-ms 50] [--max-mb 64]
[--max-output-ratio 3]``

Each statement is timed (``time.perf_counter``, the best of three runs, so that a collection
or another process's burst on a shared machine is not counted as the statement's), then run
under tracemalloc for its peak. Prints the distribution, the slowest and the largest statements, and exits 1 when any
statement is over the bounds (the issue's: 50 ms, 64 MB). The fuzz test
(tests/core/test_interpreter_fuzz.py) asserts the memory bound and the accounting; time is
measured here, since a timed unit test would depend on the machine.

Then every hostile parser output (:func:`tests.core.hostile.hostile_parser_output`: the tuple DAG
assigned hundreds of times) is applied as a turn of :data:`~tests.core.hostile.HOSTILE_AGENT`, and
timed against an ordinary parser output of the interpreter's full length (850 assignments of
a short name) in the same run: none may cost more than ``--max-output-ratio`` times that.
"""

from __future__ import annotations

import argparse
import datetime as dt
import itertools
import random
import tempfile
import textwrap
import time
import tracemalloc
from pathlib import Path

from genie_bot.interpreter import Evaluator, InterpreterError, SafeFunction, Scope
from genie_bot.runtime import Runtime
from genie_bot.spec import load_agent
from tests.core.hostile import DAG_DEPTHS, DAG_USES, HOSTILE_AGENT, hostile_statement, shared_tuples

from .common import percentiles


REPEATED = ("for i in range(2000):\n    x = round(1, -99999)", "for i in range(2000):\n    x = round(1, -1233)")
"""Costly calls repeated up to the step limit (issue 38: 2,000 roundings to a huge power of ten)."""


def run_once(source: str) -> None:
    try:
        Evaluator(Scope({}, {"today": SafeFunction("today", lambda: dt.date(2026, 11, 21))})).run(source)
    except InterpreterError:
        pass


def timed_run(source: str) -> float:
    started = time.perf_counter()
    run_once(source)
    return (time.perf_counter() - started) * 1000


def parser_outputs(max_ratio: float) -> list[str]:
    """Each hostile parser output's time (best of three) against the ordinary full-length one; the over-long."""
    directory = Path(tempfile.mkdtemp(prefix="genie-bounds-"))
    (directory / "agent.yaml").write_text(textwrap.dedent(HOSTILE_AGENT).lstrip("\n"), encoding="utf-8")
    runtime = Runtime(load_agent(directory), clock=lambda: dt.datetime(2026, 11, 21, 12))

    def best_ms(source: str) -> float:
        runs = []
        for run in range(3):
            fresh = f"# {run}\n{source}"  # parsed and checked each time, never a cached tree
            started = time.perf_counter()
            runtime.run_turn(runtime.new_state(), fresh)
            runs.append((time.perf_counter() - started) * 1000)
        return min(runs)

    ordinary = best_ms("\n".join(["main.full_name = 'Ann'"] * 850))
    print(f"ordinary parser output of 850 assignments: {ordinary:.1f} ms")
    over = []
    for depth, uses in itertools.product(DAG_DEPTHS, DAG_USES):
        ms = best_ms(shared_tuples(depth, uses))
        print(f"  tuple DAG of depth {depth}, assigned {uses} times: {ms:7.1f} ms ({ms / ordinary:.2f}x)")
        if ms > max_ratio * ordinary:
            over.append(f"tuple DAG {depth} x {uses}")
    return over


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--statements", type=int, default=5000)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--max-ms", type=float, default=50.0)
    parser.add_argument("--max-mb", type=float, default=64.0)
    parser.add_argument("--max-output-ratio", type=float, default=3.0)
    args = parser.parse_args()
    rng = random.Random(args.seed)
    sources = list(dict.fromkeys([*REPEATED, *(hostile_statement(rng.choice) for _ in range(args.statements))]))
    timed, peaks = [], []
    for source in sources:
        timed.append((min(timed_run(source) for _ in range(3)), source))
        tracemalloc.start()
        run_once(source)
        peaks.append((tracemalloc.get_traced_memory()[1] / 1e6, source))
        tracemalloc.stop()
    print(f"{len(sources)} distinct statements (seed {args.seed})")
    print("time per statement:", percentiles([ms for ms, _ in timed]))
    print("peak memory per statement: max {:.2f} MB, p99 {:.2f} MB".format(
        max(mb for mb, _ in peaks), sorted(mb for mb, _ in peaks)[int(0.99 * len(peaks))]))
    for ms, source in sorted(timed, reverse=True)[:5]:
        print(f"  {ms:7.2f} ms  {source!r}")
    for mb, source in sorted(peaks, reverse=True)[:3]:
        print(f"  {mb:7.2f} MB  {source!r}")
    over = [s for ms, s in timed if ms > args.max_ms] + [s for mb, s in peaks if mb > args.max_mb]
    if over:
        print(f"{len(over)} statements over {args.max_ms:g} ms or {args.max_mb:g} MB")
    slow_outputs = parser_outputs(args.max_output_ratio)
    if slow_outputs:
        print(f"{len(slow_outputs)} parser outputs over {args.max_output_ratio:g}x the ordinary one: {slow_outputs}")
    if over or slow_outputs:
        raise SystemExit(1)


if __name__ == "__main__":
    main()
