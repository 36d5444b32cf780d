"""What a sandbox worker does to itself before its first call, so that it cannot read secrets.

A worker gets no secret in its environment (:data:`~.sandbox.WORKER_ENVIRONMENT`). A statement
that escaped the interpreter would still run with the bot's rights: read the configuration, the
engine's SQLite file, ``/proc/<bot pid>/environ``, or connect to PostgreSQL. So, once it has
imported all it needs, the worker (on Linux) takes away, in this order:

1. **Files, processes, signals** (Landlock, where the kernel has it: ``landlockpy``): it may read
   the Python installation and the installed packages and nothing else (no configuration, no
   database, no ``/proc`` of another process), write nowhere, execute nothing; with ABI 4, no TCP
   connection; with ABI 6, no signal to and no abstract socket of a process outside it. Landlock
   also sets no-new-privileges: no set-user-ID program gives back what was taken.
2. **Its user**, where the bot runs as root: it becomes :data:`SANDBOX_USER` (``nobody``; the
   ``GENIE_SANDBOX_USER`` variable names another), without supplementary groups or
   capabilities, so the files and processes of root are closed to it even without Landlock.
   Only where the interpreter and the packages are readable by every user (a Python under
   ``/usr``, not one under ``/root``): the worker imports some modules when first needed.
3. **System calls** (seccomp, x86-64 and AArch64): no socket, no exec, no ptrace, no reading of
   another process's memory: :data:`DENIED_CALLS` fail with ``EPERM``.

Each step is taken where the platform has it; :func:`confine` says which were (the engine logs
it, and warns about what is missing). Elsewhere (macOS, Windows, a Linux without Landlock) the
worker keeps the bot's rights: run the bot as a user of its own that can read nothing else.
"""

from __future__ import annotations

import ctypes
import errno
import os
import platform
import stat
import struct
import sys
import sysconfig
from pathlib import Path

SANDBOX_USER = os.environ.get("GENIE_SANDBOX_USER", "nobody")
"""The user a worker of a bot running as root becomes."""

DENIED_CALLS = ("socket", "socketpair", "connect", "execve", "execveat", "ptrace", "process_vm_readv",
                "process_vm_writev")
_SYSCALLS = {
    # machine: (AUDIT_ARCH_*, numbers of DENIED_CALLS in order)
    "x86_64": (0xC000003E, (41, 53, 42, 59, 322, 101, 310, 311)),
    "aarch64": (0xC00000B7, (198, 199, 203, 221, 281, 117, 270, 271)),
}
_X32_SYSCALL_BIT = 0x40000000
_PR_SET_SECCOMP, _SECCOMP_MODE_FILTER = 22, 2
_RET_ALLOW, _RET_ERRNO, _RET_KILL_PROCESS = 0x7FFF0000, 0x00050000, 0x80000000
_LOAD_WORD, _JUMP_IF_EQUAL, _JUMP_IF_AT_LEAST, _RETURN = 0x20, 0x15, 0x35, 0x06


def confine() -> dict[str, object]:
    """Take away what a worker must not have (see the module); what was done, by step."""
    if not sys.platform.startswith("linux"):
        return {"landlock": "not on this platform", "user": "unchanged", "seccomp": "not on this platform"}
    user = _sandbox_user()  # read before Landlock closes /etc/passwd
    return {"landlock": _landlock(), "user": _become(user), "seccomp": _seccomp()}


def readable_paths() -> list[str]:
    """What a confined worker may still read: the Python installation and the installed packages
    (never the directory a deployment runs from, which may hold its configuration)."""
    package = Path(__file__).resolve().parents[1]
    places = {sys.prefix, sys.base_prefix, sys.exec_prefix, str(package), "/usr/lib", "/lib", "/lib64", "/usr/lib64",
              "/usr/share/zoneinfo", "/etc/localtime", *(sysconfig.get_paths()[k] for k in ("stdlib", "platstdlib",
                                                                                           "purelib", "platlib"))}
    return sorted(p for p in places if p and os.path.exists(p))


def landlock_abi() -> int:
    """The Landlock ABI version of the running kernel (0: none, or landlockpy not installed)."""
    try:
        import landlockpy
    except ImportError:  # not Linux, or the package is missing
        return 0
    return landlockpy.abi_version()


def _landlock() -> str:
    abi = landlock_abi()
    if abi < 1:
        return "unavailable (no Landlock in this kernel, or landlockpy is not installed)"
    import landlockpy

    read = landlockpy.AccessFS.READ_FILE | landlockpy.AccessFS.READ_DIR
    scopes = landlockpy.Scope.ABSTRACT_UNIX_SOCKET | landlockpy.Scope.SIGNAL
    with landlockpy.Ruleset(scoped=scopes) as ruleset:
        for path in readable_paths():
            ruleset.allow_path(path, read if os.path.isdir(path) else landlockpy.AccessFS.READ_FILE)
        ruleset.restrict()
    return f"ABI {abi}"


def _sandbox_user() -> tuple[int, int] | str:
    """(uid, gid) of :data:`SANDBOX_USER` when running as root; else why the user stays."""
    if os.geteuid() != 0:
        return "unchanged (not root)"
    import pwd

    try:
        user = pwd.getpwnam(SANDBOX_USER)
    except KeyError:
        return f"unchanged: no user {SANDBOX_USER!r} (still root)"
    closed = next((path for path in _code_paths() if not _open_to_all(path)), None)
    if closed is not None:  # modules imported later (lazily) could not be read
        return f"unchanged: {closed} is not readable by every user (still root)"
    return user.pw_uid, user.pw_gid


def _code_paths() -> list[str]:
    """Where the worker's code is read from: the interpreter, its library, the packages."""
    paths = sysconfig.get_paths()
    return [os.path.realpath(sys.executable), str(Path(__file__).resolve().parents[1]),
            *(paths[k] for k in ("stdlib", "platstdlib", "purelib", "platlib"))]


def _open_to_all(path: str) -> bool:
    """Whether any user may read ``path``: it and every folder above it open to others."""
    current = Path(path).resolve()
    for place in (current, *current.parents):
        try:
            mode = place.stat().st_mode
        except OSError:
            return False
        needed = stat.S_IXOTH | (stat.S_IROTH if place == current else 0)
        if mode & needed != needed:
            return False
    return True


def _become(user: tuple[int, int] | str) -> str:
    """Give up root for ``user``: its groups alone, no capabilities."""
    if isinstance(user, str):
        return user
    os.setgroups([])
    os.setgid(user[1])
    os.setuid(user[0])
    return SANDBOX_USER


def _seccomp() -> str:
    machine = platform.machine().lower()
    if machine not in _SYSCALLS:
        return f"unavailable (no filter for {machine})"
    arch, numbers = _SYSCALLS[machine]
    program = _filter(arch, numbers, x32=machine == "x86_64")
    buffer = ctypes.create_string_buffer(program)
    fprog = struct.pack("HL", len(program) // 8, ctypes.addressof(buffer))
    libc = ctypes.CDLL(None, use_errno=True)  # the C library the interpreter is linked with
    if libc.prctl(_PR_SET_SECCOMP, _SECCOMP_MODE_FILTER, ctypes.c_char_p(fprog), 0, 0) != 0:
        return f"unavailable ({os.strerror(ctypes.get_errno())})"
    return "filter: " + ", ".join(DENIED_CALLS)


def _filter(arch: int, numbers: tuple[int, ...], x32: bool) -> bytes:
    """A classic BPF program: another architecture is killed; x32 calls and :data:`DENIED_CALLS` fail
    with EPERM; everything else is allowed."""
    denied = _RET_ERRNO | errno.EPERM
    program = [(_LOAD_WORD, 0, 0, 4), (_JUMP_IF_EQUAL, 1, 0, arch), (_RETURN, 0, 0, _RET_KILL_PROCESS),
               (_LOAD_WORD, 0, 0, 0)]
    if x32:
        program.append((_JUMP_IF_AT_LEAST, len(numbers) + 1, 0, _X32_SYSCALL_BIT))
    for index, number in enumerate(numbers):
        program.append((_JUMP_IF_EQUAL, len(numbers) - index, 0, number))
    program += [(_RETURN, 0, 0, _RET_ALLOW), (_RETURN, 0, 0, denied)]
    return b"".join(struct.pack("HBBI", *instruction) for instruction in program)
