"""A sandbox worker cannot read the bot's secrets: not a file the bot reads (its configuration, its
SQLite database), not ``/proc/<bot pid>/environ``, and it can open no socket (PostgreSQL) and run
no program. A real worker says how it confined itself; a process confined the same way
(:func:`genie_bot.runtime.confinement.confine`, what the worker calls first) tries each read."""

from __future__ import annotations

import json
import os
import subprocess
import sys
import textwrap

import pytest

from genie_bot.runtime import Runtime, confinement
from genie_bot.runtime.isolation import sandboxed
from genie_bot.runtime.sandbox import Sandbox, WorkerPool
from genie_bot.spec import load_agent

from .agents import ORDER_AGENT, ORDER_API, ORDER_FILES
from .test_sandbox import NOON

pytestmark = pytest.mark.skipif(not sys.platform.startswith("linux"), reason="the worker is confined on Linux only")

PROBE = textwrap.dedent("""
    import json, os, socket, subprocess, sys
    from genie_bot.runtime.confinement import confine

    how = confine()
    tried = {}
    for name, path in (("secret", sys.argv[1]), ("environ", f"/proc/{os.getppid()}/environ")):
        try:
            open(path, "rb").read()
            tried[name] = "read"
        except OSError as exc:
            tried[name] = exc.strerror
    try:
        socket.socket(socket.AF_INET, socket.SOCK_STREAM)
        tried["socket"] = "opened"
    except OSError as exc:
        tried["socket"] = exc.strerror
    try:
        subprocess.run(["/bin/true"], check=True)
        tried["exec"] = "ran"
    except OSError as exc:
        tried["exec"] = exc.strerror
    print(json.dumps({"confined": how, "tried": tried}))
""")


def test_a_confined_worker_cannot_read_the_bots_files_nor_its_environment(tmp_path):
    if not confinement.landlock_abi():
        pytest.skip("the kernel has no Landlock")
    secret = tmp_path / "genie.yaml"
    secret.write_text("slack: {bot_token: xoxb-secret}\n", encoding="utf-8")
    assert secret.read_text(encoding="utf-8")  # the bot can read it
    assert open(f"/proc/{os.getpid()}/environ", "rb").read() is not None
    probe = subprocess.run([sys.executable, "-c", PROBE, str(secret)], capture_output=True, text=True, timeout=120,
                           env={"PATH": os.environ.get("PATH", ""), "PYTHONPATH": os.pathsep.join(sys.path)})
    assert probe.returncode == 0, probe.stderr
    found = json.loads(probe.stdout)
    assert found["tried"] == {"secret": "Permission denied", "environ": "Permission denied",
                              "socket": "Operation not permitted", "exec": "Operation not permitted"}
    assert found["confined"]["landlock"].startswith("ABI ")


def test_a_real_worker_says_how_it_confined_itself(make_agent):
    pool = WorkerPool(max_workers=1)
    runtime = Runtime(load_agent(make_agent(ORDER_AGENT, ORDER_API, ORDER_FILES)), clock=lambda: NOON)
    with sandboxed(Sandbox(pool=pool)):
        assert not runtime.run_turn(runtime.new_state(), "order = Order(dish='Pasta')").errors
    said = pool.confinement
    assert said is not None
    assert set(said) == {"landlock", "user", "seccomp"}
    if confinement.landlock_abi():
        assert said["landlock"] == f"ABI {confinement.landlock_abi()}"
    if os.uname().machine in ("x86_64", "aarch64"):
        assert said["seccomp"].startswith("filter: socket")
    if os.geteuid() == 0:  # another user where the interpreter is open to it, else why not
        assert said["user"] == confinement.SANDBOX_USER or "not readable by every user" in said["user"]
