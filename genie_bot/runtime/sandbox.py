"""Parser statements applied in worker processes, under hard limits of CPU time and memory.

The interpreter prices every operation before it runs (:mod:`genie_bot.interpreter.allowed`),
but a price list can miss a case, and a single C call that holds the GIL stops every thread of
its process: the other turns, the acknowledgements Slack waits for, the health check, the lease
renewals, after which another replica takes the session over and runs the same statement. No
watchdog thread can interrupt such a call; another process can. So the engine applies the
statements of its turns here (see :mod:`.isolation`): in a worker process whose CPU time the
kernel limits (``RLIMIT_CPU``: the worker is killed once it used its budget for the call,
rounded up to a whole second) and whose memory it caps (``RLIMIT_AS``: a ``MemoryError``
instead of gigabytes). The turn then gets :class:`~.isolation.EvaluationAbandoned` and the
engine parks the message (:mod:`genie_bot.engine.turns`). The waiting turn holds no lock and
no GIL, so the process goes on serving everything else meanwhile.

Workers (``python -m genie_bot.runtime.sandbox_worker``) are shared by every :class:`Sandbox`
of a process (:meth:`WorkerPool.shared`): a call takes an idle one or starts one, up to
:data:`MAX_WORKERS`, and a killed one is replaced by the next call that needs it. A call
carries the state and what the turn gathered so far, plus the spec once per worker and
version, without the API functions (applying statements never calls them). A worker gets no
secrets (its environment is :data:`WORKER_ENVIRONMENT`), and says it is ready before its first
call: one that cannot start fails the turn (:class:`SandboxUnavailable`) rather than parking its
message. Where the ``resource`` module is missing (Windows), the only limit is the wall-clock
one, which ends any call taking :data:`WALL_SECONDS_PER_CPU_SECOND` times its CPU budget.
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
from collections import OrderedDict
from dataclasses import dataclass
from pathlib import Path
from typing import IO, Any

from ..errors import GenieError
from ..spec import AgentSpec
from ..spec.model import ApiFunction
from .isolation import EvaluationAbandoned
from .turn import Turn

log = logging.getLogger(__name__)

MAX_WORKERS = 4
"""Worker processes at most: a call takes about a millisecond, so a few serve many turn threads."""
WALL_SECONDS_PER_CPU_SECOND = 15
"""How long a call may take by the clock, per second of CPU it may use: a worker is killed after
that even if the kernel did not (on a machine so loaded that a second of CPU takes this long)."""
SPECS_KEPT = 32
"""Specs a worker keeps (the agents and versions it served last); the pool keeps as many pickled."""
WORKER_ENVIRONMENT = ("PATH", "HOME", "LANG", "LC_ALL", "LC_CTYPE", "TZ", "SYSTEMROOT", "TMPDIR", "TEMP")
"""What a worker inherits of the engine's environment (it needs no token, key or database URL)."""
READY = "ready"
"""What a worker says first, once it can apply statements."""
_LENGTH = struct.Struct("!Q")


class SandboxUnavailable(GenieError):
    """A worker process could not be started: the turn fails as on any error (its message is not to blame)."""


@dataclass(frozen=True)
class SandboxLimits:
    cpu_seconds: float = 2.0
    """CPU time one application of statements may use (rounded up to a whole second by the kernel)."""
    memory_mb: int = 512
    """Memory it may allocate beyond what its worker holds when it starts."""


@dataclass(frozen=True)
class Request:
    """One application of statements, as a worker receives it."""

    spec_token: int
    spec_blob: bytes
    """The pickled spec, unless the worker has it (empty)."""
    state: Any
    update: Any
    acts: list
    today: dt.date
    now: dt.datetime
    start_clock: int
    source: str
    limits: SandboxLimits


class Sandbox:
    """Applies statements in the workers of a :class:`WorkerPool` under ``limits`` (a
    :class:`~.isolation.StatementSandbox`); one per engine, all sharing the process's pool."""

    def __init__(self, limits: SandboxLimits = SandboxLimits(), pool: WorkerPool | None = None):
        self.limits = limits
        self.pool = pool or WorkerPool.shared()

    def apply_statements(self, turn: Turn, source: str) -> None:
        token, blob = self.pool.spec(turn.spec)
        request = Request(token, blob, turn.state, turn.update, turn.acts, turn.today, turn.now, turn.start_clock,
                          source, self.limits)
        state, update, acts = self.pool.call(request)
        _replace(turn.state, state)
        _replace(turn.update, update)
        turn.acts[:] = acts


class WorkerPool:
    """Worker processes, shared by the threads (and engines) of a process."""

    _shared: WorkerPool | None = None
    _shared_lock = threading.Lock()

    def __init__(self, max_workers: int = MAX_WORKERS):
        self.max_workers = max_workers
        self._idle: list[_Worker] = []
        self._started = 0
        self._available = threading.Condition()
        self._specs: OrderedDict[int, tuple[AgentSpec, int, bytes]] = OrderedDict()
        self._tokens = 0
        self._starting = False

    @classmethod
    def shared(cls) -> WorkerPool:
        """The process's pool (started empty; workers start as calls need them)."""
        with cls._shared_lock:
            if cls._shared is None:
                cls._shared = cls()
            return cls._shared

    def warm(self) -> None:
        """Start a worker now, in the background, so that the first turn does not wait for one."""
        self._keep_spare()

    def _keep_spare(self) -> None:
        """Start a worker in the background when none is idle (one call, a runaway one say, holds
        the last): the next call need not wait for a process to start."""
        with self._available:
            if self._idle or self._starting or self._started >= self.max_workers:
                return
            self._started += 1
            self._starting = True

        def start() -> None:
            try:
                worker: _Worker | None = _Worker()
            except Exception:  # noqa: BLE001 - the next call starts one itself, and says why it cannot
                log.exception("could not start a sandbox worker")
                worker = None
            with self._available:
                self._starting = False
            self._give_back(worker)

        threading.Thread(target=start, name="genie-sandbox-start", daemon=True).start()

    def call(self, request: Request) -> tuple[Any, Any, list]:
        worker = self._take()
        self._keep_spare()
        try:
            return worker.call(request)
        finally:
            self._give_back(worker)

    def spec(self, spec: AgentSpec) -> tuple[int, bytes]:
        """The token and pickled form of ``spec`` (kept while it is among the latest ones served)."""
        with self._available:
            known = self._specs.get(id(spec))
            if known is not None and known[0] is spec:
                self._specs.move_to_end(id(spec))
                return known[1], known[2]
        blob = pickle.dumps(_without_functions(spec))
        with self._available:
            self._tokens += 1
            self._specs[id(spec)] = (spec, self._tokens, blob)
            while len(self._specs) > SPECS_KEPT:
                self._specs.popitem(last=False)
            return self._tokens, blob

    def _take(self) -> _Worker:
        with self._available:
            while not self._idle and self._started >= self.max_workers:
                self._available.wait()
            if self._idle:
                return self._idle.pop()
            self._started += 1
        try:
            return _Worker()
        except BaseException:
            self._give_back(None)
            raise

    def _give_back(self, worker: _Worker | None) -> None:
        with self._available:
            if worker is not None and worker.alive:
                self._idle.append(worker)
            else:
                self._started -= 1
            self._available.notify()


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
        self.ready = False

    def call(self, request: Request) -> tuple[Any, Any, list]:
        if not self.ready:
            self._wait_ready()
        if request.spec_token in self.specs:
            request = dataclasses.replace(request, spec_blob=b"")
        backstop = threading.Timer(max(1.0, request.limits.cpu_seconds) * WALL_SECONDS_PER_CPU_SECOND,
                                   self.process.kill)
        backstop.start()
        try:
            assert self.process.stdin is not None and self.process.stdout is not None, "opened with pipes"
            send(self.process.stdin, request)
            kind, payload = receive(self.process.stdout)
        except (EOFError, OSError, pickle.UnpicklingError):
            kind, payload = "ended", None
        finally:
            backstop.cancel()
        if kind == "ok":
            self._remember(request.spec_token)
            return payload
        if kind == "raised":  # a bug in applying them, raised as it would have been in the turn's thread
            self._remember(request.spec_token)
            raise payload
        self.stop()
        raise EvaluationAbandoned(self._why(kind, request.limits))

    def _remember(self, token: int) -> None:
        self.specs.add(token)
        if len(self.specs) > SPECS_KEPT:  # the worker forgot the oldest: send them again
            self.specs = {token}

    def _wait_ready(self) -> None:
        assert self.process.stdout is not None, "opened with pipes"
        try:
            said = receive(self.process.stdout)
        except (EOFError, OSError, pickle.UnpicklingError) as exc:
            said = exc
        if said != READY:
            self.stop()
            raise SandboxUnavailable(f"the sandbox worker did not start ({said!r}, exit code "
                                     f"{self.process.returncode})")
        self.ready = True

    def _why(self, kind: str, limits: SandboxLimits) -> str:
        if kind == "memory":
            return f"it needed more than {limits.memory_mb} MB of memory"
        if self.process.returncode in (-getattr(signal, "SIGXCPU", 0), -getattr(signal, "SIGKILL", 0)):
            return f"it used more than {limits.cpu_seconds:g} s of CPU time"
        return f"the process applying it ended (exit code {self.process.returncode})"

    def stop(self) -> None:
        self.alive = False
        if self.process.poll() is None:
            self.process.kill()
        self.process.wait()
        for pipe in (self.process.stdin, self.process.stdout):
            if pipe is not None:
                pipe.close()


def send(pipe: IO[bytes], message: Any) -> None:
    """Write ``message`` pickled, after its length."""
    data = pickle.dumps(message)
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
