"""200 concurrent sessions x 10 messages, duplicated and reordered deliveries, one or two engine processes.

One engine needs no ordering window: the messages it was handed are all recorded before it
chooses; two need one for the time between their deliveries (see :mod:`.load`).

Every message is answered exactly once (by exactly one of its deliveries), the turns of each
session run in message order, each session ends in the state a sequential run reaches, and
every confirmed order is placed exactly once.
"""

from __future__ import annotations

import asyncio
import json
import subprocess
import sys
from collections import Counter

import pytest
from sqlalchemy import select

from genie_bot.spec import load_agent
from genie_bot.store import Database
from genie_bot.store.schema import sessions, turns

from .conftest import REPO
from .load import SESSIONS, TURN_THREADS, WINDOW_MS, drive, event_id, sequential_states
from .support import calls, make_engine, prepare_database


def check(url: str, shop, answered: dict[str, list[int]]) -> None:
    expected_ids = {event_id(s, i) for s in range(SESSIONS) for i in range(10)}
    assert set(answered) == expected_ids
    assert {e: sum(counts) for e, counts in answered.items() if sum(counts) != 1} == {}
    assert all(c in (0, 1) for counts in answered.values() for c in counts)

    db = Database(url)
    with db.read() as conn:
        order: dict[str, list[str]] = {}
        for key, event, outcome in conn.execute(select(turns.c.session_key, turns.c.event_id, turns.c.outcome)
                                                .order_by(turns.c.id)):
            assert outcome == "ok"
            order.setdefault(key, []).append(event)
        states = dict(conn.execute(select(sessions.c.key, sessions.c.state)).all())
    db.dispose()
    assert all(events == [f"{events[0].split('-')[0]}-m{i}" for i in range(10)] for events in order.values())
    assert len(order) == SESSIONS
    assert states == sequential_states(load_agent(shop), SESSIONS)

    placed = calls()
    assert len(placed) == 2 * SESSIONS and len({c["key"] for c in placed}) == 2 * SESSIONS
    assert Counter((c["name"], c["count"]) for c in placed) == Counter(
        pair for s in range(SESSIONS) for pair in ((f"user{s}", 2), (f"user{s}", 4)))


def test_one_engine_many_sessions(store_url, shop):
    async def scenario():
        async with make_engine(store_url, shop, turn_threads=TURN_THREADS) as engine:
            return await drive(engine, SESSIONS, seed=1)

    check(store_url, shop, asyncio.run(scenario()))


@pytest.mark.postgres
def test_two_engine_processes_share_the_sessions(pg_url, shop, tmp_path):
    prepare_database(pg_url)
    out = tmp_path / "child.json"

    async def scenario():
        child = await asyncio.create_subprocess_exec(
            sys.executable, "-m", "tests.engine.load", pg_url, str(shop), "2", str(out), cwd=REPO,
            stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.PIPE)
        ready = await asyncio.wait_for(child.stdout.readline(), timeout=120)
        assert ready == b"ready\n", (await child.stderr.read()).decode()[-3000:]
        async with make_engine(pg_url, shop, ordering_window_ms=WINDOW_MS, turn_threads=TURN_THREADS) as engine:
            child.stdin.write(b"go\n")
            await child.stdin.drain()
            mine = await drive(engine, SESSIONS, seed=1)
        _, stderr = await child.communicate()
        assert child.returncode == 0, stderr.decode()[-3000:]
        return mine

    mine = asyncio.run(scenario())
    theirs = json.loads(out.read_text())
    both = {e: mine.get(e, []) + theirs.get(e, []) for e in {*mine, *theirs}}
    assert sum(map(sum, mine.values())) > 0 and sum(map(sum, theirs.values())) > 0  # both engines ran turns
    check(pg_url, shop, both)
