"""Where the console reads sessions: an engine database (the console's own, or a deployment's).

Reading only: sessions, their turn traces and pending actions, through the store's queries.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import Any

from ..config import ConfirmationSettings, LlmConfig
from ..engine import PendingActionView
from ..engine.agents import AgentRegistry, LoadedAgent
from ..engine.confirmations import view_of
from ..store import Database
from ..store import pending as actions
from ..store import sessions, traces
from ..store.pending import ActionStatus, PendingRow
from ..store.sessions import SessionRow
from ..store.traces import TraceRow
from .inspection import TurnCapture
from .views import session_summary, session_view

LIST_LIMIT = 200


def loaded_agents(registry: AgentRegistry) -> Callable[[str], LoadedAgent | None]:
    """A registry's agents by name; None for a name it does not serve (an agent since removed)."""
    return lambda name: registry.get(name) if name in registry.configs else None


@dataclass
class SessionRecord:
    row: SessionRow
    traces: list[TraceRow]
    actions: list[PendingRow]


@dataclass
class SessionSource:
    """An engine database, how its sessions are shown (content or not), and what the console
    captured of the turns it ran itself."""

    db: Database
    agents: Callable[[str], LoadedAgent | None]
    """The loaded agent of a name, for confirmation cards and scenario exports (None if unknown)."""
    confirmation: ConfirmationSettings
    llm: LlmConfig
    include_content: bool
    captures: Mapping[str, TurnCapture] = field(default_factory=dict)
    """By event id: the console's own turns."""

    def listing(self, limit: int = LIST_LIMIT, *, platform: str | None = None, workspace: str | None = None
                ) -> list[dict[str, Any]]:
        """The sessions, most recently active first: all, or those of a platform, of a workspace there."""
        with self.db.read() as conn:
            return [session_summary(row) for row in sessions.listing(conn, limit=limit, platform=platform,
                                                                     workspace=workspace)]

    def workspaces(self) -> list[dict[str, Any]]:
        """Every workspace (Slack team, Discord server...) with sessions, and how many, to filter the list by."""
        with self.db.read() as conn:
            return [{"platform": platform, "workspace": workspace, "sessions": count}
                    for platform, workspace, count in sessions.workspaces(conn)]

    def record(self, key: str) -> SessionRecord | None:
        with self.db.read() as conn:
            row = sessions.load(conn, key)
            if row is None:
                return None
            return SessionRecord(row, traces.for_session(conn, key), actions.of_session(conn, key, tuple(ActionStatus)))

    def view(self, key: str) -> dict[str, Any] | None:
        record = self.record(key)
        if record is None:
            return None
        return session_view(record.row, record.traces, record.actions, cards=self.card, captures=self.captures,
                            include_content=self.include_content, llm=self.llm)

    def card(self, row: SessionRow, action: PendingRow) -> PendingActionView | None:
        loaded = self.agents(row.agent)
        return view_of(action, loaded, self.confirmation) if loaded is not None else None
