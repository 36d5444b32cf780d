"""The one kind of callable interpreted code may call: a :class:`SafeFunction`."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any


@dataclass(frozen=True)
class SafeFunction:
    """A Python callable deliberately exposed to interpreted code under ``name``.

    ``cost``, given the same arguments, bounds the work of the call before it is made (and
    raises :class:`~.costs.TooLarge` to refuse it): every built-in and method of the allow-list
    (:mod:`.allowed`) has one. Without one, the function is the runtime's own (an API, ``say``,
    a constructor): its arguments leave the interpreter, so each is measured first and must be
    a value of bounded size.
    """

    name: str
    fn: Callable[..., Any]
    cost: Callable[..., int] | None = None

    def __repr__(self) -> str:
        return f"<function {self.name}>"
