"""What names, attributes and calls mean while code runs.

The evaluator never touches Python objects reflectively: reading a name, an attribute or
calling something all go through a :class:`Scope`. The base class knows plain data
(records as dicts, strings, lists, dates) and the explicitly exposed :class:`SafeFunction`
objects; the runtime subclasses it to give ``self`` and worksheet names their meaning.
"""

from __future__ import annotations

from typing import Any

from . import costs
from .allowed import BUILTINS, data_attribute, method
from .errors import InterpreterError
from .functions import SafeFunction

class Scope:
    """Names visible to code, plus the rules for attributes and calls on plain data."""

    def __init__(self, names: dict[str, Any] | None = None, functions: dict[str, SafeFunction] | None = None):
        self.names: dict[str, Any] = dict(names or {})
        self.functions: dict[str, SafeFunction] = {**BUILTINS, **(functions or {})}

    # -- names -------------------------------------------------------------------------
    def lookup(self, name: str) -> Any:
        if name in self.names:
            return self.names[name]
        if name in self.functions:
            return self.functions[name]
        raise InterpreterError(f"unknown name '{name}'")

    def assign_name(self, name: str, value: Any) -> None:
        self.names[name] = value

    # -- attributes ----------------------------------------------------------------------
    def get_attr(self, obj: Any, attr: str) -> Any:
        if isinstance(obj, dict) and attr in obj:
            return obj[attr]
        if data_attribute(obj, attr):
            return getattr(obj, attr)
        bound = method(obj, attr)
        if bound is not None:
            return bound
        if isinstance(obj, dict):
            raise InterpreterError(f"record has no field '{attr}'")
        raise InterpreterError(f"'{type(obj).__name__}' value has no attribute '{attr}'")

    def set_attr(self, obj: Any, attr: str, value: Any) -> None:
        raise InterpreterError(f"cannot set attribute '{attr}' here")

    # -- calls -----------------------------------------------------------------------------
    def call(self, func: Any, args: list[Any], kwargs: dict[str, Any]) -> Any:
        if not isinstance(func, SafeFunction):
            raise InterpreterError(f"'{type(func).__name__}' value is not callable")
        try:
            return func.fn(*args, **kwargs)
        except InterpreterError:
            raise
        except (TypeError, ValueError, KeyError, IndexError, AttributeError, ArithmeticError) as exc:
            raise InterpreterError(f"{func.name}() failed: {costs.error_text(exc)}") from None
