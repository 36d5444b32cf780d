"""Scale-out load test: real ``genie-bot run`` processes in Slack HTTP mode sharing one PostgreSQL.

``python -m tests.benchmarks.loadtest [--users 1000] [--runs 1,2,kill] [--llm-ms 200] [--think-ms 1000]``

Each run starts N bot processes (``python -m genie_bot.cli run --config``) on loopback against
one PostgreSQL schema, the mock Slack Web API (in this process) and a scripted OpenAI-compatible
server with a fixed latency (its own process; see :mod:`.loadtest_llm` for what is measured).
Simulated users (:mod:`.loadtest_users`) file one ticket each through signed Slack requests,
alternating between the processes as a load balancer would, with Slack-style retries and
duplicate deliveries, and end with a Confirm click. Runs:

* ``1``: one process; ``2``: two processes (how throughput changes from one to two);
* ``kill``: two processes, and the first is SIGKILLed when 40% of the turns are answered:
  the other must carry on, pick up the dead one's turns, and leave no session corrupted.

With ``--hostile N``, N more users (:class:`.loadtest_users.HostileUser`) send the worst parser
output and the longest message over and over while the others file their tickets; the others'
figures are reported as before, the hostile users' apart (``hostile``).

Reported: turns per second, p50/p99 of the ack time (HTTP response) and of the time to reply
(request sent -> the mock Web API receives the reply in that thread), replies lost or
duplicated, side effects (tickets in the ledger ``$GENIE_DATA_DIR/submissions.sqlite3``) per
user, the state of every session, pending action and event after the run, and the CPU
seconds each part used while users were driven (bots, LLM server, this driver with the mock
Slack, PostgreSQL) with how busy the machine was: the ceiling any scale-out figure hits; the
bots' CPU per turn answered (``bot_cpu_ms_per_turn``) is the figure to compare across versions,
and ``bot_cpu_ms_per_turn_warm`` the same once the first fifth of the turns are answered (a new
process pays for imports and caches first), which :mod:`.load_growth` compares across loads.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import signal
import socket
import sqlite3
import subprocess
import sys
import tempfile
import time
import urllib.request
import uuid
from collections import Counter
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import aiohttp
from prometheus_client.parser import text_string_to_metric_families
from sqlalchemy import create_engine, func, select, text

from genie_bot.state import DialogueState
from genie_bot.store import Database
from genie_bot.store.schema import events, pending_actions, sessions, turns
from tests.conftest import POSTGRES_URL, REPO, WORKSHEETS
from tests.engine.conftest import postgres_schema_url
from tests.engine.support import prepare_database

from .cpu import CpuReading
from .loadtest_slack import SECRET, Deliveries, RecordingSlack
from .loadtest_users import Figures, HostileUser, SimulatedUser, UserSettings, conversation

KILL_AT = 0.4
"""The share of all turns answered when the first process is killed in the ``kill`` run."""
WARM_AT = 0.2
"""The share of all turns answered before the bots' CPU per turn is measured again
(``bot_cpu_ms_per_turn_warm``): the first turns of a process pay for imports and caches."""


@dataclass
class Options:
    users: int
    llm_ms: float
    think_s: float
    ramp_s: float
    channels: int
    duplicate_share: float
    double_click_share: float
    seed: int
    base_url: str
    turn_threads: int
    hostile: int = 0


# -- processes ------------------------------------------------------------------------------------------------
class Processes:
    """The scripted LLM server and the bot processes of one run, and their logs."""

    def __init__(self, directory: Path):
        self.directory = directory
        self.bots: list[subprocess.Popen] = []
        self.llm: subprocess.Popen | None = None

    def start_llm(self, latency_ms: float) -> str:
        self.llm = subprocess.Popen([sys.executable, "-m", "tests.benchmarks.loadtest_llm", str(latency_ms)],
                                    cwd=REPO, stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True)
        return self.llm.stdout.readline().strip()

    def start_bot(self, config: Path, env: dict[str, str]) -> subprocess.Popen:
        log = open(self.directory / f"{config.stem}.stderr", "w", encoding="utf-8")  # noqa: SIM115 - kept open
        bot = subprocess.Popen([sys.executable, "-m", "genie_bot.cli", "run", "--config", str(config)], cwd=REPO,
                               env=env, stdout=log, stderr=log)
        self.bots.append(bot)
        return bot

    def stop(self) -> None:
        for bot in self.bots:
            if bot.poll() is None:
                bot.send_signal(signal.SIGTERM)
        for bot in self.bots:
            try:
                bot.wait(timeout=30)
            except subprocess.TimeoutExpired:
                bot.kill()
        if self.llm is not None:
            self.llm.stdin.close()
            self.llm.wait(timeout=30)


def wait_healthy(url: str, bot: subprocess.Popen, timeout: float = 90) -> None:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if bot.poll() is not None:
            raise RuntimeError(f"a bot process exited at start ({bot.returncode}); see its .stderr log")
        try:
            with urllib.request.urlopen(f"{url}/healthz", timeout=2) as response:
                if response.status == 200:
                    return
        except OSError:
            pass
        time.sleep(0.2)
    raise RuntimeError(f"{url} did not become healthy in {timeout} s")


def bot_config(directory: Path, number: int, database_url: str, llm_url: str, slack_url: str, port: int,
               metrics_port: int, turn_threads: int) -> Path:
    config = {
        "database": {"url": database_url},
        "llm": {"parser": "tests.benchmarks.loadtest_llm:parser", "responder": "auto",
                "model": "gpt-4o-mini", "base_url": llm_url, "api_key": "sk-loadtest",
                "prices": {"gpt-4o-mini": {"prompt": 0.15, "completion": 0.60}}},
        "agents": {"tickets": str(WORKSHEETS / "ticket_submission")},
        "platforms": {"slack": {"mode": "http", "host": "127.0.0.1", "port": port, "api_base_url": slack_url,
                                "shutdown_grace_seconds": 5}},
        "engine": {"lease_seconds": 10, "turn_threads": turn_threads},
        "scheduler": {"check_every_seconds": 2},
        "logging": {"level": "INFO", "format": "json", "file": f"bot-{number}.log"},
        "metrics": {"host": "127.0.0.1", "port": metrics_port},
    }
    path = directory / f"bot-{number}.yaml"
    path.write_text(json.dumps(config, indent=2), encoding="utf-8")  # JSON is YAML
    return path


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


# -- one run --------------------------------------------------------------------------------------------------
async def drive(options: Options, slack: RecordingSlack, targets: list[str],
                watchers: list[Any], hostile: Figures) -> tuple[Figures, list[SimulatedUser], int]:
    """Run every user to the end; returns the figures, the users and the failed delivery attempts.
    ``watchers`` (functions of the figures, run as tasks meanwhile) kill a process or read the CPU.
    Hostile users (``options.hostile``) run until the others are done; their figures go to ``hostile``."""
    figures = Figures()
    settings = UserSettings(options.channels, options.think_s, options.ramp_s, options.duplicate_share,
                            options.double_click_share, reply_timeout_s=60)
    async with aiohttp.ClientSession(connector=aiohttp.TCPConnector(limit=0)) as http:
        deliveries = Deliveries(targets, http)
        users = [SimulatedUser(n, slack, deliveries, settings, figures, options.seed) for n in range(options.users)]
        stop = asyncio.Event()
        attackers = [HostileUser(options.users + n, slack, deliveries, settings, hostile, options.seed, stop=stop)
                     for n in range(options.hostile)]
        attacking = [asyncio.create_task(a.run()) for a in attackers]
        watching = [asyncio.create_task(watcher(figures)) for watcher in watchers]
        await asyncio.gather(*(u.run() for u in users))
        stop.set()
        await asyncio.gather(*attacking)
        for task in watching:
            task.cancel()
    return figures, users, deliveries.failed_attempts


def run(options: Options, processes_count: int, kill: bool) -> dict[str, Any]:
    directory = Path(tempfile.mkdtemp(prefix="genie-loadtest-"))
    schema = f"genie_load_{uuid.uuid4().hex[:10]}"
    admin = create_engine(options.base_url.replace("postgresql://", "postgresql+psycopg://", 1))
    with admin.begin() as conn:
        conn.execute(text(f"CREATE SCHEMA {schema}"))
    database_url = postgres_schema_url(options.base_url, schema)
    prepare_database(database_url)
    data_dir = directory / "data"
    processes = Processes(directory)
    loop = asyncio.new_event_loop()
    slack = RecordingSlack(loop).start()
    try:
        llm_url = processes.start_llm(options.llm_ms)
        env = {**os.environ, "PYTHONPATH": str(REPO), "GENIE_DATA_DIR": str(data_dir),
               "SLACK_BOT_TOKEN": "xoxb-loadtest", "SLACK_SIGNING_SECRET": SECRET}
        targets, metrics = [], []
        for number in range(processes_count):
            port, metrics_port = free_port(), free_port()
            config = bot_config(directory, number, database_url, llm_url, slack.base_url, port, metrics_port,
                                options.turn_threads)
            bot = processes.start_bot(config, env)
            wait_healthy(f"http://127.0.0.1:{port}", bot)
            targets.append(f"http://127.0.0.1:{port}")
            metrics.append(f"http://127.0.0.1:{metrics_port}/metrics")
        expected_turns = sum(len(conversation(n)) + 1 for n in range(options.users))
        killed: dict[str, float] = {}

        async def killer(figures: Figures) -> None:
            while figures.replies < KILL_AT * expected_turns:
                await asyncio.sleep(0.05)
            os.kill(processes.bots[0].pid, signal.SIGKILL)
            killed["at"] = time.monotonic()
            await asyncio.to_thread(processes.bots[0].wait)

        pids = {"driver_and_mock_slack": os.getpid(), "llm_server": processes.llm.pid,
                **{f"bot_{n}": bot.pid for n, bot in enumerate(processes.bots)}}
        warm: dict[str, Any] = {}

        async def warmed(figures: Figures) -> None:
            while figures.replies < WARM_AT * expected_turns:
                await asyncio.sleep(0.05)
            warm.update(cpu=CpuReading.now(pids), replies=figures.replies)

        cpu_before = CpuReading.now(pids)
        started = time.monotonic()
        hostile = Figures()
        figures, users, failed_attempts = loop.run_until_complete(
            drive(options, slack, targets, [warmed, *([killer] if kill else [])], hostile))
        cpu_after = CpuReading.now(pids)
        cpu = cpu_after.since(cpu_before)
        elapsed = figures.last_reply - figures.first_sent
        settled = settle(database_url)
        time.sleep(1.0)  # the last recovered notifications reach the mock
        scraped = [scrape(url) for url, bot in zip(metrics, processes.bots) if bot.poll() is None]
        report = {
            "processes": processes_count, "killed": bool(kill), "users": options.users, "llm_ms": options.llm_ms,
            "think_ms": options.think_s * 1000, "wall_seconds": round(time.monotonic() - started, 1),
            "turns_sent": figures.turns_sent, "replies": figures.replies,
            "turns_per_second": round(figures.replies / elapsed, 1) if elapsed > 0 else None,
            "ack_ms": percentiles(figures.ack_seconds), "reply_ms": percentiles(figures.reply_seconds),
            "never_acked": figures.never_acked, "no_reply_in_time": figures.no_reply,
            "duplicates_sent": figures.duplicates_sent, "double_clicks": figures.double_clicks,
            "failed_delivery_attempts": failed_attempts,
            "acked_but_never_recorded": None, "confirmed_users": figures.confirmed, "settled": settled,
            **thread_replies(slack, users), **ledger(data_dir), **store_state(database_url),
            "metrics": merge_metrics(scraped), **cpu,
        }
        distinct_events = figures.turns_sent + figures.double_clicks
        report["acked_but_never_recorded"] = max(0, distinct_events - figures.never_acked
                                                 - sum(report["events"].values()))
        report["bot_cpu_ms_per_turn"] = bot_ms_per_turn(cpu, figures.replies)
        if warm and not kill:
            report["bot_cpu_ms_per_turn_warm"] = bot_ms_per_turn(cpu_after.since(warm["cpu"]),
                                                                 figures.replies - warm["replies"])
        if kill:
            report["killed_after_seconds"] = round(killed.get("at", started) - started, 1)
        report["placeholders_left"] = len(slack.placeholders)
        if options.hostile:
            report["hostile"] = {"users": options.hostile, "messages": hostile.turns_sent, "replies": hostile.replies,
                                 "ack_ms": percentiles(hostile.ack_seconds),
                                 "reply_ms": percentiles(hostile.reply_seconds), "never_acked": hostile.never_acked}
        return report
    finally:
        processes.stop()
        slack.close()
        loop.close()
        with admin.begin() as conn:
            conn.execute(text(f"DROP SCHEMA {schema} CASCADE"))
        admin.dispose()
        print(f"(logs of this run: {directory})", file=sys.stderr)


def bot_ms_per_turn(cpu: dict[str, Any], replies: int) -> float | None:
    """The bots' CPU milliseconds per turn answered, from a :meth:`CpuReading.since`."""
    bots = sum(v for k, v in cpu["cpu_seconds"].items() if k.startswith("bot_"))
    return round(bots * 1000 / replies, 1) if replies > 0 else None


def settle(database_url: str, timeout: float = 60) -> bool:
    """Wait until no event is queued or running (a dead process's turns are picked up by the other)."""
    db = Database(database_url)
    try:
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            with db.read() as conn:
                waiting = conn.scalar(select(func.count()).where(events.c.status.in_(("queued", "running"))))
            if not waiting:
                return True
            time.sleep(0.5)
        return False
    finally:
        db.dispose()


# -- what the run left ----------------------------------------------------------------------------------------
def thread_replies(slack: RecordingSlack, users: list[SimulatedUser]) -> dict[str, Any]:
    """Replies in each user's thread against the turns the user sent: lost and duplicated replies."""
    lost = duplicated = 0
    for user in users:
        got = len(slack.thread(user.channel, user.thread_ts).replies)
        expected = user.sent - len(slack.responses(f"click-{user.number}"))  # refusals are answered privately
        lost += max(0, expected - got)
        duplicated += max(0, got - expected)
    texts = Counter((key, r.text) for key, thread in slack.threads.items() for r in thread.replies)
    return {"replies_lost": lost, "replies_duplicated": duplicated,
            "identical_replies_in_a_thread": sum(n - 1 for n in texts.values() if n > 1),
            "placeholders_discarded": slack.discarded}


def ledger(data_dir: Path) -> dict[str, Any]:
    """Tickets filed: one per user at most, each under the idempotency key of a different action."""
    path = data_dir / "submissions.sqlite3"
    if not path.exists():
        return {"tickets": 0}
    with sqlite3.connect(path) as db:
        rows = db.execute("SELECT idempotency_key, payload FROM submissions WHERE kind = 'ticket'").fetchall()
    per_user = Counter(json.loads(payload)["email"] for _, payload in rows)
    return {"tickets": len(rows), "users_with_a_ticket": len(per_user),
            "users_with_several_tickets": sum(1 for n in per_user.values() if n > 1),
            "ticket_keys": {key for key, _ in rows}}


def store_state(database_url: str) -> dict[str, Any]:
    """Sessions, pending actions and events after the run: every state loads, nothing is stuck."""
    db = Database(database_url)
    try:
        with db.read() as conn:
            rows = conn.execute(select(sessions.c.key, sessions.c.state, sessions.c.lease_owner)).all()
            action_rows = conn.execute(select(pending_actions.c.id, pending_actions.c.status,
                                              pending_actions.c.reason)).all()
            event_status = dict(conn.execute(select(events.c.status, func.count()).group_by(events.c.status)).all())
            outcomes = dict(conn.execute(select(turns.c.outcome, func.count()).group_by(turns.c.outcome)).all())
    finally:
        db.dispose()
    unreadable, completed, inconsistent = 0, 0, 0
    for _key, state_json, _owner in rows:
        try:
            state = DialogueState.from_json(state_json) if state_json else None
        except Exception:  # noqa: BLE001 - counted: a state that does not load is a corrupted session
            unreadable += 1
            continue
        main = state.instances.get("main_0") if state else None
        if main is not None and main.status == "completed":
            completed += 1
            inconsistent += not main.values.get("ticket_id")
    return {"sessions": len(rows), "sessions_unreadable": unreadable, "sessions_completed": completed,
            "sessions_completed_without_ticket_id": inconsistent,
            "leases_held": sum(owner is not None for *_, owner in rows),
            "pending_actions": dict(Counter(status for _, status, _ in action_rows)),
            "failed_actions": dict(Counter(reason for _, status, reason in action_rows if status == "failed")),
            "done_action_ids": {i for i, status, _ in action_rows if status == "done"},
            "events": event_status, "turn_outcomes": outcomes}


def scrape(url: str) -> dict[str, float]:
    with urllib.request.urlopen(url, timeout=10) as response:
        families = text_string_to_metric_families(response.read().decode())
    wanted = ("genie_turns_total", "genie_llm_calls_total", "genie_llm_cost_usd_total", "genie_errors_total",
              "genie_fallbacks_total")
    out: Counter = Counter()
    for family in families:
        for sample in family.samples:
            if sample.name in wanted:
                label = ",".join(f"{k}={v}" for k, v in sorted(sample.labels.items()) if k in ("outcome", "result",
                                                                                             "kind", "component"))
                out[f"{sample.name}{{{label}}}"] += sample.value
    return dict(out)


def merge_metrics(scraped: list[dict[str, float]]) -> dict[str, float]:
    total: Counter = Counter()
    for one in scraped:
        total.update(one)
    return {k: round(v, 4) for k, v in sorted(total.items())}


def percentiles(values: list[float]) -> dict[str, float]:
    if not values:
        return {}
    ordered = sorted(values)
    pick = lambda q: ordered[min(len(ordered) - 1, int(q * len(ordered)))] * 1000  # noqa: E731
    return {"p50": round(pick(0.5), 1), "p99": round(pick(0.99), 1), "max": round(ordered[-1] * 1000, 1)}


def verdict(report: dict[str, Any]) -> list[str]:
    """What must hold after any run, as failures (an empty list: all good)."""
    problems = []
    keys, done = report.pop("ticket_keys", set()), report.pop("done_action_ids", set())
    if report.get("users_with_several_tickets"):
        problems.append("duplicate side effects: a user has several tickets")
    if keys != done:
        problems.append(f"ledger keys and done actions differ ({len(keys)} vs {len(done)})")
    if report["sessions_unreadable"] or report["sessions_completed_without_ticket_id"]:
        problems.append("corrupted sessions")
    if report["failed_actions"]:
        problems.append(f"side-effecting API calls failed: {report['failed_actions']}")
    if report["pending_actions"].get("executing"):
        problems.append("pending actions stuck in 'executing'")
    if report["replies_duplicated"]:
        problems.append("duplicated replies")
    if report["replies_lost"]:
        problems.append("lost replies")
    if not report["settled"]:
        problems.append("events still queued or running")
    return problems


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--users", type=int, default=1000)
    parser.add_argument("--runs", default="1,2,kill", help="comma-separated: 1, 2, kill")
    parser.add_argument("--llm-ms", type=float, default=200, help="latency of every LLM call")
    parser.add_argument("--think-ms", type=float, default=1000, help="mean pause between a reply and the next message")
    parser.add_argument("--ramp-s", type=float, default=10, help="users start over this many seconds")
    parser.add_argument("--channels", type=int, default=20)
    parser.add_argument("--duplicates", type=float, default=0.1, help="share of deliveries Slack repeats")
    parser.add_argument("--double-clicks", type=float, default=0.05, help="share of users clicking Confirm twice")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--url", default=POSTGRES_URL, help="PostgreSQL (a schema of its own is made per run)")
    parser.add_argument("--turn-threads", type=int, default=64, help="engine.turn_threads of each bot process")
    parser.add_argument("--hostile", type=int, default=0,
                        help="users sending the worst statements and the longest message meanwhile")
    parser.add_argument("--json", action="store_true", help="print the reports as JSON")
    args = parser.parse_args()
    options = Options(args.users, args.llm_ms, args.think_ms / 1000, args.ramp_s, args.channels, args.duplicates,
                      args.double_clicks, args.seed, args.url, args.turn_threads, args.hostile)
    failed = False
    for name in args.runs.split(","):
        report = run(options, 1 if name == "1" else 2, kill=name == "kill")
        problems = verdict(report)
        failed |= bool(problems)
        report["problems"] = problems
        print(json.dumps(report, indent=None if args.json else 2, default=str), flush=True)
    raise SystemExit(1 if failed else 0)


if __name__ == "__main__":
    main()
