"""Fuzzing the interpreter with statements built to be expensive (:mod:`.hostile`): whatever it
is given, one run allocates at most a few megabytes (tracemalloc's peak) and stays within its
step and work accounting, and any refusal is an InterpreterError with a reason; parser output
whose cost lies in applying it (values measured for their fields) stops after the failures it
may have. Time is measured by tests/benchmarks/interpreter_bounds.py, not here."""

from __future__ import annotations

import datetime as dt
import textwrap
import tracemalloc

import pytest

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from genie_bot.interpreter import Evaluator, InterpreterError, Limits, SafeFunction, Scope
from genie_bot.runtime import Runtime
from genie_bot.runtime.statements import MAX_FAILED_STATEMENTS
from genie_bot.spec import load_agent

from .hostile import HOSTILE_AGENT, hostile_parser_output, hostile_statement

MEMORY_BOUND = 16_000_000
"""Bytes one statement may hold at its peak (the issue's bound is 64 MB)."""
LIMITS = Limits()


def run_bounded(source: str) -> tuple[Evaluator, int, InterpreterError | None]:
    """Run ``source``; its evaluator, the peak bytes allocated while it ran, and its error if any."""
    evaluator = Evaluator(Scope({}, {"today": SafeFunction("today", lambda: dt.date(2026, 11, 21))}), LIMITS)
    tracemalloc.reset_peak()
    start = tracemalloc.get_traced_memory()[0]
    try:
        evaluator.run(source)
        error = None
    except InterpreterError as exc:
        error = exc
    peak = tracemalloc.get_traced_memory()[1] - start
    return evaluator, peak, error


@settings(max_examples=2000, deadline=None, suppress_health_check=list(HealthCheck))
@given(st.data())
def test_no_statement_exceeds_its_memory_and_work_bounds(data):
    source = hostile_statement(lambda options: data.draw(st.sampled_from(options)))
    tracemalloc.start()
    try:
        evaluator, peak, error = run_bounded(source)
    finally:
        tracemalloc.stop()
    assert peak < MEMORY_BOUND, f"{source!r} held {peak} bytes"
    assert evaluator.steps <= LIMITS.max_steps + 1
    if error is None:
        assert evaluator.work <= LIMITS.max_work
    else:
        assert error.reason


@pytest.fixture(scope="module")
def hostile_runtime(tmp_path_factory) -> Runtime:
    directory = tmp_path_factory.mktemp("hostile")
    (directory / "agent.yaml").write_text(textwrap.dedent(HOSTILE_AGENT).lstrip("\n"), encoding="utf-8")
    return Runtime(load_agent(directory), clock=lambda: dt.datetime(2026, 11, 21, 12))


@settings(max_examples=60, deadline=None, suppress_health_check=list(HealthCheck))
@given(data=st.data())
def test_no_parser_output_fails_more_than_its_cap_or_exceeds_its_memory_bound(data, hostile_runtime):
    source = hostile_parser_output(lambda options: data.draw(st.sampled_from(options)))
    tracemalloc.start()
    try:
        result = hostile_runtime.run_turn(hostile_runtime.new_state(), source)
        peak = tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()
    assert peak < MEMORY_BOUND, f"{source[:80]!r} held {peak} bytes"
    assert len(result.update.rejected) + len(result.errors) <= MAX_FAILED_STATEMENTS + 1
