"""Where a parser's statements are applied: in this thread, or in a sandbox the caller provides.

Applying statements is pure (the state, the spec, the day and the statements; no I/O), so it
can run anywhere. The engine runs each turn inside :func:`sandboxed`, and every
:func:`~.statements.apply_statements` of that turn (the runtime's, and a parser's trial runs
while it checks its output) then goes to the sandbox (:mod:`.sandbox`: a worker process with
hard limits), which either applies them as this thread would have or raises
:class:`EvaluationAbandoned`. Outside a sandbox (the terminal chat, conversation tests) they
are applied in the calling thread.
"""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from contextvars import ContextVar
from typing import Protocol

from ..errors import GenieError
from .turn import Turn


class EvaluationAbandoned(GenieError):
    """Applying the statements was stopped from outside: it used more CPU time or memory than
    allowed. ``reason`` says which; nothing of it was applied."""

    def __init__(self, reason: str):
        self.reason = reason
        super().__init__(reason)


class StatementSandbox(Protocol):
    def apply_statements(self, turn: Turn, source: str) -> None:
        """Apply ``source`` to ``turn`` as :func:`~.statements.apply_statements` does here, or raise
        :class:`EvaluationAbandoned` leaving ``turn`` as it was."""


_active: ContextVar[StatementSandbox | None] = ContextVar("genie_statement_sandbox", default=None)


def active_sandbox() -> StatementSandbox | None:
    """The sandbox statements applied in this context go to, if any."""
    return _active.get()


@contextmanager
def sandboxed(sandbox: StatementSandbox | None) -> Iterator[None]:
    """Statements applied in this context (this thread, this turn) go to ``sandbox``."""
    token = _active.set(sandbox)
    try:
        yield
    finally:
        _active.reset(token)
