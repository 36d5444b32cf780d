"""A sandbox worker process (``python -m genie_bot.runtime.sandbox_worker``): see :mod:`.sandbox`.

It reads requests on its standard input and answers on its standard output (which is then
pointed at standard error, so that nothing printed can garble an answer), applies each
request's statements under the request's limits, and ends when its input closes, when the
kernel kills it for its CPU time, or after running out of memory (the state of a process that
did is not worth trusting).
"""

from __future__ import annotations

import math
import os
import pickle
import signal
import sys
from collections import OrderedDict
from typing import IO, Any

from ..spec import AgentSpec
from ..state import KnowledgeAnswer
from .executor import KnowledgeResult
from .sandbox import READY, SPECS_KEPT, Request, SandboxLimits, receive, send
from .statements import apply_statements
from .turn import Turn

try:
    import resource
except ImportError:  # Windows: the parent's wall clock is the only limit
    resource = None  # type: ignore[assignment]


class _NoIO:
    """The executor of a worker's turn: applying statements calls no API and queries nothing."""

    def call_api(self, request: object) -> object:
        raise RuntimeError("applying statements calls no API")

    def query_knowledge(self, answer: KnowledgeAnswer) -> KnowledgeResult:
        raise RuntimeError("applying statements queries no knowledge")


def serve(requests: IO[bytes], answers: IO[bytes]) -> None:
    """Apply each request's statements under its limits and answer, until the input closes."""
    if resource is not None:
        _limit(resource.RLIMIT_CORE, 0)  # a worker killed for its CPU time leaves no core file
    specs: OrderedDict[int, AgentSpec] = OrderedDict()
    send(answers, READY)
    while True:
        try:
            request: Request = receive(requests)
        except EOFError:
            return
        if request.spec_blob:
            specs[request.spec_token] = pickle.loads(request.spec_blob)
            while len(specs) > SPECS_KEPT:
                specs.popitem(last=False)
        _apply_limits(request.limits)
        try:
            answer: tuple[str, Any] = ("ok", _applied(specs[request.spec_token], request))
        except MemoryError:
            answer = ("memory", None)
        except Exception as exc:  # noqa: BLE001 - raised again in the turn's thread
            answer = ("raised", exc)
        try:
            send(answers, answer)
        except (pickle.PicklingError, TypeError, AttributeError) as exc:  # an exception that does not pickle
            send(answers, ("raised", RuntimeError(f"{type(exc).__name__}: {answer[1]!r}"[:500])))
        if answer[0] == "memory":
            return


def _applied(spec: AgentSpec, request: Request) -> tuple[Any, Any, list]:
    turn = Turn(spec, request.state, _NoIO(), request.today, request.now, request.update, request.acts,
                request.start_clock)
    apply_statements(turn, request.source)
    return turn.state, turn.update, turn.acts


def _apply_limits(limits: SandboxLimits) -> None:
    """From now on: ``limits.cpu_seconds`` more of CPU time (whole seconds, rounded up), and
    ``limits.memory_mb`` more of address space than the worker holds now."""
    if resource is None:
        return
    used = resource.getrusage(resource.RUSAGE_SELF)
    _limit(resource.RLIMIT_CPU, math.ceil(used.ru_utime + used.ru_stime + limits.cpu_seconds))
    holds = _address_space()
    if holds is not None:
        _limit(resource.RLIMIT_AS, holds + limits.memory_mb * 1024 * 1024)


def _limit(which: int, soft: int) -> None:
    _, hard = resource.getrlimit(which)
    resource.setrlimit(which, (soft if hard == resource.RLIM_INFINITY else min(soft, hard), hard))


def _address_space() -> int | None:
    """Bytes of address space the worker holds now (Linux), what its memory limit adds to."""
    try:
        with open("/proc/self/statm", encoding="ascii") as statm:
            return int(statm.read().split()[0]) * os.sysconf("SC_PAGE_SIZE")
    except (OSError, ValueError):
        return None


def main() -> None:
    signal.signal(signal.SIGINT, signal.SIG_IGN)  # Ctrl-C stops the engine, which closes this worker's input
    answers = os.fdopen(os.dup(sys.stdout.fileno()), "wb")
    os.dup2(sys.stderr.fileno(), sys.stdout.fileno())
    try:
        serve(sys.stdin.buffer, answers)
    except BrokenPipeError:
        pass  # the engine that started this worker is gone (a start that failed): nothing is left to answer


if __name__ == "__main__":
    main()
