"""The two-process freeze, timed: ``python -m tests.benchmarks.poison_freeze [--store sqlite|postgres] [--users 5]``.

Two real ``genie-bot run`` processes (A and B) serve the shop agent over Slack HTTP on one database,
as in tests/engine/test_two_process_freeze.py. A user sends A a message whose statement runs away
(a validation pattern that backtracks catastrophically: it holds the GIL until something outside
stops it); while it runs, ``--users`` other users message A and B in turns and A's ``/healthz`` is
polled. Reported: how long Slack waited for each acknowledgement, the health check's answers while
the poison ran, each other user's time to an answer (and that of as many users before the poison
was sent, for comparison), the time until the poison was parked and its user told, and what B did
with Slack's retry of it (its attempts stay 1: it never ran). ``engine.statement_cpu_seconds`` is
the deployment default, 2 s.
"""

from __future__ import annotations

import argparse
import json
import tempfile
import time
import urllib.request
import uuid
from collections.abc import Callable
from pathlib import Path

from sqlalchemy import create_engine, text

from genie_bot.adapters.slack.sessions import message_event_id
from genie_bot.store import Database
from tests.conftest import POSTGRES_URL
from tests.engine.conftest import postgres_schema_url
from tests.engine.support import ORDER, prepare_database, write_shop
from tests.engine.test_poison_messages import POISON, POISONED_YAML
from tests.engine.test_two_process_freeze import bot_replies, deliver, event_status, mention, two_bots
from tests.fakes.slack_api import TEAM_ID, MockSlackWebAPI

from .common import percentiles


def timed_health(url: str) -> float:
    started = time.perf_counter()
    with urllib.request.urlopen(f"{url}/healthz", timeout=300) as response:
        assert response.status == 200
    return (time.perf_counter() - started) * 1000


def replies_to(slack: MockSlackWebAPI, database_url: str, bots: list[str], users: int, label: str,
               poisoned: Callable[[], bool], health: list[float], checked: str = "") -> list[float]:
    """``users`` users mention the bot (on the bots in turns); each one's time to an answer, in ms.
    While ``poisoned()``, ``checked``'s health check is timed into ``health``."""
    asked = {mention(slack, bots[n % len(bots)], ORDER[0], f"U{n + 2}", f"{label}{n}"): time.perf_counter()
             for n in range(users)}
    answers: dict[str, float] = {}
    while len(answers) < users:
        if checked and poisoned():
            health.append(timed_health(checked))
        for thread, at in asked.items():
            if thread not in answers and bot_replies(slack, thread):
                answers[thread] = (time.perf_counter() - at) * 1000
        time.sleep(0.02)
    return list(answers.values())


def scenario(database_url: str, directory: Path, users: int) -> dict:
    shop = write_shop(directory / "shop", POISONED_YAML)
    with MockSlackWebAPI() as slack, two_bots(directory, database_url, shop, slack, cpu_seconds=2.0) as (a, b):
        before = replies_to(slack, database_url, [a, b], users, "EvBEFORE", lambda: False, [])
        sent = time.perf_counter()
        statement = POISON.replace("order_0.code", "order_0 = Order(code") + ")"
        poisoned = mention(slack, a, statement, "U1", "EvPOISON")
        acked = (time.perf_counter() - sent) * 1000
        while event_status(database_url, poisoned) != "running":
            time.sleep(0.01)
        health: list[float] = []
        during = replies_to(slack, database_url, [a, b], users, "EvDURING",
                            lambda: event_status(database_url, poisoned) == "running", health, a)
        while event_status(database_url, poisoned) == "running":
            health.append(timed_health(a))
        while not bot_replies(slack, poisoned):
            time.sleep(0.02)
        parked_after = (time.perf_counter() - sent) * 1000
        retry_started = time.perf_counter()
        deliver(b, {"type": "app_mention", "user": "U1", "text": "retried", "ts": poisoned, "channel": "C1",
                    "event_ts": poisoned}, "EvPOISON", retry=1)
        retry_ack = (time.perf_counter() - retry_started) * 1000
        db = Database(database_url)
        with db.read() as conn:
            attempts, status = conn.execute(text("SELECT attempts, status FROM genie_events WHERE event_id = :id"),
                                            {"id": message_event_id(TEAM_ID, "C1", poisoned)}).one()
        db.dispose()
    return {"poison_ack_ms": round(acked, 1), "health_while_poisoned_ms": percentiles(health),
            "health_checks_while_poisoned": len(health), "other_users_reply_ms_before": percentiles(before),
            "other_users_reply_ms_during": percentiles(during),
            "poison_parked_and_told_after_ms": round(parked_after, 1), "retry_to_b_ack_ms": round(retry_ack, 1),
            "poison_attempts": attempts, "poison_status": status}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--store", choices=("sqlite", "postgres"), default="sqlite")
    parser.add_argument("--users", type=int, default=5)
    args = parser.parse_args()
    directory = Path(tempfile.mkdtemp(prefix="genie-freeze-"))
    if args.store == "sqlite":
        url = f"sqlite:///{directory / 'genie.sqlite3'}"
        prepare_database(url)
        print(json.dumps(scenario(url, directory, args.users), indent=2))
        return
    schema = f"genie_freeze_{uuid.uuid4().hex[:10]}"
    admin = create_engine(POSTGRES_URL.replace("postgresql://", "postgresql+psycopg://", 1))
    with admin.begin() as conn:
        conn.execute(text(f"CREATE SCHEMA {schema}"))
    try:
        url = postgres_schema_url(POSTGRES_URL, schema)
        prepare_database(url)
        print(json.dumps(scenario(url, directory, args.users), indent=2))
    finally:
        with admin.begin() as conn:
            conn.execute(text(f"DROP SCHEMA {schema} CASCADE"))
        admin.dispose()


if __name__ == "__main__":
    main()
