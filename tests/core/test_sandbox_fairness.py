"""The sandbox's pool serves its users fairly under a burst: one call at a time per user, users in
turn, long calls (runaways) make room for ordinary ones, a user over their CPU budget is refused,
and a full queue refuses at once. Real worker processes; a runaway is a validation pattern that
backtracks for minutes in one C call, so only the kernel's CPU limit ends it."""

from __future__ import annotations

import threading
import time
from collections.abc import Callable
from typing import Any

import pytest

from genie_bot.runtime import Runtime
from genie_bot.runtime.isolation import EvaluationAbandoned, OverBudget, SandboxBusy, sandboxed
from genie_bot.runtime.sandbox import Sandbox, SandboxLimits, WorkerPool
from genie_bot.spec import load_agent

from .test_sandbox import NOON, POISONED_ORDER

RUNAWAY = "order = Order(code='" + "x" * 50 + "')"
ORDINARY = "order = Order(dish='Pasta')"
WAIT = 120.0
"""Seconds any step may take before the test fails (a loaded machine is slow, never this slow)."""


@pytest.fixture
def runtime(make_agent) -> Runtime:
    return Runtime(load_agent(make_agent(POISONED_ORDER)), clock=lambda: NOON)


class Caller:
    """One call of ``party`` in a thread of its own: its outcome, and the order calls ended in."""

    def __init__(self, runtime: Runtime, sandbox: Sandbox, party: str, source: str, ended: list[str]):
        self.outcome: Any = None
        self.name = f"{party}:{source[:12]}"

        def run() -> None:
            try:
                with sandboxed(sandbox.serving(party)):
                    self.outcome = runtime.run_turn(runtime.new_state(), source)
            except Exception as exc:  # noqa: BLE001 - the outcome under test
                self.outcome = exc
            ended.append(self.name)

        self.thread = threading.Thread(target=run, daemon=True)
        self.thread.start()

    def result(self) -> Any:
        self.thread.join(WAIT)
        assert not self.thread.is_alive(), f"{self.name} never ended"
        return self.outcome


def until(probe: Callable[[], bool], what: str) -> None:
    deadline = time.monotonic() + WAIT
    while not probe():
        assert time.monotonic() < deadline, f"never: {what}"
        time.sleep(0.005)


def runaway_running(runtime: Runtime, pool: WorkerPool, limits: SandboxLimits) -> tuple[Sandbox, list[str], Caller]:
    """A sandbox on ``pool``, the calls that ended, and a runaway of "hostile" that became long."""
    sandbox = Sandbox(limits, pool)
    ended: list[str] = []
    runaway = Caller(runtime, sandbox, "hostile", RUNAWAY, ended)
    until(lambda: pool.running() == [("hostile", True)], "the runaway is long")
    return sandbox, ended, runaway


def test_a_users_calls_run_one_at_a_time_and_another_user_is_served_first(runtime):
    pool = WorkerPool(max_workers=1, max_long=0)
    sandbox, ended, runaway = runaway_running(runtime, pool, SandboxLimits(cpu_seconds=1.0))
    second = Caller(runtime, sandbox, "hostile", ORDINARY, ended)
    until(lambda: pool.waiting() == ["hostile"], "the hostile user's second call waits")
    other = Caller(runtime, sandbox, "ordinary", ORDINARY, ended)
    until(lambda: pool.waiting() == ["hostile", "ordinary"], "the other user's call waits")
    assert isinstance(runaway.result(), EvaluationAbandoned)
    assert not other.result().errors and not second.result().errors
    assert ended == [runaway.name, other.name, second.name]  # the user who used little went first
    assert pool.used("hostile") >= 1.0 > pool.used("ordinary")


def test_long_calls_make_room_so_ordinary_calls_never_wait_behind_them(runtime):
    pool = WorkerPool(max_workers=1, max_long=1)
    sandbox, ended, runaway = runaway_running(runtime, pool, SandboxLimits(cpu_seconds=2.0))
    ordinary = Caller(runtime, sandbox, "ordinary", ORDINARY, ended)
    assert not ordinary.result().errors
    assert runaway.thread.is_alive() and ended == [ordinary.name]
    assert isinstance(runaway.result(), EvaluationAbandoned)


def test_a_user_past_their_cpu_budget_is_refused_while_others_are_served(runtime):
    sandbox = Sandbox(SandboxLimits(cpu_seconds=0.5, cpu_budget_seconds=0.5, budget_window_seconds=3600),
                      WorkerPool())
    hostile, ordinary = sandbox.serving("hostile"), sandbox.serving("ordinary")
    with sandboxed(hostile), pytest.raises(EvaluationAbandoned) as stopped:
        runtime.run_turn(runtime.new_state(), RUNAWAY)
    assert not isinstance(stopped.value, OverBudget)
    with sandboxed(hostile), pytest.raises(OverBudget, match="used 0.5 s of CPU time in the last 3600 s"):
        runtime.run_turn(runtime.new_state(), ORDINARY)
    with sandboxed(ordinary):
        assert not runtime.run_turn(runtime.new_state(), ORDINARY).errors


def test_the_builders_own_commands_have_no_budget(runtime):
    """``chat``, ``test`` and ``replay`` call as no party: a long replay is not a user hogging the bot."""
    sandbox = Sandbox(SandboxLimits(cpu_seconds=0.5, cpu_budget_seconds=0.5, budget_window_seconds=3600),
                      WorkerPool())
    with sandboxed(sandbox), pytest.raises(EvaluationAbandoned):
        runtime.run_turn(runtime.new_state(), RUNAWAY)
    with sandboxed(sandbox):
        assert not runtime.run_turn(runtime.new_state(), ORDINARY).errors


def test_a_call_finding_the_queue_full_is_refused_at_once(runtime):
    pool = WorkerPool(max_workers=1, max_long=0)
    sandbox, ended, runaway = runaway_running(runtime, pool, SandboxLimits(cpu_seconds=1.0, max_waiting=1))
    waiting = Caller(runtime, sandbox, "first", ORDINARY, ended)
    until(lambda: pool.waiting() == ["first"], "a call waits")
    with sandboxed(sandbox.serving("second")), pytest.raises(SandboxBusy, match="1 calls are waiting"):
        runtime.run_turn(runtime.new_state(), ORDINARY)
    assert ended == []  # refused without waiting for anything
    assert isinstance(runaway.result(), EvaluationAbandoned) and not waiting.result().errors
