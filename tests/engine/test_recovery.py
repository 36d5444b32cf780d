"""Start-up after a crash: what a dead process left behind is detected and reported, never re-run."""

from __future__ import annotations

import datetime as dt
import subprocess
import sys

from sqlalchemy import update

from genie_bot.engine.engine import utcnow
from genie_bot.engine.identity import HOST
from genie_bot.store import Database, sessions
from genie_bot.store import inbox as events
from genie_bot.store import pending as actions
from genie_bot.store.schema import events as events_table
from genie_bot.store.schema import pending_actions, sessions as sessions_table

from .support import KEY, ORDER, calls, make_engine, run


def dead_engine_id() -> str:
    """The id an engine process on this host had, whose process has ended since."""
    process = subprocess.Popen([sys.executable, "-c", "pass"])
    process.wait()
    return f"{HOST}:{process.pid}:dead"


def test_an_action_left_executing_by_a_dead_process_is_reported_at_start_up(store_url, shop):
    dead = dead_engine_id()

    async def before_the_crash():
        async with make_engine(store_url, shop) as engine:
            for i, text in enumerate(ORDER):
                asked = await engine.handle_message(KEY, "U1", text, f"m{i}")
            return asked[0].pending_action.id

    action_id = run(before_the_crash())
    # What a process killed during the confirmed call leaves: the click's event running,
    # the action executing, the session leased, all by the dead process.
    db = Database(store_url)
    with db.write() as conn:
        conn.execute(events_table.insert().values(
            platform="slack", event_id="click", session_key=str(KEY), kind="action", user_id="U1",
            action_id=action_id, decision="confirm", sequence=10**15, status="running", attempts=1,
            accepted_by=dead, received_at=utcnow()))
        conn.execute(update(pending_actions).values(status="executing", executed_by=dead))
        conn.execute(update(sessions_table).values(lease_owner=dead, lease_until=utcnow() + dt.timedelta(hours=1)))

    notes = []

    async def restart():
        engine = make_engine(store_url, shop)

        async def sink(notification):
            notes.append(notification)

        engine.add_sink("slack", sink)
        async with engine:
            return await engine.status()

    status = run(restart())
    assert [n.reason for n in notes] == ["recovered"]
    assert notes[0].reply.text.startswith(f"I was interrupted while running place_order (reference {action_id})")
    assert status.pending_actions == {"interrupted": 1} and calls() == []
    with db.read() as conn:
        assert events.outcome(conn, ("slack", "click"))[0] == "failed"
        assert sessions.load(conn, str(KEY)).lease_owner is None
        assert actions.get(conn, action_id).reason == "the process running it stopped during the call"
    db.dispose()
