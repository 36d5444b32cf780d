"""Each command loads only what it uses (the start-up figures are in tests/benchmarks/startup.py; this checks
which libraries a fresh process has imported once the command is done, which does not depend on timing)."""

from __future__ import annotations

import json
import os
import subprocess
import sys

import pytest

from tests.conftest import REPO, WORKSHEETS

HEAVY = ("openai", "sqlalchemy", "alembic", "aiohttp", "slack_bolt", "discord", "apscheduler", "dateparser", "sqlglot",
         "markdown_it", "jinja2", "rich", "pygments", "jsonschema", "prometheus_client", "genie_bot.parsers",
         "genie_bot.engine")
PROBE = ("import io, json, sys, contextlib\nfrom genie_bot.cli import main\nsys.stdin = io.StringIO(sys.argv[1])\n"
         "with contextlib.redirect_stdout(io.StringIO()):\n    status = main(sys.argv[2:])\n"
         f"print(json.dumps([status, sorted(m for m in {HEAVY!r} if m in sys.modules)]))")


def loaded(*args: object, stdin: str = "") -> list[str]:
    """The heavy libraries a fresh process has imported after ``genie-bot ARGS``."""
    environ = {k: v for k, v in os.environ.items() if not k.startswith(("OPENAI_", "AZURE_OPENAI_", "GENIE_LLM_"))}
    result = subprocess.run([sys.executable, "-c", PROBE, stdin, *map(str, args)], capture_output=True, text=True,
                            cwd=REPO, env=environ, timeout=120)
    status, modules = json.loads(result.stdout.splitlines()[-1])
    assert status == 0, result.stderr
    return modules


@pytest.mark.parametrize("args", [("validate", WORKSHEETS / "restaurant_reservation"), ("schema",)],
                         ids=["validate", "schema"])
def test_building_commands_load_no_parser_database_or_platform(args):
    assert loaded(*args) == []


def test_help_loads_nothing_heavy():
    code = (f"import sys\nfrom genie_bot.cli import main\ntry:\n    main(['--help'])\nexcept SystemExit:\n    pass\n"
            f"print(sorted(m for m in {HEAVY!r} if m in sys.modules), file=sys.stderr)")
    result = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, cwd=REPO, timeout=120)
    assert result.stderr.strip().splitlines()[-1] == "[]"


def test_offline_chat_loads_neither_openai_nor_a_database_for_an_agent_without_tables():
    modules = loaded("chat", WORKSHEETS / "ticket_submission", stdin="I need help with a leave of absence\n")
    assert "genie_bot.parsers" in modules
    assert not {"openai", "sqlalchemy", "alembic", "aiohttp", "slack_bolt", "discord", "jinja2", "sqlglot"} & set(modules)


def test_an_agent_with_tables_loads_sqlalchemy_but_not_openai():
    modules = loaded("chat", WORKSHEETS / "restaurant_reservation", stdin="hello\n")
    assert "sqlalchemy" in modules and "openai" not in modules
