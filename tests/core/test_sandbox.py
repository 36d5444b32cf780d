"""The sandbox applies statements in worker processes exactly as this thread would, and stops them
from outside: past the CPU limit (the kernel kills the worker), past the memory limit (a
MemoryError in the worker), and a worker that cannot start fails the turn without blaming its message."""

from __future__ import annotations

import datetime as dt
import sys

import pytest

from genie_bot.runtime import Runtime
from genie_bot.runtime.isolation import EvaluationAbandoned, sandboxed
from genie_bot.runtime.sandbox import Sandbox, SandboxLimits, SandboxUnavailable, WorkerPool
from genie_bot.spec import load_agent

from .agents import ORDER_AGENT, ORDER_API, ORDER_FILES

NOON = dt.datetime(2026, 11, 21, 12, 0)


@pytest.fixture
def runtime(make_agent) -> Runtime:
    return Runtime(load_agent(make_agent(ORDER_AGENT, ORDER_API, ORDER_FILES)), clock=lambda: NOON)


def test_statements_applied_in_a_worker_change_the_state_as_in_this_thread(runtime):
    statements = "order = Order(dish='Pasta')\norder.note = 'no onions' * 2\nmissing.x = 1"
    here = runtime.run_turn(runtime.new_state(), statements)
    with sandboxed(Sandbox()):
        there = runtime.run_turn(runtime.new_state(), statements)
    assert there.state.to_json() == here.state.to_json()
    assert (there.errors, there.acts) == (here.errors, here.acts) and there.errors


def test_a_statement_past_the_cpu_limit_is_stopped_by_the_kernel(make_agent):
    runtime = Runtime(load_agent(make_agent(POISONED_ORDER)), clock=lambda: NOON)
    with sandboxed(Sandbox(SandboxLimits(cpu_seconds=0.5))), pytest.raises(EvaluationAbandoned) as stopped:
        runtime.run_turn(runtime.new_state(), "order = Order(code='" + "x" * 50 + "')")
    assert stopped.value.reason == "it used more than 0.5 s of CPU time"


def test_a_statement_past_the_memory_limit_is_stopped(runtime):
    """Three texts of 400 kB alive at once, with 1 MB allowed: the third cannot be made."""
    texts = ", ".join(f"'\\U0001F600' * {100_000 - n}" for n in range(3))
    with sandboxed(Sandbox(SandboxLimits(memory_mb=1))), pytest.raises(EvaluationAbandoned) as stopped:
        runtime.run_turn(runtime.new_state(), f"order = Order(dish='Pasta', note=[{texts}])")
    assert stopped.value.reason == "it needed more than 1 MB of memory"


def test_a_worker_that_cannot_start_fails_the_turn_without_parking_it(runtime, monkeypatch):
    monkeypatch.setattr(sys, "executable", "/bin/false")
    with sandboxed(Sandbox(pool=WorkerPool())), pytest.raises(SandboxUnavailable, match="did not start"):
        runtime.run_turn(runtime.new_state(), "order = Order(dish='Pasta')")


POISONED_ORDER = """
name: orders
description: Orders food.
tasks:
  - name: Order
    description: order food
    fields:
      - {name: dish, type: enum, values: [Pizza, Pasta], description: the dish}
      - {name: code, type: str, required: false, dont_ask: true, validation: {pattern: '(x+)+y'}}
"""
"""Matching fifty x's against the code's pattern takes 2**50 steps in one C call."""
