"""Who an engine process is, and whether another one is still alive.

An engine's id is ``host:pid:nonce``. Leases, events and executing actions carry it, so a
process on the same host recognises what a dead one left behind at once (its pid no longer
runs), and a live pid is a live engine until it stops (its heartbeat row is deleted), however
long ago it last beat: the observer's liveness timeout comes from its own ``lease_seconds``,
and an engine configured with a longer lease beats less often (presuming it dead would post its
replies twice). An engine on another host, or one with this process's own pid (an earlier run,
e.g. a restarted container), is presumed dead once its heartbeat row (:mod:`..store.engines`)
is older than the liveness timeout, or gone (it stopped).
"""

from __future__ import annotations

import datetime as dt
import os
import socket
import uuid
from collections.abc import Iterable

from sqlalchemy import Connection

from ..store import engines

HOST = socket.gethostname()


def new_engine_id() -> str:
    return f"{HOST}:{os.getpid()}:{uuid.uuid4().hex[:8]}"


def _local_pid(engine_id: str) -> int | None:
    """The pid of an engine of another process on this host (None: elsewhere, or this pid)."""
    host, _, rest = engine_id.partition(":")
    pid_text = rest.partition(":")[0]
    if host != HOST or not pid_text.isdigit() or int(pid_text) == os.getpid():
        return None
    return int(pid_text)


def is_dead(engine_id: str) -> bool:
    """True only when ``engine_id`` certainly belongs to a process that no longer runs."""
    pid = _local_pid(engine_id)
    if pid is None:
        return False
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return True
    except PermissionError:
        return False
    return _is_zombie(pid)


def _is_zombie(pid: int) -> bool:
    """A killed child not yet reaped by its parent still answers kill(pid, 0)."""
    try:
        with open(f"/proc/{pid}/stat", encoding="ascii") as fh:
            return fh.read().rsplit(")", 1)[1].split()[0] == "Z"
    except (OSError, IndexError):
        return False


def dead_among(conn: Connection, owners: Iterable[str], me: str, seen_since: dt.datetime) -> list[str]:
    """The ``owners`` (other than ``me``) that are dead: a gone pid on this host, a stopped engine
    (no heartbeat row), or, where no pid tells, a heartbeat row not seen since ``seen_since``."""
    others = sorted(set(owners) - {me})
    seen = engines.last_seen(conn, others)
    return [o for o in others
            if is_dead(o) or o not in seen or (seen[o] < seen_since and _local_pid(o) is None)]
