"""Does a turn cost more when users wait? The load test's bot CPU per turn under a light and a saturating load.

``python -m tests.benchmarks.load_growth [--small 20] [--large 200] [--limit 1.3] [--think-ms 3000]``

Runs the load test (:mod:`.loadtest`) twice with one bot process: ``--small`` users (a few
turns a second: nobody waits) and ``--large`` users (more than one process answers, so replies
queue), and compares the bot's CPU per turn once warm (``bot_cpu_ms_per_turn_warm``). CPU time,
not wall time, so a busy machine slows both runs without changing the ratio much. It fails when
the large run's figure exceeds ``--limit`` times the small one's (what grows with the backlog:
queries over everything waiting, retries, polling), or when either run loses, duplicates or
fails to finish anything the load test checks, or a user of either run gets no ticket.
``.ci/run`` runs it with the defaults.
"""

from __future__ import annotations

import argparse
import json
import sys
from typing import Any

from tests.conftest import POSTGRES_URL

from .loadtest import Options, run, verdict


def measure(options: Options, users: int) -> dict[str, Any]:
    report = run(Options(**{**vars(options), "users": users}), 1, kill=False)
    report["problems"] = verdict(report)
    if report["tickets"] != users:
        report["problems"].append(f"{report['tickets']} tickets for {users} users")
    return report


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--small", type=int, default=20)
    parser.add_argument("--large", type=int, default=200)
    parser.add_argument("--limit", type=float, default=1.3)
    parser.add_argument("--think-ms", type=float, default=3000)
    parser.add_argument("--ramp-s", type=float, default=10)
    parser.add_argument("--url", default=POSTGRES_URL)
    args = parser.parse_args(argv)
    options = Options(users=0, llm_ms=200, think_s=args.think_ms / 1000, ramp_s=args.ramp_s, channels=20,
                      duplicate_share=0.1, double_click_share=0.05, seed=1, base_url=args.url, turn_threads=64)
    reports = {size: measure(options, size) for size in (args.small, args.large)}
    small, large = (reports[size]["bot_cpu_ms_per_turn_warm"] for size in (args.small, args.large))
    ratio = large / small if small and large else float("inf")
    for size, report in reports.items():
        print(json.dumps({"users": size, **{k: report.get(k) for k in (
            "turns_per_second", "replies", "tickets", "reply_ms", "ack_ms", "bot_cpu_ms_per_turn",
            "bot_cpu_ms_per_turn_warm", "cpu_seconds", "machine_busy_share", "problems")}}, default=str))
    problems = [f"{size} users: {p}" for size, report in reports.items() for p in report["problems"]]
    if ratio > args.limit:
        problems.append(f"a turn costs {ratio:.2f}x the bot CPU with {args.large} users than with {args.small} "
                        f"(limit {args.limit}x)")
    print(f"load_growth: bot CPU per turn {small} ms with {args.small} users, {large} ms with {args.large}: "
          f"{ratio:.2f}x (limit {args.limit}x)")
    for problem in problems:
        print(f"load_growth: {problem}", file=sys.stderr)
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main())
