"""Engine overhead per turn, LLM excluded: ``python -m tests.benchmarks.engine_overhead [--turns N] [--url URL]``.

Sessions of the shop agent (tests/engine/support.py) send their 10 scripted messages one at
a time through ``Engine.handle_message``; parser output is given as statements, so no LLM is
involved. For every turn it reports the time ``handle_message`` took end to end, the part
spent in the agent itself (parse + interpreter/policy + responder, from the turn trace), and
the difference: the engine's overhead (recording the event, claiming the session, loading and
saving the state, confirmation bookkeeping, the turn trace, thread hand-offs). SQLite by
default.
"""

from __future__ import annotations

import argparse
import asyncio
import time

from sqlalchemy import select

from genie_bot.engine import SessionKey
from genie_bot.store.schema import turns
from tests.engine.load import script
from tests.engine.support import make_engine

from .common import percentiles, scratch

AGENT_STAGES = ("parse", "runtime", "respond")


async def measure(url: str, shop, sessions: int) -> tuple[list[float], list[float]]:
    totals: dict[str, float] = {}
    async with make_engine(url, shop) as engine:
        for _ in range(20):  # warm-up: imports, caches, connection pool
            await engine.handle_message(SessionKey("bench", "w", "w"), "u", "# warm up", f"w{time.perf_counter_ns()}")
        for session in range(sessions):
            key = SessionKey("bench", "T", "C", f"s{session}")
            for index, text in enumerate(script(session)):
                event = f"s{session}-m{index}"
                started = time.perf_counter()
                await engine.handle_message(key, "u", text, event)
                totals[event] = (time.perf_counter() - started) * 1000
        with engine.db.read() as conn:
            import json
            agent = {row.event_id: sum(json.loads(row.latencies).get(s, 0.0) for s in AGENT_STAGES)
                     for row in conn.execute(select(turns.c.event_id, turns.c.latencies))}
    events = [e for e in totals if e in agent]
    return [totals[e] for e in events], [totals[e] - agent[e] for e in events]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--sessions", type=int, default=100)
    parser.add_argument("--url", help="database URL (default: a fresh SQLite file)")
    args = parser.parse_args()
    url, shop = scratch(args.url)
    total, overhead = asyncio.run(measure(url, shop, args.sessions))
    print(f"store: {url.split(':')[0]}, turns: {len(total)} ({args.sessions} sessions x 10 messages, one at a time)")
    print(f"handle_message end to end:     {percentiles(total)}")
    print(f"engine overhead (minus agent): {percentiles(overhead)}")


if __name__ == "__main__":
    main()
