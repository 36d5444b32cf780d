"""The executor a turn runs with: side-effecting API calls pass only through a pending action.

The policy calls side-effecting APIs only once the user confirmed, but the engine must also
guarantee *exactly once* whatever the timing: a second click, a typed "yes" racing a click,
a retry, a second process. So a side-effecting call runs only after this turn moved its
pending action ``pending -> executing`` with a conditional UPDATE (committed at once, so a
crash during the call is found at start-up), and the API receives the action's idempotency
key: its id, or that of the interrupted attempt at the same task it follows (the key belongs to
the confirmed intent, not to the attempt). A call whose arguments differ from those frozen when the summary was shown
is refused: the user confirmed other values.

Control flow is explicit, whatever the code between the policy and this gate catches. A
refusal is an ordinary error the policy reports as a failed call. When the store fails before
a side effect, the gate records it in :attr:`ConfirmationGate.store_failure`, refuses every
later call and query of the turn, and :meth:`ConfirmationGate.check` (called by the turn
runner once the agent returns) fails the turn: nothing of it is committed.

Once the API has run, its outcome is what matters: the ``executing -> done`` write is tried
again over a few seconds (a blip, a database restart), and if it still fails the turn goes on
with the result and writes it in its commit (:attr:`ConfirmationGate.unrecorded`). While an
action is ``executing`` no other action of the same task runs: its outcome is not known yet.
An action ``done`` for the same task whose turn could not be saved (the state does not know,
so the policy calls again) is replayed with the same arguments and refused with others: a
recent one, that is (confirmable when it ran), since a conversation started over reuses task names.
"""

from __future__ import annotations

import datetime as dt
import json
import logging
import time
from collections.abc import Callable
from dataclasses import replace
from typing import Any

from ..errors import GenieError
from ..runtime import ApiRequest, KnowledgeResult, KnowledgeUnavailable, LocalApiExecutor
from ..state import KnowledgeAnswer
from ..store import Database
from ..store import pending as actions
from ..store.pending import ActionStatus, PendingRow
from ..values import decode_value, encode_value
from .confirmations import same_values

log = logging.getLogger(__name__)


class ConfirmationRefused(GenieError):
    """A side effect that may not run now; the policy reports it to the user as a failed call."""


class TurnAborted(GenieError):
    """The store failed around a side effect during the turn: the turn must not be committed."""


_ABANDONED = "it could not be recorded, so nothing of this turn is kept"
RECORD_RETRY_SECONDS = (0.05, 0.25, 1.0, 2.0)
"""Pauses between attempts to record the outcome of an API that ran: long enough to span a
database restart, short enough for a turn."""
_WHY: dict[str, str] = {
    ActionStatus.DONE: "it was already done",
    ActionStatus.EXECUTING: "it is already running",
    ActionStatus.CANCELLED: "it was cancelled",
    ActionStatus.EXPIRED: "the confirmation expired",
    ActionStatus.INVALIDATED: "the details changed after the summary was shown",
    ActionStatus.INTERRUPTED: "an earlier attempt was interrupted, so it needs a fresh confirmation",
    ActionStatus.FAILED: "the earlier attempt failed, so it needs a fresh confirmation",
}


class ConfirmationGate:
    """An :class:`ApiExecutor` wrapping the agent's own executor for one turn."""

    def __init__(self, inner: LocalApiExecutor, db: Database, engine_id: str, clock: Callable[[], dt.datetime],
                 user_id: str, owner_only: bool, open_actions: list[PendingRow], clicked: PendingRow | None = None,
                 session_key: str | None = None,
                 record_retry_seconds: tuple[float, ...] = RECORD_RETRY_SECONDS,
                 sleep: Callable[[float], None] = time.sleep):
        self.inner = inner
        self.db = db
        self.engine_id = engine_id
        self.clock = clock
        self.user_id = user_id
        self.owner_only = owner_only
        self.open_actions = open_actions
        self.clicked = clicked
        self.session_key = session_key or (clicked.session_key if clicked else None)
        self.record_retry_seconds = record_retry_seconds
        self.sleep = sleep
        self.executed: list[str] = []
        """Actions whose API ran (or had run) for this turn."""
        self.ran: list[PendingRow] = []
        """Actions whose API this turn called and which returned."""
        self.unrecorded: dict[str, str] = {}
        """Actions whose API ran but whose ``done`` (with this result, JSON) could not be written yet."""
        self.closed: dict[str, str] = {}
        """Actions this turn moved to a final status other than done."""
        self.refused_owner = False
        self.store_failure: str | None = None
        """Why the store failed around a side effect; once set, nothing else of the turn runs or is kept."""

    def check(self) -> None:
        """Raise :class:`TurnAborted` if the store failed around a side effect during the turn."""
        if self.store_failure is not None:
            raise TurnAborted(self.store_failure)

    def query_knowledge(self, answer: KnowledgeAnswer) -> KnowledgeResult:
        if self.store_failure is not None:
            raise KnowledgeUnavailable(_ABANDONED)
        return self.inner.query_knowledge(answer)

    def call_api(self, request: ApiRequest) -> Any:
        if self.store_failure is not None:
            raise ConfirmationRefused(_ABANDONED)
        if not request.side_effects:
            return self.inner.call_api(request)
        action = self._action_for(request.instance)
        earlier = self._earlier(request.instance, action)
        if earlier is not None:
            return self._outcome_of(earlier, request)
        if action is None:
            raise ConfirmationRefused("it needs a fresh confirmation first")
        if self.owner_only and action.owner not in (None, self.user_id):
            self.refused_owner = True
            raise ConfirmationRefused("only the person who started this conversation can confirm it")
        if action.args is not None and not same_values(action.args, request.args):
            self._close(action, ActionStatus.INVALIDATED, "the arguments differ from the confirmed summary")
            raise ConfirmationRefused(_WHY[ActionStatus.INVALIDATED])
        if not self._store(lambda conn: actions.claim(conn, action.id, self.engine_id, self.clock())):
            current = self._store(lambda conn: actions.get(conn, action.id))
            if current is not None and current.status == ActionStatus.DONE:  # ran, its turn was not saved: replay
                self.executed.append(action.id)
                return decode_value(json.loads(current.result or "null"))
            raise ConfirmationRefused(_WHY.get(current.status if current else "", "it is no longer pending"))
        try:
            result = replace(self.inner, idempotency_key=action.key).call_api(request)
        except Exception as exc:
            self._close(action, ActionStatus.FAILED, f"{type(exc).__name__}: {exc}", from_status=ActionStatus.EXECUTING)
            raise
        self.executed.append(action.id)
        self.ran.append(action)
        self._record_done(action, json.dumps(encode_value(result), default=str))
        return result

    def _record_done(self, action: PendingRow, result: str) -> None:
        """``executing -> done`` with the result, tried again while the store is away; failing that,
        left to the turn's commit (:attr:`unrecorded`). The call is never made again either way."""
        for pause in (*self.record_retry_seconds, None):
            try:
                with self.db.write() as conn:
                    actions.transition(conn, action.id, (ActionStatus.EXECUTING,), ActionStatus.DONE, self.clock(),
                                       result=result)
                return
            except Exception:  # noqa: BLE001 - the store is away; the API's outcome must not be lost
                if pause is None:
                    log.warning("could not record that %s of action %s went through; the turn's commit will",
                                action.api, action.id, exc_info=True)
                    self.unrecorded[action.id] = result
                    return
                self.sleep(pause)

    def _earlier(self, instance: str, action: PendingRow | None) -> PendingRow | None:
        """The latest other action of this task that is running, or recently done."""
        session_key = self.session_key
        if session_key is None:
            return None
        now = self.clock()
        rows = self._store(lambda conn: actions.of_session(conn, session_key,
                                                           (ActionStatus.EXECUTING, ActionStatus.DONE)))
        earlier = [a for a in rows if a.instance == instance and (action is None or a.id != action.id)
                   and (a.status == ActionStatus.EXECUTING or a.expires_at > now)]
        return max(earlier, key=lambda a: a.updated_at, default=None)

    def _outcome_of(self, earlier: PendingRow, request: ApiRequest) -> Any:
        """No second call for one task: a running one is waited for, a done one replayed."""
        if earlier.status == ActionStatus.EXECUTING:
            raise ConfirmationRefused(f"an earlier attempt (reference {earlier.id}) has not finished, or whether "
                                      "it went through is not known yet")
        if earlier.args is not None and not same_values(earlier.args, request.args):
            raise ConfirmationRefused(f"it already went through with other details (reference {earlier.id}); "
                                      "start a new request for another one")
        self.executed.append(earlier.id)
        return decode_value(json.loads(earlier.result or "null"))

    def _action_for(self, instance: str) -> PendingRow | None:
        if self.clicked is not None and self.clicked.instance == instance:
            return self.clicked
        pending = (a for a in self.open_actions if a.instance == instance and a.status == ActionStatus.PENDING)
        return next(reversed(list(pending)), None)

    def _close(self, action: PendingRow, status: str, reason: str, from_status: str = ActionStatus.PENDING) -> None:
        self._store(lambda conn: actions.transition(conn, action.id, (from_status,), status, self.clock(), reason=reason))
        self.closed[action.id] = status

    def _store(self, operation: Callable) -> Any:
        """Run ``operation`` in a transaction of its own; a failure is recorded and fails the turn."""
        try:
            with self.db.write() as conn:
                return operation(conn)
        except Exception as exc:  # noqa: BLE001 - any store failure here fails the turn (see check)
            log.exception("store failed around a side effect")
            self.store_failure = f"store failed around a side effect: {exc}"
            raise ConfirmationRefused(_ABANDONED) from exc
