"""Shared fixtures: isolated data directories, agent directories, and the PostgreSQL policy.

PostgreSQL tests ask for the ``postgres_url`` fixture. Without a reachable server they are
skipped with the reason, unless ``GENIE_REQUIRE_POSTGRES=1`` (set by ``.ci/run``), in which
case they fail: CI must never pass by silently skipping the scale-out store.
"""

from __future__ import annotations

import io
import os
import shutil
import sys
import textwrap
from dataclasses import dataclass
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parent.parent
WORKSHEETS = REPO / "worksheets"
POSTGRES_URL = os.environ.get("GENIE_TEST_POSTGRES_URL", "postgresql://postgres@127.0.0.1:5432/test")


def copied_example(root: Path) -> Path:
    """deploy/genie.example.yaml copied to genie.yaml at ``root``, beside a link to the worksheets, as
    the README has operators copy it to the repository root; returns the copy's path."""
    root.mkdir(parents=True, exist_ok=True)
    (root / "worksheets").symlink_to(WORKSHEETS)
    return Path(shutil.copy(REPO / "deploy" / "genie.example.yaml", root / "genie.yaml"))


@dataclass
class CommandResult:
    """What ``genie-bot ARGS`` did: its exit status and what it printed (the shape of subprocess.run's)."""

    returncode: int
    stdout: str
    stderr: str


@pytest.fixture
def genie(capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch):
    """``genie(*args, stdin="", cwd=None)`` runs ``genie-bot ARGS`` in this process, as the console script
    does (``genie_bot.cli.main``, a ``SystemExit`` turned into its status), and returns a
    :class:`CommandResult`. Most command tests need only this: starting a process per test cost the
    suite minutes. A few tests (tests/engine/test_cli.py, tests/ops/test_operator_starts.py) still
    start real processes, where what matters is the process: its exit, its output streams, no traceback."""
    from genie_bot.cli import main

    def run(*args: object, stdin: str = "", cwd: Path | None = None) -> CommandResult:
        monkeypatch.setattr(sys, "stdin", io.StringIO(stdin))
        if cwd is not None:
            monkeypatch.chdir(cwd)
        capsys.readouterr()
        try:
            status = main([str(a) for a in args])
        except SystemExit as exc:  # argparse, or a command that exits with a message
            if isinstance(exc.code, str):
                print(exc.code, file=sys.stderr)
            status = exc.code if isinstance(exc.code, int) else int(exc.code is not None)
        captured = capsys.readouterr()
        return CommandResult(status, captured.out, captured.err)

    return run
@pytest.fixture(scope="session", autouse=True)
def _shared_knowledge_database(tmp_path_factory: pytest.TempPathFactory):
    """One knowledge database for the session: tables are imported by their content, once, by the
    first test (or process) that needs them, as in a deployment. Tests of importing use their own."""
    url = f"sqlite:///{tmp_path_factory.mktemp('knowledge') / 'knowledge.sqlite3'}"
    with pytest.MonkeyPatch.context() as patch:
        patch.setenv("GENIE_KNOWLEDGE_URL", url)
        yield url


@pytest.fixture(autouse=True)
def _isolated_data_dir(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """Side-effecting example APIs write their ledger under a per-test directory."""
    data_dir = tmp_path / "genie-data"
    monkeypatch.setenv("GENIE_DATA_DIR", str(data_dir))
    return data_dir


@pytest.fixture
def make_agent(tmp_path: Path):
    """Write an agent directory from YAML (and optional api.py) text; returns its path."""
    counter = iter(range(1_000_000))

    def make(agent_yaml: str, api: str | None = None, files: dict[str, str] | None = None) -> Path:
        directory = tmp_path / f"agent{next(counter)}"
        directory.mkdir()
        (directory / "agent.yaml").write_text(textwrap.dedent(agent_yaml).lstrip("\n"), encoding="utf-8")
        if api is not None:
            (directory / "api.py").write_text(textwrap.dedent(api), encoding="utf-8")
        for name, text in (files or {}).items():
            path = directory / name
            path.parent.mkdir(parents=True, exist_ok=True)
            path.write_text(textwrap.dedent(text).lstrip("\n"), encoding="utf-8")
        return directory

    return make


def _postgres_problem(url: str) -> str | None:
    try:
        import psycopg
    except ImportError:
        return "psycopg is not installed (pip install -e '.[postgres]')"
    try:
        psycopg.connect(url.replace("postgresql+psycopg://", "postgresql://"), connect_timeout=3).close()
    except Exception as exc:  # noqa: BLE001 - any failure to connect means "not available"
        return f"cannot connect to {url}: {exc}".strip()
    return None


@pytest.fixture(scope="session")
def postgres_url() -> str:
    problem = _postgres_problem(POSTGRES_URL)
    if problem:
        if os.environ.get("GENIE_REQUIRE_POSTGRES") == "1":
            pytest.fail(f"PostgreSQL is required (GENIE_REQUIRE_POSTGRES=1) but {problem}")
        pytest.skip(f"PostgreSQL tests skipped: {problem}; set GENIE_TEST_POSTGRES_URL to run them")
    return POSTGRES_URL
