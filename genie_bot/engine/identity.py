"""Who an engine process is, and whether another one is still alive.

An engine's id is ``host:pid:nonce``. Leases and executing actions carry it, so a process
restarting on the same host recognises what a dead predecessor left behind at once (its pid
no longer runs) instead of waiting for the lease to time out. Owners on other hosts cannot be
checked this way; their leases simply expire.
"""

from __future__ import annotations

import os
import socket
import uuid

HOST = socket.gethostname()


def new_engine_id() -> str:
    return f"{HOST}:{os.getpid()}:{uuid.uuid4().hex[:8]}"


def is_dead(engine_id: str) -> bool:
    """True only when ``engine_id`` certainly belongs to a process that no longer runs."""
    host, _, rest = engine_id.partition(":")
    pid_text = rest.partition(":")[0]
    if host != HOST or not pid_text.isdigit():
        return False
    pid = int(pid_text)
    if pid == os.getpid():
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
