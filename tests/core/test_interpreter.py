"""The safe interpreter: what it evaluates, what it rejects and why, and that it cannot be escaped."""

from __future__ import annotations

import datetime as dt

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from genie_bot.interpreter import Evaluator, InterpreterError, Limits, SafeFunction, Scope, StepLimitExceeded


def evaluate(source: str, **names):
    return Evaluator(Scope(names)).evaluate(source)


def run(source: str, **names) -> Scope:
    scope = Scope(names)
    Evaluator(scope).run(source)
    return scope


@pytest.mark.parametrize("source, expected", [
    ("1 + 2 * 3", 7),
    ("'a' + 'b'", "ab"),
    ("[1, 2][1]", 2),
    ("{'a': 1}['a']", 1),
    ("x if x > 2 else 0", 3),
    ("not x == 3 or x in [1, 2]", False),
    ("len('abc') + max(1, 2)", 5),
    ("r.name.upper()", "ZAZIE"),
    ("r.get('missing', 'd')", "d"),
    ("f'{x:.1f} items of {r.name}'", "3.0 items of Zazie"),
    ("d.year", 2026),
    ("1 < x <= 3", True),
    ("sorted([3, 1, 2])[:2]", [1, 2]),
])
def test_evaluates_the_whitelisted_subset(source, expected):
    assert evaluate(source, x=3, r={"name": "Zazie"}, d=dt.date(2026, 11, 21)) == expected


@pytest.mark.parametrize("source, expected", [("(later - d).days", 44), ("(later - d).total_seconds()", 44 * 86400),
                                              ("(later - d).days <= 90 and later >= d", True)])
def test_a_difference_of_dates_gives_its_days(source, expected):
    """A validation such as "(value - self.first_day).days <= 90" reads the days between two dates."""
    assert evaluate(source, d=dt.date(2026, 11, 21), later=dt.date(2027, 1, 4)) == expected


def test_statements_loops_and_branches():
    scope = run("total = 0\nfor i in range(5):\n    if i == 3:\n        continue\n    total += i\nout = total")
    assert scope.names["out"] == 7


@pytest.mark.parametrize("source, reason", [
    ("__import__('os')", "names starting with '_' are not allowed ('__import__')"),
    ("().__class__.__bases__", "attributes starting with '_' are not allowed ('__bases__')"),
    ("x.__class__", "attributes starting with '_' are not allowed ('__class__')"),
    ("import os", "imports are not allowed"),
    ("from os import path", "imports are not allowed"),
    ("exec('1')", "'exec' is not available"),
    ("eval('1')", "'eval' is not available"),
    ("open('/etc/passwd')", "'open' is not available"),
    ("getattr(x, 'a')", "'getattr' is not available"),
    ("type(x)", "'type' is not available"),
    ("lambda: 1", "lambda is not allowed"),
    ("def f(): pass", "defining functions is not allowed"),
    ("class A: pass", "defining classes is not allowed"),
    ("while True: pass", "while loops are not allowed (use for over a list)"),
    ("[i for i in range(3)]", "comprehensions are not allowed (use for)"),
    ("(i for i in range(3))", "generators are not allowed"),
    ("try:\n    x\nexcept Exception:\n    pass", "try blocks are not allowed"),
    ("with x: pass", "with blocks are not allowed"),
    ("del x", "del is not allowed"),
    ("global x", "global is not allowed"),
    ("f(*x)", "star arguments are not allowed"),
    ("f(**x)", "** arguments are not allowed"),
    ("(y := 1)", "the walrus operator is not allowed"),
    ("'{0.__class__}'.format(x)", "'str' value has no attribute 'format'"),
    ("x.mro()", "'int' value has no attribute 'mro'"),
    ("a, b = 1, 2", "only assignments to a name or an attribute are allowed"),
    ("x[0] = 1", "only assignments to a name or an attribute are allowed"),
    ("'a' * 10**9", "repetition result is too large"),
    ("'a' * 100000000", "repetition result is too large"),
    ("10 ** 10 ** 10", "power is too large"),
    ("range(10**9)", "range() is too large (at most 10000 items)"),
    ("1 / 0", "ZeroDivisionError: division by zero"),
    ("nope", "unknown name 'nope'"),
    ("x()", "'int' value is not callable"),
    ("b'bytes'", "bytes and ... constants are not allowed"),
    ("1 +", "syntax error: invalid syntax"),
    ("continue", "'continue' outside a loop"),
    ("if x:\n    break", "'break' outside a loop"),
])
def test_rejections_carry_a_reason(source, reason):
    with pytest.raises(InterpreterError) as info:
        run(source, x=3)
    assert info.value.reason == reason


def test_huge_loops_hit_the_step_limit():
    with pytest.raises(StepLimitExceeded, match="more than 10000 steps"):
        run("for i in range(10000):\n    for j in range(10000):\n        pass")
    with pytest.raises(StepLimitExceeded):
        Evaluator(Scope(), Limits(max_steps=50)).run("x = 0\nfor i in range(100):\n    x += 1")


def test_exponential_growth_is_capped():
    with pytest.raises(InterpreterError, match="too large"):
        run("x = 2\nfor i in range(100):\n    x = x * x")
    with pytest.raises(InterpreterError, match="too large"):
        run("s = 'ab'\nfor i in range(100):\n    s = s + s")


def test_deep_nesting_is_rejected_cleanly():
    for source in ["(" * 300 + ")" * 300, "-" * 5000 + "1", "[" * 100 + "]" * 100, "not " * 1000 + "x",
                   "a." * 2000 + "b", "x" + "+x" * 5000]:
        with pytest.raises(InterpreterError):
            run(source, x=1)


def test_only_safe_functions_are_callable():
    called = []
    scope = Scope({"raw": print}, {"ok": SafeFunction("ok", lambda v: called.append(v))})
    Evaluator(scope).run("ok(1)")
    assert called == [1]
    with pytest.raises(InterpreterError, match="is not callable"):
        Evaluator(scope).run("raw('leak')")


def test_attribute_assignment_needs_a_scope_that_allows_it():
    with pytest.raises(InterpreterError, match="cannot set attribute"):
        run("x.y = 1", x={"y": 0})


# -- fuzzing ---------------------------------------------------------------------------------------------
class _Tripwire:
    """Names whose use would show that something outside the whitelist ran."""

    touched: list[str] = []


def _dangerous(name: str):
    def fn(*args, **kwargs):
        _Tripwire.touched.append(name)
    return fn


FRAGMENTS = [
    "x", "y", "self", "answer", "'a'", "1", "10**9", "[]", "{}", "()", "None", "True", ".", ".__class__", "._x",
    ".upper", "(", ")", "[", "]", "{", "}", ",", ":", "=", "+", "*", "**", "-", "not ", " and ", " or ", " if ",
    " else ", " for ", " in ", "import ", "lambda", "__import__", "eval", "exec", "open", "os", "sys", "globals",
    "getattr", "range", "len", "str", "\n", "    ", "#", "'''", '"', "\\", "f'{x}'", "@", ";", "while ", "yield",
    "Course(", "name=", ")\n", "x.y = 1", "del ", "format", "mro", "__subclasses__", "__builtins__", "print",
]


@settings(max_examples=3000, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.lists(st.sampled_from(FRAGMENTS), max_size=25))
def test_fuzz_fragments_never_escape(fragments):
    _run_adversarial("".join(fragments))


@settings(max_examples=1000, deadline=None)
@given(st.text(max_size=200))
def test_fuzz_random_text_never_escapes(source):
    _run_adversarial(source)


def _run_adversarial(source: str) -> None:
    _Tripwire.touched.clear()
    scope = Scope({"x": 3, "y": {"a": [1, 2]}, "self": {"name": "n"}},
                  {"answer": SafeFunction("answer", lambda *a, **k: "ok"),
                   "Course": SafeFunction("Course", lambda **k: k)})
    scope.names["os"] = _dangerous("os")  # a plain callable: calling it must be refused
    try:
        Evaluator(scope, Limits(max_steps=2000)).run(source)
    except InterpreterError:
        pass
    assert _Tripwire.touched == [], f"{source!r} ran a non-whitelisted callable"

