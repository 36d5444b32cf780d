"""Running one turn: apply the parser's statements to a copy of the state, then the policy.

The caller's state is never modified: a turn works on a copy and returns the new state, so
an exception anywhere in a turn leaves the session exactly as it was before it.
"""

from __future__ import annotations

import datetime as dt
from collections.abc import Callable, Sequence
from dataclasses import dataclass

from ..acts import Act
from ..spec import AgentSpec
from ..state import DialogueState
from .executor import ApiExecutor, LocalApiExecutor
from .policy import run_policy
from .statements import apply_statements, apply_updates
from .turn import Turn, Update
from .updates import ConfirmInstance


@dataclass
class TurnResult:
    acts: list[Act]
    state: DialogueState
    update: Update

    @property
    def errors(self) -> list[str]:
        return self.update.errors


class Runtime:
    """The deterministic core of an agent: spec + executor + clock."""

    def __init__(self, spec: AgentSpec, executor: ApiExecutor | None = None,
                 clock: Callable[[], dt.datetime] = dt.datetime.now):
        self.spec = spec
        self.executor = executor or LocalApiExecutor(spec)
        self.clock = clock

    def new_state(self) -> DialogueState:
        """A fresh dialogue. With a ``start`` worksheet it is already open and its first question
        asked (in ``last_acts``), so the user's first message is read as the answer to it
        (unless the policy opens it later: ``policy.start_task``)."""
        state = DialogueState()
        if self.spec.start and self.spec.policy.start_task == "at_greeting":
            state.add_instance(self.spec.start)
            state = self.run_turn(state, "").state
            state.turn = 0
        return state

    def run_turn(self, state: DialogueState, statements: str = "", executor: ApiExecutor | None = None,
                 updates: Sequence[ConfirmInstance] = ()) -> TurnResult:
        """Apply the parser's ``statements`` and the typed ``updates`` to a copy of ``state``, then the policy."""
        new_state = state.copy()
        new_state.turn += 1
        now = self.clock()
        turn = Turn(self.spec, new_state, executor or self.executor, now.date(), now, start_clock=new_state.clock)
        apply_statements(turn, statements)
        apply_updates(turn, updates)
        run_policy(turn)
        new_state.last_acts = list(turn.acts)
        return TurnResult(turn.acts, new_state, turn.update)
