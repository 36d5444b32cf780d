"""Turns admitted at once: the configured maximum while the event loop is on time, fewer while it is late."""

from __future__ import annotations

import asyncio

from genie_bot.engine.admission import LATE_SECONDS, MINIMUM, TurnAdmission

from .support import run


def test_a_late_loop_shrinks_the_limit_and_turns_beyond_it_wait_until_it_grows_back():
    async def scenario():
        admission = TurnAdmission(maximum=10)
        for _ in range(20):
            admission.observe(LATE_SECONDS * 2)
        shrunk = admission.limit
        held = [admission.slot() for _ in range(shrunk)]
        for slot in held:
            await slot.__aenter__()
        waiting = asyncio.create_task(_take(admission))
        await asyncio.sleep(0.01)
        blocked = not waiting.done()
        admission.observe(0.0)  # on time again: one more slot
        await asyncio.wait_for(waiting, 1)
        for slot in held:
            await slot.__aexit__(None, None, None)
        grown = [_observe(admission, 0.0) for _ in range(20)][-1]
        return shrunk, blocked, grown, admission.running

    shrunk, blocked, grown, running = run(scenario())
    assert shrunk == MINIMUM and blocked
    assert grown == 10 and running == 0  # never above the configured maximum


def test_a_loop_neither_late_nor_quite_on_time_keeps_the_limit():
    async def scenario():
        admission = TurnAdmission(maximum=10)
        admission.observe(LATE_SECONDS * 2)
        before = admission.limit
        admission.observe(LATE_SECONDS / 2)
        return before, admission.limit

    assert run(scenario()) == (8, 8)


def test_a_maximum_below_the_minimum_is_kept():
    async def scenario():
        admission = TurnAdmission(maximum=2)
        admission.observe(LATE_SECONDS * 2)
        return admission.limit

    assert run(scenario()) == 2


async def _take(admission: TurnAdmission) -> None:
    async with admission.slot():
        pass


def _observe(admission: TurnAdmission, lag: float) -> int:
    admission.observe(lag)
    return admission.limit


def test_waiting_turns_get_slots_first_come_first_served_and_a_cancelled_one_gives_its_place_up():
    order = []

    async def scenario():
        admission = TurnAdmission(maximum=1)
        first = admission.slot()
        await first.__aenter__()
        waiters = [asyncio.create_task(_take_noting(admission, name, order)) for name in ("a", "b", "c")]
        await asyncio.sleep(0.01)
        waiters[1].cancel()
        late = admission.slot()  # arrives while others wait: it must not jump the line
        late_task = asyncio.create_task(_enter_noting(late, "late", order))
        await first.__aexit__(None, None, None)
        await asyncio.gather(waiters[0], waiters[2], late_task, return_exceptions=True)
        return admission.running

    assert run(scenario()) == 0
    assert order == ["a", "c", "late"]


async def _take_noting(admission: TurnAdmission, name: str, order: list[str]) -> None:
    async with admission.slot():
        order.append(name)
        await asyncio.sleep(0)


async def _enter_noting(slot, name: str, order: list[str]) -> None:
    await slot.__aenter__()
    order.append(name)
    await slot.__aexit__(None, None, None)
