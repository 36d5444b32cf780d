"""The ``/genie`` admin commands, once for every platform.

Adapters parse their platform's slash command into (subcommand, argument) and post the text
this returns ephemerally. Permission rules live here so Slack and Discord cannot drift:
``reload``, ``status`` and ``state`` need an admin (configured per platform or per workspace,
or a platform admin such as a Slack workspace admin or a Discord member with Manage Server);
``agents`` is open to everyone; ``reset`` is open to the session's owner and to admins.

A deployment may serve many workspaces (``workspaces`` in genie.yaml): ``agents`` lists those of
the caller's workspace, and an admin of one workspace only (not under ``admins.<platform>``)
reloads only the agents of that workspace.
"""

from __future__ import annotations

import json
from dataclasses import dataclass

from ..store import sessions as session_rows
from .engine import Engine
from .types import ReloadReport, SessionKey

SUBCOMMANDS = {
    "reload": "reload [agent] - load the worksheets again (admins)",
    "status": "status - the engine's health and counters (admins)",
    "agents": "agents - which agents are served, and which one answers here",
    "reset": "reset - start this conversation over",
    "state": "state - this conversation's dialogue state (admins)",
}
ADMIN_ONLY = frozenset({"reload", "status", "state"})
NOT_SERVED = "Sorry, I am not available here (this workspace is not served)."


@dataclass(frozen=True)
class Caller:
    platform: str
    user_id: str
    platform_admin: bool = False
    """Granted by the platform itself (workspace admin, Manage Server), if the config allows it."""


def usage() -> str:
    return "Usage: /genie " + " | ".join(SUBCOMMANDS) + "\n" + "\n".join(f"• {line}" for line in SUBCOMMANDS.values())


async def run_admin_command(engine: Engine, caller: Caller, session_key: SessionKey, command: str) -> str:
    """Run ``/genie <command>`` for ``caller`` in the conversation ``session_key``; return the reply text."""
    name, _, argument = command.strip().partition(" ")
    name, argument = name.lower(), argument.strip()
    if not engine.config.serves(session_key.platform, session_key.workspace):
        return NOT_SERVED
    if name not in SUBCOMMANDS:
        return usage() if name in ("", "help") else f"Unknown subcommand '{name}'.\n{usage()}"
    is_admin = caller.platform_admin or engine.config.is_admin(caller.platform, caller.user_id, session_key.workspace)
    if name in ADMIN_ONLY and not is_admin:
        return f"Sorry, only admins can use /genie {name}."
    if name == "reload":
        return await _reload(engine, caller, session_key.workspace, argument or None)
    if name == "status":
        return _status_text(await engine.status())
    if name == "agents":
        return await _agents_text(engine, session_key)
    row = await engine.in_db(_session_row, engine, session_key)
    if name == "reset":
        if row is not None and row.owner not in (None, caller.user_id) and not is_admin:
            return "Sorry, only the person who started this conversation (or an admin) can reset it."
        await engine.reset(session_key)
        return "Done: this conversation starts over with your next message."
    if row is None or row.state is None:
        return "This conversation has no state yet."
    state = json.dumps(json.loads(row.state), indent=2, ensure_ascii=False)
    return f"Agent `{row.agent}` (version {row.spec_version}), owner {row.owner}, {row.turns} turn(s):\n```\n{state}\n```"


async def _reload(engine: Engine, caller: Caller, workspace: str, agent: str | None) -> str:
    """Reload ``agent`` (or all): every agent for an admin of the whole platform, else only those of
    the caller's workspace."""
    config = engine.config
    mine = config.agents_of(caller.platform, workspace)
    if config.is_admin(caller.platform, caller.user_id) or len(mine) == len(config.agents):
        report = await engine.reload(agent)
    elif agent is not None and agent in config.agents and agent not in mine:
        return f"Sorry, agent '{agent}' does not serve this workspace, so you cannot reload it."
    elif agent is not None:
        report = await engine.reload(agent)
    else:
        report = ReloadReport(True)
        for name in mine:
            one = await engine.reload(name)
            report = ReloadReport(report.ok and one.ok, report.errors + one.errors,
                                  {**report.versions, **one.versions},
                                  {**report.sessions_to_migrate, **one.sessions_to_migrate},
                                  {**report.data_changed, **one.data_changed})
    return "\n".join(report.lines())


def _session_row(engine: Engine, key: SessionKey) -> session_rows.SessionRow | None:
    with engine.db.read() as conn:
        return session_rows.load(conn, str(key))


def _status_text(status) -> str:
    pending = ", ".join(f"{k} {v}" for k, v in sorted(status.pending_actions.items())) or "none"
    events = ", ".join(f"{k} {v}" for k, v in sorted(status.events.items())) or "none"
    agents = ", ".join(f"{name}@{version}" for name, version in sorted(status.agents.items()))
    return (f"instance {status.instance}, up {status.uptime_seconds:.0f}s, database {status.database} "
            f"(schema {status.schema_revision})\nagents: {agents}\nlive sessions: {status.live_sessions}; "
            f"turns run: {status.turns_run}; sessions migrated: {status.sessions_migrated}\n"
            f"events: {events}\npending actions: {pending}")


async def _agents_text(engine: Engine, key: SessionKey) -> str:
    status = await engine.status()
    here = engine.config.agent_for(key.platform, key.workspace, key.channel)
    served = set(engine.config.agents_of(key.platform, key.workspace))
    lines = [f"• {name} (version {version})" + (" - answers here" if name == here else "")
             for name, version in sorted(status.agents.items()) if name in served]
    return "Agents:\n" + "\n".join(lines)
