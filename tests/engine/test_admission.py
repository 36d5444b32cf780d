"""Turns computing at once: a few at most, any number waiting for their LLM calls meanwhile; a turn back
from its call computes before new turns start, and new turns start in the order they came. The limit
grows while the event loop is on time and turns wait, and shrinks while it is late, never below the
minimum."""

from __future__ import annotations

import asyncio
import threading
import time
from collections.abc import Callable

from genie_bot.engine import Engine, SessionKey
from genie_bot.engine.admission import LATE_SECONDS, MAXIMUM, MINIMUM, TurnAdmission
from genie_bot.engine.turns import APOLOGY
from genie_bot.llm import waiting, waits_in

from .support import build_agent, make_config, run


def started(target: Callable[[], None]) -> threading.Thread:
    thread = threading.Thread(target=target, daemon=True)
    thread.start()
    return thread


def until(condition: Callable[[], bool], timeout: float = 10.0) -> None:
    """Wait for another thread to get somewhere (no timing is asserted: only the order of events)."""
    deadline = time.monotonic() + timeout
    while not condition():
        assert time.monotonic() < deadline, "the other thread never got there"
        time.sleep(0.001)


def test_turns_beyond_the_limit_wait_and_take_the_slots_in_the_order_they_came():
    admission = TurnAdmission(limit=2)
    release = {"a": threading.Event(), "b": threading.Event()}
    order: list[str] = []
    most = []

    def turn(name: str) -> None:
        with admission.turn():
            order.append(name)
            most.append(admission.computing)
            if name in release:
                release[name].wait()

    holders = [started(lambda n=n: turn(n)) for n in ("a", "b")]
    until(lambda: admission.computing == 2)
    queued = []
    for name in ("c", "d", "e"):
        queued.append(started(lambda n=name: turn(n)))
        until(lambda n=len(queued): admission.waiting == n)
    assert order == ["a", "b"]
    release["a"].set()  # one slot frees: c, d and e take it one after the other, in the order they came
    for thread in queued:
        thread.join(10)
    assert order == ["a", "b", "c", "d", "e"] and max(most) == 2
    release["b"].set()
    holders[1].join(10)
    assert (admission.computing, admission.waiting) == (0, 0)


def test_a_turn_waiting_for_its_llm_gives_its_slot_and_gets_one_back_before_new_turns():
    admission = TurnAdmission(limit=1)
    answered = threading.Event()
    order: list[str] = []

    def asking() -> None:
        with admission.turn(), waits_in(admission.waits):
            order.append("asking computes")
            with waiting():  # the LLM call
                answered.wait()
            order.append("asking computes again")

    def new(name: str) -> None:
        with admission.turn():
            order.append(name)
            if name == "new 1":
                answered.set()  # the completion arrives while "new 1" computes
                until(lambda: admission.waiting == 2)  # "asking" is back, behind "new 1", beside "new 2"

    first = started(asking)
    until(lambda: "asking computes" in order and admission.computing == 0)
    one = started(lambda: new("new 1"))
    until(lambda: answered.is_set())
    two = started(lambda: new("new 2"))
    for thread in (first, one, two):
        thread.join(10)
    assert order == ["asking computes", "new 1", "asking computes again", "new 2"]


def test_an_on_time_loop_lets_more_turns_compute_while_some_wait_and_a_late_one_fewer_down_to_the_minimum():
    admission = TurnAdmission()
    assert admission.limit == MINIMUM
    admission.observe(0.0)
    assert admission.limit == MINIMUM, "nobody waits: no reason to grow"
    release = threading.Event()

    def turn() -> None:
        with admission.turn():
            release.wait()

    threads = [started(turn) for _ in range(MINIMUM + 2)]
    until(lambda: admission.computing == MINIMUM and admission.waiting == 2)
    admission.observe(0.0)  # on time, turns waiting: one more slot, handed to the first in line
    assert (admission.limit, admission.computing, admission.waiting) == (MINIMUM + 1, MINIMUM + 1, 1)
    admission.observe(LATE_SECONDS * 2)  # late: the limit shrinks; the running turns go on
    admission.observe(LATE_SECONDS * 2)
    assert (admission.limit, admission.computing, admission.waiting) == (MINIMUM, MINIMUM + 1, 1)
    for _ in range(3 * MAXIMUM):
        admission.observe(LATE_SECONDS * 2)
    assert admission.limit == MINIMUM, "never fewer than the minimum, however late the loop"
    release.set()
    for thread in threads:
        thread.join(10)
    assert (admission.computing, admission.waiting) == (0, 0)
    crowded, done = TurnAdmission(), threading.Event()

    def crowding() -> None:
        with crowded.turn():
            done.wait()

    threads = [started(crowding) for _ in range(2 * MAXIMUM)]
    until(lambda: crowded.waiting == 2 * MAXIMUM - MINIMUM)
    for _ in range(2 * MAXIMUM):
        crowded.observe(0.0)
    assert (crowded.limit, crowded.computing) == (MAXIMUM, MAXIMUM), "never more than the maximum"
    done.set()
    for thread in threads:
        thread.join(10)


def test_waiting_outside_a_turn_is_plain_waiting():
    with waiting():
        pass


def test_an_engine_runs_more_turns_at_once_than_it_lets_compute(store_url, shop, monkeypatch):
    """Every turn's parser waits (as for an LLM) until all of them are waiting: with one computing slot
    and eight sessions, that only happens if each gives its slot back while it waits."""
    sessions = 8
    all_waiting = threading.Barrier(sessions, timeout=20)

    def build(spec):
        agent = build_agent(spec)
        rules = agent.parser

        class Waits:
            def parse(self, *args):
                with waiting():
                    all_waiting.wait()
                return rules.parse(*args)

        agent.parser = Waits()
        return agent

    monkeypatch.setattr("genie_bot.engine.engine.TurnAdmission", lambda: TurnAdmission(limit=1, maximum=1))

    async def main():
        async with Engine(make_config(store_url, shop), build_agent=build) as engine:
            replies = await asyncio.gather(*(engine.handle_message(SessionKey("t", "T", "C", str(n)), "u",
                                                                   "order_0.dish = 'Pizza'", f"e{n}")
                                             for n in range(sessions)))
            return [r.text for (r,) in replies], engine.admission.computing

    texts, computing = run(main())
    assert not all_waiting.broken, "the turns were never all waiting at once"
    assert not any(APOLOGY in text for text in texts) and computing == 0
