"""The scheduler's jobs: close idle sessions, expire confirmations, remind, purge old traces.

Each job takes ``now`` (default: the engine's clock), so tests drive them with a fake clock.
Work on a session holds the same lock and lease as a turn; a session busy elsewhere is
skipped and picked up by the job's next run.
"""

from __future__ import annotations

import datetime as dt
from collections import defaultdict
from collections.abc import Callable
from functools import partial
from typing import Any, Protocol, TypeVar

from ..config import Config
from ..parse import Parse
from ..state import DialogueState
from ..store import inbox as events
from ..store import pending as actions
from ..store import Database, engines, sessions, traces
from ..store.pending import ActionStatus
from .agents import AgentRegistry
from .types import Reply, SessionKey

T = TypeVar("T")

EXPIRED_NOTICE = ("The confirmation for “{title}” expired, so I did not do it. "
                  "If you still want it, tell me and I'll ask you again.")


class EngineServices(Protocol):
    """What the jobs use of the :class:`~genie_bot.engine.Engine` that runs them."""

    id: str
    config: Config
    db: Database
    registry: AgentRegistry
    clock: Callable[[], dt.datetime]

    async def in_db(self, fn: Callable[..., T], *args: Any) -> T: ...

    async def with_session(self, key: str, work: Callable[[Any], T], wait: bool) -> T | None: ...

    async def notify(self, session_key: SessionKey, reply: Reply, reason: str, *, event_id: str | None = None,
                     part: int = 0) -> bool: ...


class Maintenance:
    def __init__(self, engine: EngineServices):
        self.engine = engine

    def _now(self, now: dt.datetime | None) -> dt.datetime:
        return now or self.engine.clock()

    async def close_idle_sessions(self, now: dt.datetime | None = None) -> int:
        minutes = self.engine.config.scheduler.idle_session_minutes
        if minutes is None:
            return 0
        before = self._now(now) - dt.timedelta(minutes=minutes)

        def find() -> list[str]:
            with self.engine.db.read() as conn:
                return sessions.idle(conn, before)

        closed = 0
        for key in await self.engine.in_db(find):
            closed += await self.close_session(key, "idle", wait=False, idle_before=before, now=now)
        return closed

    async def close_session(self, key: str, reason: str, wait: bool, idle_before: dt.datetime | None = None,
                            now: dt.datetime | None = None) -> bool:
        """Forget a session's state and cancel its open confirmations (reset, or idle expiry)."""
        now = self._now(now)

        def close(conn) -> bool:
            session = sessions.load(conn, key)
            if session is None or (idle_before is not None and not (session.state and session.updated_at < idle_before)):
                return False
            sessions.close(conn, key, now)
            status, why = (ActionStatus.CANCELLED, "the conversation was reset") if reason == "reset" else \
                (ActionStatus.EXPIRED, "the conversation was closed after being idle")
            for action in actions.of_session(conn, key):
                actions.transition(conn, action.id, (ActionStatus.PENDING,), status, now, reason=why)
            actions.forget_interrupted(conn, key, now)
            return True

        closed = bool(await self.engine.with_session(key, close, wait=wait))
        message = self.engine.config.scheduler.closing_message
        if closed and reason == "idle" and message:
            await self.engine.notify(SessionKey.parse(key), Reply(message), "closed")
        return closed

    async def expire_pending_actions(self, now: dt.datetime | None = None) -> int:
        now = self._now(now)

        def find() -> dict[str, list[str]]:
            with self.engine.db.read() as conn:
                due = actions.due(conn, now)
            by_session = defaultdict(list)
            for action in due:
                by_session[action.session_key].append(action.id)
            return by_session

        expired = 0
        for key, ids in (await self.engine.in_db(find)).items():
            titles = await self.engine.with_session(key, partial(self._expire, key=key, ids=ids, now=now),
                                                    wait=False) or []
            for title in titles:
                await self.engine.notify(SessionKey.parse(key), Reply(EXPIRED_NOTICE.format(title=title)), "expired")
            expired += len(titles)
        return expired

    def _expire(self, conn, key: str, ids: list[str], now: dt.datetime) -> list[str]:
        session = sessions.load(conn, key)
        titles = []
        for action_id in ids:
            action = actions.get(conn, action_id)
            if action and action.expires_at <= now and \
                    actions.transition(conn, action_id, (ActionStatus.PENDING,), ActionStatus.EXPIRED, now,
                                       reason="it expired"):
                titles.append(self._title(session.agent if session else None, action.worksheet))
        return titles

    def _title(self, agent: str | None, worksheet: str) -> str:
        try:
            ws = self.engine.registry.get(agent).spec.tasks.get(worksheet) if agent else None
        except KeyError:
            ws = None
        return ws.description if ws and ws.description else worksheet.replace("_", " ")

    async def send_reminders(self, now: dt.datetime | None = None) -> int:
        settings = self.engine.config.scheduler
        if settings.reminder_after_minutes is None:
            return 0
        now = self._now(now)
        before = now - dt.timedelta(minutes=settings.reminder_after_minutes)

        def find() -> list[str]:
            with self.engine.db.read() as conn:
                return sessions.awaiting_reminder(conn, before)

        sent = 0
        for key in await self.engine.in_db(find):
            text = await self.engine.with_session(key, partial(self._reminder, key=key, before=before, now=now),
                                                  wait=False)
            if text:
                await self.engine.notify(SessionKey.parse(key), Reply(text), "reminder")
                sent += 1
        return sent

    def _reminder(self, conn, key: str, before: dt.datetime, now: dt.datetime) -> str | None:
        """The reminder for a session whose last turn asked the user something, if it still waits."""
        session = sessions.load(conn, key)
        if session is None or session.state is None or session.updated_at >= before:
            return None
        sessions.mark_reminded(conn, key, now)
        state = DialogueState.from_json(session.state)
        question = next((a for a in reversed(state.last_acts) if a.is_question), None)
        if question is None:
            return None
        loaded = self.engine.registry.get(session.agent)
        asked = loaded.agent.responder.respond(loaded.spec, state, [question], "", Parse(""))
        return f"{self.engine.config.scheduler.reminder_message}\n\n{asked}"

    async def purge(self, now: dt.datetime | None = None) -> dict[str, int]:
        """Delete turn traces, finished events and actions, and engines not seen, older than the retention period."""
        before = self._now(now) - dt.timedelta(days=self.engine.config.scheduler.retention_days)

        def purge() -> dict[str, int]:
            with self.engine.db.write() as conn:
                return {"turns": traces.purge(conn, before), "events": events.purge(conn, before),
                        "pending_actions": actions.purge(conn, before), "engines": engines.purge(conn, before, keep=self.engine.id)}

        return await self.engine.in_db(purge)
