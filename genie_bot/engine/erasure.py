"""Erasing what the engine keeps of a workspace: its sessions with their events, turn traces and
pending actions. A Slack workspace that uninstalls the app (or that an operator removes) has its
data erased when the deployment says so (``platforms.slack.oauth.uninstalled_sessions: purge``)."""

from __future__ import annotations

from sqlalchemy import Connection

from ..store import inbox, pending, sessions, traces


def erase_session(conn: Connection, key: str) -> bool:
    """Forget session ``key`` entirely, in the transaction of ``conn``; whether it was there."""
    for erase in (inbox.erase_session, traces.erase_session, pending.erase_session):
        erase(conn, key)
    return sessions.erase(conn, key) > 0


def erase_workspace(conn: Connection, platform: str, workspace: str) -> int:
    """Forget every session of ``workspace`` in one transaction (for a command run beside the
    deployment: a turn running meanwhile cannot commit, its session being gone); returns how many."""
    keys = sessions.keys_of_workspace(conn, platform, workspace)
    for key in keys:
        erase_session(conn, key)
    return len(keys)
