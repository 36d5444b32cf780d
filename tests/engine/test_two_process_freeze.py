"""The two-process freeze: a runaway statement sent to one of two ``genie-bot run`` processes.

Before the sandbox, one Slack message whose statement held the GIL for minutes stopped process A
(no acknowledgement, no ``/healthz``, no lease renewal), Slack's retry and the expired lease took it
to process B, which froze on the same statement, and the other users waited. Here two real
``genie-bot run`` processes serve the shop agent over Slack HTTP (signed requests, the mock Web
API) on one database (SQLite, PostgreSQL). The poison is one no price list sees coming: a
validation pattern that backtracks catastrophically on the value given. While it runs in A's
sandbox worker, A answers its health check and the other users; then it is parked with a reply,
once, and Slack's retry of it to B runs nothing: B never gets it.
"""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import time
import urllib.request
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any, TypeVar

from slack_sdk.signature import SignatureVerifier

from genie_bot.adapters.slack.poster import THINKING
from genie_bot.adapters.slack.sessions import message_event_id
from genie_bot.engine.turns import PARKED
from genie_bot.store import Database, inbox, sessions, traces
from tests.benchmarks.loadtest import free_port, wait_healthy
from tests.fakes.slack_api import BOT_USER_ID, TEAM_ID, MockSlackWebAPI, event_callback

from .conftest import REPO
from .support import ORDER, write_shop
from .test_poison_messages import POISON, POISONED_YAML

SECRET = "freeze-test-secret"
WAIT = 180.0
"""Seconds any step may take before the test fails (a loaded machine is slow, never this slow)."""
T = TypeVar("T")


def bot_config(directory: Path, name: str, database_url: str, shop: Path, slack_url: str, port: int,
               cpu_seconds: float) -> Path:
    config = {
        "database": {"url": database_url},
        "llm": {"parser": "tests.engine.support:statement_parser", "responder": "templates"},
        "agents": {"shop": str(shop)},
        "platforms": {"slack": {"mode": "http", "host": "127.0.0.1", "port": port, "api_base_url": slack_url,
                                "shutdown_grace_seconds": 2}},
        "engine": {"lease_seconds": 3, "statement_cpu_seconds": cpu_seconds},
        "scheduler": {"enabled": False},
        "metrics": {"enabled": False},
        "logging": {"level": "INFO", "file": str(directory / f"{name}.log")},
    }
    path = directory / f"{name}.yaml"
    path.write_text(json.dumps(config), encoding="utf-8")  # JSON is YAML
    return path


@contextmanager
def two_bots(directory: Path, database_url: str, shop: Path, slack: MockSlackWebAPI,
             cpu_seconds: float = 1.0) -> Iterator[list[str]]:
    """Processes A and B (``engine.statement_cpu_seconds``: ``cpu_seconds``), healthy; yields their base URLs."""
    env = {k: v for k, v in os.environ.items() if not k.startswith("OPENAI_")}
    env.update(PYTHONPATH=str(REPO), SLACK_BOT_TOKEN="xoxb-freeze", SLACK_SIGNING_SECRET=SECRET)
    bots: list[subprocess.Popen] = []
    urls = []
    try:
        for name in ("a", "b"):
            port = free_port()
            config = bot_config(directory, name, database_url, shop, slack.base_url, port, cpu_seconds)
            log = open(directory / f"{name}.stderr", "w", encoding="utf-8")  # noqa: SIM115 - the process writes it
            bots.append(subprocess.Popen([sys.executable, "-m", "genie_bot.cli", "run", "--config", str(config)],
                                         cwd=REPO, env=env, stdout=log, stderr=log))
            urls.append(f"http://127.0.0.1:{port}")
        for url, bot in zip(urls, bots):
            wait_healthy(url, bot, timeout=180)
        yield urls
    finally:
        for bot in bots:
            bot.send_signal(signal.SIGTERM)
        for bot in bots:
            try:
                bot.wait(timeout=60)
            except subprocess.TimeoutExpired:
                bot.kill()


def deliver(url: str, event: dict[str, Any], event_id: str, retry: int | None = None) -> int:
    """POST an Events API callback signed as Slack does; the HTTP status."""
    body = event_callback(event)
    body["event_id"] = event_id
    data = json.dumps(body)
    timestamp = str(int(time.time()))
    headers = {"Content-Type": "application/json", "X-Slack-Request-Timestamp": timestamp,
               "X-Slack-Signature": SignatureVerifier(SECRET).generate_signature(timestamp=timestamp, body=data)}
    if retry:
        headers.update({"X-Slack-Retry-Num": str(retry), "X-Slack-Retry-Reason": "http_timeout"})
    request = urllib.request.Request(f"{url}/slack/events", data=data.encode(), headers=headers, method="POST")
    with urllib.request.urlopen(request, timeout=WAIT) as response:
        return response.status


def mention(slack: MockSlackWebAPI, url: str, text: str, user: str, event_id: str) -> str:
    """``user`` @mentions the bot in C1 with ``text``; the message's ts (its thread)."""
    text = f"<@{BOT_USER_ID}> {text}"
    ts = slack.add_message("C1", text, user=user)
    event = {"type": "app_mention", "user": user, "text": text, "ts": ts, "channel": "C1", "event_ts": ts}
    assert deliver(url, event, event_id) == 200
    return ts


def eventually(probe: Callable[[], T | None], what: str) -> T:
    deadline = time.monotonic() + WAIT
    while not (found := probe()):
        assert time.monotonic() < deadline, f"never: {what}"
        time.sleep(0.02)
    return found


def bot_replies(slack: MockSlackWebAPI, thread: str) -> list[str]:
    return [m["text"] for m in slack.messages("C1") if m.get("thread_ts") == thread and m.get("user") == BOT_USER_ID
            and m["text"] != THINKING]


def event_status(url: str, thread: str) -> str | None:
    db = Database(url)
    try:
        with db.read() as conn:
            found = inbox.outcome(conn, ("slack", message_event_id(TEAM_ID, "C1", thread)))
        return found[0] if found else None
    finally:
        db.dispose()


def healthy(url: str) -> bool:
    with urllib.request.urlopen(f"{url}/healthz", timeout=WAIT) as response:
        return response.status == 200


def test_a_runaway_statement_stops_neither_process_and_reaches_only_one(store_url, tmp_path):
    shop = write_shop(tmp_path / "shop", POISONED_YAML)
    with MockSlackWebAPI() as slack, two_bots(tmp_path, store_url, shop, slack) as (a, b):
        poisoned = mention(slack, a, POISON.replace("order_0.code", "order_0 = Order(code") + ")", "U1", "EvPOISON")
        eventually(lambda: event_status(store_url, poisoned) == "running", "the poison's turn running")
        health_while_running = healthy(a)
        running_after_health = event_status(store_url, poisoned) == "running"
        others = [mention(slack, (a, b)[n % 2], ORDER[0], f"U{n + 2}", f"EvOTHER{n}") for n in range(5)]
        answers = [eventually(lambda t=t: bot_replies(slack, t), f"an answer in {t}") for t in others]
        eventually(lambda: event_status(store_url, poisoned) == "parked", "the poison parked")
        assert deliver(b, {"type": "app_mention", "user": "U1", "text": "retried", "ts": poisoned, "channel": "C1",
                           "event_ts": poisoned}, "EvPOISON", retry=1) == 200  # Slack's retry, to the other one
        assert healthy(a) and healthy(b)
        parked = eventually(lambda: bot_replies(slack, poisoned), "the parked message's reply")

    assert health_while_running and running_after_health
    assert answers == [["Hi! Orders food.\n\nHow many?"]] * 5
    assert parked == [PARKED]
    db = Database(store_url)
    with db.read() as conn:
        poison_turns = traces.for_session(conn, f"slack/{TEAM_ID}/C1/{poisoned}")
        session = sessions.load(conn, f"slack/{TEAM_ID}/C1/{poisoned}")
        attempts = conn.exec_driver_sql("SELECT attempts FROM genie_events WHERE event_id = '"
                                        + message_event_id(TEAM_ID, "C1", poisoned) + "'")
        (tries,) = attempts.one()
    db.dispose()
    assert [t.outcome for t in poison_turns] == ["parked"] and tries == 1  # run once, by A; never by B
    assert session is not None and session.lease_owner is None
