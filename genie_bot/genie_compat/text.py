"""Reading what the reference Genie prints: its agent acts and its context renderings.

The reference (stanford-oval/genie-worksheets) logs acts as ``str()`` of Python objects
(``AskField(main, courses_to_take, The courses that the student wants to take)``, the
description unquoted) and the dialogue state as lines of pseudo-Python
(``course = Course(course_name = 'CS 166')``, ``answer.result = [{...}]``), in which a nested
worksheet without a variable of its own is printed as a typed repr
(``Course(course_name: str = 'CS 224V', grade_type: Enum[...] = 'None')``, an unset value
printed as the string ``'None'``) and library values as calls (``UUID('...')``).

Nothing here executes that text: it is parsed with :mod:`ast` and converted node by node
into plain values, :class:`GenieObject` for worksheet instances and :class:`Name` for
references to other variables.
"""

from __future__ import annotations

import ast
from dataclasses import dataclass, field
from typing import Any


@dataclass(frozen=True)
class Name:
    """A reference to another variable of the context (``course_0_details = course``)."""

    name: str


@dataclass
class GenieObject:
    """A worksheet instance as the reference prints it: its class and the fields it shows."""

    cls: str
    fields: dict[str, Any] = field(default_factory=dict)


@dataclass(frozen=True)
class Query:
    """``answer('nl question')``: a knowledge query of the reference."""

    question: str


def split_top_level(text: str, limit: int = -1) -> list[str]:
    """Split on commas outside brackets and quotes, at most ``limit`` times (-1: no limit)."""
    parts: list[str] = []
    depth, quote, start, i = 0, None, 0, 0
    while i < len(text):
        ch = text[i]
        if quote:
            if ch == "\\":
                i += 1
            elif ch == quote:
                quote = None
        elif ch in "'\"":
            quote = ch
        elif ch in "([{":
            depth += 1
        elif ch in ")]}":
            depth -= 1
        elif ch == "," and depth == 0 and limit != len(parts):
            parts.append(text[start:i].strip())
            start = i + 1
        i += 1
    parts.append(text[start:].strip())
    return parts


def call_parts(text: str) -> tuple[str, str] | None:
    """``Name(args)`` -> (``Name``, ``args``); None when the text is not one call."""
    text = text.strip()
    head, paren, rest = text.partition("(")
    if not paren or not rest.endswith(")") or not head.replace("_", "").isalnum():
        return None
    return head, rest[:-1]


def _strip_annotations(text: str) -> str:
    """``Course(course_name: str = 'x')`` -> ``Course(course_name = 'x')`` (typed reprs made Python).

    An annotation is ``: TYPE`` after a keyword inside brackets, up to the `` = `` that
    follows at the same depth; strings are copied untouched.
    """
    out: list[str] = []
    depth, quote, i = 0, None, 0
    while i < len(text):
        ch = text[i]
        if quote:
            out.append(ch)
            if ch == "\\" and i + 1 < len(text):
                out.append(text[i + 1])
                i += 1
            elif ch == quote:
                quote = None
        elif ch in "'\"":
            quote = ch
            out.append(ch)
        elif ch == ":" and depth > 0 and text[i + 1:i + 2] == " " and _after_keyword(out):
            end = _annotation_end(text, i + 1)
            if end is None:
                out.append(ch)
            else:
                i = end
                continue
        else:
            depth += ch in "([{"
            depth -= ch in ")]}"
            out.append(ch)
        i += 1
    return "".join(out)


def _after_keyword(out: list[str]) -> bool:
    """Whether the text so far ends with ``(name`` or ``, name`` (a keyword, not a dict key)."""
    text = "".join(out[-80:]).rstrip()
    name_start = len(text)
    while name_start and (text[name_start - 1].isalnum() or text[name_start - 1] == "_"):
        name_start -= 1
    return name_start < len(text) and text[:name_start].rstrip()[-1:] in ("(", ",")


def _annotation_end(text: str, start: int) -> int | None:
    """Index of the `` = `` ending the annotation that starts at ``start``, at bracket depth 0."""
    depth, quote, i = 0, None, start
    while i < len(text):
        ch = text[i]
        if quote:
            if ch == "\\":
                i += 1
            elif ch == quote:
                quote = None
        elif ch in "'\"":
            quote = ch
        elif ch in "([{":
            depth += 1
        elif ch in ")]}":
            if depth == 0:
                return None
            depth -= 1
        elif depth == 0 and text.startswith(" = ", i):
            return i
        elif depth == 0 and ch == ",":
            return None
        i += 1
    return None


def parse_value(text: str) -> Any:
    """A printed value as data; text that cannot be read is returned as it is."""
    try:
        tree = ast.parse(_strip_annotations(text.strip()), mode="eval")
    except SyntaxError:
        return text.strip()
    return _value(tree.body, text)


def _value(node: ast.expr, source: str) -> Any:
    if isinstance(node, ast.Constant):
        return None if node.value == "None" else node.value
    if isinstance(node, ast.Name):
        return Name(node.id)
    if isinstance(node, (ast.List, ast.Tuple, ast.Set)):
        return [_value(item, source) for item in node.elts]
    if isinstance(node, ast.Dict):
        return {_value(k, source) if k is not None else None: _value(v, source) for k, v in zip(node.keys, node.values)}
    if isinstance(node, ast.UnaryOp) and isinstance(node.op, ast.USub) and isinstance(node.operand, ast.Constant) \
            and isinstance(node.operand.value, (int, float, complex)):
        return -node.operand.value
    if isinstance(node, ast.Call) and isinstance(node.func, ast.Name):
        if node.func.id == "answer" and len(node.args) == 1 and isinstance(node.args[0], ast.Constant):
            return Query(str(node.args[0].value))
        if not node.args:
            return GenieObject(node.func.id, {k.arg: _value(k.value, source) for k in node.keywords if k.arg})
        if len(node.args) == 1 and not node.keywords and isinstance(node.args[0], ast.Constant):
            return node.args[0].value  # UUID('...'), Decimal('1.5'): the printed value is enough
    return ast.unparse(node)


def parse_context(text: str) -> dict[str, Any]:
    """Context lines as {variable: value}; ``x.attr = v`` lines as {``x.attr``: v}.

    A variable printed twice keeps its last value, as the reference's context does.
    """
    out: dict[str, Any] = {}
    for line in text.splitlines():
        target, eq, value = line.partition(" = ")
        target = target.strip()
        if not eq or not target.replace("_", "").replace(".", "").isalnum():
            continue
        out[target] = parse_value(value)
    return out


def resolve(value: Any, variables: dict[str, Any], seen: frozenset[str] = frozenset()) -> Any:
    """``value`` with :class:`Name` references replaced by the objects they name (cycles stop)."""
    if isinstance(value, Name):
        if value.name in seen or value.name not in variables:
            return None
        return resolve(variables[value.name], variables, seen | {value.name})
    if isinstance(value, GenieObject):
        return GenieObject(value.cls, {k: resolve(v, variables, seen) for k, v in value.fields.items()})
    if isinstance(value, list):
        return [resolve(v, variables, seen) for v in value]
    if isinstance(value, dict):
        return {k: resolve(v, variables, seen) for k, v in value.items()}
    return value
