"""Turns per second with a 200 ms LLM: ``python -m tests.benchmarks.throughput [--sessions 1000] [--threads N] [--url URL]``.

1,000 sessions of the shop agent (tests/engine/support.py) talk at once, on one engine process;
each user sends its 10 scripted messages one after the other, waiting for each reply. The
parser is a scripted LLM: it sleeps a fixed 200 ms (as a blocking LLM client would, in the
turn's worker thread) and returns the scripted statements, counting one LLM call per turn.
Each session confirms two orders, so the run includes confirmations and side-effecting API
calls. The figures are turns completed per second over the whole run, the per-turn latency
seen by the user (``handle_message``), whose floor is the 200 ms of the LLM, and the process's
CPU time per turn (all its threads): ``1000 / cpu_ms`` is the turns per second one core allows,
which on a busy machine says more than the wall-clock figure.

A turn holds one of the engine's turn threads for its whole LLM call (computing in one of a few
computing slots, given back while it waits: :mod:`genie_bot.engine.admission`), so throughput
is bounded by ``engine.turn_threads / 0.2 s`` (64 threads, the default: 320 turns/s) until the
CPU (turn overhead under the GIL) becomes the limit; ``--threads`` shows both regimes. With
``--url`` a PostgreSQL database, the run gets a schema of its own, dropped after.
"""

from __future__ import annotations

import argparse
import asyncio
import time
from contextlib import ExitStack
from dataclasses import replace

from genie_bot.agent import Agent
from genie_bot.config import EngineSettings
from genie_bot.engine import Engine, SessionKey
from genie_bot.llm import waiting
from tests.engine.conftest import postgres_schema
from tests.engine.load import script
from tests.engine.support import StatementParser, make_config

from .common import percentiles, scratch

LLM_SECONDS = 0.2


class ScriptedLlm(StatementParser):
    def parse(self, spec, state, text, today):
        with waiting():  # as the LLM client waits for a completion
            time.sleep(LLM_SECONDS)
        return replace(super().parse(spec, state, text, today), source="llm", llm_calls=1, prompt_tokens=900,
                       completion_tokens=30)


def build(spec):
    agent = Agent(spec)
    agent.parser = ScriptedLlm(agent.parser)
    return agent


async def run(url: str, shop, sessions: int, messages: int, threads: int) -> tuple[float, float, list[float]]:
    """(seconds, CPU seconds of this process, latencies in ms)."""
    config = make_config(url, shop, turn_threads=threads)
    latencies: list[float] = []

    async def user(session: int) -> None:
        key = SessionKey("bench", "T", "C", f"s{session}")
        for index, text in enumerate(script(session)[:messages]):
            started = time.perf_counter()
            replies = await engine.handle_message(key, f"u{session}", text, f"s{session}-m{index}")
            latencies.append((time.perf_counter() - started) * 1000)
            assert replies, "every message is answered"

    async with Engine(config, build_agent=build) as engine:
        started, cpu = time.perf_counter(), time.process_time()
        await asyncio.gather(*(user(s) for s in range(sessions)))
        return time.perf_counter() - started, time.process_time() - cpu, latencies


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--sessions", type=int, default=1000)
    parser.add_argument("--messages", type=int, default=10, help="messages per session (at most 10)")
    parser.add_argument("--threads", type=int, default=EngineSettings().turn_threads, help="engine.turn_threads")
    parser.add_argument("--url", help="database URL (default: a fresh SQLite file)")
    args = parser.parse_args()
    with ExitStack() as stack:
        url = args.url
        if url and url.startswith("postgresql"):
            url = stack.enter_context(postgres_schema(url))
        url, shop = scratch(url)
        elapsed, cpu, latencies = asyncio.run(run(url, shop, args.sessions, args.messages, args.threads))
    turns = len(latencies)
    print(f"store: {url.split(':')[0]}, {args.sessions} concurrent sessions x {args.messages} messages, "
          f"LLM {LLM_SECONDS * 1000:.0f} ms per turn, {args.threads} turn threads")
    print(f"{turns} turns in {elapsed:.1f} s: {turns / elapsed:.0f} turns/s "
          f"(thread bound {args.threads / LLM_SECONDS:.0f} turns/s)")
    print(f"CPU {cpu * 1000 / turns:.2f} ms per turn (this process, all threads): at most {turns / cpu:.0f} turns/s "
          f"on one core; the process used {cpu / elapsed:.2f} of a core")
    print(f"latency per message: {percentiles(latencies)}")


if __name__ == "__main__":
    main()
