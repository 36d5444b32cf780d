"""Parser statements applied in worker processes, under hard limits of CPU time and memory.

The interpreter prices every operation before it runs (:mod:`genie_bot.interpreter.allowed`),
but a price list can miss a case, and a single C call that holds the GIL stops every thread of
its process: the other turns, the acknowledgements Slack waits for, the health check, the lease
renewals, after which another replica takes the session over and runs the same statement. No
watchdog thread can interrupt such a call; another process can. So the engine applies the
statements of its turns here (see :mod:`.isolation`), and checks a parser's trial runs here too
(one call for all the parses a turn checks together, :mod:`.trials`): in a worker process whose
CPU time the kernel limits (``RLIMIT_CPU``: the worker is killed once it used its budget for the
call, rounded up to a whole second) and whose memory it caps (``RLIMIT_AS``: a ``MemoryError``
instead of gigabytes), and which cannot read the bot's secrets (:mod:`.confinement`). The turn
then gets :class:`~.isolation.EvaluationAbandoned` and the engine parks the message
(:mod:`genie_bot.engine.turns`). The waiting turn holds no lock and no GIL, so the process goes
on serving everything else meanwhile.

Workers (``python -m genie_bot.runtime.sandbox_worker``) are shared by every :class:`Sandbox`
of a process (:meth:`WorkerPool.shared`), which serves its callers fairly under a burst:

- **one call at a time per party** (a user: :meth:`Sandbox.serving`), the parties waiting served
  in turn: first those whose calls lately were cheap (under :data:`HEAVY_CPU_SECONDS` in all),
  then those without calls lately (a burst of newcomers may be runaways), then the others;
- **a budget per party**: a party whose calls used ``cpu_budget_seconds`` over the last
  ``budget_window_seconds`` is refused (:class:`~.isolation.OverBudget`, the message parked);
  calls of no party (``""``: the builder's own commands, ``chat``, ``test``, ``replay``) have none,
  since a builder replaying a long recording is not a user hogging a shared bot;
- **a bounded queue**: a call finding ``max_waiting`` calls waiting is refused at once
  (:class:`~.isolation.SandboxBusy`);
- **long calls make room**: :data:`MAX_WORKERS` calls run at once, but one running for more than
  :data:`LONG_CALL_SECONDS` (a runaway, most likely) no longer holds its place, up to
  :data:`MAX_LONG_CALLS` of them, so that ordinary calls never wait behind runaways; its worker
  is lowered to the least CPU priority and retired after the call.

One watchdog thread per pool marks calls long and kills a worker whose call took
:data:`WALL_SECONDS_PER_CPU_SECOND` times its CPU budget by the clock (the only limit where the
``resource`` module is missing, on Windows). A call carries the state and what the turn gathered
so far, pickled as a tuple, plus the spec once per worker and version, without the API functions
(applying statements never calls them). A worker gets no secrets (its environment is
:data:`WORKER_ENVIRONMENT`), and says it is ready, and how it is confined, before its first call:
one that cannot start fails the turn (:class:`SandboxUnavailable`) rather than parking its message.
"""

from __future__ import annotations

import dataclasses
import datetime as dt
import logging
import os
import pickle
import signal
import struct
import subprocess
import sys
import threading
import time
from collections import OrderedDict, deque
from dataclasses import dataclass
from pathlib import Path
from typing import IO, Any

from ..errors import GenieError
from ..spec import AgentSpec
from ..spec.model import ApiFunction
from ..state import DialogueState
from .checked import Batch, Checked
from .isolation import EvaluationAbandoned, OverBudget, SandboxBusy, sandboxed
from .statements import apply_statements
from .turn import Turn


log = logging.getLogger(__name__)

MAX_WORKERS = 4
"""Calls running at once (long ones aside): a call takes about a millisecond, so a few serve many turn threads."""
MAX_LONG_CALLS = 32
"""Long calls that no longer hold a place among :data:`MAX_WORKERS` (beyond them, they do): a
runaway per user at most (one call at a time each), its CPU at the least priority, its number
bounded by the users' CPU budgets; each worker is a process of about 30 MB."""
LONG_CALL_SECONDS = 0.1
"""A call running longer than this by the clock (its worker's start included) is long: an ordinary
one takes a few milliseconds."""
HEAVY_CPU_SECONDS = 0.25
"""A party whose calls used this much CPU time in the budget's window waits behind the others."""
LONG_CALL_NICENESS = 19
"""The CPU priority (``nice``) a long call's worker is lowered to: the bot's threads and ordinary
calls come first. (Ordinary calls keep the bot's priority: they are part of every turn, and a
lower one would let any other busy process on the host slow every turn down.)"""
WALL_SECONDS_PER_CPU_SECOND = 15
"""How long a call may take by the clock, per second of CPU it may use: a worker is killed after
that even if the kernel did not (on a machine so loaded that a second of CPU takes this long)."""
PROVEN_CPU_SECONDS = 0.05
"""A batch of trial runs that took less CPU than this proves its statements cheap on that state: the
turn applying the chosen ones to that state next does so in its own thread (one call per turn)."""
PROVEN_KEPT = 256
SPECS_KEPT = 32
"""Specs a worker keeps (the agents and versions it served last); the pool keeps as many pickled."""
WORKER_ENVIRONMENT = ("PATH", "HOME", "LANG", "LC_ALL", "LC_CTYPE", "TZ", "SYSTEMROOT", "TMPDIR", "TEMP",
                      "GENIE_SANDBOX_USER")
"""What a worker inherits of the engine's environment (it needs no token, key or database URL)."""
READY = "ready"
"""What a worker says first (with how it is confined), once it can apply statements."""
APPLY, CHECK = "apply", "check"
"""What a call asks of a worker: apply statements to a turn, or check a batch of parses."""
MAX_PARTIES_KEPT = 10_000
"""Parties whose CPU time is remembered before those whose window passed are forgotten."""
_LENGTH = struct.Struct("!Q")
_PROTOCOL = pickle.HIGHEST_PROTOCOL


class SandboxUnavailable(GenieError):
    """A worker process could not be started: the turn fails as on any error (its message is not to blame)."""


@dataclass(frozen=True)
class SandboxLimits:
    cpu_seconds: float = 2.0
    """CPU time one call (one application of statements, one batch of checks) may use (rounded up
    to a whole second by the kernel)."""
    memory_mb: int = 512
    """Memory it may allocate beyond what its worker holds when it starts."""
    cpu_budget_seconds: float = 4.0
    """CPU time the calls of one party may use over ``budget_window_seconds``; its calls are refused beyond it."""
    budget_window_seconds: float = 600.0
    max_waiting: int = 64
    """Calls that may wait for a worker; one more is refused."""


class Sandbox:
    """Applies statements in the workers of a :class:`WorkerPool` under ``limits`` (a
    :class:`~.isolation.StatementSandbox`); one per engine, all sharing the process's pool, each
    turn served as its ``party`` (:meth:`serving`)."""

    def __init__(self, limits: SandboxLimits = SandboxLimits(), pool: WorkerPool | None = None, party: str = ""):
        self.limits = limits
        self.pool = pool or WorkerPool.shared()
        self.party = party

    def serving(self, party: str) -> Sandbox:
        """This sandbox for the calls of ``party`` (a user): each party's calls run one at a time,
        are served in turn with the others', and count against its CPU budget."""
        return Sandbox(self.limits, self.pool, party)

    def apply_statements(self, turn: Turn, source: str) -> None:
        if self.pool.proven(turn.spec, turn.state, source):  # just checked on this state, cheaply: no second call
            with sandboxed(None):
                apply_statements(turn, source)
            return
        payload = (turn.state, turn.update, turn.acts, turn.today, turn.now, turn.start_clock, source)
        (state, update, acts), _ = self.pool.call(self.party, self.limits, turn.spec, APPLY, payload)
        _replace(turn.state, state)
        _replace(turn.update, update)
        turn.acts[:] = acts

    def check(self, spec: AgentSpec, state: DialogueState, batch: Batch, today: dt.date) -> list[Checked]:
        checked: list[Checked]
        checked, cpu = self.pool.call(self.party, self.limits, spec, CHECK, (state, batch, today))
        if cpu < PROVEN_CPU_SECONDS:
            self.pool.prove(spec, state, [parse.statements for parse in checked])
        return checked


class _Call:
    """One call, from the moment it asks for a worker until it gives it back."""

    __slots__ = ("party", "limits", "granted", "refused", "worker", "long", "long_at", "kill_at", "sent_at", "trusted")

    def __init__(self, party: str, limits: SandboxLimits):
        self.party = party
        self.limits = limits
        self.granted: threading.Event | None = None
        """Set when the call may run (created only for a call that has to wait)."""
        self.refused: str | None = None
        """Why the call may not run (its party went over its budget while it waited)."""
        self.worker: _Worker | None = None
        self.long = False
        """Running (its worker's start included) for :data:`LONG_CALL_SECONDS`: it no longer holds a place."""
        self.long_at = self.kill_at = 0.0
        self.trusted = False
        """Its party's calls lately were cheap."""
        self.sent_at: float | None = None
        """When its worker got it (a worker that ran it for :data:`LONG_CALL_SECONDS` is lowered, then retired)."""


class WorkerPool:
    """Worker processes, shared by the threads (and engines) of a process."""

    _shared: WorkerPool | None = None
    _shared_lock = threading.Lock()

    def __init__(self, max_workers: int = MAX_WORKERS, max_long: int = MAX_LONG_CALLS):
        self.max_workers = max_workers
        self.max_long = max_long
        self.confinement: dict[str, object] | None = None
        """How the workers are confined, as the first one said (:func:`.confinement.confine`)."""
        self._lock = threading.Lock()
        self._changed = threading.Condition(self._lock)
        """Notified when a call starts or ends: the watchdog's wake-up."""
        self._idle: list[_Worker] = []
        self._processes = 0
        """Worker processes alive or being started."""
        self._starting = False
        self._running: list[_Call] = []
        self._waiting: OrderedDict[str, deque[_Call]] = OrderedDict()
        """Waiting calls by party, the parties in the order they are served (round robin)."""
        self._waiting_calls = 0
        self._used: dict[str, deque[tuple[float, float]]] = {}
        """(when, CPU seconds) of each party's calls in the last window."""
        self._specs: OrderedDict[int, tuple[AgentSpec, int, bytes]] = OrderedDict()
        self._tokens = 0
        self._proven: OrderedDict[tuple[int, bytes, str], None] = OrderedDict()
        """Statements applied to a state in a worker cheaply, by (spec, state fingerprint, statements)."""
        self._watchdog: threading.Thread | None = None
        self._watch_until: float | None = None
        """When the watchdog wakes up next (None: when notified)."""

    @classmethod
    def shared(cls) -> WorkerPool:
        """The process's pool (started empty; workers start as calls need them)."""
        with cls._shared_lock:
            if cls._shared is None:
                cls._shared = cls()
            return cls._shared

    def warm(self) -> None:
        """Start a worker now, in the background, so that the first turn does not wait for one."""
        with self._lock:
            self._keep_spare()

    def call(self, party: str, limits: SandboxLimits, spec: AgentSpec, kind: str, payload: Any) -> tuple[Any, float]:
        """Run ``kind`` with ``payload`` in a worker as ``party``: (its answer, the CPU seconds it took), or
        the exception it raised."""
        token, blob = self.spec(spec)
        call = self._admit(party, limits)
        cpu = 0.0
        try:
            worker = call.worker or self._started(call)
            call.sent_at = time.monotonic()
            answer, cpu = worker.call(call.limits, token, blob, kind, payload)
            return answer, cpu
        except EvaluationAbandoned:
            cpu = limits.cpu_seconds
            raise
        finally:
            self._finish(call, cpu)

    def used(self, party: str) -> float:
        """CPU seconds ``party``'s calls used in their budget's window (as of their last call)."""
        with self._lock:
            return sum(cpu for _, cpu in self._used.get(party, ()))

    def prove(self, spec: AgentSpec, state: DialogueState, sources: list[str]) -> None:
        """``sources`` were applied to ``state`` in a worker, all of them within :data:`PROVEN_CPU_SECONDS`."""
        fingerprint = _fingerprint(state)
        with self._lock:
            for source in sources:
                self._proven[(id(spec), fingerprint, source)] = None
                while len(self._proven) > PROVEN_KEPT:
                    self._proven.popitem(last=False)

    def proven(self, spec: AgentSpec, state: DialogueState, source: str) -> bool:
        """Whether ``source`` was applied in a worker to a state like ``state`` (its turn number aside),
        cheaply (:meth:`prove`): applying it here costs as little, and holds the GIL as briefly."""
        if not source.strip():
            return True
        key = (id(spec), _fingerprint(state), source)
        with self._lock:
            return self._proven.pop(key, False) is None

    def running(self) -> list[tuple[str, bool]]:
        """(party, whether long) of each call running."""
        with self._lock:
            return [(call.party, call.long) for call in self._running]

    def waiting(self) -> list[str]:
        """The party of each call waiting, in the order they would be served if all were light."""
        with self._lock:
            return [party for party, queue in self._waiting.items() for _ in queue]

    def spec(self, spec: AgentSpec) -> tuple[int, bytes]:
        """The token and pickled form of ``spec`` (kept while it is among the latest ones served)."""
        with self._lock:
            known = self._specs.get(id(spec))
            if known is not None and known[0] is spec:
                self._specs.move_to_end(id(spec))
                return known[1], known[2]
        blob = pickle.dumps(_without_functions(spec), _PROTOCOL)
        with self._lock:
            self._tokens += 1
            self._specs[id(spec)] = (spec, self._tokens, blob)
            while len(self._specs) > SPECS_KEPT:
                self._specs.popitem(last=False)
            return self._tokens, blob

    # -- admission and fairness (under the lock) -------------------------------------------------
    def _admit(self, party: str, limits: SandboxLimits) -> _Call:
        """The call, once it may run (a worker given, or a process to start); OverBudget or SandboxBusy."""
        call = _Call(party, limits)
        with self._lock:
            refused = self._over_budget(call)
            if refused:
                raise OverBudget(refused)
            if self._waiting_calls >= limits.max_waiting:
                raise SandboxBusy(f"{self._waiting_calls} calls are waiting for the sandbox")
            self._waiting.setdefault(party, deque()).append(call)
            self._waiting_calls += 1
            self._dispatch()
            if call in self._running or call.refused:
                granted = None
            else:
                granted = call.granted = threading.Event()
        if granted is not None:
            granted.wait()
        if call.refused:
            raise OverBudget(call.refused)
        return call

    def _over_budget(self, call: _Call) -> str | None:
        """Why ``call``'s party may not run more calls now, if it may not."""
        if not call.party:
            return None
        used = self._window(call.party, call.limits.budget_window_seconds)
        if used < call.limits.cpu_budget_seconds:
            return None
        return (f"its user's statements used {used:.1f} s of CPU time in the last "
                f"{call.limits.budget_window_seconds:g} s (at most {call.limits.cpu_budget_seconds:g} s)")

    def _window(self, party: str, seconds: float) -> float:
        """CPU seconds ``party``'s calls used in the last ``seconds``."""
        used = self._used.get(party)
        if not used:
            return 0.0
        since = time.monotonic() - seconds
        while used and used[0][0] < since:
            used.popleft()
        if not used:
            del self._used[party]
        return sum(cpu for _, cpu in used)

    def _charge(self, call: _Call, cpu: float) -> None:
        """Count ``cpu`` seconds to ``call``'s party, in slices of a tenth of its window (so that a
        party keeps a few numbers however many calls it makes)."""
        now = time.monotonic()
        used = self._used.setdefault(call.party, deque())
        if used and now - used[-1][0] < call.limits.budget_window_seconds / 10:
            used[-1] = (used[-1][0], used[-1][1] + cpu)
        else:
            used.append((now, cpu))
        if len(self._used) > MAX_PARTIES_KEPT:  # forget the parties whose window has passed
            for party in list(self._used):
                self._window(party, call.limits.budget_window_seconds)

    def _dispatch(self) -> None:
        """Start waiting calls while there is room: a party at a time, light parties first."""
        while self._waiting and self._has_room():
            party = self._next_party()
            if party is None:
                return
            queue = self._waiting[party]
            call = queue.popleft()
            self._waiting_calls -= 1
            if queue:
                self._waiting.move_to_end(party)
            else:
                del self._waiting[party]
            call.refused = self._over_budget(call)
            if not call.refused:
                self._run(call, trusted=self._rank(party, call.limits) == 0)
            if call.granted is not None:
                call.granted.set()

    def _has_room(self) -> bool:
        long_calls = sum(call.long for call in self._running)
        return len(self._running) - long_calls + max(0, long_calls - self.max_long) < self.max_workers

    def _next_party(self) -> str | None:
        """The first waiting party without a running call, in this order: those whose calls lately
        were cheap, those with no calls lately (a burst of newcomers may be runaways), the others."""
        running = {call.party for call in self._running}
        best: tuple[int, str] | None = None
        for party, queue in self._waiting.items():
            if party in running:
                continue
            rank = self._rank(party, queue[0].limits)
            if rank == 0:
                return party
            if best is None or rank < best[0]:
                best = (rank, party)
        return best[1] if best else None

    def _rank(self, party: str, limits: SandboxLimits) -> int:
        """0: cheap calls lately; 1: no calls lately; 2: :data:`HEAVY_CPU_SECONDS` or more lately."""
        used = self._window(party, limits.budget_window_seconds)
        if used >= HEAVY_CPU_SECONDS:
            return 2
        return 0 if party in self._used else 1

    def _run(self, call: _Call, trusted: bool) -> None:
        """Start ``call`` on an idle worker, unless its party is not ``trusted`` (no cheap calls lately)
        and another such call runs: then it starts a worker of its own, and a burst of newcomers
        (runaways, it may be) leaves the idle workers to the users known to be cheap."""
        now = time.monotonic()
        call.long_at = now + LONG_CALL_SECONDS
        call.kill_at = now + max(1.0, call.limits.cpu_seconds) * WALL_SECONDS_PER_CPU_SECOND
        call.trusted = trusted
        if self._idle and (trusted or all(other.trusted for other in self._running)):
            call.worker = self._idle.pop()
        else:
            self._processes += 1  # the call's thread starts it
        self._running.append(call)
        self._keep_spare()
        if self._watchdog is None:
            self._watchdog = threading.Thread(target=self._watch, name="genie-sandbox-watchdog", daemon=True)
            self._watchdog.start()
        if self._watch_until is None or call.long_at < self._watch_until:
            self._changed.notify()  # else it wakes up in time anyway: no thread switch per call

    def _keep_spare(self) -> None:
        """Start a worker in the background when none is idle: the next call need not wait for a process."""
        long_calls = sum(call.long for call in self._running)
        if self._idle or self._starting or self._processes - long_calls >= self.max_workers:
            return
        self._processes += 1
        self._starting = True
        threading.Thread(target=self._start_spare, name="genie-sandbox-start", daemon=True).start()

    def _start_spare(self) -> None:
        try:
            worker: _Worker | None = self._new_worker()
        except Exception:  # noqa: BLE001 - the next call starts one itself, and says why it cannot
            log.exception("could not start a sandbox worker")
            worker = None
        with self._lock:
            self._starting = False
            self._keep(worker)
            self._dispatch()

    # -- calls ending ----------------------------------------------------------------------------
    def _started(self, call: _Call) -> _Worker:
        """A new worker for ``call`` (started in its thread, outside the lock)."""
        try:
            worker = self._new_worker()
        except BaseException:
            with self._lock:
                self._processes -= 1
            raise
        with self._lock:
            call.worker = worker
        return worker

    def _new_worker(self) -> _Worker:
        worker = _Worker()
        worker.wait_ready()
        if self.confinement is None:
            self.confinement = worker.confinement
            _report(worker.confinement)
        return worker

    def _finish(self, call: _Call, cpu: float) -> None:
        retired = None
        with self._lock:
            if call in self._running:
                self._running.remove(call)
            self._charge(call, cpu)
            worker = call.worker
            if worker is not None and (worker.lowered or not worker.alive):
                retired = worker
                self._processes -= 1
            elif worker is not None:
                self._keep(worker)
            self._dispatch()
        if retired is not None:
            retired.stop()

    def _keep(self, worker: _Worker | None) -> None:
        """An idle worker kept for the next call (at most :data:`MAX_WORKERS` of them), else stopped."""
        if worker is not None and worker.alive and len(self._idle) < self.max_workers:
            self._idle.append(worker)
            return
        self._processes -= 1
        if worker is not None:
            threading.Thread(target=worker.stop, daemon=True).start()

    def _watch(self) -> None:
        """The watchdog: calls become long after :data:`LONG_CALL_SECONDS` (making room for others, their
        worker lowered to the least priority); a call past its time by the clock has its worker killed."""
        with self._lock:
            while True:
                now = time.monotonic()
                wake: float | None = None
                for call in list(self._running):
                    if call.worker is not None and now >= call.kill_at:
                        call.worker.kill()
                    elif not call.long and now >= call.long_at:  # its worker may still be starting
                        call.long = True
                        self._dispatch()
                        self._keep_spare()
                    ran_long = call.sent_at is not None and now >= call.sent_at + LONG_CALL_SECONDS
                    if ran_long and call.worker is not None and not call.worker.lowered:
                        call.worker.lower_priority()
                    due = call.kill_at if call.long and call.sent_at is not None else \
                        min(call.long_at, (call.sent_at or call.long_at) + LONG_CALL_SECONDS)
                    wake = due if wake is None else min(wake, due)
                self._watch_until = wake
                self._changed.wait(None if wake is None else max(0.01, wake - now))


class _Worker:
    """One worker process and the pipes to it."""

    def __init__(self) -> None:
        package_root = str(Path(__file__).resolve().parents[2])
        path = os.pathsep.join([package_root, *filter(None, [os.environ.get("PYTHONPATH")])])
        environment = {name: os.environ[name] for name in WORKER_ENVIRONMENT if name in os.environ}
        self.process = subprocess.Popen([sys.executable, "-m", "genie_bot.runtime.sandbox_worker"],
                                        stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                                        env={**environment, "PYTHONPATH": path})
        self.specs: set[int] = set()
        self.alive = True
        self.lowered = False
        self.confinement: dict[str, object] = {}

    def wait_ready(self) -> None:
        """Wait for the worker's first word; SandboxUnavailable if it does not say it is ready."""
        assert self.process.stdout is not None, "opened with pipes"
        try:
            said = receive(self.process.stdout)
        except (EOFError, OSError, pickle.UnpicklingError) as exc:
            said = exc
        if not (isinstance(said, tuple) and said[0] == READY):
            self.stop()
            raise SandboxUnavailable(f"the sandbox worker did not start ({said!r}, exit code "
                                     f"{self.process.returncode})")
        self.confinement = said[1]

    def call(self, limits: SandboxLimits, token: int, blob: bytes, kind: str, payload: Any) -> tuple[Any, float]:
        """(the answer, CPU seconds the worker used for it); the exception it raised, raised here."""
        request = (kind, token, b"" if token in self.specs else blob, limits.cpu_seconds, limits.memory_mb, payload)
        try:
            assert self.process.stdin is not None and self.process.stdout is not None, "opened with pipes"
            send(self.process.stdin, request)
            status, answer, cpu = receive(self.process.stdout)
        except (EOFError, OSError, pickle.UnpicklingError):
            status, answer, cpu = "ended", None, limits.cpu_seconds
        if status == "ok":
            self._remember(token)
            return answer, cpu
        if status == "raised":  # a bug in applying them, raised as it would have been in the turn's thread
            self._remember(token)
            raise answer
        self.stop()
        raise EvaluationAbandoned(self._why(status, limits))

    def kill(self) -> None:
        if self.process.poll() is None:
            self.process.kill()

    def lower_priority(self) -> None:
        self.lowered = True
        try:
            os.setpriority(os.PRIO_PROCESS, self.process.pid, LONG_CALL_NICENESS)
        except (AttributeError, OSError):  # Windows, or the process just ended
            pass

    def _remember(self, token: int) -> None:
        self.specs.add(token)
        if len(self.specs) > SPECS_KEPT:  # the worker forgot the oldest: send them again
            self.specs = {token}

    def _why(self, status: str, limits: SandboxLimits) -> str:
        if status == "memory":
            return f"it needed more than {limits.memory_mb} MB of memory"
        if self.process.returncode in (-getattr(signal, "SIGXCPU", 0), -getattr(signal, "SIGKILL", 0)):
            return f"it used more than {limits.cpu_seconds:g} s of CPU time"
        return f"the process applying it ended (exit code {self.process.returncode})"

    def stop(self) -> None:
        self.alive = False
        self.kill()
        self.process.wait()
        for pipe in (self.process.stdin, self.process.stdout):
            if pipe is not None:
                pipe.close()


def _fingerprint(state: DialogueState) -> bytes:
    """``state`` as bytes, its turn number aside (a turn applies the statements a parser checked on the
    state before it, whose number is one less)."""
    return pickle.dumps(dataclasses.replace(state, turn=0), _PROTOCOL)


def _report(confinement: dict[str, object]) -> None:
    """Log how the workers are confined, with a warning for each protection the platform lacks."""
    log.info("sandbox workers confined: %s", ", ".join(f"{k}: {v}" for k, v in confinement.items()))
    for step, how in confinement.items():
        if str(how).startswith(("unavailable", "unchanged:", "not on")):
            log.warning("sandbox workers run without %s (%s): see docs/operations.md", step, how)


def send(pipe: IO[bytes], message: Any) -> None:
    """Write ``message`` pickled, after its length."""
    data = pickle.dumps(message, _PROTOCOL)
    pipe.write(_LENGTH.pack(len(data)) + data)
    pipe.flush()


def receive(pipe: IO[bytes]) -> Any:
    """Read one message written by :func:`send`; EOFError when the other side is gone."""
    header = pipe.read(_LENGTH.size)
    if len(header) < _LENGTH.size:
        raise EOFError("the pipe closed")
    (length,) = _LENGTH.unpack(header)
    data = pipe.read(length)
    if len(data) < length:
        raise EOFError("the pipe closed")
    return pickle.loads(data)


def _replace(target: Any, source: Any) -> None:
    """Give ``target`` the contents of ``source`` (the turn's objects are shared by reference)."""
    for item in dataclasses.fields(target):
        setattr(target, item.name, getattr(source, item.name))


def _without_functions(spec: AgentSpec) -> AgentSpec:
    """``spec`` as a worker needs it: its API functions (code of the agent's module) left out."""
    return dataclasses.replace(spec, apis={name: ApiFunction(name, not_here, api.side_effects)
                                           for name, api in spec.apis.items()})


def not_here(**_: Any) -> Any:
    """What a worker has in place of an API function."""
    raise RuntimeError("API functions are not called while statements are applied")
