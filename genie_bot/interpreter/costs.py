"""What an operation will cost, known before it runs.

The step limit bounds how many nodes a program evaluates, not what one node does: ``str(l)``
of a list holding one long string 100,000 times, ``s.replace('a', s)``, ``'%999999999d' % 1``
or sorting long equal strings each take one step and seconds or gigabytes, holding the GIL
throughout. So every operation that may produce a large value or compare large values first
asks this module for a bound, in characters, of what it will produce or touch; the evaluator
refuses the operation when the bound is over :data:`MAX_SEQUENCE` for one value, or over the
run's work budget (:class:`~.evaluator.Limits`).

:func:`measure` is the one walk over a value: an upper bound of the length of its ``str`` and
``repr`` (which is also the work of comparing or hashing it) and the number of nodes it
visited to find that out, itself capped so that measuring is cheap.
"""

from __future__ import annotations

import dataclasses
import datetime as dt
import math
import re
import reprlib
from typing import Any, NamedTuple

from .errors import InterpreterError

MAX_SEQUENCE = 100_000
"""Most items or characters one value may have (its text included)."""

MAX_NODES = 10_000
"""Most nodes (containers, items) one measurement may visit."""

NODE_COST = 50
"""Work units charged per node visited by a measurement: a Python-level visit costs about
as much as copying fifty characters."""

ITEM_COST = 20
"""Work units charged per item a built-in iterates (an object made or visited at C speed)."""

REFUSAL_COST = MAX_NODES * NODE_COST
"""Work units charged for an operation refused as too large: finding out may have cost that much."""

MAX_WIDTH = 1_000
"""Largest width or precision a format spec may ask for."""

MAX_INT_BITS = 4096
"""Largest whole number (in bits) code may make: arithmetic on larger ones is quadratic."""

FLOAT_DIGITS = 320
"""Most digits a float has before its point (``'%f' % 1e308``)."""

_SCALAR_TEXT = {float: 24, bool: 5, type(None): 4, dt.date: 10, dt.time: 21, dt.datetime: 40}


class TooLarge(InterpreterError):
    """An operation was refused before it ran: its result or its work would be too large."""

    charged = False
    """Whether the evaluator has counted :data:`REFUSAL_COST` for it (once, however deep it rose)."""


class Size(NamedTuple):
    chars: int
    """Upper bound of ``len(str(value))`` and ``len(repr(value))``."""
    nodes: int
    """Nodes visited to find that bound."""

    @property
    def cost(self) -> int:
        return self.chars + self.nodes * NODE_COST


def measure(value: Any, limit: int = MAX_SEQUENCE, what: str = "value", budget: int | None = None) -> Size:
    """The size of ``value``; :class:`TooLarge` as soon as it exceeds ``limit`` characters
    or :data:`MAX_NODES` visits (a list that contains itself ends there too), or, with a
    ``budget``, as soon as measuring it has cost more than that (:attr:`Size.cost` so far)."""
    chars = nodes = 0
    most_nodes = MAX_NODES if budget is None else max(0, min(MAX_NODES, budget // NODE_COST))
    stack = [value]
    while stack:
        item = stack.pop()
        nodes += 1
        if nodes > most_nodes:
            if most_nodes < MAX_NODES:
                raise TooLarge(f"measuring {what} would exceed the work left ({budget} units)")
            raise TooLarge(f"{what} is too large to handle (more than {MAX_NODES} items)")
        kind = type(item)
        if kind in _SCALAR_TEXT:
            chars += _SCALAR_TEXT[kind]
        elif isinstance(item, str):
            chars += text_length(item) + 2
        elif isinstance(item, int):
            chars += int_digits(item)
        elif isinstance(item, (list, tuple)):
            chars += 2 + 2 * len(item)
            stack.extend(item)
        elif isinstance(item, dict):
            chars += 2 + 4 * len(item)
            stack.extend(item.keys())
            stack.extend(item.values())
        elif dataclasses.is_dataclass(item) and not isinstance(item, type):
            chars += len(kind.__name__) + 2
            stack.extend(getattr(item, f.name) for f in dataclasses.fields(item))
        else:
            chars += len(kind.__name__) + 32
        if chars > limit:
            raise TooLarge(f"{what} would be too large (more than {limit} characters)")
    return Size(chars, nodes)


def text_length(text: str) -> int:
    """Upper bound of ``len(repr(text))`` - 2: escapes make unprintable characters up to ten long."""
    if text.isprintable():
        return len(text) + text.count("\\") + text.count("'")
    return 10 * len(text)


def int_digits(number: int) -> int:
    return math.ceil(number.bit_length() * 0.30103) + 2


def str_length(value: Any, limit: int = MAX_SEQUENCE) -> Size:
    """Size of ``str(value)``: a string is itself, anything else as measured."""
    if type(value) is str:
        if len(value) > limit:
            raise TooLarge(f"text would be too long (more than {limit} characters)")
        return Size(len(value), 1)
    return measure(value, limit)


def sequence_length(length: int, what: str = "result") -> int:
    """``length`` if one value may have that many items or characters, else :class:`TooLarge`."""
    if length > MAX_SEQUENCE:
        raise TooLarge(f"{what} would be too large ({length} items, at most {MAX_SEQUENCE})")
    return length


def compare_cost(left: Any, right: Any) -> int:
    """Work of ``left == right`` (or ``<``): at most the smaller of the two sizes."""
    if type(left) in _CHEAP and type(right) in _CHEAP:
        return 1
    if type(left) is str and type(right) is str:
        return min(len(left), len(right)) + 1
    return _smaller(left, right)


def contains_cost(item: Any, container: Any) -> int:
    """Work of ``item in container``."""
    if isinstance(container, str) and isinstance(item, str):
        return len(container) + len(item) + 1
    if isinstance(container, dict):
        return measure(item, what="key").cost
    if isinstance(container, (list, tuple)):
        try:
            return len(container) * measure(item).cost + 1
        except TooLarge:
            return measure(container).cost
    return 1


def sort_cost(items: Any) -> int:
    """Work of sorting ``items`` (or of min/max, which is less): each item is compared about
    log2(n) times, each comparison costs at most the smaller item."""
    if isinstance(items, (str, range)):
        total = len(items)
    elif isinstance(items, (list, tuple, dict)):
        total = measure(items).cost
    else:
        raise InterpreterError("expected a list")
    return total * (math.ceil(math.log2(len(items) + 2)) + 2)


def _smaller(left: Any, right: Any) -> int:
    try:
        first = measure(left).cost
    except TooLarge:
        return measure(right, what="compared value").cost
    try:
        return min(first, measure(right, limit=first).cost)
    except TooLarge:
        return first


_CHEAP = frozenset({int, float, bool, type(None), dt.date, dt.time, dt.datetime})

_NUMBER_IN_SPEC = re.compile(r"\d+")
_PERCENT_SPEC = re.compile(r"([#0 +-]*)(\*|\d*)(?:\.(\*|\d*))?[hlL]?(.)", re.DOTALL)
_PARENTHESES = re.compile(r"[()]")


def format_spec_width(spec: str) -> int:
    """The most characters a format spec (``f'{x:>10.2f}'``) may add; refused over :data:`MAX_WIDTH`
    (its digits read as a number only when they are few: a width may have thousands)."""
    widest = 0
    for digits in _NUMBER_IN_SPEC.findall(spec):
        digits = digits.lstrip("0") or "0"
        if len(digits) > len(str(MAX_WIDTH)) or int(digits) > MAX_WIDTH:
            shown = digits if len(digits) <= 20 else digits[:20] + "..."
            raise TooLarge(f"format width or precision {shown} is too large (at most {MAX_WIDTH})")
        widest = max(widest, int(digits))
    return widest + len(spec)


def percent_fields(template: str) -> list[tuple[str, str, str]]:
    """(width, precision, conversion) of each field of a ``%`` template, read as ``str % args``
    reads it: a mapping key may hold parentheses (``%(a(b)c)999s`` has width 999)."""
    fields = []
    at = template.find("%")
    while at >= 0:
        at += 1
        if template.startswith("(", at):
            at = _key_end(template, at + 1)
        spec = _PERCENT_SPEC.match(template, at)
        if spec is None:  # an unfinished field: ``%`` refuses the template
            break
        fields.append((spec.group(2), spec.group(3) or "", spec.group(4)))
        at = template.find("%", spec.end())
    return fields


def _key_end(template: str, start: int) -> int:
    """Where the mapping key opened before ``start`` ends: after its balancing parenthesis."""
    depth = 1
    for parenthesis in _PARENTHESES.finditer(template, start):
        depth += 1 if parenthesis.group() == "(" else -1
        if depth == 0:
            return parenthesis.end()
    return len(template)


def percent_format_length(template: str, args: Any) -> int:
    """Upper bound of ``len(template % args)``: widths bounded, ``*`` and ``%a`` refused."""
    conversions = added = 0
    for width, precision, conversion in percent_fields(template):
        if conversion == "%":
            continue
        if "*" in (width, precision):
            raise TooLarge("'*' widths are not allowed in % formatting")
        if conversion not in "sdifeEgGxXocr":
            raise InterpreterError(f"'%{conversion}' is not allowed in % formatting")
        conversions += 1
        added += format_spec_width(f"{width}.{precision}") + FLOAT_DIGITS
    argument_text = measure(args, what="formatted value").chars
    uses = conversions if isinstance(args, dict) else 1  # a mapping's value may be named by every field
    return sequence_length(len(template) + added + uses * argument_text, "formatted text")


def error_text(exc: BaseException) -> str:
    """The message of a Python error raised by an operation, of bounded length: a ``KeyError``'s
    text is the whole key."""
    if isinstance(exc, KeyError):
        return f"no key {reprlib.repr(exc.args[0])}" if exc.args else "no such key"
    text = str(exc)
    return text if len(text) <= 300 else text[:300] + "..."
