"""``genie-bot sessions list|show|export``: what operators read of the conversations in the database.

Reads the deployment's database (``--config genie.yaml``, else ``DATABASE_URL``) and changes nothing. ``show`` prints
every turn in full (message, statements, acts, reply, latencies, LLM use, errors): the
database keeps content for ``scheduler.retention_days``, whatever the log redacts.
``export`` writes replay traces (see :mod:`.export`).
"""

from __future__ import annotations

import argparse
import datetime as dt
import json
import re
import sys
from dataclasses import asdict
from pathlib import Path
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from ..store.traces import TraceRow

_RELATIVE = re.compile(r"^(\d+)([mhd])$")


def register(commands: argparse._SubParsersAction) -> None:
    group = commands.add_parser("sessions", help="list, show and export conversations from the database")
    sub = group.add_subparsers(dest="sessions_command", required=True)

    listing = sub.add_parser("list", help="sessions, most recently active first")
    _filters(listing)
    listing.add_argument("--limit", type=int, default=50)
    listing.set_defaults(handler=_list)

    show = sub.add_parser("show", help="a session's every turn: message, parse, acts, reply, latencies, errors")
    show.add_argument("key", help="the session key, as 'sessions list' prints it")
    show.add_argument("--json", action="store_true", help="one JSON object per turn")
    show.add_argument("--config", type=Path, help="the deployment's genie.yaml (default: DATABASE_URL)")
    show.set_defaults(handler=_show)

    export = sub.add_parser("export", help="write sessions as replay traces for 'genie-bot replay --parser recorded'")
    export.add_argument("key", nargs="?", help="the session to export (or --all)")
    export.add_argument("--all", action="store_true", help="every session matching the filters below")
    export.add_argument("--out", type=Path, required=True, help="directory for the .jsonl traces")
    _filters(export)
    export.set_defaults(handler=_export)


def _filters(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--config", type=Path, help="the deployment's genie.yaml (default: DATABASE_URL)")
    parser.add_argument("--agent", help="only this agent's sessions")
    parser.add_argument("--platform", help="only this platform's sessions (slack, discord...)")
    parser.add_argument("--workspace", help="only the sessions of this Slack workspace or Discord server (its id)")
    parser.add_argument("--since", type=since, help="active since: an ISO date or time (UTC), or 30m, 24h, 7d ago")


def since(text: str, now: dt.datetime | None = None) -> dt.datetime:
    """An ISO date/datetime (UTC), or a duration back from now: ``30m``, ``24h``, ``7d``."""
    match = _RELATIVE.match(text.strip())
    if match:
        unit = {"m": "minutes", "h": "hours", "d": "days"}[match[2]]
        now = now or dt.datetime.now(dt.timezone.utc).replace(tzinfo=None)
        return now - dt.timedelta(**{unit: int(match[1])})
    try:
        return dt.datetime.fromisoformat(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"'{text}' is neither an ISO date/time nor a duration like 24h") from None


def _list(args: argparse.Namespace) -> int:
    from ..store import sessions
    from .database import deployment_database

    with deployment_database(args.config) as db, db.read() as conn:
        rows = sessions.listing(conn, args.agent, args.since, args.limit, platform=args.platform,
                                workspace=args.workspace)
    print(f"{'updated (UTC)':19}  {'agent':12} {'status':7} {'turns':>5}  {'owner':12} key")
    for row in rows:
        live = "active" if row.state is not None else "closed"
        print(f"{row.updated_at:%Y-%m-%d %H:%M:%S}  {row.agent:12} {live:7} {row.turns:>5}  {row.owner or '-':12} "
              f"{row.key}")
    print(f"{len(rows)} session(s)", file=sys.stderr)
    return 0


def _show(args: argparse.Namespace) -> int:
    from ..store import pending as actions
    from ..store import sessions, traces
    from .database import deployment_database

    with deployment_database(args.config) as db, db.read() as conn:
        row = sessions.load(conn, args.key)
        turns = traces.for_session(conn, args.key)
        pending = actions.of_session(conn, args.key, tuple(actions.ActionStatus))
    if row is None:
        print(f"no session {args.key!r} (see: genie-bot sessions list)", file=sys.stderr)
        return 1
    if args.json:
        for turn in turns:
            print(json.dumps(asdict(turn), ensure_ascii=False, default=str))
        return 0
    print(f"session {row.key}\n  agent {row.agent} (version {row.spec_version}), "
          f"{'active' if row.state is not None else 'closed'}, owner {row.owner}, {row.turns} turn(s), "
          f"last active {row.updated_at:%Y-%m-%d %H:%M:%S} UTC")
    for action in pending:
        print(f"  action {action.id}: {action.api or action.worksheet} {action.status}"
              + (f" ({action.reason})" if action.reason else "") + (f" -> {action.result}" if action.result else ""))
    for turn in turns:
        print(_turn_text(turn))
    return 0


def _turn_text(turn: TraceRow) -> str:
    latency = ", ".join(f"{stage} {ms:.1f}" for stage, ms in turn.latencies.items())
    lines = [f"\n#{turn.turn or '-'} {turn.created_at:%Y-%m-%d %H:%M:%S} {turn.kind} by {turn.user_id} "
             f"[{turn.outcome}] event {turn.event_id}",
             f"  user:       {turn.message}",
             f"  statements: {_indented(turn.statements or '')}",
             f"  parse:      {turn.parse_source}",
             f"  acts:       {_indented(chr(10).join(turn.acts))}",
             f"  reply:      {_indented(turn.reply or '')}",
             f"  latency ms: {latency}",
             f"  llm:        {turn.llm_calls} call(s), {turn.prompt_tokens} prompt + {turn.completion_tokens} "
             f"completion tokens"]
    if turn.pending_action_id:
        lines.append(f"  asks to confirm: {turn.pending_action_id}")
    lines += [f"  error:      {error}" for error in turn.errors]
    return "\n".join(lines)


def _indented(text: str) -> str:
    return text.replace("\n", "\n              ")


def _export(args: argparse.Namespace) -> int:
    from ..observability.export import write_replay_trace
    from ..store import sessions, traces
    from .database import deployment_database

    if bool(args.key) == bool(args.all):
        print("give a session key or --all", file=sys.stderr)
        return 2
    written = 0
    with deployment_database(args.config) as db, db.read() as conn:
        keys = [args.key] if args.key else [r.key for r in sessions.listing(conn, args.agent, args.since,
                                                                            platform=args.platform,
                                                                            workspace=args.workspace)]
        for key in keys:
            path, lines = write_replay_trace(args.out, key, traces.for_session(conn, key))
            if not lines:
                path.unlink()
                print(f"{key}: no turn to export", file=sys.stderr)
                continue
            days = sorted({line["today"] for line in lines})
            print(f"{path}: {len(lines)} turn(s); replay: genie-bot replay AGENT_DIR {path} --parser recorded "
                  f"--today {days[0]}" + (f" (the conversation spans {', '.join(days)})" if len(days) > 1 else ""))
            written += 1
    return 0 if written else 1
