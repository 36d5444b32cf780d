"""Commands for building an agent: ``validate``, ``schema``, ``replay``, ``bench`` and ``test``.

``validate`` and ``schema`` need the spec loader alone; the others import the agent (parsers, knowledge tables)
when they run (see :mod:`genie_bot.cli`).
"""

from __future__ import annotations

import argparse
import datetime as dt
import sys
from pathlib import Path
from typing import TYPE_CHECKING, Any

from ..spec import check_agent, reference
from ..spec.csv_file import csv_problems
from .common import clock_for, load_spec
from .llm_options import add_llm_arguments, llm_settings

if TYPE_CHECKING:
    from ..state import DialogueState


def register(commands: argparse._SubParsersAction) -> None:
    validate = commands.add_parser("validate", help="check an agent's worksheets and report every problem")
    validate.add_argument("agent_dir", type=Path)
    validate.set_defaults(handler=_validate)

    schema = commands.add_parser("schema", help="print the JSON Schema of agent.yaml (for an editor's YAML language "
                                                "server), or the worksheet reference")
    schema.add_argument("--markdown", action="store_true", help="print the worksheet reference as markdown instead")
    schema.set_defaults(handler=_schema)

    replay_command = commands.add_parser("replay", help="replay a recorded conversation (JSON lines)")
    replay_command.add_argument("agent_dir", type=Path)
    replay_command.add_argument("trace", type=Path)
    replay_command.add_argument("--parser", choices=["recorded", "rules", "llm"], default="recorded",
                                help="recorded: apply each line's parse; rules: parse each line's user text "
                                     "offline; llm: parse it with the configured LLM")
    replay_command.add_argument("--out", type=Path, help="write the replayed turns here (default: stdout)")
    replay_command.add_argument("--today", type=dt.date.fromisoformat, help="the date the conversation happens on")
    add_llm_arguments(replay_command)
    replay_command.set_defaults(handler=_replay)

    bench = commands.add_parser("bench", help="measure the per-turn cost of interpreter + policy")
    bench.add_argument("agent_dir", type=Path)
    bench.add_argument("--trace", type=Path, help="recorded trace (default: AGENT_DIR/tests/bench.jsonl)")
    bench.add_argument("--repeat", type=int, default=200)
    bench.set_defaults(handler=_bench)

    test = commands.add_parser("test", help="run an agent's conversation tests (AGENT_DIR/tests/*.yaml)")
    test.add_argument("agent_dir", type=Path)
    test.add_argument("--parser", choices=["rules"], default="rules")
    test.add_argument("-v", "--verbose", action="store_true", help="print each scenario's transcript")
    test.add_argument("--real-apis", action="store_true",
                      help="call side-effecting API functions that a scenario does not stub (default: such a call fails)")
    test.set_defaults(handler=_test)


def _validate(args: argparse.Namespace) -> int:
    spec, errors = check_agent(args.agent_dir)
    problems = [str(e) for e in errors]
    if spec is not None:  # every row of every table, as its import will read them (agents load only headers)
        problems += [str(p) for kb in spec.knowledge.values() for p in csv_problems(kb)]
    for problem in problems:
        print(problem)
    if problems or spec is None:
        print(f"{len(problems)} problem{'' if len(problems) == 1 else 's'} found")
        return 1
    print(f"ok: {spec.summary()}")
    return 0


def _schema(args: argparse.Namespace) -> int:
    sys.stdout.write(reference.markdown() if args.markdown else reference.schema_text())
    return 0


def _replay(args: argparse.Namespace) -> int:
    from ..agent import Agent, LLMNotConfigured, llm_parser_for_replay
    from ..replay import Parser, read_trace, recorded_parser, replay
    from ..runtime import LocalApiExecutor, Runtime
    from ..runtime.isolation import sandboxed
    from ..runtime.sandbox import Sandbox

    spec = load_spec(args.agent_dir)
    parser: Parser
    if args.parser == "llm":
        try:
            parser = llm_parser_for_replay(spec, llm_settings(args), today=args.today)
        except LLMNotConfigured as exc:
            print(exc, file=sys.stderr)
            return 1
        runtime = Runtime(spec, LocalApiExecutor(spec, knowledge=parser.knowledge), clock=clock_for(args.today))
    else:
        agent = Agent(spec, clock=clock_for(args.today))
        runtime, parser = agent.runtime, recorded_parser
        if args.parser == "rules":
            def parser(state: DialogueState, line: dict[str, Any]) -> str:
                return agent.parser.parse(spec, state, line.get("user", ""), agent.runtime.clock().date()).statements
    try:
        lines = read_trace(args.trace)
    except (OSError, ValueError) as exc:
        print(exc, file=sys.stderr)
        return 1
    out = args.out.open("w", encoding="utf-8") if args.out else sys.stdout
    failures = 0
    try:
        with sandboxed(Sandbox()):  # the bot's limits: a turn it would park is not applied here either
            for turn in replay(runtime, lines, parser):
                failures += bool(turn.errors)
                out.write(turn.to_json() + "\n")
    finally:
        if args.out:
            out.close()
    if failures:
        print(f"{failures} turn(s) had errors", file=sys.stderr)
    return 0


def _bench(args: argparse.Namespace) -> int:
    from ..bench import DEFAULT_TRACE, bench_offline, bench_runtime

    spec = load_spec(args.agent_dir)
    trace = args.trace or args.agent_dir / DEFAULT_TRACE
    if not trace.is_file():
        print(f"genie-bot bench: no recorded trace at {trace}; record one (genie-bot replay --out) and pass "
              f"--trace FILE", file=sys.stderr)
        return 2
    figures = bench_runtime(spec, trace, args.repeat)
    print(f"agent: {spec.summary()}")
    for line in figures.lines():
        print(line)
    parse, turn = bench_offline(spec, trace, max(1, args.repeat // 4))
    print(f"rule-based parse per utterance: median {parse.median_ms:.3f} ms, p90 {parse.p90_ms:.3f} ms, "
          f"p99 {parse.p99_ms:.3f} ms")
    print(f"whole offline turn (parse + runtime + templated reply): median {turn.median_ms:.3f} ms, "
          f"p90 {turn.p90_ms:.3f} ms, p99 {turn.p99_ms:.3f} ms")
    return 0


def _test(args: argparse.Namespace) -> int:
    from ..agent import Agent
    from ..scenarios import run_scenario, scenario_files

    spec = load_spec(args.agent_dir)
    files = scenario_files(args.agent_dir)
    if not files:
        print(f"no conversation tests in {args.agent_dir / 'tests'}", file=sys.stderr)
        return 1
    failed = 0
    for path in files:
        result = run_scenario(lambda clock: Agent(spec, clock=clock), path, real_apis=args.real_apis)
        print(f"{'PASS' if result.passed else 'FAIL'}  {path.name}: {result.name}")
        for problem in result.invalid:
            print(f"  {problem}")
        if args.verbose or not result.passed:
            for user, reply in result.transcript:
                print(f"    user: {user}\n    bot:  " + reply.replace("\n", "\n          "))
        for failure in result.failures:
            print("  " + str(failure).replace("\n", "\n  "))
        failed += not result.passed
    print(f"{len(files) - failed} passed, {failed} failed")
    return 1 if failed else 0

