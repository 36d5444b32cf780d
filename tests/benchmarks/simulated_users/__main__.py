"""Command line of the simulated-user benchmark: figures per agent, failure transcripts on request."""

from __future__ import annotations

import argparse
import datetime as dt
import json
from pathlib import Path

from .run import OUTCOMES, AgentFigures, UserRun, simulate

WORKSHEETS = Path(__file__).resolve().parents[3] / "worksheets"
FAILURE_ORDER = ("wrong submission", "crashed", "stalled", "abandoned")


def agent_dir(name_or_path: str) -> Path:
    """An agent directory: a path holding an agent.yaml, else the example agent of that name."""
    path = Path(name_or_path)
    if (path / "agent.yaml").is_file():
        return path
    if (WORKSHEETS / name_or_path / "agent.yaml").is_file():
        return WORKSHEETS / name_or_path
    raise argparse.ArgumentTypeError(f"no agent.yaml in {name_or_path} nor in {WORKSHEETS / name_or_path}")


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m tests.benchmarks.simulated_users", description=__doc__)
    parser.add_argument("--agents", nargs="+", type=agent_dir, metavar="AGENT",
                        default=[agent_dir(n) for n in ("ticket_submission", "course_enrollment", "restaurant_reservation")],
                        help="example agents by name (worksheets/NAME) or agent directories by path")
    parser.add_argument("--users", type=int, default=100, help="simulated users per agent")
    parser.add_argument("--seed", type=int, default=7)
    parser.add_argument("--today", type=dt.date.fromisoformat, default=None,
                        help="the date the conversations happen on (default: the real date)")
    parser.add_argument("--json", type=Path, help="write the figures and every user's outcome here")
    parser.add_argument("--show-failures", type=int, default=0, metavar="N",
                        help="print the transcripts of N failures per agent")
    args = parser.parse_args(argv)
    today = args.today or dt.date.today()
    results = [simulate(path, args.users, args.seed, today) for path in args.agents]
    print(f"simulated users: {args.users} per agent, seed {args.seed}, today {today.isoformat()}")
    print(f"{'agent':<24} {'success':>8} {'wrong':>6} {'stalled':>8} {'abandoned':>10} {'crashed':>8} "
          f"{'turns':>6} {'turns(ok)':>10} {'near-wrong':>11} {'silent':>7}")
    for figures in results:
        s = figures.summary()
        ok_turns = "-" if s["mean_turns_success"] is None else f"{s['mean_turns_success']:.1f}"
        print(f"{figures.agent:<24} {s['success_pct']:>7.1f}% {s['wrong_submission']:>6} {s['stalled']:>8} "
              f"{s['abandoned']:>10} {s['crashed']:>8} {s['mean_turns']:>6.1f} {ok_turns:>10} "
              f"{s['near_wrong_summaries']:>11} {s['silent_turns']:>7}")
    print("near-wrong: summaries shown holding a value the user never said; silent: messages in a task that "
          "changed nothing and got no word about them (definitions: tests/benchmarks/simulated_users/measures.py)")
    for figures in results:
        _print_failures(figures, args.show_failures)
    if args.json:
        args.json.write_text(json.dumps({"seed": args.seed, "users": args.users, "today": today.isoformat(),
                                         "agents": [_as_json(f) for f in results]}, indent=2, default=str))
    return 0


def _print_failures(figures: AgentFigures, count: int) -> None:
    failures = sorted((r for r in figures.runs if r.outcome != "success"),
                      key=lambda r: (FAILURE_ORDER.index(r.outcome), r.number))[:count]
    for run in failures:
        print(f"\n=== {figures.agent} user {run.number}: {run.outcome} ({run.detail})")
        print(f"goal: {_goal_text(run)}")
        for line in run.transcript:
            if line.user:
                print(f"  user:  {line.user}")
            print("  agent: " + line.agent.replace("\n", "\n         "))
            print(f"         acts: {', '.join(line.acts) or '-'}")
            for note in line.notes:
                print(f"         !! {note}")


def _goal_text(run: UserRun) -> str:
    return ", ".join(f"{'.'.join(path)}={_short(value)}" for path, value in run.goal.leaves())


def _short(value: object) -> str:
    from .goals import TableRow
    return f"{value.table}:{value.key}" if isinstance(value, TableRow) else str(value)


def _as_json(figures: AgentFigures) -> dict[str, object]:
    return {**figures.summary(), "outcomes_order": list(OUTCOMES),
            "runs": [{"user": r.number, "outcome": r.outcome, "detail": r.detail, "turns": r.turns,
                      "goal": _goal_text(r), "silent_turns": r.silent,
                      "near_wrong_summaries": [{"turn": t, "values": [str(u) for u in unsaid]} for t, unsaid in r.near_wrong]}
                     for r in figures.runs]}


if __name__ == "__main__":
    raise SystemExit(main())
