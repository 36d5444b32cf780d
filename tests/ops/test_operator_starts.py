"""``genie-bot run`` as an operator starts it, in a process of its own: a platform that cannot be reached or a port taken,
a token it refuses, a missing database driver, "Add to Slack" without keys each end in one line naming the cause and the fix
(no traceback); the Slack-only and Discord-only examples need only their own platform's token;
beside the terminal console, the log shows no turn lines.

Everything the processes talk to is on loopback: the mock Slack Web API, the fake Discord
(discord.py has no setting for its host, so a Discord process is started with
``discord.http.Route.BASE`` aimed first), or a port nobody listens on.
"""

from __future__ import annotations

import asyncio
import os
import pty
import select
import socket
import subprocess
import sys
import time
from pathlib import Path

import pytest

from genie_bot.cli import main
from genie_bot.config import load_config
from tests.conftest import REPO, WORKSHEETS
from tests.fakes.discord_server import FakeDiscord
from tests.fakes.slack_api import MockSlackWebAPI

NOBODY = "http://127.0.0.1:1"
"""A loopback address nobody listens on: connections are refused at once."""
PLATFORM_VARIABLES = ("DATABASE_URL", "SLACK_BOT_TOKEN", "SLACK_APP_TOKEN", "SLACK_SIGNING_SECRET", "DISCORD_BOT_TOKEN",
                      "OPENAI_API_KEY", "OPENAI_BASE_URL", "GENIE_SECRET_KEYS")
DISCORD_AT = ("import sys, discord.http; discord.http.Route.BASE = sys.argv.pop(1); "
              "from genie_bot.cli import main; sys.exit(main(sys.argv[1:]))")
"""``python -c DISCORD_AT REST_URL ARGS``: genie-bot with discord.py aimed at REST_URL."""


def genie_yaml(tmp_path: Path, more: str, database: str | None = None) -> Path:
    """A genie.yaml serving the ticket agent, with the settings ``more`` adds; on ``database``, else on a
    SQLite file it migrates."""
    path = tmp_path / "genie.yaml"
    path.write_text(f"database: {{url: '{database or f'sqlite:///{tmp_path}/genie.sqlite3'}'}}\n"
                    f"agents: {{tickets: {WORKSHEETS / 'ticket_submission'}}}\n"
                    f"scheduler: {{enabled: false}}\nmetrics: {{enabled: false}}\n{more}", encoding="utf-8")
    if database is None:
        assert main(["db", "upgrade", "--config", str(path)]) == 0
    return path


def deployment(tmp_path: Path, platforms: str, database: str | None = None) -> Path:
    """A genie.yaml serving ``platforms``; the log shows errors only, so what the operator reads is the failure."""
    return genie_yaml(tmp_path, f"logging: {{level: ERROR}}\nplatforms:\n{platforms}", database)


def environment(**variables: str) -> dict[str, str]:
    """This process's environment without a database URL, platform tokens or LLM, plus ``variables``."""
    return {**{k: v for k, v in os.environ.items() if k not in PLATFORM_VARIABLES}, **variables}


def run_genie(*args: object, env: dict[str, str] | None = None, prefix: tuple[str, ...] = ("-m", "genie_bot.cli"),
              ) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, *prefix, *map(str, args)], capture_output=True, text=True, cwd=REPO,
                          timeout=60, stdin=subprocess.DEVNULL, env=environment(**(env or {})))


def one_line(result: subprocess.CompletedProcess) -> str:
    """The command failed (exit 1) and said why in exactly one line, with no traceback."""
    lines = [line for line in result.stderr.splitlines() if line.strip()]
    assert result.returncode == 1 and "Traceback" not in result.stderr + result.stdout, result.stderr
    assert len(lines) == 1, result.stderr
    return lines[0]


def test_an_unreachable_slack_is_one_line(tmp_path):
    path = deployment(tmp_path, f"  slack: {{bot_token: xoxb-1, app_token: xapp-1, api_base_url: '{NOBODY}/api/'}}\n")
    line = one_line(run_genie("run", "--config", path))
    assert line.startswith(f"cannot reach Slack at {NOBODY}/api/: ") and "platforms.slack.api_base_url" in line


def test_a_bot_token_slack_refuses_is_one_line(tmp_path):
    with MockSlackWebAPI() as slack:
        slack.fail("auth.test", "invalid_auth")
        path = deployment(tmp_path, f"  slack: {{app_token: xapp-1, api_base_url: '{slack.base_url}'}}\n")
        line = one_line(run_genie("run", "--config", path, env={"SLACK_BOT_TOKEN": "xoxb-wrong"}))
    assert line == ("Slack refused the bot token (invalid_auth): set SLACK_BOT_TOKEN (or platforms.slack.bot_token) "
                    "to the app's Bot User OAuth Token, xoxb-...")


def test_an_app_token_slack_refuses_is_one_line(tmp_path):
    with MockSlackWebAPI() as slack:
        slack.fail("apps.connections.open", "invalid_auth", times=1000)
        path = deployment(tmp_path, f"  slack: {{app_token: xapp-wrong, api_base_url: '{slack.base_url}'}}\n")
        line = one_line(run_genie("run", "--config", path, env={"SLACK_BOT_TOKEN": "xoxb-1"}))
    assert line.startswith("Slack refused the app token (invalid_auth): set SLACK_APP_TOKEN")


def test_a_port_taken_for_slacks_requests_is_one_line(tmp_path):
    with MockSlackWebAPI() as slack, socket.socket() as taken:
        taken.bind(("127.0.0.1", 0))
        taken.listen()
        port = taken.getsockname()[1]
        path = deployment(tmp_path, f"  slack: {{signing_secret: s, host: 127.0.0.1, port: {port}, "
                                    f"api_base_url: '{slack.base_url}'}}\n")
        line = one_line(run_genie("run", "--config", path, env={"SLACK_BOT_TOKEN": "xoxb-1"}))
    assert line.startswith(f"cannot listen on 127.0.0.1:{port} for Slack's requests: ")
    assert line.endswith("choose another platforms.slack.port")


def test_add_to_slack_without_keys_to_seal_its_tokens_is_one_line(tmp_path):
    oauth = "{client_id: '1.2', client_secret: s}"
    path = deployment(tmp_path, f"  slack: {{signing_secret: s, port: 0, oauth: {oauth}}}\n")
    assert one_line(run_genie("run", "--config", path)) == (
        "cannot start a configured platform: platforms.slack: 'oauth' keeps each workspace's Slack tokens sealed in "
        "the database: set GENIE_SECRET_KEYS to a key (make one: genie-bot installations new-key)")


def test_an_unreachable_discord_is_one_line(tmp_path):
    path = deployment(tmp_path, "  discord: {}\n")
    result = run_genie(f"{NOBODY}/api/v10", "run", "--config", path, env={"DISCORD_BOT_TOKEN": "d"},
                       prefix=("-c", DISCORD_AT))
    assert one_line(result).startswith(f"cannot reach Discord at {NOBODY}/api/v10: ")


def test_a_token_discord_refuses_is_one_line(tmp_path):
    path = deployment(tmp_path, "  discord: {}\n")

    async def run_against_fake() -> subprocess.CompletedProcess:
        async with FakeDiscord(token="the-right-token") as fake:
            process = await asyncio.create_subprocess_exec(
                sys.executable, "-c", DISCORD_AT, fake.rest.base_url, "run", "--config", str(path), cwd=REPO,
                stdin=subprocess.DEVNULL, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                env=environment(DISCORD_BOT_TOKEN="a-wrong-token"))
            out, err = await asyncio.wait_for(process.communicate(), 120)
            return subprocess.CompletedProcess([], process.returncode or 0, out.decode(), err.decode())

    line = one_line(asyncio.run(run_against_fake()))
    assert line.startswith("Discord refused the bot token: set DISCORD_BOT_TOKEN"), line
    assert "PyNaCl" not in line


def test_a_missing_postgresql_driver_is_one_line(tmp_path):
    """A machine where genie-bot was installed without the postgres extra: psycopg cannot be imported."""
    missing = tmp_path / "without-psycopg"
    (missing / "psycopg").mkdir(parents=True)
    (missing / "psycopg" / "__init__.py").write_text(
        "raise ModuleNotFoundError(\"No module named 'psycopg'\", name='psycopg')\n", encoding="utf-8")
    path = deployment(tmp_path, "  {}\n", database="postgresql+psycopg://genie@127.0.0.1:5432/genie")
    for command in (["run"], ["db", "upgrade"]):
        line = one_line(run_genie(*command, "--config", path, env={"PYTHONPATH": str(missing)}))
        assert line == ("the database postgresql+psycopg://genie@127.0.0.1:5432/genie needs the psycopg driver, "
                        "which is not installed: pip install 'genie-bot[postgres]'"), line


@pytest.mark.parametrize("example, platform, variables", [
    ("genie.slack.yaml", "slack", {"SLACK_BOT_TOKEN": "xoxb-1", "SLACK_APP_TOKEN": "xapp-1"}),
    ("genie.discord.yaml", "discord", {"DISCORD_BOT_TOKEN": "d"}),
])
def test_single_platform_examples_need_only_their_platforms_token(example, platform, variables, tmp_path):
    (tmp_path / "worksheets").symlink_to(WORKSHEETS)
    copy = tmp_path / "genie.yaml"
    copy.write_text((REPO / "deploy" / example).read_text(encoding="utf-8"), encoding="utf-8")
    config = load_config(copy, environ=variables)
    assert list(config.platforms) == [platform]
    from genie_bot.adapters.platforms import create_adapter

    assert create_adapter(platform, config).platform == platform


def test_beside_the_terminal_console_the_log_shows_no_turns(tmp_path):
    """stdout and stderr on one terminal: the conversation, and warnings only."""
    path = genie_yaml(tmp_path, "")
    terminal, child = pty.openpty()
    process = subprocess.Popen([sys.executable, "-m", "genie_bot.cli", "run", "--config", str(path)], cwd=REPO,
                               stdin=subprocess.PIPE, stdout=child, stderr=child, env=environment())
    os.close(child)
    assert process.stdin is not None
    process.stdin.write(b"I need help with a leave of absence\n")
    process.stdin.close()
    screen = b""
    deadline = time.monotonic() + 120  # a bound on a hung process, not a wait for it
    while select.select([terminal], [], [], max(0.0, deadline - time.monotonic()))[0]:
        try:
            chunk = os.read(terminal, 4096)
        except OSError:  # the process closed the terminal
            break
        if not chunk:
            break
        screen += chunk
    assert process.wait(timeout=120) == 0
    os.close(terminal)
    text = screen.decode(errors="replace")
    assert "bot> " in text and "leave of absence form" in text, text
    assert "genie_bot.turns" not in text and " INFO " not in text, text


def test_with_the_log_redirected_the_console_and_the_log_stay_apart(tmp_path):
    path = genie_yaml(tmp_path, "")
    result = subprocess.run([sys.executable, "-m", "genie_bot.cli", "run", "--config", str(path)], cwd=REPO,
                            input="I need help with a leave of absence\n", capture_output=True, text=True, timeout=120,
                            env=environment())
    assert result.returncode == 0, result.stderr
    assert "genie_bot.turns" in result.stderr and "genie_bot.turns" not in result.stdout
    assert "leave of absence form" in result.stdout
    assert not any(f" {level} genie_bot" in result.stdout for level in ("INFO", "WARNING")), result.stdout
