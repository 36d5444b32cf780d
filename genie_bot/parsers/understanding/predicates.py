"""What a field's predicate needs: the values of its task's other fields that make it apply.

``self.student_task == 'External Test Credits'`` needs the student task to be External Test Credits;
``self.a == 'X' or self.a == 'Y'`` needs either; ``not self.urgent`` needs urgent to be False. A value
given to a field that needs another field's value says that value too ("I sent the form by email"
has been Submitted): the writer completes it. Predicates of other shapes are left to the runtime.
"""

from __future__ import annotations

import ast
from itertools import product
from typing import Any

from ...spec import Field

Need = tuple[tuple[str, Any], ...]
"""Values that together make the field apply: ((field name, value), ...)."""


def needs(f: Field) -> list[Need] | None:
    """Every way the field's predicate can hold, or None when it has none or is not of a shape read here."""
    if f.predicate is None or not f.predicate.tree.body:
        return None
    statement = f.predicate.tree.body[0]
    return _ways(statement.value) if isinstance(statement, ast.Expr) else None


def _ways(node: ast.expr) -> list[Need] | None:
    if isinstance(node, ast.BoolOp):
        parts = [_ways(v) for v in node.values]
        if any(p is None for p in parts):
            return None
        if isinstance(node.op, ast.Or):
            return [way for p in parts for way in p or []]
        return [tuple(pair for way in combination for pair in way) for combination in product(*(p or [] for p in parts))]
    if isinstance(node, ast.Compare) and len(node.ops) == 1 and isinstance(node.ops[0], ast.Eq):
        name, value = _field(node.left), node.comparators[0]
        if name is not None and isinstance(value, ast.Constant):
            return [((name, value.value),)]
    if isinstance(node, ast.UnaryOp) and isinstance(node.op, ast.Not):
        name = _field(node.operand)
        if name is not None:
            return [((name, False),)]
        inner = node.operand
        if isinstance(inner, ast.Compare) and len(inner.ops) == 1 and isinstance(inner.ops[0], ast.Eq):
            name, value = _field(inner.left), inner.comparators[0]
            if name is not None and isinstance(value, ast.Constant) and value.value is False:
                return [((name, True),)]
    return None


def _field(node: ast.expr) -> str | None:
    if isinstance(node, ast.Attribute) and isinstance(node.value, ast.Name) and node.value.id == "self":
        return node.attr
    return None
