"""The engine's public, platform-neutral data: session keys, replies, notifications, reports."""

from __future__ import annotations

import datetime as dt
import enum
import json
from dataclasses import asdict, dataclass, field
from typing import Any
from urllib.parse import quote, unquote


@dataclass(frozen=True)
class SessionKey:
    """One conversation: a thread of a channel (``thread=""`` for a channel or DM without threads)."""

    platform: str
    workspace: str
    channel: str
    thread: str = ""

    @property
    def parts(self) -> tuple[str, str, str, str]:
        return self.platform, self.workspace, self.channel, self.thread

    def __str__(self) -> str:
        return "/".join(quote(part, safe="") for part in self.parts)

    @classmethod
    def parse(cls, text: str) -> "SessionKey":
        parts = [unquote(p) for p in text.split("/")]
        if len(parts) != 4:
            raise ValueError(f"not a session key: {text!r}")
        return cls(*parts)


class Decision(str, enum.Enum):
    """The answer a Confirm or Cancel button gives to a pending action."""

    CONFIRM = "confirm"
    CANCEL = "cancel"


class ClickOutcome(str, enum.Enum):
    """What a Confirm or Cancel click came to, so adapters update the summary message correctly."""

    DONE = "done"
    """Confirmed: the action ran (its result is in the reply)."""
    CANCELLED = "cancelled"
    STALE = "stale"
    """Expired, invalidated or interrupted: nothing ran; ``outcome_detail`` says why."""
    REFUSED = "refused"
    """Changed nothing: not the owner's click, an action already finished, or an unknown one."""
    FAILED = "failed"
    """The turn failed and changed nothing; the buttons may be tried again."""
    ERROR = "error"
    """Confirmed, and the call was made but failed: nothing was done; ``outcome_detail`` says why."""
    DEFERRED = "deferred"
    """Recorded, but it could not run or be saved yet (the store is away): it runs once it can and its
    outcome is posted then; nothing is settled meanwhile."""


@dataclass(frozen=True)
class PendingActionView:
    """A side-effecting action waiting for the user, to render as a summary with two buttons."""

    id: str
    title: str
    summary: list[tuple[str, str]]
    """(label, value) lines of what will be submitted."""
    confirm_label: str = "Confirm"
    cancel_label: str = "Cancel"
    destructive: bool = False
    expires_at: dt.datetime | None = None


@dataclass(frozen=True)
class Reply:
    """One message to post: markdown text, and optionally a pending action to render as buttons."""

    text: str
    pending_action: PendingActionView | None = None
    outcome: ClickOutcome | None = None
    """Set on the reply to a Confirm/Cancel click (and on refusals and apologies)."""
    outcome_detail: str | None = None

    def to_dict(self) -> dict[str, Any]:
        data = asdict(self)
        data["outcome"] = self.outcome.value if self.outcome else None
        if self.pending_action and self.pending_action.expires_at:
            data["pending_action"]["expires_at"] = self.pending_action.expires_at.isoformat()
        return data

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> "Reply":
        outcome = ClickOutcome(data["outcome"]) if data.get("outcome") else None
        view = data.get("pending_action")
        if view is not None:
            expires = view.get("expires_at")
            view = PendingActionView(
                id=view["id"], title=view["title"], summary=[tuple(line) for line in view["summary"]],
                confirm_label=view["confirm_label"], cancel_label=view["cancel_label"],
                destructive=view["destructive"], expires_at=dt.datetime.fromisoformat(expires) if expires else None)
        return cls(data["text"], view, outcome, data.get("outcome_detail"))


def replies_to_json(replies: list[Reply]) -> str:
    return json.dumps([r.to_dict() for r in replies], ensure_ascii=False)


def replies_from_json(text: str | None) -> list[Reply]:
    return [Reply.from_dict(d) for d in json.loads(text or "[]")]


@dataclass(frozen=True)
class Notification:
    """A message the engine sends on its own: a closing message, an expiry, a reminder, a recovery."""

    session_key: SessionKey
    reply: Reply
    reason: str  # closed | expired | reminder | recovered | interrupted
    event_id: str | None = None
    """For a recovered reply: the event it answers, so an adapter can tell whether a process that
    died after posting it (but before acknowledging it) already did."""
    part: int = 0
    """For a recovered reply: its place among the replies of ``event_id``."""


@dataclass(frozen=True)
class Accepted:
    """An event recorded in its session's inbox: from now on it runs even if this process dies
    (another process runs it and posts its replies as notifications)."""

    session_key: SessionKey
    event_id: str

    @property
    def pk(self) -> tuple[str, str]:
        return self.session_key.platform, self.event_id


@dataclass
class ReloadReport:
    ok: bool
    errors: list[str] = field(default_factory=list)
    """Every problem as ``file:line:col: message``; when not ok, the running versions stay."""
    versions: dict[str, tuple[str, str]] = field(default_factory=dict)
    """agent -> (version before, version now)."""
    sessions_to_migrate: dict[str, int] = field(default_factory=dict)
    """agent -> live sessions on an older version; each is migrated on its next turn."""
    data_changed: dict[str, list[str]] = field(default_factory=dict)
    """agent -> its data files (CSV tables, documents) whose content changed, added or gone."""

    def lines(self) -> list[str]:
        if not self.ok:
            return ["reload failed; the running versions keep serving:", *self.errors]
        return [f"{name}: {old} -> {new}" + (f" ({self._changed(name)}{self.sessions_to_migrate.get(name, 0)} live "
                                             f"session(s) migrate on their next turn)" if old != new else " (unchanged)")
                for name, (old, new) in self.versions.items()]

    def _changed(self, agent: str) -> str:
        files = self.data_changed.get(agent)
        return f"new data in {', '.join(files)}; " if files else ""


@dataclass
class EngineStatus:
    instance: str
    database: str
    schema_revision: str | None
    agents: dict[str, str]
    """agent -> spec version serving new turns."""
    live_sessions: int
    sessions_by_version: dict[str, int]
    events: dict[str, int]
    pending_actions: dict[str, int]
    turns_run: int
    sessions_migrated: int
    uptime_seconds: float
