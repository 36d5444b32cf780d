"""The ``genie-bot`` command line."""

from __future__ import annotations

import argparse
import datetime as dt
import sys
from collections.abc import Sequence
from pathlib import Path

from .spec import check_agent


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="genie-bot", description=__doc__)
    commands = parser.add_subparsers(dest="command", required=True)

    validate = commands.add_parser("validate", help="check an agent's worksheets and report every problem")
    validate.add_argument("agent_dir", type=Path)
    validate.set_defaults(handler=_validate)

    replay = commands.add_parser("replay", help="replay a recorded conversation (JSON lines)")
    replay.add_argument("agent_dir", type=Path)
    replay.add_argument("trace", type=Path)
    replay.add_argument("--parser", choices=["recorded"], default="recorded")
    replay.add_argument("--out", type=Path, help="write the replayed turns here (default: stdout)")
    replay.add_argument("--today", type=dt.date.fromisoformat, help="the date the conversation happens on")
    replay.set_defaults(handler=_replay)

    bench = commands.add_parser("bench", help="measure the per-turn cost of interpreter + policy")
    bench.add_argument("agent_dir", type=Path)
    bench.add_argument("--trace", type=Path, help="recorded trace (default: AGENT_DIR/tests/bench.jsonl)")
    bench.add_argument("--repeat", type=int, default=200)
    bench.set_defaults(handler=_bench)

    args = parser.parse_args(argv)
    return args.handler(args)


def _validate(args: argparse.Namespace) -> int:
    spec, errors = check_agent(args.agent_dir)
    for error in errors:
        print(error)
    if errors:
        print(f"{len(errors)} problem(s) found", file=sys.stderr)
        return 1
    print(f"ok: {spec.summary()}")
    return 0


def _load(agent_dir: Path):
    spec, errors = check_agent(agent_dir)
    if errors:
        for error in errors:
            print(error, file=sys.stderr)
        raise SystemExit(1)
    return spec


def _replay(args: argparse.Namespace) -> int:
    from .replay import read_trace, replay
    from .runtime import Runtime

    spec = _load(args.agent_dir)
    clock = (lambda: dt.datetime.combine(args.today, dt.time(12))) if args.today else dt.datetime.now
    try:
        lines = read_trace(args.trace)
    except (OSError, ValueError) as exc:
        print(exc, file=sys.stderr)
        return 1
    out = args.out.open("w", encoding="utf-8") if args.out else sys.stdout
    failures = 0
    try:
        for turn in replay(Runtime(spec, clock=clock), lines):
            failures += bool(turn.errors)
            out.write(turn.to_json() + "\n")
    finally:
        if args.out:
            out.close()
    if failures:
        print(f"{failures} turn(s) had errors", file=sys.stderr)
    return 0


def _bench(args: argparse.Namespace) -> int:
    from .bench import DEFAULT_TRACE, bench_runtime

    spec = _load(args.agent_dir)
    trace = args.trace or args.agent_dir / DEFAULT_TRACE
    figures = bench_runtime(spec, trace, args.repeat)
    print(f"agent: {spec.summary()}")
    for line in figures.lines():
        print(line)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
