"""Repeated deliveries of one event to a process are recorded once, without another database write."""

from __future__ import annotations

import asyncio

import pytest

from genie_bot.engine.deliveries import REMEMBERED_FOR, RecentDeliveries
from genie_bot.engine.engine import utcnow

from .support import run


def test_a_delivery_repeated_while_the_first_records_waits_for_it_and_is_a_duplicate():
    writes = []

    async def scenario():
        recent = RecentDeliveries(utcnow)
        gate = asyncio.Event()

        async def record():
            writes.append("insert")
            await gate.wait()
            return True

        first = asyncio.create_task(recent.record_once(("slack", "Ev1"), record))
        await asyncio.sleep(0)
        again = asyncio.create_task(recent.record_once(("slack", "Ev1"), record))
        await asyncio.sleep(0.01)
        assert not again.done()  # no answer before the first recording is known
        gate.set()
        later = await recent.record_once(("slack", "Ev1"), record)
        return await first, await again, later

    assert run(scenario()) == (True, False, False)
    assert writes == ["insert"]


def test_after_a_failed_recording_the_next_delivery_records_again():
    attempts = []

    async def scenario():
        recent = RecentDeliveries(utcnow)

        async def record():
            attempts.append(len(attempts))
            if len(attempts) == 1:
                raise ConnectionError("database unreachable")
            return True

        with pytest.raises(ConnectionError):
            await recent.record_once(("slack", "Ev1"), record)
        return await recent.record_once(("slack", "Ev1"), record)

    assert run(scenario()) is True and attempts == [0, 1]


def test_only_the_most_recent_events_are_remembered():
    async def scenario():
        recent = RecentDeliveries(utcnow, capacity=2)

        async def record():
            return True

        for event in ("Ev1", "Ev2", "Ev3"):
            await recent.record_once(("slack", event), record)
        return [await recent.record_once(("slack", e), record) for e in ("Ev1", "Ev3")]

    assert run(scenario()) == [True, False]  # Ev1 was forgotten: the database decides (here: new)


def test_a_delivery_after_minutes_is_left_to_the_database():
    now = [utcnow()]

    async def scenario():
        recent = RecentDeliveries(lambda: now[0])

        async def record():
            return True

        first = await recent.record_once(("slack", "Ev1"), record)
        now[0] += REMEMBERED_FOR
        return first, await recent.record_once(("slack", "Ev1"), record)

    assert run(scenario()) == (True, True)
