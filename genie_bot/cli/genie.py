"""Commands for teams moving from the reference Genie: ``import-csv``, ``import-json``, ``compare-genie``."""

from __future__ import annotations

import argparse
import datetime as dt
import json
import sys
from pathlib import Path
from typing import TYPE_CHECKING

from ..csv_import import import_genie_csv, write_agent
from ..json_import import import_genie_json
from .common import clock_for, load_spec

if TYPE_CHECKING:
    from ..genie_compat.compare import SessionComparison


def register(commands: argparse._SubParsersAction) -> None:
    for command, layout, reader in (("import-csv", "CSV spreadsheet", import_genie_csv),
                                    ("import-json", "JSON spec", import_genie_json)):
        importer = commands.add_parser(command, help=f"convert a Genie Worksheets {layout} into agent.yaml, with an "
                                                     "api.py skeleton beside it")
        importer.add_argument("spec", type=Path)
        importer.add_argument("-o", "--output", type=Path, required=True, help="the agent.yaml to write")
        importer.set_defaults(handler=_import, reader=reader)

    compare = commands.add_parser(
        "compare-genie", help="replay reference Genie conversation logs through an agent and compare what it does")
    compare.add_argument("agent_dir", type=Path)
    compare.add_argument("logs", type=Path, nargs="+",
                         help="conversation.json files, or directories searched for them")
    compare.add_argument("--json", action="store_true", help="print the comparison as JSON")
    compare.add_argument("--match-fields", type=lambda text: set(filter(None, text.split(","))),
                         help="compare only these fields of the final API call's arguments (e.g. course_name)")
    compare.add_argument("--today", type=dt.date.fromisoformat, help="the date the conversations happen on")
    compare.set_defaults(handler=_compare)


def _import(args: argparse.Namespace) -> int:
    try:
        warnings = write_agent(args.reader(args.spec), args.output)
    except (OSError, ValueError) as exc:
        print(f"{args.spec}: {exc}", file=sys.stderr)
        return 1
    for warning in warnings:
        print(warning, file=sys.stderr)
    print(f"wrote {args.output}" + (f" ({len(warnings)} warning(s))" if warnings else ""))
    return 0


def _compare(args: argparse.Namespace) -> int:
    from ..genie_compat.compare import compare_log, log_files, to_json_dict, totals
    from ..genie_compat.log import GenieLogError

    spec = load_spec(args.agent_dir)
    paths = log_files(args.logs)
    if not paths:
        print("no conversation.json found", file=sys.stderr)
        return 1
    sessions = []
    for path in paths:
        try:
            sessions.append(compare_log(spec, path, clock_for(args.today), args.match_fields))
        except (OSError, GenieLogError) as exc:
            print(exc, file=sys.stderr)
            return 1
    summary = totals(sessions)
    if args.json:
        print(json.dumps({"sessions": [to_json_dict(s) for s in sessions], "totals": vars(summary)},
                         ensure_ascii=False, indent=1, default=str))
        return 0
    for session in sessions:
        _print_session(session)
    print("\n".join(summary.lines()))
    return 0


def _print_session(session: SessionComparison) -> None:
    print(f"== {session.log}")
    for turn in session.turns:
        mark = "same" if turn.same_question else "same up to nesting" if turn.same_up_to_nesting else "DIFF"
        line = f"  #{turn.index:<3} {mark:<4}  reference: {turn.reference or 'no question'}"
        if not turn.same_question:
            line += f" | genie-bot: {turn.ours or 'no question'}"
        if not turn.same_reports:
            line += (f" | reports differ (answer {turn.reference_answered}/{turn.ours_answered}, "
                     f"API call {turn.reference_api}/{turn.ours_api})")
        for error in turn.errors:
            line += f" | refused: {error}"
        print(line)
    call = session.reference_call or session.our_call
    if call is None:
        print("  final API call: none in either")
    elif session.same_call:
        print(f"  final API call: same ({call['function']})")
    else:
        made = f"reference {'called' if session.reference_call else 'did not call'}, " \
               f"genie-bot {'called' if session.our_call else 'did not call'}"
        print(f"  final API call: DIFF ({made}) " + "; ".join(session.call_differences))
