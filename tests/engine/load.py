"""A concurrent workload: many sessions, each message delivered out of order and more than once.

Each session sends :func:`script` (10 messages, two confirmed orders). Its messages are
delivered in bursts of 1-3 consecutive messages; a burst is handed to the engine in shuffled
order, all at once (as a platform hands over the messages it holds), and some deliveries are
repeated, either at once or after the message was answered. The next burst starts when this
process's deliveries of the burst are answered, as a user would wait for the bot.

Handed over together, a burst runs in message order however loaded the machine is: the engine
records every message handed to it before it chooses a session's next one (no window needed).
Real-time gaps between deliveries would make the order depend on how soon this event loop gets
back to the next delivery, which under CPU load can exceed any window. Across two processes,
``WINDOW_MS`` covers the time between one process recording its burst's messages one after the
other while the other process, draining the session, chooses.

Run alone, ``python -m tests.engine.load URL AGENT_DIR SEED OUT`` drives the same workload from
another process (two engines sharing one database) once a line arrives on stdin, and writes what
each delivery got to OUT.
"""

from __future__ import annotations

import asyncio
import json
import random
import sys
from collections import defaultdict
from pathlib import Path

from genie_bot.engine import Engine, SessionKey
from genie_bot.runtime import KnowledgeUnavailable

from .support import build_agent, make_engine

SESSIONS = 200
WINDOW_MS = 1500
"""Two processes: generous, as on a loaded 2-core machine recording a delivery can lag by hundreds of ms."""
TURN_THREADS = 8
"""The parser here costs no time, so turns are pure CPU: a few threads do as much work as many, and
leave the event loop (which delivers the messages) its share of the interpreter."""


def script(session: int) -> list[str]:
    name = f"user{session}"
    return ["order_0.dish = 'Pizza'", "order_0.count = 2", f"order_0.name = '{name}'", "order_0.confirmed = True",
            "order_1 = Order(dish='Pasta')", "order_1.count = 3", f"order_1.name = '{name}'", "order_1.count = 4",
            "order_1.confirmed = True", "# thanks!"]


def session_key(session: int) -> SessionKey:
    return SessionKey("slack", "T1", "C-load", f"thread-{session}")


def event_id(session: int, index: int) -> str:
    return f"s{session}-m{index}"


def plan(session: int, rng: random.Random) -> list[list[int]]:
    """Bursts of message indexes, in delivery order; repeated indexes are duplicates."""
    bursts, index, previous = [], 0, []
    while index < 10:
        size = min(rng.randint(1, 3), 10 - index)
        burst = list(range(index, index + size))
        burst += [i for i in burst if rng.random() < 0.2]  # repeated at once
        burst += [i for i in previous if rng.random() < 0.2]  # repeated after it was answered
        rng.shuffle(burst)
        bursts.append(burst)
        previous, index = burst, index + size
    return bursts


async def drive(engine: Engine, sessions: int, seed: int) -> dict[str, list[int]]:
    """Run the workload; returns event id -> number of replies each of its deliveries got."""
    got: dict[str, list[int]] = defaultdict(list)

    async def one_session(session: int) -> None:
        rng = random.Random(seed * 100_003 + session)
        messages = script(session)
        for burst in plan(session, rng):
            deliveries = [(index, asyncio.create_task(engine.handle_message(
                session_key(session), f"user{session}", messages[index], event_id(session, index),
                sequence=index + 1))) for index in burst]
            for index, task in deliveries:
                got[event_id(session, index)].append(len(await task))

    await asyncio.gather(*(one_session(s) for s in range(sessions)))
    return dict(got)


class _Orders:
    """What the shop's ``place_order`` returns, without its side effect (for the sequential run)."""

    def call_api(self, request):
        return {"order_id": f"{request.args['dish']}-{request.args['count']}-{request.args['name']}"}

    def query_knowledge(self, answer):
        raise KnowledgeUnavailable("not needed")


def sequential_states(spec, sessions: int) -> dict[str, str]:
    """Each session's final state when its messages run one after the other, in order."""
    agent = build_agent(spec)
    out = {}
    for session in range(sessions):
        state = agent.new_state()
        for text in script(session):
            state = agent.respond(state, text, _Orders()).state
        out[str(session_key(session))] = state.to_json()
    return out


async def _main(url: str, agent_dir: str, seed: int, out: str) -> None:
    async with make_engine(url, Path(agent_dir), ordering_window_ms=WINDOW_MS, turn_threads=TURN_THREADS) as engine:
        print("ready", flush=True)
        await asyncio.to_thread(sys.stdin.readline)  # "go": both processes start delivering together
        got = await drive(engine, SESSIONS, seed)
    Path(out).write_text(json.dumps(got), encoding="utf-8")


if __name__ == "__main__":
    asyncio.run(_main(sys.argv[1], sys.argv[2], int(sys.argv[3]), sys.argv[4]))
