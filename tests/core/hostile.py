"""Statements built so that one interpreter step would be expensive: the shapes a red team used
(``sum``/``sorted`` over huge ranges, repetition, ``join``, ``replace``, ``str`` of big lists,
format widths, ``strftime``, appends in a loop, self-containing lists), the C calls that hold
the GIL for minutes on one step (hashing a huge key, rounding to a huge power of ten, prefix
tests against a huge tuple, parsing a huge number, a width behind a mapping key with
parentheses, stripping with many characters, copies of records) and combinations of them.

:func:`hostile_statement` takes a ``choose`` function, so the fuzz test draws with Hypothesis
and the benchmark with a seeded ``random.Random``.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any, TypeVar

T = TypeVar("T")
Choose = Callable[[Sequence[Any]], Any]

SIZES = (0, 1, 7, 1_000, 33_334, 50_000, 100_000, 100_001, 10**6, 10**9)
WIDTHS = (1, 10, 100, 1_000, 1_001, 999_999_999)
TEXTS = ("'a'", "'ab'", "'ß'", "'ﬃ'", "'\\u202e'", "'%d'", "'{}'", "'a' * 50000 + 'b'")
SEQUENCES = ("{s} * {n}", "[{s}] * {n}", "[{s} * {m}] * {n}", "list(range({n}))", "({s} * {m},) * {n}",
             "[[{s} * {m}] * {n}] * {n}", "{s}.split('a')", "[]", "{{{s}: [{s}] * {n}}}")
TEMPLATES = (
    "x = {seq}", "x = ''.join({seq})", "x = '-'.join({seq})", "x = str({seq})", "x = f'{{{seq}}}'",
    "x = f'{{{seq}!r}}'", "x = ({s} * {m}).replace('a', {s} * {n})", "x = ({s} * {m}).replace('', {s})",
    "x = sorted({seq})", "x = max({seq})", "x = min({seq}, {seq})", "x = sum({seq})", "x = sum({seq}, [])",
    "x = {seq} == {seq}", "x = {seq} < {seq}", "x = {s} * {m} in {seq}", "x = {seq}.count({s} * {m})",
    "x = {seq}.index({seq})", "x = f'{{1:{w}}}'", "x = f'{{1.5:.{w}f}}'", "x = f'{{{s}:>{w}}}'", "x = '%{w}d' % 1",
    "x = '%.{w}f' % 1.5", "x = '%*d' % ({w}, 1)", "x = '%s' % ({seq},)", "x = '%(a)s' * {n} % {{'a': {seq}}}",
    "x = ({s} * {m}).upper()", "x = ({s} * {m}).casefold().title()", "x = ({s} * {m}).split({s})",
    "x = today().strftime('%Y' * {n})", "x = today().strftime('%{w}Y')", "x = {{{seq}, {seq}}}",
    "l = []\nfor i in range({n}):\n    l.append({s} * {m} + str(i))", "l = {seq}\nl.append(l)\nx = str(l)",
    "l = []\nfor i in range({n}):\n    l = [l, l]\nx = str(l)", "x = {{{s}: 1, {s} * {m}: 2}}", "x = ({seq})[::1]",
    "x = {s} * {m} + {s} * {n}", "x = 2 ** {n}", "x = {n} ** {m}", "x = str({n} ** 200)", "x = int({s} * {m})",
    "x = float({s} * {m})", "x = list({seq})", "x = dict(a={seq})", "x = {seq}[{n}]", "x = {{'k': 1}}[{seq}]",
    "x = any({seq}) or all({seq})", "x = len({seq})", "x = {seq}\nx += {seq}\nx += x",
    "x = {{}}.get({seq})", "x = {{{s}: 1}}.get(({seq},) * {n})", "x = round(1, -{n})", "x = round({n}, -{w})",
    "x = round(1.5, {n})", "x = ({s} * {m}).startswith(({s} * {m},) * {n})", "x = {s}.endswith(({s} * {n},) * {m})",
    "x = int('f' * {m}, 16) // 7", "x = int({s} * {m}, 36)", "x = int('9' * {m}) * int('9' * {n})",
    "x = '%(a(b)c){w}s' % {{'a(b)c': {s} * {m}}}", "x = '%(a)s%(a)s' * {n} % {{'a': {seq}}}",
    "x = ({s} * {m}).strip({s} * {n})", "x = str({{1: {seq}, 2: {seq}}}.values())",
    "x = list({{{s}: {seq}}}.items())", "x = sorted({{{s}: {seq}}}.keys())", "x = {seq}.count(({seq},) * {n})",
)


def hostile_statement(choose: Choose) -> str:
    """One statement (a few lines at most) from the templates, sizes and texts above."""
    parts = {"s": choose(TEXTS), "n": choose(SIZES), "m": choose(SIZES), "w": choose(WIDTHS)}
    parts["seq"] = choose(SEQUENCES).format(**parts)
    return choose(TEMPLATES).format(**parts)


HOSTILE_AGENT = """
name: hostile
description: Takes a name.
start: Main
tasks:
  - name: Main
    description: the start task
    fields:
      - {name: full_name, type: str, description: the name}
"""
"""The agent :func:`hostile_parser_output` is applied to: one start task with a text field."""

DAG_DEPTHS = (1, 12, 13, 200)
DAG_USES = (1, 50, 780)


def shared_tuples(depth: int, uses: int, target: str = "main.full_name") -> str:
    """The tuple DAG a red team found: ``a = (a, a)`` ``depth`` times (a value of 2**depth leaves made
    of depth + 1 objects, each step cheap), then ``target = (a, a)`` ``uses`` times: every assignment
    measures the whole value before refusing it."""
    return "\n".join(["a = 'x'", *["a = (a, a)"] * depth, *[f"{target} = (a, a)"] * uses])


def hostile_parser_output(choose: Choose) -> str:
    """Parser output for :data:`HOSTILE_AGENT` whose cost lies in applying it, not in one statement."""
    return shared_tuples(choose(DAG_DEPTHS), choose(DAG_USES), choose(("main.full_name", "main_1.full_name")))
