"""Knowledge at scale: what a table of 300 / 3k / 30k / 300k rows costs a process and a turn.

``python -m tests.benchmarks.knowledge_scale [--sizes 300,3000,30000,300000] [--database sqlite|postgres]
[--repeat 3] [--turns 10] [--json OUT] [--quick]``

For each size it writes the restaurant agent with its table scaled to that many rows
(:mod:`.scaled_restaurants`; generated, never committed) and measures:

- **start-up**: ``genie-bot chat`` run as a process that answers one booking, its CPU time
  (user + system) and peak resident memory, best of ``--repeat`` runs after a first run
  (which imports the table into the knowledge database: ``first_start``);
- **naming**: bookings naming rows from the start, the middle and the end of the table by
  their exact name, and with a typo, each read by the rule parser; ``understood`` counts those
  whose statements hold the right record;
- **per turn**: the CPU time of a booking parse and of a search (the offline knowledge query
  and its reply), median over the messages and repeats, and of a 2,000-character search;
  with PostgreSQL, the server's CPU time per call is reported beside it (``server_ms``).

``--quick`` (run by ``.ci/run``) measures 300 and 30,000 rows and fails (exit 1) when a row
named exactly is not understood, or when the larger table costs more than the ratios of
:data:`QUICK_LIMITS` times the smaller one's: ratios on the same machine, not absolute times.
"""

from __future__ import annotations

import argparse
import datetime as dt
import json
import os
import re
import statistics
import subprocess
import sys
import tempfile
import time
import uuid
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Any

from tests.conftest import POSTGRES_URL, REPO

from .scaled_restaurants import names_at, scaled_agent

TODAY = dt.date(2026, 11, 21)
KNOWLEDGE_URL_ENV = "GENIE_KNOWLEDGE_URL"
QUICK_SIZES = (300, 30_000)
QUICK_LIMITS = {"start_cpu": 1.5, "start_peak_mib": 1.25, "parse_ms": 2.5, "search_ms": 2.5}
"""Largest quick size / smallest, at most: CPU and memory of a process, and the medians per turn."""
SEARCHES = ("italian restaurants in seattle", "what time does {middle} close", "quiet places in palo alto",
            "best thai food in new york", "is {end} good for kids", "cheap vegan places in san francisco",
            "what is the phone number of {start}", "any romantic spots in seattle with vegetarian options")
LONG_SEARCH_CHARS = 2000


@dataclass
class SizeFigures:
    rows: int
    first_start: dict[str, float] = field(default_factory=dict)
    start: dict[str, float] = field(default_factory=dict)
    build_ms: float = 0.0
    understood: dict[str, str] = field(default_factory=dict)
    parse_ms: float = 0.0
    search_ms: float = 0.0
    long_search_ms: float = 0.0
    server_ms: dict[str, float] = field(default_factory=dict)


def probes(agent: Path, rows: int) -> dict[str, tuple[int, str]]:
    """Rows from the start, the middle and the end of the table: (id, name) by where they are."""
    positions = {"start": 0, "second": 1, "middle": rows // 2, "late": rows - 2, "end": rows - 1}
    found = names_at(agent, list(positions.values()))
    return dict(zip(positions, found))


def bookings(named: dict[str, tuple[int, str]], party: int = 4) -> list[tuple[str, int, str]]:
    """(label, id, message): each probe by its exact name, and the middle and end ones with a typo."""
    out = [(where, row_id, f"book a table at {name} for {party} people tomorrow at 7pm")
           for where, (row_id, name) in named.items()]
    for where in ("middle", "end"):
        row_id, name = named[where]
        out.append((f"{where}, typo", row_id, f"can i get a table at {_typo(name)} on friday for {party}"))
    return out


OPENINGS = ("", "hi, ", "hey, ", "so ", "ok ", "um ", "well, ", "hello, ", "hmm ", "right, ")
"""Said before a search, so that each repetition is a message of its own (no lookup of it cached)."""


def _typo(name: str) -> str:
    """Two letters of the longest word swapped ("Vigna" -> "Vinga")."""
    words = name.split()
    i = max(range(len(words)), key=lambda k: len(words[k]))
    w = words[i]
    words[i] = w[:-3] + w[-2] + w[-3] + w[-1] if len(w) >= 4 else w
    return " ".join(words)


def _names_row(statements: str, row_id: int) -> bool:
    """Whether the statements give the booking the record whose id is ``row_id``."""
    return re.search(rf"restaurant=\{{'id': {row_id},|restaurant=restaurants\(id={row_id}\b", statements) is not None


def long_search(named: dict[str, tuple[int, str]]) -> str:
    """A question of about 2,000 characters: a long description of what the user wants."""
    part = ("we are a group of friends visiting seattle next month and we would love a quiet italian place with "
            "vegetarian options, good for kids, not too loud, maybe romantic enough for a date later on, "
            f"something like {named['middle'][1]} but cheaper if possible; ")
    return (part * (LONG_SEARCH_CHARS // len(part) + 1))[:LONG_SEARCH_CHARS]


# -- one process: start-up ---------------------------------------------------------------------------
def process_cost(agent: Path, message: str, env: dict[str, str]) -> dict[str, float]:
    """CPU seconds and peak MiB of ``genie-bot chat`` answering ``message``."""
    command = [sys.executable, "-m", "genie_bot.cli", "chat", str(agent), "--today", TODAY.isoformat()]
    process = subprocess.Popen(command, stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                               env=env, cwd=REPO)
    assert process.stdin is not None and process.stdout is not None and process.stderr is not None
    process.stdin.write(f"{message}\n".encode())
    process.stdin.close()
    output, errors = process.stdout.read(), process.stderr.read()
    _, status, usage = os.wait4(process.pid, 0)
    process.returncode = os.waitstatus_to_exitcode(status)
    if process.returncode != 0:
        raise RuntimeError(f"genie-bot chat failed ({process.returncode}): {errors.decode()[-2000:]}")
    assert output, "the agent replied"
    return {"cpu_s": round(usage.ru_utime + usage.ru_stime, 2), "peak_mib": round(usage.ru_maxrss / 1024, 1)}


# -- in process: per turn ------------------------------------------------------------------------------
@dataclass
class Agent:
    """The offline parts of the agent over its knowledge store, as ``genie-bot chat`` builds them."""

    spec: Any
    parser: Any
    knowledge: Any
    state: Any
    build_ms: float


def build(directory: Path) -> Agent:
    from genie_bot.agent.components import offline_components
    from genie_bot.runtime import LocalApiExecutor, Runtime
    from genie_bot.spec import load_agent

    started = time.process_time()
    spec = load_agent(directory)
    components = offline_components(spec)
    state = Runtime(spec, LocalApiExecutor(spec, knowledge=components.knowledge)).new_state()
    return Agent(spec, components.parser, components.knowledge, state, (time.process_time() - started) * 1000)


def cpu_ms(fn: Callable[[], Any], repeat: int) -> list[float]:
    out = []
    for _ in range(repeat):
        started = time.process_time()
        fn()
        out.append((time.process_time() - started) * 1000)
    return out


def search(agent: Agent, question: str) -> str:
    from genie_bot.responders.knowledge_report import knowledge_report
    from genie_bot.state import KnowledgeAnswer

    answer = KnowledgeAnswer(question)
    result = agent.knowledge.query(answer)
    answer.query, answer.result = result.query, result.result
    for name in ("searched",):  # what the query looked for, where the version keeps it
        if hasattr(result, name):
            setattr(answer, name, getattr(result, name))
    return knowledge_report(agent.spec, answer, result.result)


def turn_costs(agent: Agent, named: dict[str, tuple[int, str]], repeat: int,
               server: Callable[[], float] | None) -> dict[str, Any]:
    """Each message is new to the process when measured: names found in a message are cached."""
    understood = {}
    parse_times: list[float] = []
    for party in range(2, 2 + repeat):
        for label, row_id, message in bookings(named, party):
            started = time.process_time()
            statements = agent.parser.parse(agent.spec, agent.state, message, TODAY).statements
            parse_times.append((time.process_time() - started) * 1000)
            understood[label] = understood.get(label, "yes") if _names_row(statements, row_id) else \
                f"no: {statements!r}"[:200]
    questions = [q.format(**{k: v[1] for k, v in named.items()}) for q in SEARCHES]
    search_times = [t for opening in OPENINGS[:repeat] for q in questions
                    for t in cpu_ms(lambda: search(agent, opening + q), 1)]
    long_times = [t for opening in OPENINGS[:repeat] for t in cpu_ms(lambda: search(agent, opening + long_search(named)), 1)]
    figures: dict[str, Any] = {"understood": understood, "parse_ms": statistics.median(parse_times),
                               "search_ms": statistics.median(search_times),
                               "long_search_ms": statistics.median(long_times)}
    if server is not None:  # the PostgreSQL backend's CPU per call, averaged (its clock ticks are 10 ms)
        calls = 50
        before = server()
        for party in range(calls):
            agent.parser.parse(agent.spec, agent.state, bookings(named, 100 + party)[-1][2], TODAY)
        parsed = server()
        for i in range(calls):
            search(agent, f"{OPENINGS[i % len(OPENINGS)]}{questions[i % len(questions)]} {'please ' * (i // 10)}")
        searched = server()
        figures["server_ms"] = {"parse": round((parsed - before) * 1000 / calls, 2),
                                "search": round((searched - parsed) * 1000 / calls, 2)}
    return figures


# -- databases -------------------------------------------------------------------------------------------
@contextmanager
def knowledge_database(kind: str, workdir: Path) -> Iterator[str]:
    """The URL of an empty knowledge database of ``kind`` (a PostgreSQL schema of its own, dropped after)."""
    if kind == "sqlite":
        yield f"sqlite:///{workdir / 'knowledge.sqlite3'}"
        return
    from sqlalchemy import create_engine, text

    schema = f"genie_bench_{uuid.uuid4().hex[:10]}"
    admin = create_engine(POSTGRES_URL.replace("postgresql://", "postgresql+psycopg://", 1))
    with admin.begin() as conn:
        conn.execute(text(f"CREATE SCHEMA {schema}"))
    try:
        yield f"{POSTGRES_URL}?options=-csearch_path%3D{schema}"
    finally:
        with admin.begin() as conn:
            conn.execute(text(f"DROP SCHEMA {schema} CASCADE"))
        admin.dispose()


def backend_seconds(agent: Agent) -> Callable[[], float] | None:
    """CPU seconds so far of the PostgreSQL backend serving ``agent``'s knowledge store, if it has one."""
    from tests.benchmarks.cpu import process_seconds

    engine = getattr(getattr(agent.knowledge, "store", None), "engine", None)
    if engine is None or engine.dialect.name != "postgresql":
        return None
    with engine.connect() as conn:  # the pool hands the same connection back while the benchmark runs
        pid = conn.exec_driver_sql("SELECT pg_backend_pid()").scalar()
    return lambda: process_seconds(pid) or 0.0


# -- the whole run -------------------------------------------------------------------------------------
def measure(rows: int, workdir: Path, url: str, repeat: int, turns: int) -> SizeFigures:
    agent_dir = scaled_agent(rows, workdir / f"restaurants_{rows}")
    named = probes(agent_dir, rows)
    env = {**os.environ, KNOWLEDGE_URL_ENV: url, "GENIE_DATA_DIR": str(workdir / "data")}
    message = bookings(named)[4][2]  # the last row, by its name
    figures = SizeFigures(rows)
    figures.first_start = process_cost(agent_dir, message, env)
    runs = [process_cost(agent_dir, message, env) for _ in range(repeat)]
    figures.start = {"cpu_s": min(r["cpu_s"] for r in runs), "peak_mib": statistics.median(r["peak_mib"] for r in runs)}
    os.environ[KNOWLEDGE_URL_ENV] = url
    agent = build(agent_dir)
    figures.build_ms = round(agent.build_ms, 1)
    costs = turn_costs(agent, named, turns, backend_seconds(agent))
    figures.understood = costs["understood"]
    figures.parse_ms, figures.search_ms = round(costs["parse_ms"], 2), round(costs["search_ms"], 2)
    figures.long_search_ms = round(costs["long_search_ms"], 2)
    figures.server_ms = costs.get("server_ms", {})
    return figures


def quick_failures(figures: list[SizeFigures]) -> list[str]:
    """What the quick mode fails on: a row not understood by its exact name, or a ratio over its limit."""
    problems = [f"{f.rows} rows: the {where} row was not understood by its name ({said})"
                for f in figures for where, said in f.understood.items() if "typo" not in where and said != "yes"]
    small, large = figures[0], figures[-1]
    measured = {"start_cpu": (small.start["cpu_s"], large.start["cpu_s"]),
                "start_peak_mib": (small.start["peak_mib"], large.start["peak_mib"]),
                "parse_ms": (small.parse_ms, large.parse_ms), "search_ms": (small.search_ms, large.search_ms)}
    for name, (low, high) in measured.items():
        ratio = high / low if low else float("inf")
        if ratio > QUICK_LIMITS[name]:
            problems.append(f"{name}: {high} at {large.rows} rows is {ratio:.2f}x {low} at {small.rows} rows "
                            f"(at most {QUICK_LIMITS[name]}x)")
    return problems


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--sizes", default="300,3000,30000,300000")
    parser.add_argument("--database", choices=("sqlite", "postgres"), default="sqlite")
    parser.add_argument("--repeat", type=int, default=3, help="start-ups measured per size (the best counts)")
    parser.add_argument("--turns", type=int, default=len(OPENINGS), help="times each message is measured (new each time)")
    parser.add_argument("--json", type=Path)
    parser.add_argument("--quick", action="store_true", help=f"sizes {QUICK_SIZES}, ratios checked")
    args = parser.parse_args(argv)
    sizes = QUICK_SIZES if args.quick else tuple(int(s) for s in args.sizes.split(","))
    results = []
    with tempfile.TemporaryDirectory(prefix="genie-knowledge-") as tmp, \
            knowledge_database(args.database, Path(tmp)) as url:
        for rows in sizes:
            figures = measure(rows, Path(tmp), url, args.repeat, min(args.turns, len(OPENINGS)))
            results.append(figures)
            print(json.dumps(asdict(figures)), flush=True)
    if args.json:
        args.json.write_text(json.dumps([asdict(f) for f in results], indent=2) + "\n", encoding="utf-8")
    problems = quick_failures(results) if args.quick else []
    for problem in problems:
        print(f"knowledge_scale: {problem}", file=sys.stderr)
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main())
