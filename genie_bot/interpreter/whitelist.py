"""Static check of source code against the interpreter's whitelist.

Runs before any evaluation, so a rejected program has no effect at all. The reasons name
the construct ("imports are not allowed") rather than a generic syntax error, because the
same text is fed back to an LLM parser to repair its output.
"""

from __future__ import annotations

import ast
import warnings
from functools import lru_cache

from .errors import InterpreterError

MAX_SOURCE_CHARS = 20_000
MAX_DEPTH = 60

STATEMENT, EXPRESSION, OPERATOR, PART = "statement", "expression", "operator", ""
ALLOWED: dict[type[ast.AST], tuple[str, str]] = {
    ast.Module: (PART, ""), ast.Load: (PART, ""), ast.Store: (PART, ""), ast.keyword: (PART, ""),
    ast.Slice: (PART, ""), ast.FormattedValue: (PART, ""),
    ast.BoolOp: (PART, ""), ast.BinOp: (PART, ""), ast.UnaryOp: (PART, ""), ast.Compare: (PART, ""),
    ast.Expr: (STATEMENT, "an expression on a line of its own (a call: `say(...)`)"),
    ast.Assign: (STATEMENT, "assignment to a name or an attribute (`total = ...`, `self.field = ...`)"),
    ast.AugAssign: (STATEMENT, "`+=` and the other augmented assignments"),
    ast.If: (STATEMENT, "`if` / `elif` / `else`"),
    ast.For: (STATEMENT, "`for item in ...:` binding one name, without `else`"),
    ast.Break: (STATEMENT, "`break`"), ast.Continue: (STATEMENT, "`continue`"), ast.Pass: (STATEMENT, "`pass`"),
    ast.Constant: (EXPRESSION, "numbers, text, `True`, `False`, `None`"),
    ast.Name: (EXPRESSION, "names"),
    ast.Attribute: (EXPRESSION, "attributes (`self.room.seats`)"),
    ast.Subscript: (EXPRESSION, "indexing and slices (`value[:3]`, `self.room['name']`)"),
    ast.Call: (EXPRESSION, "calls, with positional and keyword arguments"),
    ast.List: (EXPRESSION, "lists `[...]`"), ast.Tuple: (EXPRESSION, "tuples `(...)`"),
    ast.Dict: (EXPRESSION, "dicts `{...: ...}`"), ast.Set: (EXPRESSION, "sets `{...}`"),
    ast.IfExp: (EXPRESSION, "`a if condition else b`"),
    ast.JoinedStr: (EXPRESSION, "f-strings (`f\"{self.name}\"`, with `!s` and `!r` only)"),
    ast.And: (OPERATOR, "and"), ast.Or: (OPERATOR, "or"), ast.Not: (OPERATOR, "not"),
    ast.Add: (OPERATOR, "+"), ast.Sub: (OPERATOR, "-"), ast.Mult: (OPERATOR, "*"), ast.Div: (OPERATOR, "/"),
    ast.FloorDiv: (OPERATOR, "//"), ast.Mod: (OPERATOR, "%"), ast.Pow: (OPERATOR, "**"),
    ast.USub: (OPERATOR, "-x"), ast.UAdd: (OPERATOR, "+x"),
    ast.Eq: (OPERATOR, "=="), ast.NotEq: (OPERATOR, "!="), ast.Lt: (OPERATOR, "<"), ast.LtE: (OPERATOR, "<="),
    ast.Gt: (OPERATOR, ">"), ast.GtE: (OPERATOR, ">="), ast.In: (OPERATOR, "in"), ast.NotIn: (OPERATOR, "not in"),
    ast.Is: (OPERATOR, "is"), ast.IsNot: (OPERATOR, "is not"),
}
"""The syntax worksheet code and parser statements may use, each node kind with what it is in the
reference's words (:func:`genie_bot.spec.reference.markdown` writes the page from this table, so the
documented subset is the checked one); ``PART``: pieces of the others."""
_ALLOWED = tuple(ALLOWED)

NOT_ALLOWED = {
    ast.Import: "imports are not allowed",
    ast.ImportFrom: "imports are not allowed",
    ast.While: "while loops are not allowed (use for over a list)",
    ast.FunctionDef: "defining functions is not allowed",
    ast.AsyncFunctionDef: "defining functions is not allowed",
    ast.Lambda: "lambda is not allowed",
    ast.ClassDef: "defining classes is not allowed",
    ast.With: "with blocks are not allowed",
    ast.Try: "try blocks are not allowed",
    ast.Raise: "raise is not allowed",
    ast.Delete: "del is not allowed",
    ast.Global: "global is not allowed",
    ast.Nonlocal: "nonlocal is not allowed",
    ast.NamedExpr: "the walrus operator is not allowed",
    ast.Starred: "star arguments are not allowed",
    ast.ListComp: "comprehensions are not allowed (use for)",
    ast.SetComp: "comprehensions are not allowed (use for)",
    ast.DictComp: "comprehensions are not allowed (use for)",
    ast.GeneratorExp: "generators are not allowed",
    ast.Yield: "yield is not allowed",
    ast.YieldFrom: "yield is not allowed",
    ast.Await: "await is not allowed",
    ast.Assert: "assert is not allowed",
    ast.Return: "return is not allowed",
}

FORBIDDEN_NAMES = frozenset({
    "eval", "exec", "compile", "open", "getattr", "setattr", "delattr", "globals", "locals", "vars",
    "input", "breakpoint", "type", "object", "super", "dir", "help", "memoryview", "classmethod",
    "staticmethod", "property", "exit", "quit", "print", "id", "hasattr", "isinstance", "issubclass",
})


def _reject(node: ast.AST, reason: str) -> InterpreterError:
    return InterpreterError(reason, getattr(node, "lineno", None), getattr(node, "col_offset", -1) + 1 or None)


@lru_cache(maxsize=4096)
def parse_checked(source: str) -> ast.Module:
    """Parse ``source`` and check it against the whitelist; raise :class:`InterpreterError`.

    Results are cached by source text: worksheet code and frequent parser outputs repeat.
    The returned tree is shared and must not be mutated.
    """
    if not isinstance(source, str):
        raise InterpreterError("code must be text")
    if len(source) > MAX_SOURCE_CHARS:
        raise InterpreterError(f"code is too long ({len(source)} characters, at most {MAX_SOURCE_CHARS})")
    try:
        with warnings.catch_warnings():  # parser output is not ours to lint; errors are what count
            warnings.simplefilter("ignore", SyntaxWarning)
            tree = ast.parse(source, mode="exec")
    except SyntaxError as exc:
        raise InterpreterError(f"syntax error: {exc.msg}", exc.lineno, exc.offset) from None
    except (ValueError, RecursionError, MemoryError, OverflowError) as exc:
        raise InterpreterError(f"cannot parse code: {type(exc).__name__}") from None
    _check(tree)
    return tree


def _check(tree: ast.AST) -> None:
    stack: list[tuple[ast.AST, int, bool]] = [(tree, 0, False)]
    while stack:
        node, depth, in_loop = stack.pop()
        if depth > MAX_DEPTH:
            raise _reject(node, f"code is nested too deeply (more than {MAX_DEPTH} levels)")
        if not isinstance(node, _ALLOWED):
            raise _reject(node, NOT_ALLOWED.get(type(node), f"{type(node).__name__} is not allowed"))
        if isinstance(node, (ast.Break, ast.Continue)) and not in_loop:
            raise _reject(node, f"'{type(node).__name__.lower()}' outside a loop")
        _check_node(node)
        inside = in_loop or isinstance(node, ast.For)
        stack.extend((child, depth + 1, inside) for child in ast.iter_child_nodes(node))


def _check_node(node: ast.AST) -> None:
    if isinstance(node, ast.Name):
        if node.id.startswith("_"):
            raise _reject(node, f"names starting with '_' are not allowed ('{node.id}')")
        if node.id in FORBIDDEN_NAMES:
            raise _reject(node, f"'{node.id}' is not available")
    elif isinstance(node, ast.Attribute):
        if node.attr.startswith("_"):
            raise _reject(node, f"attributes starting with '_' are not allowed ('{node.attr}')")
    elif isinstance(node, ast.keyword):
        if node.arg is None:
            raise _reject(node, "** arguments are not allowed")
        if node.arg.startswith("_"):
            raise _reject(node, f"argument names starting with '_' are not allowed ('{node.arg}')")
    elif isinstance(node, ast.Assign):
        if len(node.targets) != 1 or not isinstance(node.targets[0], (ast.Name, ast.Attribute)):
            raise _reject(node, "only assignments to a name or an attribute are allowed")
    elif isinstance(node, ast.AugAssign):
        if not isinstance(node.target, (ast.Name, ast.Attribute)):
            raise _reject(node, "only assignments to a name or an attribute are allowed")
    elif isinstance(node, ast.For):
        if not isinstance(node.target, ast.Name) or node.orelse:
            raise _reject(node, "for loops must bind one name and have no else")
    elif isinstance(node, ast.FormattedValue):
        if node.conversion not in (-1, ord("s"), ord("r")):
            raise _reject(node, "only !s and !r conversions are allowed")
    elif isinstance(node, ast.Constant):
        if isinstance(node.value, bytes) or node.value is Ellipsis:
            raise _reject(node, "bytes and ... constants are not allowed")
