"""The engine: the platform-agnostic heart of the bot that every adapter calls.

Adapters hand over what users do (``handle_message``, ``handle_action``) and post the
replies; they never touch the policy, the state or the database. The engine is async; the
agent and the store are synchronous, so each turn runs in a worker thread, and database
work in a second, smaller pool so short transactions never queue behind slow parser calls.

Per session, one turn at a time: callers in this process queue on an asyncio lock, other
processes on the session's lease in the database (see :mod:`.inbox`). Whoever holds the
lease runs every waiting event of the session in order; each caller then returns the
replies of its own event, whichever process ran it.

An adapter whose platform redelivers what it did not see acknowledged (Slack) records an
event first (:meth:`Engine.accept_message`), acknowledges it, and only then awaits its
replies (:meth:`Engine.replies_of`): an event acknowledged is never lost with its process.
Every process's heartbeat renews its leases and its liveness row, and adopts what dead
processes left: events they accepted but never ran, replies they committed but never posted;
and posts again, with backoff, the replies its own adapters could not post (:mod:`.outbox`).

An event once recorded is never answered "please try again" unless it will never run: when
the store goes away after that, the caller is told the message will be finished
(:data:`~.turns.DEFERRED`), the session is kept for the heartbeat to run again once the store
is back (:meth:`Engine.resume_stalled`), and the event's real replies are then posted as
notifications. A parser's statements are applied in a sandbox of worker processes
(:mod:`genie_bot.runtime.sandbox`), so a statement that runs away stops neither this process's
event loop nor its health check.
"""

from __future__ import annotations

import asyncio
import datetime as dt
import logging
import time
from collections import OrderedDict, deque
from collections.abc import Awaitable, Callable
from concurrent.futures import ThreadPoolExecutor
from contextlib import asynccontextmanager
from functools import partial
from typing import Any, TypeVar

from ..agent import AgentBuilder, agent_builder
from ..knowledge import open_database
from ..config import Config
from ..keyed_locks import KeyedLocks
from ..llm import waits_in
from ..observability import Metrics, TurnObserver
from ..runtime.sandbox import Sandbox, SandboxLimits
from ..store import Database, check_schema, current_revision, engines, sessions
from ..store import inbox as events
from ..store import pending as actions
from ..store.inbox import EventRow, EventStatus
from .admission import TurnAdmission
from .agents import RELOAD_SECONDS, AgentRegistry
from .deliveries import RecentDeliveries
from .erasure import erase_session
from .identity import dead_among, new_engine_id
from .inbox import Claim, Inbox
from .maintenance import Maintenance
from .outbox import HAND_OFF_GRACE, RetrySchedule
from .text import well_formed
from .turns import DEFERRED, TurnOutcome, TurnRunner
from .types import (Accepted, ClickOutcome, Decision, EngineStatus, Notification, ReloadReport, Reply, SessionKey,
                    replies_from_json)

log = logging.getLogger(__name__)

T = TypeVar("T")
Sink = Callable[[Notification], Awaitable[None]]
DB_THREADS = 8
ACCEPT_THREADS = 4
"""Threads that only record arriving events: an acknowledgement waits for them, never behind other work."""
ERASE_RETRY_SECONDS = 0.2
"""How often erasing a workspace tries again to take a session that a turn holds."""
PROVISIONAL_KEPT = 10_000
"""Events answered provisionally (:data:`~.turns.DEFERRED`) whose real replies are still to come."""


def utcnow() -> dt.datetime:
    """Naive UTC, the form every timestamp of the store has."""
    return dt.datetime.now(dt.timezone.utc).replace(tzinfo=None)


class Engine:
    """The conversation engine of one process: persisted sessions, ordered turns, exactly-once actions.

    Built from a :class:`~genie_bot.config.Config` (agents, database, settings), started with
    :meth:`start` and stopped with :meth:`stop`; adapters then call :meth:`handle_message` and
    :meth:`handle_action` (or :meth:`accept_message` and :meth:`replies_of`) with a
    :class:`~genie_bot.engine.SessionKey` and the platform's event id, and post the returned
    :class:`~genie_bot.engine.Reply` values. Messages the engine sends on its own (reminders,
    expiries, recovered replies) go to the sinks adapters register with :meth:`add_sink`.
    Several processes may serve one database: sessions are leased, events de-duplicated.

    >>> engine = Engine(load_config("genie.yaml"))  # doctest: +SKIP
    >>> await engine.start()  # doctest: +SKIP
    >>> replies = await engine.handle_message(SessionKey("slack", "T1", "C1", "1700000000.000100"),
    ...                                       "U1", "I need help with a waitlist", "Ev01")  # doctest: +SKIP
    """

    def __init__(self, config: Config, *, database: Database | None = None,
                 clock: Callable[[], dt.datetime] = utcnow, build_agent: AgentBuilder | None = None,
                 engine_id: str | None = None):
        self.config = config
        self.db = database or Database(config.database_url, pool_size=DB_THREADS)
        self.clock = clock
        self.id = engine_id or new_engine_id()
        self.metrics = Metrics()
        self.observer = TurnObserver(self.metrics, config.llm, config.logging)
        knowledge = open_database(config.knowledge.url, config.knowledge.read_url)
        self.registry = AgentRegistry(config.agents,
                                      self.observer.metered(build_agent or agent_builder(config.llm, knowledge=knowledge)))
        self.inbox = Inbox(self.db, self.id, clock, config.engine.lease_seconds, config.engine.ordering_window_ms)
        self.liveness_timeout = 2 * self.inbox.lease
        """An engine on another host whose heartbeat is older than this is presumed dead."""
        engine = config.engine
        self.sandbox = Sandbox(SandboxLimits(engine.statement_cpu_seconds, engine.statement_memory_mb,
                                             engine.statement_cpu_budget_seconds, engine.statement_cpu_window_seconds,
                                             engine.sandbox_queue))
        """Where the statements of this process's turns are applied (worker processes shared in the process)."""
        self.turns = TurnRunner(self.db, self.registry, config, clock, self.id, self.observer, sandbox=self.sandbox)
        self.maintenance = Maintenance(self)
        self.reload_seconds = RELOAD_SECONDS
        """How long ``/genie reload`` may take before the admin is answered that it did not finish."""
        self.undelivered: deque[Notification] = deque(maxlen=1000)
        """Notifications for a platform without a sink (no adapter running for it)."""
        self.turns_run = 0
        self.sessions_migrated = 0
        self._sinks: dict[str, Sink] = {}
        self._acknowledging = self.turns.acknowledging  # one set: add_sink fills it, commits read it
        self._waiters: dict[tuple[str, str], asyncio.Future] = {}
        self._locks = KeyedLocks()
        self._arrivals = _Arrivals()
        self._provisional: OrderedDict[tuple[str, str], None] = OrderedDict()
        """Events whose caller was answered provisionally: their real replies go out as notifications."""
        self._stalled: set[str] = set()
        """Sessions whose turns the store could not take: the heartbeat runs them again."""
        self._recent = RecentDeliveries(clock)
        self.outbox = RetrySchedule(clock)
        """When this process posts again the replies still in the outbox."""
        self._turn_pool = ThreadPoolExecutor(config.engine.turn_threads, thread_name_prefix="genie-turn")
        self.admission = TurnAdmission()
        """Few turns compute at once; any number (of the turn threads) wait for their LLM calls."""
        self.metrics.turn_limit.set_function(lambda: self.admission.limit)
        self.metrics.turns_computing.set_function(lambda: self.admission.computing)
        self.metrics.turns_waiting_to_compute.set_function(lambda: self.admission.waiting)
        self._db_pool = ThreadPoolExecutor(DB_THREADS, thread_name_prefix="genie-db")
        self._accept_pool = ThreadPoolExecutor(ACCEPT_THREADS, thread_name_prefix="genie-accept")
        self._heartbeat: asyncio.Task | None = None
        self._adoption: asyncio.Task | None = None
        self._admission_watch: asyncio.Task | None = None
        self._alive = False
        """This process wrote its liveness row (so stopping removes it)."""
        self._started = time.monotonic()

    # -- life cycle ------------------------------------------------------------------------------
    async def start(self, recover: bool = True) -> None:
        """Check the schema, load every agent (raising on any problem), then recover after a crash."""
        await self.in_db(check_schema, self.db)
        await self.in_db(self.registry.load)
        self.sandbox.pool.warm()
        await self.in_db(self._beat)
        self._alive = True
        self._heartbeat = asyncio.create_task(self._beating())
        self._admission_watch = asyncio.create_task(self.admission.watch())
        if recover:
            await self.recover()

    async def stop(self) -> None:
        for task in (self._heartbeat, self._adoption, self._admission_watch):
            if task:
                task.cancel()
                await asyncio.gather(task, return_exceptions=True)
        try:
            if self._alive:
                await self.in_db(self._gone)
        except Exception:  # noqa: BLE001 - the others will presume this process dead a little later
            log.exception("could not remove this engine's liveness row")
        self._turn_pool.shutdown(wait=True)
        self._db_pool.shutdown(wait=True)
        self._accept_pool.shutdown(wait=True)
        self.db.dispose()

    async def __aenter__(self) -> "Engine":
        await self.start()
        return self

    async def __aexit__(self, *exc: Any) -> None:
        await self.stop()

    def add_sink(self, platform: str, sink: Sink, acknowledges: bool = False) -> None:
        """Where notifications of ``platform`` sessions go (the platform's adapter).

        An adapter that ``acknowledges`` calls :meth:`delivered` once it has posted a turn's
        replies; until then they stay in the outbox, and if the process dies first, recovery
        posts them as notifications. Replies of other platforms count as delivered when committed.
        """
        self._sinks[platform] = sink
        if acknowledges:
            self._acknowledging.add(platform)

    async def delivered(self, session_key: SessionKey, event_id: str) -> None:
        """The adapter posted the replies of ``event_id``: take them out of the outbox."""
        pk = (session_key.platform, event_id)
        if pk in self._provisional:
            return  # what was posted is not the event's replies: those are still to come
        try:
            await self.in_db(self._mark_delivered, pk)
        except Exception:  # noqa: BLE001 - the store is away: posted again later, which the adapter de-duplicates
            log.exception("could not record that the replies of %s in %s were posted", event_id, session_key)
            return
        self.outbox.delivered(pk)

    async def delivery_failed(self, session_key: SessionKey, event_id: str) -> None:
        """The adapter could not post (all) the replies of ``event_id``: they stay in the outbox and
        this process posts them again, as notifications, with backoff (see :mod:`.outbox`)."""
        wait = self.outbox.failed((session_key.platform, event_id))
        log.warning("the replies of %s in %s were not posted; trying again in %.0f s", event_id, session_key,
                    wait.total_seconds())

    def _mark_delivered(self, pk: tuple[str, str]) -> None:
        with self.db.write() as conn:
            events.mark_delivered(conn, pk, self.clock())

    # -- the adapters' API -------------------------------------------------------------------------
    async def handle_message(self, session_key: SessionKey, user_id: str, text: str, event_id: str,
                             sequence: int | None = None) -> list[Reply]:
        """Run a user's message; ``[]`` for a delivery of an event seen before."""
        return await self._answer(await self.accept_message(session_key, user_id, text, event_id, sequence))

    async def handle_action(self, session_key: SessionKey, user_id: str, action_id: str, decision: Decision | str,
                            event_id: str, sequence: int | None = None) -> list[Reply]:
        """Run a Confirm or Cancel click on pending action ``action_id``."""
        return await self._answer(await self.accept_action(session_key, user_id, action_id, decision, event_id,
                                                           sequence))

    async def accept_message(self, session_key: SessionKey, user_id: str, text: str, event_id: str,
                             sequence: int | None = None) -> Accepted | None:
        """Record a user's message (a few milliseconds); None for a delivery of an event seen before.

        Text that no store takes (a lone surrogate) is repaired first (:func:`.text.well_formed`).
        ``sequence`` orders the messages of a session: when the user sent it (e.g. Slack ``ts``
        in microseconds, a Discord snowflake); by default, when it arrived here.
        """
        return await self._accept(session_key, "message", user_id, event_id, sequence, text=text)

    async def accept_action(self, session_key: SessionKey, user_id: str, action_id: str, decision: Decision | str,
                            event_id: str, sequence: int | None = None) -> Accepted | None:
        """Record a Confirm or Cancel click on pending action ``action_id``."""
        return await self._accept(session_key, "action", user_id, event_id, sequence, action_id=action_id,
                                  decision=Decision(decision).value)

    async def replies_of(self, accepted: Accepted) -> list[Reply]:
        """Run the session's waiting events up to ``accepted`` (or wait for the process that does).

        When the store is away, the replies are :data:`~.turns.DEFERRED` (the event runs once the
        store is back, and its replies are posted as notifications then).
        """
        future = asyncio.get_running_loop().create_future()
        self._waiters[accepted.pk] = future
        try:
            try:
                await self._drive(str(accepted.session_key), accepted.pk, future)
                replies = future.result()
            except Exception:  # noqa: BLE001 - recorded, so it runs once the store is back
                log.exception("the store is away: %s of %s runs once it is back", accepted.event_id,
                              accepted.session_key)
                self._stalled.add(str(accepted.session_key))
                replies = [Reply(DEFERRED, outcome=ClickOutcome.DEFERRED)]
            if replies and replies[0].outcome is ClickOutcome.DEFERRED:
                self._provisional[accepted.pk] = None
                while len(self._provisional) > PROVISIONAL_KEPT:
                    self._provisional.popitem(last=False)
        finally:
            self._waiters.pop(accepted.pk, None)
        if accepted.session_key.platform in self._acknowledging:
            self.outbox.handed(accepted.pk)
        return replies

    async def has_session(self, session_key: SessionKey) -> bool:
        """Whether ``session_key`` ever had an event (in any process): for adapters that answer
        follow-ups without a mention only where the bot already talks."""
        def exists() -> bool:
            with self.db.read() as conn:
                return sessions.exists(conn, str(session_key))
        return await self.in_db(exists)

    async def reset(self, session_key: SessionKey) -> None:
        """Forget the conversation of a session; its pending actions are cancelled."""
        await self.maintenance.close_session(str(session_key), reason="reset", wait=True)

    async def erase_workspace(self, platform: str, workspace: str) -> int:
        """Forget every session of a workspace (a Slack team, a Discord guild), with its events, turn
        traces and pending actions, each session under its lease as a turn is; returns how many."""
        def find() -> list[str]:
            with self.db.read() as conn:
                return sessions.keys_of_workspace(conn, platform, workspace)

        erased = 0
        for key in await self.in_db(find):
            # not with_session(wait=True): a session erased meanwhile (by another process) has no lease to take
            while (done := await self.with_session(key, partial(erase_session, key=key), wait=False)) is None:
                if not await self.has_session(SessionKey.parse(key)):
                    break
                await asyncio.sleep(ERASE_RETRY_SECONDS)
            erased += bool(done)
        return erased

    async def reload(self, agent: str | None = None) -> ReloadReport:
        """Load the spec of ``agent`` (or all agents) again; on any error the running versions stay."""
        # a thread of its own: loading runs the agent's api.py (bounded, see spec.api_module, and
        # answered within reload_seconds), never on a database thread that turns, deliveries and
        # /healthz wait for
        data_before = self.registry.data_files()
        versions, errors = await self.registry.reload_within(agent, self.reload_seconds)
        if errors:
            return ReloadReport(False, errors)
        data_now = self.registry.data_files()

        def live() -> dict[tuple[str, str | None], int]:
            with self.db.read() as conn:
                return sessions.live_by_version(conn)

        counts = await self.in_db(live)
        return ReloadReport(True, [], versions, {
            name: sum(n for (a, v), n in counts.items() if a == name and v != new)
            for name, (old, new) in versions.items()}, {
            name: sorted(path for path in {*data_before[name], *data_now[name]}
                         if data_before[name].get(path) != data_now[name].get(path)) for name in versions})

    async def status(self) -> EngineStatus:
        def read() -> EngineStatus:
            with self.db.read() as conn:
                by_version = sessions.live_by_version(conn)
                event_counts, action_counts = events.count_by_status(conn), actions.count_by_status(conn)
            return EngineStatus(
                instance=self.id, database=self.db.safe_url, schema_revision=current_revision(self.db),
                agents=self.registry.versions(), live_sessions=sum(by_version.values()),
                sessions_by_version={f"{a}@{v}": n for (a, v), n in by_version.items()},
                events=event_counts, pending_actions=action_counts, turns_run=self.turns_run,
                sessions_migrated=self.sessions_migrated, uptime_seconds=time.monotonic() - self._started)
        return await self.in_db(read)

    # -- recovery ----------------------------------------------------------------------------------
    async def recover(self) -> int:
        """Pick up what dead processes left (at start-up: every waiting event no live process holds).

        A turn cut short re-runs (its transaction never committed); one cut short during a
        confirmed API call is reported to the user instead, never re-run. Replies whose caller
        died with its process go out as notifications. Returns the sessions resumed.
        """
        return await self._adopt(waiting_since=self.clock())

    async def _adopt(self, waiting_since: dt.datetime) -> int:
        """Free the leases of dead processes; run the sessions whose events were left behind (accepted
        by a dead process, or waiting since before ``waiting_since``); post their unposted replies."""
        def orphans() -> list[str]:
            with self.db.write() as conn:
                now = self.clock()
                dead = self._dead(conn, sessions.lease_owners(conn) + events.waiting_acceptors(conn))
                sessions.expire_leases_of(conn, dead, now)
                return events.orphaned(conn, dead, waiting_since, now)

        keys = await self.in_db(orphans)
        await asyncio.gather(*(self._drain_held(key) for key in keys))
        await self.redeliver()
        return len(keys)

    async def _drain_held(self, key: str) -> None:
        async with self._locks.hold(key):
            await self._drain(key)

    async def resume_stalled(self) -> int:
        """Run again the sessions whose turns the store could not take (run with every heartbeat);
        a session whose store is still away stays for the next try. Returns the sessions resumed."""
        resumed = 0
        for key in list(self._stalled):
            self._stalled.discard(key)
            try:
                await self._drain_held(key)
            except Exception:  # noqa: BLE001 - still away: tried again at the next heartbeat
                log.warning("the store is still away for %s; trying again later", key, exc_info=True)
                self._stalled.add(key)
            else:
                resumed += 1
        return resumed

    async def redeliver(self) -> int:
        """Post the replies still in the outbox that nobody else will post: those dead processes
        committed but never confirmed posting, and those this process's adapters could not post
        (when due, see :mod:`.outbox`).

        Runs at start-up and with every heartbeat, so a surviving replica picks up what a killed
        one left, and a reply that met a platform outage goes out once the platform is back.
        Returns the events whose replies went out.
        """
        def find() -> list[events.Undelivered]:
            with self.db.read() as conn:
                owners = events.undelivered_owners(conn)
                gone = self._dead(conn, owners) + [self.id] * (self.id in owners)
                return events.undelivered_of(conn, gone) if gone else []

        sent = 0
        for row in await self.in_db(find):
            mine = row.accepted_by == self.id
            if row.pk[0] not in self._sinks or (mine and row.pk in self._waiters):
                continue  # kept until an adapter of that platform runs; or its caller is about to get it
            waited_for = mine and row.pk not in self._provisional  # a caller that got no provisional answer
            if not self.outbox.due(row.pk, row.done_at + HAND_OFF_GRACE if waited_for else None):
                continue
            if await self._notify_replies(SessionKey.parse(row.session_key), row.pk, replies_from_json(row.replies)):
                sent += 1
        return sent

    async def _notify_replies(self, key: SessionKey, pk: tuple[str, str], replies: list[Reply]) -> bool:
        """Post the replies of an event whose caller is gone; True (and out of the outbox) if all went,
        else they are tried again later."""
        posted = all([await self.notify(key, reply, "recovered", event_id=pk[1], part=n)
                      for n, reply in enumerate(replies)])
        if posted:
            self._provisional.pop(pk, None)
            await self.in_db(self._mark_delivered, pk)
            self.outbox.delivered(pk)
        else:
            self.outbox.failed(pk)
        return posted

    def _dead(self, conn: Any, owners: list[str]) -> list[str]:
        return dead_among(conn, owners, self.id, self.clock() - self.liveness_timeout)

    # -- running events ----------------------------------------------------------------------------
    async def _answer(self, accepted: Accepted | None) -> list[Reply]:
        return [] if accepted is None else await self.replies_of(accepted)

    async def _accept(self, key: SessionKey, kind: str, user_id: str, event_id: str, sequence: int | None,
                      **payload: str) -> Accepted | None:
        text = payload.get("text")
        row = EventRow(platform=key.platform, event_id=str(event_id), session_key=str(key), kind=kind,
                       user_id=well_formed(str(user_id)), text=None if text is None else well_formed(text),
                       action_id=payload.get("action_id"),
                       decision=payload.get("decision"),
                       sequence=time.time_ns() // 1000 if sequence is None else int(sequence),
                       status=EventStatus.QUEUED, attempts=0, accepted_by=self.id, received_at=self.clock())
        agent = self.config.agent_for(key.platform, key.workspace, key.channel)
        async def record() -> bool:
            async with self._arrivals.recording(row.session_key):
                return await asyncio.get_running_loop().run_in_executor(self._accept_pool, self.inbox.accept, key,
                                                                        agent, row)

        return Accepted(key, row.event_id) if await self._recent.record_once(row.pk, record) else None

    async def _drive(self, key: str, pk: tuple[str, str], future: asyncio.Future) -> None:
        """Run the session's waiting events until ``pk``'s replies are known (here or elsewhere).

        A store failure is tried again over a few seconds (:attr:`TurnRunner.record_retry_seconds`),
        then raised; once ``pk``'s replies are known, a failure running the next events is not its caller's.
        """
        delay = 0.002
        failures = 0
        while not future.done():
            try:
                async with self._locks.hold(key):
                    finished = future.done() or await self._drain(key)
                if future.done():
                    return
                replies = await self.in_db(self.inbox.replies, pk)
            except Exception:
                if future.done():
                    return
                if failures == len(self.turns.record_retry_seconds):
                    raise
                log.warning("the store failed while running %s; trying again", key, exc_info=True)
                await asyncio.sleep(self.turns.record_retry_seconds[failures])
                failures += 1
                continue
            if replies is not None:
                future.set_result(replies)
            elif not finished:  # another process holds the session: it runs our event
                await asyncio.sleep(delay)
                delay = min(delay * 2, 0.1)

    async def _drain(self, key: str) -> bool:
        """Run waiting events of ``key`` while this process holds its lease; False if another does."""
        while True:
            await self._arrivals.recorded(key)
            claim, outcome = await asyncio.get_running_loop().run_in_executor(self._turn_pool, self._next_turn, key)
            if claim.busy:
                return False
            if claim.claimed is None or outcome is None:  # nothing ran
                if not claim.wait_seconds:
                    return True
                await asyncio.sleep(claim.wait_seconds)
                await asyncio.sleep(0)  # deliveries due at the same moment start (and register) first
                continue
            if outcome.lost:
                return False
            if outcome.unsaved:  # the store is away: run again (or recorded) once it is back
                self._stalled.add(key)
                waiter = self._waiters.get(claim.claimed.event.pk)
                if waiter is not None and not waiter.done():  # elsewhere, its caller waits for the real replies
                    waiter.set_result(outcome.replies)
                return True
            self.turns_run += 1
            self.sessions_migrated += outcome.migrated
            await self._deliver(claim.claimed.event, outcome.replies)
            if outcome.idle:
                return True

    def _next_turn(self, key: str) -> tuple[Claim, TurnOutcome | None]:
        """Claim the session's next event and run it, in one worker thread (one hand-off per turn), in
        one of the few computing slots, given back while the turn waits for its LLM calls."""
        with self.admission.turn(), waits_in(self.admission.waits):
            claim = self.inbox.claim(key)
            return claim, self.turns.run(claim.claimed) if claim.claimed is not None else None

    async def _deliver(self, event: EventRow, replies: list[Reply]) -> None:
        future = self._waiters.get(event.pk)
        if future is not None and not future.done():
            future.set_result(replies)
        elif future is not None or event.pk in self._provisional or (
                event.accepted_by != self.id and await self.in_db(self._is_dead, event.accepted_by)):
            # its caller was answered already (provisionally, or the event ran again: its turn could not
            # be recorded), or died with its process: tell the user directly
            await self._notify_replies(SessionKey.parse(event.session_key), event.pk, replies)

    def _is_dead(self, engine_id: str) -> bool:
        with self.db.read() as conn:
            return bool(self._dead(conn, [engine_id]))

    async def notify(self, session_key: SessionKey, reply: Reply, reason: str, *, event_id: str | None = None,
                     part: int = 0) -> bool:
        """Send a message the engine decided on (not an answer to a call); False if it could not."""
        notification = Notification(session_key, reply, reason, event_id, part)
        sink = self._sinks.get(session_key.platform)
        if sink is None:
            log.info("no adapter for %s: notification kept undelivered: %s", session_key.platform, reply.text)
            self.undelivered.append(notification)
            return False
        try:
            await sink(notification)
        except Exception:  # noqa: BLE001 - a failing adapter must not break the engine
            log.exception("delivering a notification to %s failed", session_key)
            return False
        return True

    # -- session locks for other work (jobs, reset) ------------------------------------------------------
    async def with_session(self, key: str, work: Callable[[Any], T], wait: bool) -> T | None:
        """Run ``work(conn)`` in a write transaction while holding the session (lock and lease).

        With ``wait=False`` a session busy elsewhere is skipped (None): jobs try again later.
        """
        delay = 0.005
        while True:
            async with self._locks.hold(key):
                result = await self.in_db(self._under_lease, key, work)
            if result is not _BUSY:
                return result
            if not wait:
                return None
            await asyncio.sleep(delay)
            delay = min(delay * 2, 0.2)

    def _under_lease(self, key: str, work: Callable[[Any], T]) -> Any:
        with self.db.write() as conn:
            now = self.clock()
            if not sessions.acquire(conn, key, self.id, now, now + self.inbox.lease):
                return _BUSY
            try:
                return work(conn)
            finally:
                sessions.release(conn, key, self.id)

    async def in_db(self, fn: Callable[..., T], *args: Any) -> T:
        """Run blocking store work in the database thread pool."""
        return await asyncio.get_running_loop().run_in_executor(self._db_pool, fn, *args)

    def _beat(self) -> None:
        with self.db.write() as conn:
            now = self.clock()
            engines.beat(self.db, conn, self.id, now)
            sessions.renew(conn, self.id, now + self.inbox.lease)

    def _gone(self) -> None:
        with self.db.write() as conn:
            engines.gone(conn, self.id)

    async def _beating(self) -> None:
        """Every third of a lease: renew this process's leases and liveness, adopt what dead ones left.

        Adoption runs beside the beats (never delaying a renewal), one round at a time; an event
        counts as left behind once it has waited a whole lease without anyone running it.
        """
        interval = max(0.05, self.config.engine.lease_seconds / 3)
        while True:
            await asyncio.sleep(interval)
            try:
                await self.in_db(self._beat)
            except Exception:  # noqa: BLE001 - retried at the next beat
                log.exception("renewing this engine's leases failed")
            if self._adoption is None or self._adoption.done():
                self._adoption = asyncio.create_task(self._adopt_logged(self.clock() - self.inbox.lease))

    async def _adopt_logged(self, waiting_since: dt.datetime) -> None:
        try:
            await self._adopt(waiting_since)
        except Exception:  # noqa: BLE001 - retried at the next beat
            log.exception("adopting what dead engines left failed")
        await self.resume_stalled()


_BUSY = object()


class _Arrivals:
    """Deliveries of a session being recorded right now in this process.

    A session's next event is chosen only once they are recorded: one handed over before the
    choice is made must be among the candidates, however long its insert queued.
    """

    def __init__(self) -> None:
        self._recording: dict[str, tuple[int, asyncio.Event]] = {}

    @asynccontextmanager
    async def recording(self, key: str):
        count, done = self._recording.get(key, (0, asyncio.Event()))
        self._recording[key] = (count + 1, done)
        try:
            yield
        finally:
            count, done = self._recording[key]
            if count == 1:
                del self._recording[key]
                done.set()
            else:
                self._recording[key] = (count - 1, done)

    async def recorded(self, key: str) -> None:
        while key in self._recording:
            await self._recording[key][1].wait()
