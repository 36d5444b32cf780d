"""An operator following the README: the documented steps work verbatim from the repository root,
and every failure an operator can cause (no database, a database never upgraded, an unreachable
server, missing tokens, no --config) is one line saying what is wrong and what to run, never a
traceback. ``run`` runs in a process of its own, as the operator starts it; ``db`` and ``sessions``
run in this process (the ``operator`` fixture), with the operator's environment."""

from __future__ import annotations

import os
import re
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from genie_bot.store import head_revision

from tests.conftest import REPO, WORKSHEETS

TICKETS = WORKSHEETS / "ticket_submission"

UNREACHABLE = "postgresql://genie@127.0.0.1:1/genie"
"""A PostgreSQL server nobody listens for (port 1 of loopback refuses at once)."""


OPERATOR_VARIABLES = ("DATABASE_URL", "SLACK_BOT_TOKEN", "SLACK_APP_TOKEN", "SLACK_SIGNING_SECRET", "DISCORD_BOT_TOKEN")


def genie_bot(*args: str, cwd: Path, env: dict[str, str] | None = None) -> subprocess.CompletedProcess:
    """``genie-bot ARGS`` in a process of its own."""
    environ = {k: v for k, v in os.environ.items() if k not in OPERATOR_VARIABLES}
    return subprocess.run([sys.executable, "-m", "genie_bot.cli", *args], capture_output=True, text=True, cwd=cwd,
                          timeout=120, stdin=subprocess.DEVNULL, env={**environ, **(env or {})})


@pytest.fixture
def operator(genie, monkeypatch):
    """``operator(*args, cwd=..., env=None)``: ``genie-bot ARGS`` in this process, in ``cwd``, with no database
    URL or platform token in the environment but those of ``env``."""
    def run(*args: str, cwd: Path, env: dict[str, str] | None = None):
        for name in OPERATOR_VARIABLES:
            monkeypatch.delenv(name, raising=False)
        for name, value in (env or {}).items():
            monkeypatch.setenv(name, value)
        return genie(*args, cwd=cwd)

    return run


def one_line(result) -> str:
    """The command failed and said why in exactly one line (and no traceback)."""
    lines = [line for line in result.stderr.splitlines() if line.strip()]
    assert result.returncode != 0 and "Traceback" not in result.stderr + result.stdout, result.stderr
    assert len(lines) == 1, result.stderr
    return lines[0]


def config(tmp_path: Path, database_url: str, extra: str = "") -> Path:
    path = tmp_path / "genie.yaml"
    path.write_text(f"database: {{url: '{database_url}'}}\nagents: {{tickets: {TICKETS}}}\n"
                    f"scheduler: {{enabled: false}}\nmetrics: {{enabled: false}}\n{extra}", encoding="utf-8")
    return path


def readme_steps() -> list[str]:
    """The README's commands that set up a deployment: copy the example, then migrate."""
    text = (REPO / "README.md").read_text(encoding="utf-8")
    block = next(b for b in re.findall(r"```sh\n(.*?)```", text, re.S) if "cp deploy/genie.example.yaml" in b)
    return [line.split("#")[0].strip() for line in block.splitlines() if line.startswith(("cp ", ".venv/bin/genie-bot db"))]


def test_the_readme_steps_work_verbatim_from_the_repository_root(tmp_path, operator):
    """A checkout: the example, the worksheets and the venv where the README says; no var/ yet."""
    root = tmp_path / "checkout"
    (root / "deploy").mkdir(parents=True)
    shutil.copy(REPO / "deploy" / "genie.example.yaml", root / "deploy")
    (root / "worksheets").symlink_to(REPO / "worksheets")
    (root / ".venv").symlink_to(Path(sys.executable).parent.parent)
    steps = readme_steps()
    assert steps == ["cp deploy/genie.example.yaml genie.yaml", ".venv/bin/genie-bot db upgrade --config genie.yaml"]
    environ = {k: v for k, v in os.environ.items() if k != "DATABASE_URL"}
    result = subprocess.run(["bash", "-ec", " && ".join(steps)], cwd=root, capture_output=True, text=True,
                            timeout=120, env=environ)
    assert result.returncode == 0, result.stderr
    schema, *knowledge = result.stdout.strip().splitlines()
    assert schema.endswith(f"schema revision (none) -> {head_revision()}")
    assert [line.split(" rows")[0] for line in knowledge] == [  # every agent's tables, ready for every process
        "knowledge: courses: courses: 42", "knowledge: courses: offerings: 71", "knowledge: courses: ratings: 220",
        "knowledge: restaurants: restaurants: 300"]
    assert (root / "var" / "genie.sqlite3").is_file()
    # and from anywhere else, the same file names the same agents and database
    listed = operator("sessions", "list", "--config", str(root / "genie.yaml"), cwd=tmp_path)
    assert listed.returncode == 0 and "0 session(s)" in listed.stderr, listed.stderr


@pytest.mark.parametrize("backend", ["sqlite", pytest.param("postgres", marks=pytest.mark.postgres)])
def test_a_database_never_upgraded_is_one_line_saying_what_to_run(backend, tmp_path, request, operator):
    url = f"sqlite:///{tmp_path / 'fresh.sqlite3'}" if backend == "sqlite" else request.getfixturevalue("pg_url")
    path = config(tmp_path, url)
    for command in (["sessions", "list"], ["sessions", "show", "slack/T1/C1/1"], ["run"]):
        run = genie_bot if command == ["run"] else operator
        line = one_line(run(*command, "--config", str(path), cwd=tmp_path))
        assert "has no genie-bot tables" in line and line.endswith(f"run: genie-bot db upgrade --config {path}"), line


def test_an_unreachable_postgresql_is_one_line_naming_it(tmp_path, operator):
    path = config(tmp_path, UNREACHABLE)
    for command in (["db", "upgrade"], ["sessions", "list"], ["run"]):
        run = genie_bot if command == ["run"] else operator
        line = one_line(run(*command, "--config", str(path), cwd=tmp_path))
        assert line.startswith("cannot use the database postgresql+psycopg://genie@127.0.0.1:1/genie: "), line
        assert "Connection refused" in line or "connection failed" in line, line


def test_run_reports_every_missing_platform_setting_at_once(tmp_path):
    path = config(tmp_path, f"sqlite:///{tmp_path / 'fresh.sqlite3'}", "platforms: {slack: {}, discord: {}}\n")
    result = genie_bot("run", "--config", str(path), cwd=tmp_path)
    assert result.returncode == 1 and "Traceback" not in result.stderr
    problems = result.stderr.splitlines()
    assert any("'bot_token' is required (or set SLACK_BOT_TOKEN)" in p for p in problems), problems
    assert any("DISCORD_BOT_TOKEN" in p for p in problems), problems
    assert all(p.startswith(f"cannot start a configured platform: {path}:5:") for p in problems), problems


def test_db_upgrade_and_sessions_need_only_database_url(tmp_path, operator):
    env = {"DATABASE_URL": "sqlite:///genie.sqlite3"}  # relative to the working directory
    upgraded = operator("db", "upgrade", cwd=tmp_path, env=env)
    assert upgraded.returncode == 0, upgraded.stderr
    assert upgraded.stdout.strip() == f"sqlite:///genie.sqlite3: schema revision (none) -> {head_revision()}"
    assert (tmp_path / "genie.sqlite3").is_file()
    listed = operator("sessions", "list", cwd=tmp_path, env=env)
    assert listed.returncode == 0 and "0 session(s)" in listed.stderr, listed.stderr
    shown = operator("sessions", "show", "slack/T1/C1/1", cwd=tmp_path, env=env)
    assert one_line(shown) == "no session 'slack/T1/C1/1' (see: genie-bot sessions list)"

    fresh = {"DATABASE_URL": f"sqlite:///{tmp_path / 'other.sqlite3'}"}
    assert one_line(operator("sessions", "list", cwd=tmp_path, env=fresh)).endswith("run: genie-bot db upgrade")
    for command in (["db", "upgrade"], ["sessions", "list"]):
        assert one_line(operator(*command, cwd=tmp_path)) == "no database: give --config genie.yaml, or set DATABASE_URL"
