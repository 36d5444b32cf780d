"""Where a parser's statements are applied: in this thread, or in a sandbox the caller provides.

Applying statements is pure (the state, the spec, the day and the statements; no I/O), so it
can run anywhere. The engine, ``genie-bot chat`` and ``replay`` run each turn inside
:func:`sandboxed`, and every :func:`~.statements.apply_statements` of that turn (the
runtime's), and every batch of a parser's trial runs while it checks its output
(:func:`~.trials.check_all`), then goes to the sandbox (:mod:`.sandbox`: a worker process with
hard limits), which either does it as this thread would have or raises
:class:`EvaluationAbandoned` (or :class:`SandboxBusy`). Outside a sandbox (conversation
tests) they are applied in the calling thread.
"""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from contextvars import ContextVar
import datetime as dt
from typing import Protocol

from ..errors import GenieError
from ..spec import AgentSpec
from ..state import DialogueState
from .checked import Batch, Checked
from .turn import Turn


PARKED = ("Sorry, I could not work that message out: it needed more than I allow for one message, so I set it "
          "aside and changed nothing. Please put it differently.")
"""What the user is told of a message whose statements the sandbox stopped."""
PARKED_OVER_BUDGET = ("Sorry, your messages lately needed more work than I allow one person in a while, so I set "
                      "this one aside and changed nothing. Please wait a few minutes before sending more.")
"""... of a message refused because its user's statements used their share of the sandbox lately."""
SANDBOX_BUSY = ("Sorry, I have too much to work out right now to handle that message. Nothing was changed; please "
                "send it again in a minute.")
"""... of a message refused because the sandbox's queue was full."""


def abandoned_reply(exc: EvaluationAbandoned | SandboxBusy) -> str:
    """What the user is told of a message the sandbox did not apply."""
    if isinstance(exc, SandboxBusy):
        return SANDBOX_BUSY
    return PARKED_OVER_BUDGET if isinstance(exc, OverBudget) else PARKED


class EvaluationAbandoned(GenieError):
    """Applying the statements was stopped from outside: it used more CPU time or memory than
    allowed. ``reason`` says which; nothing of it was applied."""

    def __init__(self, reason: str):
        self.reason = reason
        super().__init__(reason)


class OverBudget(EvaluationAbandoned):
    """The user's statements used their share of the sandbox's CPU time lately: nothing is applied
    for them until the window moves on."""


class SandboxBusy(GenieError):
    """More statements wait for the sandbox than it queues: nothing was applied; sent again later, it
    may run (the message is not to blame)."""


class StatementSandbox(Protocol):
    def apply_statements(self, turn: Turn, source: str) -> None:
        """Apply ``source`` to ``turn`` as :func:`~.statements.apply_statements` does here, or raise
        :class:`EvaluationAbandoned` leaving ``turn`` as it was."""

    def check(self, spec: AgentSpec, state: DialogueState, batch: Batch, today: dt.date) -> list[Checked]:
        """:func:`~.trials.check_one` of each parse of ``batch``, as it would be here, or raise
        :class:`EvaluationAbandoned`."""


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
