"""Ordinary users under a burst of runaway messages: ``python -m tests.benchmarks.sandbox_burst
[--hostile 12] [--hostile-messages 2] [--ordinary 4] [--conversations 3]``.

One engine (this process, SQLite, the deployment's default sandbox limits: 2 s of CPU per
message, a budget of 4 s per user over 10 minutes) serves the shop agent of the engine tests.
``--ordinary`` users each hold ``--conversations`` three-message orders, one message after the
other's reply (statements as the parser's output, so no LLM is involved), first **alone**, then
during a **burst**: ``--hostile`` users each send ``--hostile-messages`` runaway messages at once (a
validation pattern that backtracks for minutes in one C call, in sessions of their own), just
before the ordinary users start.

Reported: the ordinary users' reply times (p50, p99, max) alone and in the burst, and the ratio of
the p99s (the target: at most 2); how the ordinary and the hostile messages ended (replied,
parked because stopped, parked over budget, refused as busy); and the CPU seconds of this process
and of the sandbox's workers during the burst.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import resource
import tempfile
import time
from collections import Counter
from pathlib import Path
from typing import Any

from genie_bot.engine import SessionKey
from tests.engine.support import ORDER, make_engine, prepare_database, write_shop
from tests.engine.test_poison_messages import POISON, POISONED_YAML

from .common import percentiles
from .sandbox_cost import worker_cpu

RUNAWAY = POISON.replace("order_0.code", "order_0 = Order(code") + ")"
"""A new order whose code the agent's validation pattern takes minutes to refuse."""
PARKED_WORDS = {"set it aside": "parked", "set this one aside": "parked over budget",
                "too much to work out": "busy"}


def outcome(replies: list[Any]) -> str:
    text = " ".join(reply.text for reply in replies)
    return next((kind for words, kind in PARKED_WORDS.items() if words in text), "replied")


async def ordinary_user(engine: Any, user: int, conversations: int, label: str, times: list[float],
                        ends: Counter) -> None:
    for conversation in range(conversations):
        key = SessionKey("slack", "T1", f"C-{label}-{user}", f"{conversation}.0")
        for index, statement in enumerate(ORDER):
            started = time.perf_counter()
            replies = await engine.handle_message(key, f"U{user}", statement, f"{label}-{user}-{conversation}-{index}")
            times.append((time.perf_counter() - started) * 1000)
            ends[outcome(replies)] += 1


async def hostile_user(engine: Any, user: int, messages: int, ends: Counter) -> None:
    async def one(n: int) -> None:
        key = SessionKey("slack", "T1", f"C-hostile-{user}", f"{n}.0")
        ends[outcome(await engine.handle_message(key, f"H{user}", RUNAWAY, f"h-{user}-{n}"))] += 1
    await asyncio.gather(*(one(n) for n in range(messages)))


async def scenario(url: str, shop: Path, args: argparse.Namespace) -> dict[str, Any]:
    async with make_engine(url, shop) as engine:
        await asyncio.gather(*(ordinary_user(engine, n, 1, "warm", [], Counter())  # workers started, caches filled
                               for n in range(args.ordinary)))
        alone: list[float] = []
        alone_ends: Counter = Counter()
        await asyncio.gather(*(ordinary_user(engine, n, args.conversations, "alone", alone, alone_ends)
                               for n in range(args.ordinary)))
        burst: list[float] = []
        burst_ends: Counter = Counter()
        hostile_ends: Counter = Counter()
        own, workers, children = time.process_time(), worker_cpu(), _children_cpu()
        hostile = [asyncio.create_task(hostile_user(engine, n, args.hostile_messages, hostile_ends))
                   for n in range(args.hostile)]
        await asyncio.sleep(0.05)  # the runaways are sent first
        await asyncio.gather(*(ordinary_user(engine, n, args.conversations, "burst", burst, burst_ends)
                               for n in range(args.ordinary)))
        ordinary_done = time.perf_counter()
        await asyncio.gather(*hostile)
        return {
            "ordinary_reply_ms_alone": percentiles(alone), "ordinary_reply_ms_in_burst": percentiles(burst),
            "p99_ratio": round(_p99(burst) / _p99(alone), 2),
            "ordinary_outcomes_alone": dict(alone_ends), "ordinary_outcomes_in_burst": dict(burst_ends),
            "hostile_outcomes": dict(hostile_ends),
            "burst_cpu_s": {"process": round(time.process_time() - own, 2),
                            "workers": round(worker_cpu() - workers + _children_cpu() - children, 2)},
            "hostile_done_after_ordinary_s": round(time.perf_counter() - ordinary_done, 1),
        }


def _p99(times: list[float]) -> float:
    return sorted(times)[min(len(times) - 1, int(0.99 * len(times)))]


def _children_cpu() -> float:
    """CPU seconds of the workers that ended (killed runaways: no longer in /proc)."""
    used = resource.getrusage(resource.RUSAGE_CHILDREN)
    return used.ru_utime + used.ru_stime


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--hostile", type=int, default=12)
    parser.add_argument("--hostile-messages", type=int, default=2)
    parser.add_argument("--ordinary", type=int, default=4)
    parser.add_argument("--conversations", type=int, default=3)
    args = parser.parse_args()
    directory = Path(tempfile.mkdtemp(prefix="genie-burst-"))
    url = f"sqlite:///{directory / 'genie.sqlite3'}"
    prepare_database(url)
    shop = write_shop(directory / "shop", POISONED_YAML)
    print(json.dumps(asyncio.run(scenario(url, shop, args)), indent=2))


if __name__ == "__main__":
    main()
