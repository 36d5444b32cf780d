"""``genie-bot db upgrade`` and ``genie-bot run`` (served on the console when no platform is configured)."""

from __future__ import annotations

import subprocess
import sys

from alembic.autogenerate import compare_metadata
from alembic.runtime.migration import MigrationContext

from genie_bot.cli import main
from genie_bot.store import Database
from genie_bot.store.migrations import head_revision
from genie_bot.store.schema import metadata

from .conftest import REPO


def config_file(tmp_path, shop, extra: str = "") -> str:
    path = tmp_path / "genie.yaml"
    path.write_text(f"database: {{url: 'sqlite:///genie.sqlite3'}}\nagents: {{shop: {shop}}}\n{extra}", encoding="utf-8")
    return str(path)


def genie_bot(*args: str, stdin: str = "") -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "genie_bot.cli", *args], input=stdin, capture_output=True, text=True,
                          cwd=REPO, timeout=120)


def test_db_upgrade_creates_the_schema_once(tmp_path, shop, capsys):
    path = config_file(tmp_path, shop)
    assert main(["db", "upgrade", "--config", path]) == 0
    assert main(["db", "upgrade", "--config", path]) == 0
    lines = capsys.readouterr().out.splitlines()
    head = head_revision()
    assert lines[0].endswith(f"schema revision (none) -> {head}") and lines[1].endswith(f"schema revision {head} -> {head}")


def test_run_refuses_an_outdated_schema_and_says_what_to_run(tmp_path, shop):
    path = config_file(tmp_path, shop)
    result = genie_bot("run", "--config", path)
    assert result.returncode == 1
    assert f"run: genie-bot db upgrade --config {path}" in result.stderr


def test_run_reports_configuration_errors_precisely(tmp_path, shop):
    path = config_file(tmp_path, shop, "default_agent: nope\n")
    result = genie_bot("run", "--config", path)
    assert result.returncode == 2 and f"{path}:3:16: unknown agent 'nope'" in result.stderr


def test_run_serves_the_console_without_platforms(tmp_path, shop):
    path = config_file(tmp_path, shop, "logging: {level: WARNING}\n")
    assert genie_bot("db", "upgrade", "--config", path).returncode == 0
    result = genie_bot("run", "--config", path, stdin="hello\n/status\n")
    assert result.returncode == 0, result.stderr
    assert "bot> Hi! Orders food." in result.stdout and "What is the dish?" in result.stdout
    assert "EngineStatus(" in result.stdout and "turns_run=1" in result.stdout


def test_the_migrations_create_exactly_the_declared_schema(store_url):
    db = Database(store_url)
    with db.engine.connect() as conn:
        assert compare_metadata(MigrationContext.configure(conn), metadata) == []
    db.dispose()


def test_run_reports_invalid_platform_settings_without_a_traceback(tmp_path, shop):
    path = config_file(tmp_path, shop, "platforms:\n  slack: {bot_token: xoxb-1, prot: 80}\n")
    assert genie_bot("db", "upgrade", "--config", path).returncode == 0
    result = genie_bot("run", "--config", path)
    assert result.returncode == 1
    assert "cannot start a configured platform: " in result.stderr
    assert f"{path}:4:30: unknown key 'prot' in platforms.slack" in result.stderr
    assert "Traceback" not in result.stderr


def test_run_says_it_is_offline_when_no_llm_is_configured(tmp_path, shop):
    import os

    path = config_file(tmp_path, shop)
    assert genie_bot("db", "upgrade", "--config", path).returncode == 0
    env = {k: v for k, v in os.environ.items() if not k.startswith(("OPENAI_", "AZURE_OPENAI_", "GENIE_LLM_"))}
    result = subprocess.run([sys.executable, "-m", "genie_bot.cli", "run", "--config", path], input="hello\n",
                            capture_output=True, text=True, cwd=REPO, timeout=120, env=env)
    assert result.returncode == 0, result.stderr
    assert "Offline mode: no LLM is configured" in result.stderr
    assert "What is the dish?" in result.stdout
