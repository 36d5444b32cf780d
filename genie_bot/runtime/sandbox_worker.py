"""A sandbox worker process (``python -m genie_bot.runtime.sandbox_worker``): see :mod:`.sandbox`.

It confines itself (:mod:`.confinement`) once it has imported everything, says it is ready and
how it is confined, then reads requests on its standard input and answers on its standard
output (which is then pointed at standard error, so that nothing printed can garble an answer):
each request's statements applied, or parses checked, under the request's limits. It ends when
its input closes, when the kernel kills it for its CPU time, or after running out of memory (the
state of a process that did is not worth trusting).
"""

from __future__ import annotations

import math
import os
import pickle
import signal
import sys
import time
from collections import OrderedDict
from typing import IO, Any

from ..spec import AgentSpec
from .confinement import confine
from .sandbox import APPLY, READY, SPECS_KEPT, receive, send
from .statements import apply_statements
from .trials import NoIO, check_one
from .turn import Turn

try:
    import resource
except ImportError:  # Windows: the parent's wall clock is the only limit
    resource = None  # type: ignore[assignment]


def serve(requests: IO[bytes], answers: IO[bytes], statm: int | None) -> None:
    """Do each request under its limits and answer, until the input closes."""
    specs: OrderedDict[int, AgentSpec] = OrderedDict()
    while True:
        try:
            kind, token, blob, cpu_seconds, memory_mb, payload = receive(requests)
        except EOFError:
            return
        if blob:
            specs[token] = pickle.loads(blob)
            while len(specs) > SPECS_KEPT:
                specs.popitem(last=False)
        _apply_limits(cpu_seconds, memory_mb, statm)
        started = time.process_time()
        try:
            answer: tuple[str, Any] = ("ok", _done(specs[token], kind, payload))
        except MemoryError:
            answer = ("memory", None)
        except Exception as exc:  # noqa: BLE001 - raised again in the turn's thread
            answer = ("raised", exc)
        used = time.process_time() - started
        try:
            send(answers, (*answer, used))
        except (pickle.PicklingError, TypeError, AttributeError) as exc:  # an exception that does not pickle
            send(answers, ("raised", RuntimeError(f"{type(exc).__name__}: {answer[1]!r}"[:500]), used))
        if answer[0] == "memory":
            return


def _done(spec: AgentSpec, kind: str, payload: Any) -> Any:
    if kind == APPLY:
        state, update, acts, today, now, start_clock, source = payload
        turn = Turn(spec, state, NoIO(), today, now, update, acts, start_clock)
        apply_statements(turn, source)
        return turn.state, turn.update, turn.acts
    state, batch, today = payload
    return [check_one(spec, state, chunks, today, dropped) for chunks, dropped in batch]


def _apply_limits(cpu_seconds: float, memory_mb: int, statm: int | None) -> None:
    """From now on: ``cpu_seconds`` more of CPU time (whole seconds, rounded up), and ``memory_mb``
    more of address space than the worker holds now."""
    if resource is None:
        return
    used = resource.getrusage(resource.RUSAGE_SELF)
    _limit(resource.RLIMIT_CPU, math.ceil(used.ru_utime + used.ru_stime + cpu_seconds))
    holds = _address_space(statm)
    if holds is not None:
        _limit(resource.RLIMIT_AS, holds + memory_mb * 1024 * 1024)


def _limit(which: int, soft: int) -> None:
    _, hard = resource.getrlimit(which)
    resource.setrlimit(which, (soft if hard == resource.RLIM_INFINITY else min(soft, hard), hard))


def _address_space(statm: int | None) -> int | None:
    """Bytes of address space the worker holds now (Linux: ``/proc/self/statm``, opened before the
    worker was confined), what its memory limit adds to."""
    if statm is None:
        return None
    try:
        return int(os.pread(statm, 256, 0).split()[0]) * os.sysconf("SC_PAGE_SIZE")
    except (OSError, ValueError):
        return None


def _open_statm() -> int | None:
    try:
        return os.open("/proc/self/statm", os.O_RDONLY)
    except OSError:
        return None


def main() -> None:
    signal.signal(signal.SIGINT, signal.SIG_IGN)  # Ctrl-C stops the engine, which closes this worker's input
    answers = os.fdopen(os.dup(sys.stdout.fileno()), "wb")
    os.dup2(sys.stderr.fileno(), sys.stdout.fileno())
    if resource is not None:
        _limit(resource.RLIMIT_CORE, 0)  # a worker killed for its CPU time leaves no core file
    statm = _open_statm()
    try:
        send(answers, (READY, confine()))
        serve(sys.stdin.buffer, answers, statm)
    except BrokenPipeError:
        pass  # the engine that started this worker is gone (a start that failed): nothing is left to answer


if __name__ == "__main__":
    main()
