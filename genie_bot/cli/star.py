"""``genie-bot eval star``: the STAR benchmark from the command line."""

from __future__ import annotations

import argparse
import json
import logging
import sys
import time
from pathlib import Path
from typing import TYPE_CHECKING, Any

from ..errors import GenieError
from ..llm import LLMSettings
from ..spec import AgentSpec, SpecInvalid
from ..star import AGENTS_DIR
from .llm_options import add_llm_arguments, llm_settings

if TYPE_CHECKING:
    from ..parsers import Parser
    from ..star.evaluate import Evaluation, ParserFactory

TOP_ERRORS = 8


class LLMUnavailable(GenieError, RuntimeError):
    pass


def register(commands: Any) -> None:
    evaluation = commands.add_parser("eval", help="run a benchmark")
    benchmarks = evaluation.add_subparsers(dest="benchmark", required=True)
    star = benchmarks.add_parser("star", help="replay STAR dialogues and score the predicted system actions",
                                 description="Protocol and published figures: worksheets/star/README.md")
    star.add_argument("--data", type=Path, required=True, help="a STAR directory (dialogues/, apis/, tasks/)")
    star.add_argument("--ids", type=Path, help="only these dialogues: one id a line, or task<TAB>id")
    star.add_argument("--tasks", nargs="+", help="tasks to evaluate (default: every task with an agent)")
    star.add_argument("--parser", choices=["rules", "llm"], default="rules")
    star.add_argument("--out", type=Path, help="write the scores and every prediction here (JSON)")
    star.add_argument("--agents", type=Path, default=AGENTS_DIR, help="directory of the STAR agents")
    add_llm_arguments(star)
    star.set_defaults(handler=_eval_star)


def _eval_star(args: argparse.Namespace) -> int:
    from ..star.dialogues import read_ids
    from ..star.evaluate import evaluate, star_tasks
    from ..star.labels import LabelSpecError

    available = star_tasks(args.agents)
    tasks = args.tasks or available
    unknown = [t for t in tasks if t not in available]
    if unknown:
        print(f"no agent for {', '.join(unknown)} in {args.agents} (agents: {', '.join(available)})", file=sys.stderr)
        return 2
    # The policy logs every API call it could not make; in a replay that is the expected "not recorded yet".
    logging.getLogger("genie_bot.runtime.policy").setLevel(logging.ERROR)
    try:
        make_parser = _parser_factory(args.parser, llm_settings(args))
        started = time.perf_counter()
        result = evaluate(args.data, tasks, make_parser, read_ids(args.ids) if args.ids else None, args.agents)
    except (LLMUnavailable, LabelSpecError, SpecInvalid, OSError) as exc:
        print(exc, file=sys.stderr)
        return 1
    seconds = time.perf_counter() - started
    print(_table(result))
    print(f"({seconds:.1f} s, parser: {args.parser})")
    if args.out:
        args.out.write_text(json.dumps(_report(result, args), indent=1, ensure_ascii=False) + "\n", encoding="utf-8")
    return 0


def _parser_factory(kind: str, settings: LLMSettings) -> ParserFactory:
    from ..agent import agent_components
    from ..parsers import RuleParser

    if kind == "rules":
        return lambda spec: RuleParser()

    def make(spec: AgentSpec) -> Parser:
        components = agent_components(spec, settings)
        if components.offline:
            raise LLMUnavailable(f"--parser llm: {components.message}")
        return components.parser

    return make


def _table(result: Evaluation) -> str:
    lines = [f"{'task':<20} {'dialogues':>9} {'scored turns':>12} {'accuracy':>9} {'weighted F1':>12}"]
    for r in result.results:
        lines.append(f"{r.task:<20} {r.dialogues:>9} {r.score.turns:>12} {100 * r.score.accuracy:>9.1f} "
                     f"{100 * r.score.weighted_f1:>12.1f}")
    for r in result.results:
        if r.score.errors:
            lines.append(f"\nmost frequent errors, {r.task} (gold -> predicted: turns):")
            lines.extend(f"  {gold} -> {predicted}: {n}" for gold, predicted, n in r.score.errors[:TOP_ERRORS])
    return "\n".join(lines)


def _report(result: Evaluation, args: argparse.Namespace) -> dict[str, Any]:
    return {
        "benchmark": "STAR", "protocol": "worksheets/star/README.md", "data": str(args.data), "parser": args.parser,
        "ids": str(args.ids) if args.ids else None,
        "tasks": {r.task: {"dialogues": r.dialogues, **r.score.to_dict(TOP_ERRORS)} for r in result.results},
        "predictions": [p.to_dict() for p in result.predictions],
    }
