"""One statement costs a bounded amount of work and memory, however it is written.

Each shape below took seconds to minutes, or tried to allocate gigabytes, in one step of the
interpreter before operations were priced ahead of running (:mod:`genie_bot.interpreter.costs`).
Memory is measured with tracemalloc and work by the evaluator's own accounting, never by the clock.
"""

from __future__ import annotations

import datetime as dt
import tracemalloc

import pytest

from genie_bot.interpreter import Evaluator, InterpreterError, Limits, SafeFunction, Scope, TooLarge

MEMORY_BOUND = 8_000_000  # bytes one statement may allocate at its peak

HUGE_LIST = "l = ['a' * 100000] * 100000\n"
TWO_LONG = "l = ['a' * 50000 + 'b', 'a' * 50000 + 'c'] * 50000\n"

REFUSED = [
    HUGE_LIST + "x = ''.join(l)",
    "s = 'a' * 100000\nx = s.replace('a', s)",
    HUGE_LIST + "x = str(l)",
    HUGE_LIST + "x = f'{l}'",
    HUGE_LIST + "x = f'{l!r}'",
    HUGE_LIST + "x = '%s' % (l,)",
    "x = f'{1:999999999}'",
    "x = f'{1.5:.999999999f}'",
    "x = '%999999999d' % 1",
    "x = '%.999999999f' % 1.5",
    "x = '%*d' % (999999999, 1)",
    "x = '%(a)s' * 50000 % {'a': 'x' * 1000}",
    "s = 'a' * 100000\nx = s * 100000",
    "x = [0] * 100000 * 100000",
    "x = sum([[1] * 1000] * 100, [])",
    TWO_LONG + "x = sorted(l)",
    TWO_LONG + "x = max(l)",
    TWO_LONG + "x = l.count('a' * 50000 + 'd')",
    TWO_LONG + "x = ('a' * 50000 + 'd') in l",
    TWO_LONG + "m = ['a' * 50000 + 'b', 'a' * 50000 + 'c'] * 50000\nx = l == m",
    "x = [1].index(['a' * 100000] * 100000)",
    "s = 'a' * 100000\nl = []\nfor i in range(3000):\n    l.append(s + str(i))",
    "l = []\nl.append(l)\nx = str(l)",
    "k = ('a' * 100000,) * 1000\nx = {}[k]",
    "x = today().strftime('%999999999Y')",
    "x = today().strftime('%Y' * 10000)",
    "x = sorted(range(10 ** 9))",
    # C calls that held the GIL for minutes in one step (issue 28)
    "x = {}.get(((1,) * 100000,) * 100000)",
    "x = {'a': 1}.get(((1,) * 100000,) * 100000, 0)",
    "x = round(1, -10 ** 8)",
    "x = round(1, -3000000)",
    "x = ('a' * 1000).startswith(('a' * 1000,) * 100000)",
    "x = ('a' * 1000).endswith(('a' * 1000,) * 100000)",
    "x = int('f' * 99990, 16) // 7",
    "x = int('9' * 2000)",
    "x = '%(a(b)c)999999999s' % {'a(b)c': '\U0001F600'}",
    "x = '%(a)(b)999999999s' % {'a)(b': 'x'}",
    "x = ('a' * 100000).strip('b' * 99999 + 'a')",
    "y = 'a' * 100000\nd = {1: y, 2: y, 3: y}\nx = str(d.values())",
]


def run(source: str) -> Evaluator:
    evaluator = Evaluator(Scope({}, {"today": SafeFunction("today", lambda: dt.date(2026, 11, 21))}))
    evaluator.run(source)
    return evaluator


@pytest.mark.parametrize("source", REFUSED)
def test_amplifying_statements_are_refused_before_they_allocate(source):
    tracemalloc.start()
    try:
        with pytest.raises(InterpreterError) as info:
            run(source)
        peak = tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()
    assert peak < MEMORY_BOUND, f"{source!r} allocated {peak} bytes before it was refused: {info.value}"
    assert info.value.reason  # a reason a parser can act on


@pytest.mark.parametrize("source, expected", [
    ("x = 'ab'.replace('a', 'xyz')", "xyzb"),
    ("x = '-'.join(['a', 'b', 'c'])", "a-b-c"),
    ("x = f'{3.14159:>10.2f}'", "      3.14"),
    ("x = '%05d|%-4s|%.1f' % (42, 'ab', 2.25)", "00042|ab  |2.2"),
    ("x = str([1, 'a', None])", "[1, 'a', None]"),
    ("x = sorted(['b', 'a'] * 3)", ["a", "a", "a", "b", "b", "b"]),
    ("x = today().strftime('%d %B %Y')", "21 November 2026"),
    ("x = 'straße'.upper()", "STRASSE"),
    ("x = {1, 1, 2}", [1, 2]),
    ("x = {'a': 1}.get('a')", 1),
    ("x = {'a': 1}.get('b', 0)", 0),
    ("x = sorted({'b': 1, 'a': 2}.keys())", ["a", "b"]),
    ("x = {'a': 1}.items()", [("a", 1)]),
    ("x = round(1234, -2)", 1200),
    ("x = round(2.675, 2)", 2.67),
    ("x = int('ff', 16) + int(' 42 ')", 297),
    ("x = 'abc'.startswith(('x', 'a')) and 'abc'.endswith('c')", True),
    ("x = '%(a(b)c)5s|%(d)s' % {'a(b)c': 'x', 'd': 1}", "    x|1"),
    ("x = ' x. '.strip(' .')", "x"),
])
def test_ordinary_operations_still_work(source, expected):
    assert run(source).scope.names["x"] == expected


def test_every_callable_has_a_cost_model_and_others_are_refused():
    from genie_bot.interpreter.allowed import BUILTINS, METHODS

    assert all(function.cost is not None for function in BUILTINS.values())
    samples = {str: "text", list: [1], dict: {"k": 1}, dt.datetime: dt.datetime(2026, 11, 21, 9, 30),
               dt.date: dt.date(2026, 11, 21), dt.time: dt.time(9, 30)}
    scope = Scope({})
    for kind, value in samples.items():
        for name in dir(value):
            if name.startswith("_") or name in ("year", "month", "day", "hour", "minute", "second"):
                continue  # data attributes
            if any(name in METHODS.get(k, {}) for k in kind.__mro__):
                assert scope.get_attr(value, name).cost is not None, f"{kind.__name__}.{name}"
            else:
                with pytest.raises(InterpreterError, match="no attribute|has no field"):
                    scope.get_attr(value, name)


def test_work_is_counted_per_run_and_refused_beyond_the_budget():
    source = "s = 'a' * 10000\nfor i in range(50):\n    t = s + s"
    assert run(source).work > 50 * 20_000
    with pytest.raises(TooLarge, match="too much work"):
        Evaluator(Scope({}), Limits(max_work=100_000)).run(source)


@pytest.mark.parametrize("digits", [99999, 1233])
def test_rounding_to_a_huge_power_of_ten_over_and_over_is_refused_early(digits):
    """``round(1, -n)`` 2,000 times: refused at once beyond the largest number allowed, and within the
    work budget below it (the division is quadratic in the digits), long before the step limit."""
    evaluator = Evaluator(Scope({}))
    with pytest.raises(TooLarge) as refused:
        evaluator.run(f"for i in range(2000):\n    x = round(1, -{digits})")
    assert evaluator.steps < Limits().max_steps // 4
    assert "too large" in str(refused.value) if digits == 99999 else "too much work" in str(refused.value)


def test_errors_quote_values_briefly():
    with pytest.raises(InterpreterError) as info:
        run("k = ('a' * 1000,) * 90\nx = {'b': 1}[k]")
    assert len(str(info.value)) < 400


def test_a_parser_statement_cannot_store_or_render_a_huge_value(make_agent):
    from genie_bot.runtime import Runtime
    from genie_bot.spec import load_agent

    from .agents import ORDER_AGENT, ORDER_API, ORDER_FILES

    runtime = Runtime(load_agent(make_agent(ORDER_AGENT, ORDER_API, ORDER_FILES)),
                      clock=lambda: dt.datetime(2026, 11, 21))
    result = runtime.run_turn(runtime.new_state(), "order = Order(dish='Pasta')\n"
                              "order.note = str(['n' * 100000] * 100000)\norder.name = ['n' * 100000] * 1000")
    assert "note" not in result.state.instances["order"].values
    assert "name" not in result.state.instances["order"].values
    assert any("too large" in e for e in result.errors) or any("too large" in r.reason for r in result.update.rejected)


def test_a_parser_output_of_thousands_of_failing_statements_stops_after_fifty(make_agent):
    from genie_bot.runtime import Runtime
    from genie_bot.runtime.statements import MAX_FAILED_STATEMENTS
    from genie_bot.spec import load_agent

    from .agents import ORDER_AGENT, ORDER_API, ORDER_FILES

    runtime = Runtime(load_agent(make_agent(ORDER_AGENT, ORDER_API, ORDER_FILES)),
                      clock=lambda: dt.datetime(2026, 11, 21))
    result = runtime.run_turn(runtime.new_state(), "order = Order(dish='Pasta')\n" + "é.y = 1\n" * 2400)
    assert len(result.errors) == MAX_FAILED_STATEMENTS + 1
    assert result.errors[0].startswith("é.y = 1: line 2: unknown instance 'é'")  # quoted by UTF-8 offsets
    assert result.errors[-1] == "more than 50 statements failed; the rest were not applied"
    assert result.state.instances["order"].values == {"dish": "Pasta"}


def test_values_measured_for_their_fields_are_work_of_the_run_and_refusals_count_as_failures(make_agent):
    """The tuple DAG: each ``main.full_name = (a, a)`` is one cheap step, but the value has 2**13
    leaves. Measuring it is charged to the run, so after a few refusals the rest are refused
    without measuring, and after fifty refusals the output stops."""
    from genie_bot.runtime import Runtime
    from genie_bot.runtime.statements import MAX_FAILED_STATEMENTS
    from genie_bot.spec import load_agent

    from .hostile import HOSTILE_AGENT, shared_tuples

    runtime = Runtime(load_agent(make_agent(HOSTILE_AGENT)), clock=lambda: dt.datetime(2026, 11, 21))
    result = runtime.run_turn(runtime.new_state(), shared_tuples(12, 780))
    reasons = [r.reason for r in result.update.rejected]
    assert len(reasons) == MAX_FAILED_STATEMENTS
    assert result.errors == ["more than 50 statements failed; the rest were not applied"]
    measured = [r for r in reasons if "too large to handle" in r]
    assert 1 <= len(measured) <= 3 and all("work left" in r for r in reasons[len(measured) + 1:])
    assert all("full_name" not in i.values for i in result.state.instances.values())
