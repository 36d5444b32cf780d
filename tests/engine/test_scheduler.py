"""The scheduler's jobs, driven directly with a fake clock, and their APScheduler wiring."""

from __future__ import annotations

import datetime as dt

from sqlalchemy import text

from genie_bot.engine import scheduler
from genie_bot.engine import Decision
from genie_bot.store import Database, sessions, traces
from genie_bot.store import pending as actions

from .support import KEY, ORDER, FakeClock, make_engine, run


def engine_with_sink(url, shop, clock, **settings):
    engine = make_engine(url, shop, clock=clock, **settings)
    notes = []

    async def sink(notification):
        notes.append(notification)

    engine.add_sink("slack", sink)
    return engine, notes


async def fill(engine, count: int = 3):
    for i, text_ in enumerate(ORDER[:count]):
        replies = await engine.handle_message(KEY, "U1", text_, f"fill-{i}")
    return replies


def test_idle_sessions_are_closed_with_a_closing_message(store_url, shop):
    clock = FakeClock()
    engine, notes = engine_with_sink(store_url, shop, clock, idle_session_minutes=60, closing_message="Bye for now.")

    async def scenario():
        async with engine:
            asked = await fill(engine)
            clock.advance(minutes=59)
            early = await engine.maintenance.close_idle_sessions()
            clock.advance(minutes=2)
            closed = await engine.maintenance.close_idle_sessions()
            again = await engine.handle_message(KEY, "U1", "# hello again", "m-again")
            click = await engine.handle_action(KEY, "U1", asked[0].pending_action.id, Decision.CONFIRM, "c1")
            return early, closed, click, again

    early, closed, click, again = run(scenario())
    assert (early, closed) == (0, 1)
    assert [(n.session_key, n.reply.text, n.reason) for n in notes] == [(KEY, "Bye for now.", "closed")]
    assert click[0].text.startswith("That confirmation is no longer valid (the conversation was closed after being idle)")
    assert again[0].text.startswith("Hi! Orders food.")


def test_expired_confirmations_are_closed_and_the_user_is_told(store_url, shop):
    clock = FakeClock()
    engine, notes = engine_with_sink(store_url, shop, clock, expires_after_minutes=10)

    async def scenario():
        async with engine:
            await fill(engine)
            clock.advance(minutes=9)
            early = await engine.maintenance.expire_pending_actions()
            clock.advance(minutes=2)
            return early, await engine.maintenance.expire_pending_actions(), await engine.status()

    early, expired, status = run(scenario())
    assert (early, expired) == (0, 1) and status.pending_actions == {"expired": 1}
    assert notes[0].reason == "expired" and "“order food” expired" in notes[0].reply.text


def test_reminders_are_sent_once_per_wait(store_url, shop):
    clock = FakeClock()
    engine, notes = engine_with_sink(store_url, shop, clock, reminder_after_minutes=30)

    async def scenario():
        async with engine:
            await fill(engine, 1)
            clock.advance(minutes=31)
            first = await engine.maintenance.send_reminders()
            second = await engine.maintenance.send_reminders()
            await engine.handle_message(KEY, "U1", ORDER[1], "m2")
            clock.advance(minutes=31)
            return first, second, await engine.maintenance.send_reminders()

    assert run(scenario()) == (1, 0, 1)
    assert [n.reason for n in notes] == ["reminder", "reminder"]
    assert notes[0].reply.text.startswith("Just checking in: I'm still waiting for your answer.\n\n")
    assert "How many?" in notes[0].reply.text
    assert "name for the order" in notes[1].reply.text


def test_old_traces_and_event_ids_are_purged(store_url, shop):
    clock = FakeClock()
    engine, _ = engine_with_sink(store_url, shop, clock, retention_days=7)

    async def scenario():
        async with engine:
            await fill(engine, 2)
            clock.advance(days=8)
            await engine.handle_message(KEY, "U1", ORDER[2], "fresh")
            purged = await engine.maintenance.purge()
            again = await engine.handle_message(KEY, "U1", "# the first message, delivered again", "fill-0")
            return purged, again

    purged, again = run(scenario())
    assert purged == {"turns": 2, "events": 2, "pending_actions": 0, "engines": 0}
    assert again != []  # past the retention period an event id counts as new
    db = Database(store_url)
    with db.read() as conn:
        assert [t.event_id for t in traces.for_session(conn, str(KEY))] == ["fresh", "fill-0"]
    db.dispose()


def test_jobs_skip_a_session_another_process_is_working_on(store_url, shop):
    clock = FakeClock()
    engine, notes = engine_with_sink(store_url, shop, clock, idle_session_minutes=1)

    async def scenario():
        async with engine:
            await fill(engine, 1)
            clock.advance(minutes=5)
            with engine.db.write() as conn:
                sessions.acquire(conn, str(KEY), "elsewhere:1:x", clock(), clock() + dt.timedelta(minutes=1))
            skipped = await engine.maintenance.close_idle_sessions()
            clock.advance(minutes=2)  # the other process died: its lease expires
            return skipped, await engine.maintenance.close_idle_sessions()

    assert run(scenario()) == (0, 1)


def test_the_scheduler_persists_its_jobs_and_runs_them_on_the_engine(store_url, shop):
    clock = FakeClock()
    engine, notes = engine_with_sink(store_url, shop, clock, reminder_after_minutes=5, expires_after_minutes=1)

    async def scenario():
        async with engine:
            running = scheduler.start_scheduler(engine)
            try:
                jobs = sorted(job.id for job in running.get_jobs())
                await fill(engine)
                clock.advance(minutes=2)
                await scheduler.expire_pending_actions()
            finally:
                running.shutdown(wait=False)
                scheduler.attach(None)
            with engine.db.read() as conn:
                stored = sorted(conn.scalars(text(f"SELECT id FROM {scheduler.JOB_TABLE}")))
                statuses = [a.status for a in actions.of_session(conn, str(KEY), actions.FINAL)]
            return jobs, stored, statuses

    jobs, stored, statuses = run(scenario())
    expected = ["close_idle_sessions", "expire_pending_actions", "purge_traces", "send_reminders"]
    assert jobs == stored == expected
    assert statuses == ["expired"] and notes[0].reason == "expired"
