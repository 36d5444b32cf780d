"""A Slack thread stored by the engine, opened with ``genie-bot console --config genie.yaml --session KEY``."""

from __future__ import annotations

import asyncio
import os
import re
import subprocess
import sys
from collections.abc import Iterator
from concurrent.futures import ThreadPoolExecutor
from contextlib import contextmanager
from pathlib import Path

import pytest

from genie_bot.config import Config, load_config
from genie_bot.engine import Decision, Engine, SessionKey
from tests.engine.support import prepare_database

from .harness import REPO, TICKETS, WAITLIST_TICKET, expect, offline_agents

THREAD = SessionKey("slack", "T1", "C1", "1700000000.000100")


@pytest.fixture(params=["sqlite", pytest.param("postgres", marks=pytest.mark.postgres)])
def database_url(request, tmp_path: Path) -> str:
    url = f"sqlite:///{tmp_path / 'genie.sqlite3'}" if request.param == "sqlite" else request.getfixturevalue("pg_url")
    prepare_database(url)
    return url


def genie_yaml(directory: Path, database_url: str, include_content: bool) -> Path:
    path = directory / "genie.yaml"
    path.write_text(f"agents: {{tickets: '{TICKETS}'}}\ndatabase: {{url: '{database_url}'}}\n"
                    f"logging: {{include_content: {str(include_content).lower()}}}\n", encoding="utf-8")
    return path


def file_ticket_in_a_slack_thread(config: Config) -> str:
    """The waitlist ticket filed in a Slack thread through the engine, confirmed by a click; the action's id.

    On an event loop of its own, in a thread: Playwright's runs in this one.
    """
    with ThreadPoolExecutor(1) as thread:
        return thread.submit(asyncio.run, _file_ticket(config)).result()


async def _file_ticket(config: Config) -> str:
    engine = Engine(config, build_agent=offline_agents)
    await engine.start()
    try:
        for number, text in enumerate(WAITLIST_TICKET):
            replies = await engine.handle_message(THREAD, "U1", text, f"Ev{number}")
        card = replies[-1].pending_action
        await engine.handle_action(THREAD, "U1", card.id, Decision.CONFIRM, "EvClick")
        return card.id
    finally:
        await engine.stop()


@contextmanager
def console_command(config: Path, log: Path, session: SessionKey = THREAD) -> Iterator[str]:
    """``genie-bot console --config ... --session SESSION`` in a process of its own; the URL it prints."""
    environ = {name: value for name, value in os.environ.items() if name not in ("GENIE_CONSOLE_TOKEN", "DATABASE_URL")}
    with open(log, "w", encoding="utf-8") as stderr:
        process = subprocess.Popen([sys.executable, "-m", "genie_bot.cli", "console", "--config", str(config),
                                    "--session", str(session), "--port", "0"],
                                   stdout=subprocess.PIPE, stderr=stderr, text=True, cwd=REPO, env=environ)
        try:
            line = process.stdout.readline()  # printed once the server listens
            assert line.startswith("genie-bot console: "), (line, log.read_text(encoding="utf-8"))
            yield line.removeprefix("genie-bot console: ").strip()
        finally:
            process.terminate()
            process.wait()
            process.stdout.close()


def test_a_stored_slack_thread_shows_every_turn_and_exports_as_a_test(database_url, page, tmp_path: Path):
    config = genie_yaml(tmp_path, database_url, include_content=True)
    action_id = file_ticket_in_a_slack_thread(load_config(config, environ={}))

    with console_command(config, tmp_path / "console.log") as url:
        page.goto(url)
        expect(page.locator("body")).to_have_attribute("data-turns", "7")
        expect(page.locator("#session-key")).to_have_text(str(THREAD))
        first = page.locator("#turn-0")
        expect(first.locator("dd.user")).to_have_text("I need help joining a waitlist")
        expect(first.locator("pre.statements")).to_contain_text("main_0.student_task = 'TroubleShoot'")
        expect(first.locator("ul.acts")).to_contain_text("AskField(join_waitlist_0, course_name")
        expect(first.locator("dd.state")).to_contain_text("not in the engine's traces")
        expect(page.locator(".msg.user").last).to_have_text("Clicked Confirm")
        expect(page.locator(".msg.bot").last).to_contain_text("TKT-00001 has been submitted")
        expect(page.locator(f'#messages .card[data-action="{action_id}"]')).to_have_attribute("data-status", "done")
        expect(page.locator("#messages .card .summary")).to_contain_text("Ann Lee")
        expect(page.locator("#composer")).to_have_count(0)  # read-only
        expect(page.locator(".readonly")).to_have_text("Read-only.")

        page.click("#export")
        expect(page.locator("#export-status")).to_contain_text("Passes genie-bot test")
        expect(page.locator("#export-yaml")).to_contain_text("submit_ticket: {ticket_id: TKT-00001")

        page.goto(url.split("/session")[0] + "/sessions")
        expect(page.locator("body")).to_have_attribute("data-ready", "true")
        page.get_by_role("link", name=str(THREAD)).click()
        expect(page.locator("body")).to_have_attribute("data-turns", "7")


def test_a_stored_session_follows_the_redaction_settings(page, tmp_path: Path):
    url = f"sqlite:///{tmp_path / 'genie.sqlite3'}"
    prepare_database(url)
    config = genie_yaml(tmp_path, url, include_content=False)
    file_ticket_in_a_slack_thread(load_config(config, environ={}))

    with console_command(config, tmp_path / "console.log") as address:
        page.goto(address)
        expect(page.locator("body")).to_have_attribute("data-turns", "7")
        expect(page.locator("#redaction")).to_be_visible()
        first = page.locator("#turn-0")
        expect(first.locator("dd.user")).to_have_text("[redacted: 30 characters]")
        expect(first.locator("pre.statements")).to_have_text(re.compile(r"^\[redacted: \d+ characters\]$"))
        expect(first.locator("ul.acts")).to_have_text(["AskField join_waitlist_0.course_name"])
        expect(page.locator("#messages .card .summary dt")).to_have_count(0)
        expect(page.locator("#export")).to_be_disabled()
        assert "Ann Lee" not in page.content() and "ann@stanford.edu" not in page.content()
        assert page.request.get(address.replace("/session?", "/api/session/scenario?")).status == 403


SERVED = [SessionKey("slack", "TA", "C1", "1700000000.000100"), SessionKey("slack", "TB", "C1", "1700000000.000100"),
          SessionKey("discord", "4455", "7788", "")]
"""Conversations of one deployment in two Slack workspaces (the same channel) and a Discord server."""


async def _start_conversations(config: Config) -> None:
    engine = Engine(config, build_agent=offline_agents)
    await engine.start()
    try:
        for number, key in enumerate(SERVED):
            await engine.handle_message(key, "U1", WAITLIST_TICKET[0], f"Ev{number}")
    finally:
        await engine.stop()


def test_stored_sessions_are_listed_by_workspace_and_filtered_to_one(page, tmp_path: Path):
    url = f"sqlite:///{tmp_path / 'genie.sqlite3'}"
    prepare_database(url)
    config = genie_yaml(tmp_path, url, include_content=False)
    with ThreadPoolExecutor(1) as thread:
        thread.submit(asyncio.run, _start_conversations(load_config(config, environ={}))).result()

    with console_command(config, tmp_path / "console.log", SERVED[0]) as address:
        base = address.split("/session")[0]
        page.goto(base + "/sessions")
        expect(page.locator("body")).to_have_attribute("data-ready", "true")
        expect(page.locator("table.sessions tr")).to_have_count(1 + 3)
        expect(page.locator("#workspace-filter option")).to_have_text(
            ["every workspace", "discord 4455 (1)", "slack TA (1)", "slack TB (1)"])
        page.select_option("#workspace-filter", "slack/TB")
        page.wait_for_url("**/sessions?platform=slack&workspace=TB")
        expect(page.locator("body")).to_have_attribute("data-ready", "true")
        expect(page.locator("table.sessions tr")).to_have_count(1 + 1)
        expect(page.get_by_role("link", name=str(SERVED[1]))).to_be_visible()
        expect(page.locator("table.sessions td").nth(1)).to_have_text("slack TB")
        listed = page.request.get(base + "/api/sessions?platform=discord&workspace=4455").json()
        assert [s["key"] for s in listed["sections"][0]["sessions"]] == [str(SERVED[2])]
