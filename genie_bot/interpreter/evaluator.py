"""The tree-walking evaluator behind every piece of interpreted code.

It implements the whitelisted subset node by node. Each evaluated node costs one step and a
program may take at most ``Limits.max_steps``, so runaway loops end with a clear error
instead of hanging a turn. A step limit alone does not bound what one node does, so every
operation that may build or compare large values is first priced by :mod:`.costs`: one
value holds at most ``MAX_SEQUENCE`` items or characters, and a run does at most
``Limits.max_work`` units of work (about a character copied or compared each).
"""

from __future__ import annotations

import ast
import enum
import operator
from dataclasses import dataclass
from typing import Any

from . import costs
from .costs import MAX_INT_BITS, MAX_SEQUENCE, TooLarge
from .errors import InterpreterError, StepLimitExceeded
from .functions import SafeFunction
from .scope import Scope
from .whitelist import parse_checked


_BINOPS = {
    ast.Add: operator.add, ast.Sub: operator.sub, ast.Mult: operator.mul, ast.Div: operator.truediv,
    ast.FloorDiv: operator.floordiv, ast.Mod: operator.mod, ast.Pow: operator.pow,
}
_COMPARE = {
    ast.Eq: operator.eq, ast.NotEq: operator.ne, ast.Lt: operator.lt, ast.LtE: operator.le,
    ast.Gt: operator.gt, ast.GtE: operator.ge, ast.Is: operator.is_, ast.IsNot: operator.is_not,
    ast.In: lambda a, b: a in b, ast.NotIn: lambda a, b: a not in b,
}


_PYTHON_ERRORS = (TypeError, ValueError, KeyError, IndexError, ArithmeticError, AttributeError)
"""What Python raises for a bad operation on plain values; reported as an InterpreterError."""


@dataclass(frozen=True)
class Limits:
    max_steps: int = 10_000
    max_work: int = 2_000_000


class _Jump(enum.Enum):
    """What a ``break`` or ``continue`` statement asks of the loop around it."""

    BREAK = "break"
    CONTINUE = "continue"


class Evaluator:
    """Evaluates checked ASTs against a :class:`Scope`; one instance per run (it counts steps)."""

    def __init__(self, scope: Scope, limits: Limits = Limits()):
        self.scope = scope
        self.limits = limits
        self.steps = 0
        self.work = 0

    # -- entry points ------------------------------------------------------------------------
    def run(self, source_or_tree: str | ast.Module) -> None:
        """Execute statements."""
        tree = parse_checked(source_or_tree) if isinstance(source_or_tree, str) else source_or_tree
        self.exec_body(tree.body)

    def evaluate(self, source_or_tree: str | ast.Module) -> Any:
        """Evaluate a single expression (a module holding exactly one expression statement)."""
        tree = parse_checked(source_or_tree) if isinstance(source_or_tree, str) else source_or_tree
        if len(tree.body) != 1 or not isinstance(tree.body[0], ast.Expr):
            raise InterpreterError("expected a single expression")
        return self.eval(tree.body[0].value)

    # -- statements ----------------------------------------------------------------------------
    def exec_body(self, body: list[ast.stmt]) -> _Jump | None:
        """Run statements in order; a ``break``/``continue`` ends the body and is returned to its loop."""
        for stmt in body:
            jump = self.exec_stmt(stmt)
            if jump is not None:
                return jump
        return None

    def exec_stmt(self, node: ast.stmt) -> _Jump | None:
        self._tick(node)
        try:
            return self._exec(node)
        except RecursionError:
            raise InterpreterError("code is nested too deeply", node.lineno) from None
        except _PYTHON_ERRORS as exc:  # an augmented assignment's operator: ``x += x`` on records
            raise InterpreterError(f"{type(exc).__name__}: {costs.error_text(exc)}", node.lineno) from None

    def _exec(self, node: ast.stmt) -> _Jump | None:
        if isinstance(node, ast.Expr):
            self.eval(node.value)
        elif isinstance(node, ast.Assign):
            self.assign(node.targets[0], self.eval(node.value))
        elif isinstance(node, ast.AugAssign):
            current = self.eval(_as_load(node.target))
            self.assign(node.target, self._binop(node.op, current, self.eval(node.value), node))
        elif isinstance(node, ast.If):
            return self.exec_body(node.body if self._truth(self.eval(node.test)) else node.orelse)
        elif isinstance(node, ast.For):
            self._for(node)
        elif isinstance(node, ast.Break):
            return _Jump.BREAK
        elif isinstance(node, ast.Continue):
            return _Jump.CONTINUE
        elif not isinstance(node, ast.Pass):
            raise InterpreterError(f"{type(node).__name__} is not allowed", node.lineno)
        return None

    def _for(self, node: ast.For) -> None:
        iterable = self.eval(node.iter)
        if not isinstance(iterable, (list, tuple, range, str, dict, set)):
            raise InterpreterError("for loops may only iterate over lists, ranges, strings or records", node.lineno)
        self._charge(len(iterable) * costs.ITEM_COST)
        for item in list(iterable):
            self._tick(node)
            self.assign(node.target, item)
            if self.exec_body(node.body) is _Jump.BREAK:
                break

    def assign(self, target: ast.expr, value: Any) -> None:
        if isinstance(target, ast.Name):
            self.scope.assign_name(target.id, value)
        elif isinstance(target, ast.Attribute):
            self.scope.set_attr(self.eval(target.value), target.attr, value)
        else:
            raise InterpreterError("only assignments to a name or an attribute are allowed", target.lineno)

    # -- expressions -----------------------------------------------------------------------------
    def eval(self, node: ast.expr) -> Any:
        self._tick(node)
        method = getattr(self, "_eval_" + type(node).__name__, None)
        if method is None:
            raise InterpreterError(f"{type(node).__name__} is not allowed", getattr(node, "lineno", None))
        try:
            return method(node)
        except InterpreterError as exc:
            if exc.lineno is None and hasattr(node, "lineno"):
                exc.lineno = node.lineno
            if isinstance(exc, TooLarge) and not exc.charged:  # a refusal's own work counts too
                exc.charged = True
                self.work += costs.REFUSAL_COST
            raise
        except _PYTHON_ERRORS as exc:
            raise InterpreterError(f"{type(exc).__name__}: {costs.error_text(exc)}",
                                   getattr(node, "lineno", None)) from None

    def _eval_Constant(self, node: ast.Constant) -> Any:
        return node.value

    def _eval_Name(self, node: ast.Name) -> Any:
        return self.scope.lookup(node.id)

    def _eval_Attribute(self, node: ast.Attribute) -> Any:
        return self.scope.get_attr(self.eval(node.value), node.attr)

    def _eval_Subscript(self, node: ast.Subscript) -> Any:
        container = self.eval(node.value)
        if not isinstance(container, (list, tuple, str, dict)):
            raise InterpreterError("only lists, strings and records can be indexed")
        key = self.eval(node.slice)
        self._charge(len(container) if isinstance(key, slice) else self.measure(key, "key").cost)
        return container[key]

    def _eval_Slice(self, node: ast.Slice) -> slice:
        part = lambda n: None if n is None else self.eval(n)  # noqa: E731
        return slice(part(node.lower), part(node.upper), part(node.step))

    def _eval_Call(self, node: ast.Call) -> Any:
        func = self.eval(node.func)
        args = [self.eval(a) for a in node.args]
        if any(k.arg is None for k in node.keywords):
            raise InterpreterError("** in calls is not allowed")
        kwargs = {k.arg: self.eval(k.value) for k in node.keywords if k.arg is not None}
        if isinstance(func, SafeFunction):
            if func.cost is not None:
                self._charge(func.cost(*args, **kwargs))
            else:  # the runtime's own function: what it is given leaves the interpreter
                for value in [*args, *kwargs.values()]:
                    self.measure(value, "argument")
        return self.scope.call(func, args, kwargs)

    def _eval_List(self, node: ast.List) -> list:
        return [self.eval(e) for e in node.elts]

    def _eval_Tuple(self, node: ast.Tuple) -> tuple:
        return tuple(self.eval(e) for e in node.elts)

    def _eval_Set(self, node: ast.Set) -> list:
        # sets are read as lists: values may be unhashable records, and order should be kept
        out: list = []
        for e in node.elts:
            value = self.eval(e)
            self._charge(costs.contains_cost(value, out))
            if value not in out:
                out.append(value)
        return out

    def _eval_Dict(self, node: ast.Dict) -> dict:
        if any(k is None for k in node.keys):
            raise InterpreterError("** in dict literals is not allowed")
        out = {}
        for k, v in zip(node.keys, node.values):
            assert k is not None, "** refused above"
            key = self.eval(k)
            self._charge(self.measure(key, "key").cost)
            out[key] = self.eval(v)
        return out

    def _eval_BoolOp(self, node: ast.BoolOp) -> Any:
        value: Any = None
        for operand in node.values:
            value = self.eval(operand)
            truth = self._truth(value)
            if isinstance(node.op, ast.And) and not truth:
                return value
            if isinstance(node.op, ast.Or) and truth:
                return value
        return value

    def _eval_BinOp(self, node: ast.BinOp) -> Any:
        return self._binop(node.op, self.eval(node.left), self.eval(node.right), node)

    def _eval_UnaryOp(self, node: ast.UnaryOp) -> Any:
        value = self.eval(node.operand)
        if isinstance(node.op, ast.Not):
            return not self._truth(value)
        if not isinstance(value, (int, float)):
            raise InterpreterError("unary minus/plus needs a number")
        return -value if isinstance(node.op, ast.USub) else +value

    def _eval_Compare(self, node: ast.Compare) -> bool:
        left = self.eval(node.left)
        for op, comparator in zip(node.ops, node.comparators):
            right = self.eval(comparator)
            if isinstance(op, (ast.In, ast.NotIn)):
                self._charge(costs.contains_cost(left, right))
            elif not isinstance(op, (ast.Is, ast.IsNot)):
                self._charge(costs.compare_cost(left, right))
            if not _COMPARE[type(op)](left, right):
                return False
            left = right
        return True

    def _eval_IfExp(self, node: ast.IfExp) -> Any:
        return self.eval(node.body) if self._truth(self.eval(node.test)) else self.eval(node.orelse)

    def _eval_JoinedStr(self, node: ast.JoinedStr) -> str:
        parts = [self.eval(part) if not isinstance(part, ast.Constant) else str(part.value) for part in node.values]
        self._charge(costs.sequence_length(sum(map(len, parts)), "text"))
        return "".join(parts)

    def _eval_FormattedValue(self, node: ast.FormattedValue) -> str:
        value = self.eval(node.value)
        if node.conversion == ord("r"):
            self._charge(self.measure(value, "text").cost)
            value = repr(value)
        spec = self._eval_JoinedStr(node.format_spec) if isinstance(node.format_spec, ast.JoinedStr) else ""
        if not isinstance(value, (str, int, float, bool, type(None))) and spec:
            raise InterpreterError("format specs apply to numbers and text only")
        length = costs.str_length(value).chars + (costs.format_spec_width(spec) + costs.FLOAT_DIGITS if spec else 0)
        self._charge(costs.sequence_length(length, "text"))
        return format(value, spec) if spec else _display(value)

    # -- helpers ------------------------------------------------------------------------------------
    def _binop(self, op: ast.operator, left: Any, right: Any, node: ast.AST) -> Any:
        if isinstance(op, ast.Pow):
            if not (isinstance(left, (int, float)) and isinstance(right, (int, float))) or abs(right) > 256 or (
                isinstance(left, int) and abs(left) > 2**32 and right > 1
            ):
                raise InterpreterError("power is too large")
        if isinstance(op, ast.Mult):
            for seq, count in ((left, right), (right, left)):
                if isinstance(seq, (str, list, tuple)) and isinstance(count, int):
                    if len(seq) * max(count, 0) > MAX_SEQUENCE:
                        raise TooLarge("repetition result is too large")
                    self._charge(len(seq) * max(count, 0))
        elif isinstance(op, ast.Add) and isinstance(left, (str, list, tuple)) and hasattr(right, "__len__"):
            self._charge(costs.sequence_length(len(left) + len(right)))
        elif isinstance(op, ast.Mod) and isinstance(left, str):
            self._charge(costs.percent_format_length(left, right))
        result = _BINOPS[type(op)](left, right)
        if isinstance(result, int) and result.bit_length() > MAX_INT_BITS:
            raise InterpreterError("number is too large")
        if isinstance(result, (str, list, tuple)) and len(result) > MAX_SEQUENCE:
            raise InterpreterError("value is too large")
        return result

    @staticmethod
    def _truth(value: Any) -> bool:
        return bool(value)

    def measure(self, value: Any, what: str = "value") -> costs.Size:
        """``value``'s size, charged as work; :class:`TooLarge` if it is over ``MAX_SEQUENCE``, or
        if measuring it would take more work than the run has left (a refusal is charged
        :data:`~.costs.REFUSAL_COST`: finding out may have cost that much)."""
        try:
            size = costs.measure(value, what=what, budget=self.limits.max_work - self.work)
        except TooLarge as exc:
            if not exc.charged:
                exc.charged = True
                self.work += costs.REFUSAL_COST
            raise
        self._charge(size.cost)
        return size

    def _charge(self, units: int) -> None:
        """Count ``units`` of work done before doing it; refuse the run's work beyond its budget."""
        self.work += units
        if self.work > self.limits.max_work:
            raise TooLarge(f"code does too much work (more than {self.limits.max_work} units)")

    def _tick(self, node: ast.AST) -> None:
        self.steps += 1
        if self.steps > self.limits.max_steps:
            raise StepLimitExceeded(f"code ran for more than {self.limits.max_steps} steps", getattr(node, "lineno", None))


def _as_load(target: ast.expr) -> ast.expr:
    if isinstance(target, ast.Name):
        return ast.copy_location(ast.Name(id=target.id, ctx=ast.Load()), target)
    assert isinstance(target, ast.Attribute)
    return ast.copy_location(ast.Attribute(value=target.value, attr=target.attr, ctx=ast.Load()), target)


def _display(value: Any) -> str:
    if isinstance(value, bool):
        return "yes" if value else "no"
    if value is None:
        return ""
    return str(value)
