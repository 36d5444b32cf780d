"""Running one claimed event of a session: the agent's turn, its confirmations, one commit.

A turn reads nothing but the claim and writes nothing but its commit (plus the conditional
updates of a side effect, see :mod:`.gate`), so if anything fails the session is exactly as
before. Once a side effect ran, though, the turn is not lost to a blip: its commit is tried
again over a few seconds, and if it still fails the user is told that the call went through
but the conversation could not be saved, never that nothing changed. The commit is fenced by
the session's lease: a process that lost its lease while the parser ran discards its turn,
and the new holder runs the event again.

What the user is told of a turn that failed is always what happens to it, never both "it did
not happen" and, later, that it did:

- the failure is recorded (the event ``failed``, with the reply): "Nothing was changed; please
  try again", and the event never runs again;
- the store cannot take even that: a side effect that ran is reported as such and recorded when
  the event's session is next claimed (:attr:`TurnRunner.unwritten`); a turn without one is
  deferred: the user hears it will be finished (no "try again", which would apply it twice),
  the event stays unfinished, and it runs again once the store is back, its reply delivered then.

Statements are applied in the engine's sandbox (:mod:`genie_bot.runtime.sandbox`), each turn's
as its user's (:meth:`~genie_bot.runtime.sandbox.Sandbox.serving`). A message whose statements
it had to stop, whose user's statements used their share of the sandbox's CPU time lately, or
whose turn was cut short by its process dying more than :data:`MAX_ATTEMPTS` - 1 times, is
parked: set aside unapplied, with a reply, and never handed to another process to run again. A
message finding the sandbox's queue full fails with a reply asking to send it again.
"""

from __future__ import annotations

import datetime as dt
import logging
import time
from collections.abc import Callable, Set
from dataclasses import dataclass, field, replace

from ..acts import AskForConfirmation
from ..agent import AgentReply
from ..config import Config
from ..errors import GenieError
from ..observability import TurnObserver, TurnUsage, measuring
from ..observability.observer import parse_source
from ..runtime import ConfirmInstance, LocalApiExecutor
from ..runtime.isolation import (PARKED, PARKED_OVER_BUDGET, SANDBOX_BUSY, EvaluationAbandoned, OverBudget, SandboxBusy,
                                 sandboxed)
from ..runtime.sandbox import Sandbox
from ..state import DialogueState, InstanceStatus
from ..store import Database
from ..store import inbox as events
from ..store import pending as actions
from ..store import sessions
from ..store.inbox import EventStatus
from ..store.pending import ActionStatus, PendingRow
from ..store.sessions import Saved, SessionUpdate
from ..store.traces import TraceRow, insert_trace
from .agents import AgentRegistry, LoadedAgent
from .confirmations import ConfirmationPlan, plan_confirmations, view_of
from .gate import RECORD_RETRY_SECONDS, ConfirmationGate
from .inbox import Claimed
from .migration import migrate_state
from .types import ClickOutcome, Decision, Reply, SessionKey, replies_to_json

log = logging.getLogger(__name__)

APOLOGY = ("Sorry, something went wrong on my side and I could not handle that message. "
           "Nothing was changed; please try again.")
NOT_OWNER = "Sorry, only the person who started this conversation can confirm or cancel this."
INTERRUPTED_NOTICE = ("I was interrupted while running {api} (reference {id}) and cannot tell whether it went "
                      "through. I will not retry it on my own: please check before asking me again.")
RAN_UNSAVED = ("{api} went through (reference {id}), but I could not save this conversation because of a "
               "problem on my side. I will not run it again: please check before asking me again.")
DEFERRED = ("I could not save that just now because of a problem on my side. I will finish it as soon as I can "
            "and answer you then, so there is no need to send it again.")
PARKED_AFTER_INTERRUPTIONS = ("Sorry, I was interrupted each time I tried to handle that message, so I set it aside "
                              "and changed nothing. Please send it again, perhaps in other words.")
MAX_ATTEMPTS = 2
"""Runs of an event at most: one cut short (its process died) runs once more; cut short again, it is
parked, never handed to yet another process that it might stop as well."""
UNKNOWN_BEFORE_OFFER = ("Before you confirm: my earlier attempt at {api} (reference {id}) was interrupted and I cannot "
                        "tell whether it went through. If you confirm, I send it again under the same reference, so "
                        "that {api} can tell it is the same request and not do it twice.")
MAX_UNWRITTEN = 10_000
"""Records kept for the store's return (the oldest are dropped: their events, run again, report the
call as interrupted)."""
INTERRUPTED_REASON = "the process running it stopped during the call"
UNRECORDED_REASON = "its outcome could not be recorded"

_WHY_CLOSED: dict[str, str] = {
    ActionStatus.INVALIDATED: "the details changed after the summary was shown",
    ActionStatus.CANCELLED: "it was cancelled",
}
GONE = "That confirmation no longer exists (this conversation was erased or is too old); nothing was done."
_STATUS_TEXT: dict[str, str] = {
    ActionStatus.DONE: "That was already done.",
    ActionStatus.EXECUTING: "That is being done right now.",
    ActionStatus.CANCELLED: "That was cancelled.",
}


class LeaseLost(GenieError):
    """Another process took the session over while this turn ran; the turn is discarded."""


@dataclass
class TurnOutcome:
    replies: list[Reply]
    lost: bool = False
    migrated: bool = False
    idle: bool = False
    """Nothing else was waiting: the commit gave the session's lease back."""
    unsaved: bool = False
    """The store could not take the turn's outcome: the session must be claimed again once it is back
    (the event runs again, or its record is written, see :attr:`TurnRunner.unwritten`)."""


@dataclass(frozen=True)
class Unwritten:
    """A failed turn's record that the store could not take: written at the event's next claim."""

    replies: list[Reply]
    """What its caller was told (the replies recorded for the event, already delivered)."""
    outcomes: dict[str, str]
    """Actions whose API ran, with their results (JSON)."""
    trace: TraceRow


@dataclass
class _Result:
    replies: list[Reply]
    trace: TraceRow
    state: DialogueState | None = None
    """The new dialogue state; None leaves it as it was (a refusal, an interruption notice)."""
    spec_version: str | None = None
    plan: ConfirmationPlan = field(default_factory=ConfirmationPlan)
    event_status: str = EventStatus.DONE
    migrated: bool = False
    recorded: dict[str, str] = field(default_factory=dict)
    """Actions whose API ran but whose outcome (JSON) the gate could not write: the commit does."""


@dataclass
class _Context:
    """What every kind of turn needs: the claim, the agent, the state it starts from."""

    claim: Claimed
    loaded: LoadedAgent
    state: DialogueState
    fresh: bool
    migrated_drops: list[str] | None
    trace: TraceRow
    gates: list[ConfirmationGate]
    """The gates of this turn, also when it fails: what they ran decides what the user is told."""

    @property
    def key(self) -> str:
        return self.claim.session.key

    @property
    def user(self) -> str:
        return self.claim.event.user_id

    @property
    def owner(self) -> str:
        return self.claim.session.owner or self.user


class TurnRunner:
    def __init__(self, db: Database, registry: AgentRegistry, config: Config, clock: Callable[[], dt.datetime],
                 engine_id: str, observer: TurnObserver, record_retry_seconds: tuple[float, ...] = RECORD_RETRY_SECONDS,
                 sleep: Callable[[float], None] = time.sleep, sandbox: Sandbox | None = None):
        self.db = db
        self.registry = registry
        self.config = config
        self.clock = clock
        self.engine_id = engine_id
        self.observer = observer
        self.lease = dt.timedelta(seconds=config.engine.lease_seconds)
        self.acknowledging: set[str] = set()
        """Platforms whose adapters confirm posting replies; their replies wait in the outbox."""
        self.record_retry_seconds = record_retry_seconds
        self.sleep = sleep
        self.sandbox = sandbox
        """Where the turns' statements are applied (None: in the turn's thread)."""
        self.unwritten: dict[tuple[str, str], Unwritten] = {}
        """Events answered while the store could not record their turn, by (platform, event id)."""

    # -- entry point -----------------------------------------------------------------------------
    def run(self, claim: Claimed) -> TurnOutcome:
        unwritten = self.unwritten.get(claim.event.pk)
        if unwritten is not None:
            return self._write_unwritten(claim, unwritten)
        started = time.perf_counter()
        usage = TurnUsage()
        gates: list[ConfirmationGate] = []
        try:
            with measuring(usage), sandboxed(self.sandbox.serving(self._party(claim)) if self.sandbox else None):
                result = self._after_interruption(claim) or self._turn(claim, started, gates)
            usage.add_to(result.trace)
            result.trace.latencies["total"] = _ms(started)
            idle = self._commit_durably(claim, result, gates)
            self.observer.finished(result.trace, usage)
            return TurnOutcome(result.replies, migrated=result.migrated, idle=idle)
        except LeaseLost:
            log.warning("lost the lease of %s during a turn; its new holder runs the event again", claim.session.key)
            self.observer.lease_lost()
            return TurnOutcome([], lost=True)
        except Exception as exc:  # noqa: BLE001 - every failure is answered
            log.exception("turn of %s failed", claim.session.key)
            return self._failed(claim, exc, gates, started, usage)

    def _party(self, claim: Claimed) -> str:
        """Whom the sandbox serves a turn for: its user, in its platform's workspace (and this engine:
        the engines of one process, in tests, share its workers)."""
        key = SessionKey.parse(claim.session.key)
        return f"{self.engine_id}:{key.platform}/{key.workspace}/{claim.event.user_id}"

    def _failed(self, claim: Claimed, exc: Exception, gates: list[ConfirmationGate], started: float,
                usage: TurnUsage) -> TurnOutcome:
        """Answer a turn that failed: with what ran, or an apology once the failure is recorded, or
        (the store taking nothing) with :data:`DEFERRED`, leaving the event to run again."""
        ran = [action for gate in gates for action in gate.ran]
        replies = [Reply(RAN_UNSAVED.format(api=a.api or a.worksheet, id=a.id), outcome=ClickOutcome.FAILED)
                   for a in ran] or [Reply(APOLOGY, outcome=ClickOutcome.FAILED)]
        unrecorded = {k: v for gate in gates for k, v in gate.unrecorded.items()}
        trace = self._failure_trace(claim, exc, replies, started)
        self.observer.finished(trace, usage)
        if self._commit_failure(claim, trace, replies, unrecorded):
            return TurnOutcome(replies)
        if ran:  # the user hears what ran; the record waits for the store
            self.unwritten[claim.event.pk] = Unwritten(replies, unrecorded, trace)
            while len(self.unwritten) > MAX_UNWRITTEN:
                del self.unwritten[next(iter(self.unwritten))]
            return TurnOutcome(replies, unsaved=True)
        return TurnOutcome([Reply(DEFERRED, outcome=ClickOutcome.DEFERRED)], unsaved=True)

    def _commit_durably(self, claim: Claimed, result: _Result, gates: list[ConfirmationGate]) -> bool:
        """:meth:`_commit`, tried again while the store is away if a side effect ran in the turn."""
        ran = any(gate.ran for gate in gates)
        for pause in (*(self.record_retry_seconds if ran else ()), None):
            try:
                return self._commit(claim, result)
            except LeaseLost:
                raise
            except Exception:  # noqa: BLE001 - retried; the last failure is the turn's
                if pause is None:
                    raise
                log.warning("could not save the turn of %s after its side effect ran; trying again",
                            claim.session.key, exc_info=True)
                self.sleep(pause)
        raise AssertionError("unreachable")

    def _turn(self, claim: Claimed, started: float, gates: list[ConfirmationGate]) -> _Result:
        ctx = self._context(claim, started, gates)
        try:
            return self._message(ctx) if claim.event.kind == "message" else self._action(ctx)
        except OverBudget as exc:
            if any(gate.ran for gate in gates):
                raise
            return self._parked(ctx.trace, PARKED_OVER_BUDGET, f"parked: {exc.reason}")
        except EvaluationAbandoned as exc:
            if any(gate.ran for gate in gates):
                raise
            return self._parked(ctx.trace, PARKED, f"parked: applying its statements was stopped: {exc.reason}")
        except SandboxBusy as exc:
            if any(gate.ran for gate in gates):
                raise
            log.warning("%s: event %s not run: %s", ctx.key, ctx.claim.event.event_id, exc)
            ctx.trace.outcome, ctx.trace.reply = "busy", SANDBOX_BUSY
            ctx.trace.errors.append(f"not run: {exc}")
            return _Result([Reply(SANDBOX_BUSY, outcome=ClickOutcome.FAILED)], ctx.trace, event_status=EventStatus.FAILED)

    # -- context ---------------------------------------------------------------------------------
    def _context(self, claim: Claimed, started: float, gates: list[ConfirmationGate]) -> _Context:
        session, event = claim.session, claim.event
        loaded = self.registry.get(session.agent)
        trace = TraceRow(session_key=session.key, kind=event.kind, outcome="ok", created_at=self.clock(),
                         turn=session.turns + 1, event_id=event.event_id, user_id=event.user_id, agent=loaded.name,
                         spec_version=loaded.version, message=event.text if event.kind == "message" else
                         f"[{event.decision} {event.action_id}]")
        trace.latencies["queue"] = max(0.0, (self.clock() - event.received_at).total_seconds() * 1000)
        drops = None
        if session.state is None:
            state = loaded.agent.new_state()
        else:
            state = DialogueState.from_json(session.state)
            if session.spec_version != loaded.version:
                migration = migrate_state(state, loaded.spec, self.clock().date())
                state, drops = migration.state, migration.dropped
                trace.errors.extend(f"migrated from {session.spec_version}: dropped {d}" for d in drops)
        trace.latencies["load"] = _ms(started)
        return _Context(claim, loaded, state, session.state is None, drops, trace, gates)

    def _gate(self, ctx: _Context, clicked: PendingRow | None = None) -> ConfirmationGate:
        executor = ctx.loaded.agent.runtime.executor
        assert isinstance(executor, LocalApiExecutor), "the engine's agents call their own api.py"
        gate = ConfirmationGate(executor, self.db, self.engine_id, self.clock, ctx.user,
                                self.config.confirmation.owner_only, ctx.claim.open_actions, clicked, ctx.key,
                                self.record_retry_seconds, self.sleep)
        ctx.gates.append(gate)
        return gate

    # -- a message ---------------------------------------------------------------------------------
    def _message(self, ctx: _Context) -> _Result:
        gate = self._gate(ctx)
        reply = ctx.loaded.agent.respond(ctx.state, ctx.claim.event.text or "", gate)
        gate.check()
        if gate.refused_owner or self._decides_for_owner(ctx, reply.state):
            return self._refusal(ctx, NOT_OWNER)
        return self._finish(ctx, reply, gate)

    def _decides_for_owner(self, ctx: _Context, after: DialogueState) -> bool:
        """A user other than the owner answered (yes or no) a confirmation the owner was asked."""
        if not self.config.confirmation.owner_only or ctx.user == ctx.owner:
            return False
        for action in ctx.claim.open_actions:
            before, now = ctx.state.instances.get(action.instance), after.instances.get(action.instance)
            if before is not None and (now is None or now.confirmed != before.confirmed or now.status != before.status):
                return True
        return False

    # -- a Confirm / Cancel click ---------------------------------------------------------------------
    def _action(self, ctx: _Context) -> _Result:
        event = ctx.claim.event
        with self.db.read() as conn:
            clicked = actions.get(conn, event.action_id or "")
        if clicked is None:  # deleted with its conversation (erased, or kept past retention): its card is stale
            ctx.trace.reply = GONE
            return _Result([Reply(GONE, outcome=ClickOutcome.STALE, outcome_detail="it no longer exists")], ctx.trace)
        if clicked.session_key != ctx.key:
            return self._refusal(ctx, "I can't find that action any more.")
        if self.config.confirmation.owner_only and clicked.owner not in (None, ctx.user):
            return self._refusal(ctx, NOT_OWNER)
        if clicked.status == ActionStatus.PENDING and clicked.expires_at <= self.clock():
            return self._not_pending(ctx, clicked, closing=(ActionStatus.EXPIRED, "it expired"))
        updated = clicked.api_fingerprint != ctx.loaded.fingerprints.get(clicked.worksheet)
        if clicked.status == ActionStatus.PENDING and updated:
            return self._not_pending(ctx, clicked, closing=(ActionStatus.INVALIDATED, "the agent was updated"))
        if clicked.status != ActionStatus.PENDING and not _unrecorded(ctx.state, clicked):
            return self._not_pending(ctx, clicked)
        gate = self._gate(ctx, clicked)
        yes = event.decision == Decision.CONFIRM.value
        reply = ctx.loaded.agent.apply(ctx.state, [ConfirmInstance(clicked.instance, yes)], gate)
        gate.check()
        if not yes:
            result = self._finish(ctx, reply, gate, settled={clicked.id}, outcome=ClickOutcome.CANCELLED)
            result.plan.close.append((clicked.id, ActionStatus.CANCELLED, "cancelled by the user"))
            return result
        result = self._finish(ctx, reply, gate)
        outcome, detail = self._confirmed(ctx, clicked, gate, reply.state, result.plan)
        result.replies[0] = replace(result.replies[0], outcome=outcome, outcome_detail=detail)
        return result

    def _confirmed(self, ctx: _Context, clicked: PendingRow, gate: ConfirmationGate, state: DialogueState,
                   plan: ConfirmationPlan) -> tuple[ClickOutcome, str | None]:
        """What a Confirm click came to: the task done (its call went through, or was replayed, or it
        needed none), the call made and failed, or nothing done (the agent, reloaded, asks something
        else first; the details changed), the action then closed with the reason."""
        instance = state.instances.get(clicked.instance)
        if clicked.id in gate.executed or (instance is not None and instance.status == InstanceStatus.COMPLETED):
            return ClickOutcome.DONE, None
        if gate.closed.get(clicked.id) == ActionStatus.FAILED:
            return ClickOutcome.ERROR, None
        if clicked.id in gate.closed:
            return ClickOutcome.STALE, _WHY_CLOSED.get(gate.closed[clicked.id], "it needs a fresh confirmation")
        reason = "the agent was updated" if clicked.spec_version != ctx.loaded.version else next(
            (why for action_id, _, why in plan.close if action_id == clicked.id), "it needs more details first")
        plan.close = [c for c in plan.close if c[0] != clicked.id] + [(clicked.id, ActionStatus.INVALIDATED, reason)]
        return ClickOutcome.STALE, reason

    def _not_pending(self, ctx: _Context, clicked: PendingRow, closing: tuple[str, str] | None = None) -> _Result:
        """A click on a finished action says so; on one needing a fresh confirmation, it is asked again.

        ``closing`` (status, reason) closes an action found no longer valid by this click.
        """
        if clicked.status in _STATUS_TEXT:
            return self._refusal(ctx, _STATUS_TEXT[clicked.status])
        reason = closing[1] if closing else clicked.reason
        gate = self._gate(ctx)
        reply = ctx.loaded.agent.apply(ctx.state, (), gate)
        gate.check()
        result = self._finish(ctx, reply, gate, settled={clicked.id},
                              prefix=f"That confirmation is no longer valid ({reason or clicked.status}).",
                              outcome=ClickOutcome.STALE, detail=reason or clicked.status)
        if closing:
            result.plan.close.append((clicked.id, *closing))
        return result

    # -- finishing ---------------------------------------------------------------------------------
    def _finish(self, ctx: _Context, reply: AgentReply, gate: ConfirmationGate, settled: Set[str] = frozenset(),
                prefix: str | None = None, outcome: ClickOutcome | None = None, detail: str | None = None) -> _Result:
        started = time.perf_counter()
        asked = any(isinstance(a, AskForConfirmation) for a in reply.acts)
        plan = plan_confirmations(ctx.loaded, reply.state, reply.acts, ctx.claim.open_actions, session_key=ctx.key,
                                  owner=ctx.owner, now=self.clock(), settings=self.config.confirmation,
                                  settled={*settled, *gate.executed, *gate.closed},
                                  interrupted=ctx.claim.interrupted if asked else [])
        view = view_of(plan.shown, ctx.loaded, self.config.confirmation) if plan.shown and asked else None
        unknown = plan.unknown if plan.create else None
        warning = UNKNOWN_BEFORE_OFFER.format(api=unknown.api or unknown.worksheet, id=unknown.id) if unknown else None
        texts = [prefix, ctx.loaded.agent.greeting() if ctx.fresh and ctx.claim.event.kind == "message" else None,
                 warning, reply.text]
        text = "\n\n".join(t for t in texts if t)
        trace = ctx.trace
        trace.statements, trace.parse_source = reply.parse.statements, parse_source(reply.parse)
        trace.acts = [a.formal() for a in reply.acts]
        trace.reply, trace.pending_action_id = text, view.id if view else None
        trace.llm_calls, trace.prompt_tokens = reply.parse.llm_calls, reply.parse.prompt_tokens
        trace.completion_tokens = reply.parse.completion_tokens
        trace.errors.extend(reply.errors)
        trace.latencies.update(reply.latencies_ms)
        trace.latencies["confirmations"] = _ms(started)
        return _Result([Reply(text, view, outcome, detail)], trace, reply.state, ctx.loaded.version, plan,
                       migrated=ctx.migrated_drops is not None, recorded=dict(gate.unrecorded))

    def _parked(self, trace: TraceRow, text: str, why: str) -> _Result:
        log.warning("%s: event %s %s", trace.session_key, trace.event_id, why)
        trace.outcome, trace.reply = "parked", text
        trace.errors.append(why)
        return _Result([Reply(text, outcome=ClickOutcome.FAILED)], trace, event_status=EventStatus.PARKED)

    def _refusal(self, ctx: _Context, text: str) -> _Result:
        ctx.trace.outcome, ctx.trace.reply = "refused", text
        return _Result([Reply(text, outcome=ClickOutcome.REFUSED)], ctx.trace)

    def _after_interruption(self, claim: Claimed) -> _Result | None:
        """A turn that runs again because its first run was cut short: report, never redo, a side effect;
        park the event once it was cut short as often as allowed."""
        if claim.event.attempts <= 1:
            return None
        trace = TraceRow(session_key=claim.session.key, kind=claim.event.kind, outcome="interrupted",
                         created_at=self.clock(), event_id=claim.event.event_id, user_id=claim.event.user_id,
                         agent=claim.session.agent, message=claim.event.text)
        with self.db.write() as conn:
            stuck = actions.of_session(conn, claim.session.key, (ActionStatus.EXECUTING,))
            for action in stuck:
                reason = UNRECORDED_REASON if action.executed_by == self.engine_id else INTERRUPTED_REASON
                actions.transition(conn, action.id, (ActionStatus.EXECUTING,), ActionStatus.INTERRUPTED, self.clock(),
                                   reason=reason)
        if stuck:
            notices = [INTERRUPTED_NOTICE.format(api=a.api or a.worksheet, id=a.id) for a in stuck]
            trace.reply = "\n\n".join(notices)
            return _Result([Reply(n, outcome=ClickOutcome.STALE, outcome_detail="interrupted") for n in notices],
                           trace, event_status=EventStatus.FAILED)
        if claim.event.attempts > MAX_ATTEMPTS:
            return self._parked(trace, PARKED_AFTER_INTERRUPTIONS,
                                f"parked: its turn was cut short {claim.event.attempts - 1} times")
        return None

    # -- writing -----------------------------------------------------------------------------------
    def _commit(self, claim: Claimed, result: _Result) -> bool:
        """Save the turn; when no other event waits, give the lease back in the same statement."""
        event = claim.event
        with self.db.write() as conn:
            now = self.clock()
            change = SessionUpdate(state=result.state.to_json() if result.state is not None else None,
                                   spec_version=result.spec_version, owner=event.user_id, sequence=event.sequence,
                                   counts_as_turn=result.state is not None)
            saved = sessions.save(conn, claim.session.key, self.engine_id, change, now, now + self.lease, event.pk)
            if saved is Saved.LOST:
                raise LeaseLost()
            events.finish(conn, event.pk, result.event_status, replies_to_json(result.replies), now,
                          delivered=event.platform not in self.acknowledging)
            _record_done(conn, result.recorded, now)
            for action_id, status, reason in result.plan.close:
                actions.transition(conn, action_id, (ActionStatus.PENDING,), status, now, reason=reason)
            actions.insert_rows(conn, result.plan.create)
            insert_trace(conn, result.trace)
            return saved is Saved.RELEASED

    def _failure_trace(self, claim: Claimed, exc: BaseException, replies: list[Reply], started: float) -> TraceRow:
        event = claim.event
        return TraceRow(session_key=claim.session.key, kind=event.kind, outcome="failed", created_at=self.clock(),
                        event_id=event.event_id, user_id=event.user_id, agent=claim.session.agent,
                        message=event.text, reply=replies[0].text, errors=[f"{type(exc).__name__}: {exc}"],
                        latencies={"total": _ms(started)})

    def _commit_failure(self, claim: Claimed, trace: TraceRow, replies: list[Reply], outcomes: dict[str, str],
                        delivered: bool = False) -> bool:
        """Record a failed turn: the event ``failed`` with ``replies``, the outcome of any API that
        ran; the session's state is not touched. False when the store could not take it."""
        event = claim.event
        try:
            with self.db.write() as conn:
                now = self.clock()
                _record_done(conn, outcomes, now)
                if not sessions.acquire(conn, claim.session.key, self.engine_id, now, now + self.lease):
                    return False  # its new holder runs the event again
                events.finish(conn, event.pk, EventStatus.FAILED, replies_to_json(replies), now,
                              delivered=delivered or event.platform not in self.acknowledging)
                insert_trace(conn, trace)
        except Exception:  # noqa: BLE001 - the store is down: see _failed
            log.exception("could not record the failed turn of %s", claim.session.key)
            return False
        return True

    def _write_unwritten(self, claim: Claimed, record: Unwritten) -> TurnOutcome:
        """Record a turn answered while the store was away, its replies as delivered (its caller has them)."""
        if not self._commit_failure(claim, record.trace, record.replies, record.outcomes, delivered=True):
            return TurnOutcome(record.replies, unsaved=True)
        del self.unwritten[claim.event.pk]
        return TurnOutcome(record.replies)


def _record_done(conn, outcomes: dict[str, str], now: dt.datetime) -> None:
    """``executing -> done`` for actions whose API ran, with their results (JSON)."""
    for action_id, result in outcomes.items():
        actions.transition(conn, action_id, (ActionStatus.EXECUTING,), ActionStatus.DONE, now, result=result)


def _unrecorded(state: DialogueState, action: PendingRow) -> bool:
    """The API ran, but the turn that ran it failed to save: confirming again replays its result."""
    instance = state.instances.get(action.instance)
    return action.status == ActionStatus.DONE and instance is not None and instance.open and not instance.actions_done


def _ms(since: float) -> float:
    return round((time.perf_counter() - since) * 1000, 3)
