"""What a dead process leaves is picked up by the others: its replies and its accepted events.

An adapter that acknowledges deliveries (Slack, Discord) calls ``engine.delivered`` once it
has posted a turn's replies. A process killed between its commit and that call leaves the
replies in the outbox; a surviving or restarted process posts them as notifications, once.
A message a process recorded (and Slack saw acknowledged) but never ran is run by another.
A process on another host counts as dead once it stopped or its heartbeat row went stale.
"""

from __future__ import annotations

import asyncio
import datetime as dt
import subprocess
import sys
from collections.abc import Iterator
from contextlib import contextmanager

from genie_bot.engine import Engine
from genie_bot.engine.engine import utcnow
from genie_bot.engine.identity import HOST, dead_among
from genie_bot.engine.outbox import HAND_OFF_GRACE
from genie_bot.store import Database, engines
from genie_bot.store import inbox as events

from .support import KEY, ORDER, FakeClock, build_agent, make_config, make_engine, run
from .test_recovery import dead_engine_id

ELSEWHERE = "another-host:4242:a1b2c3d4"
"""An engine id of a process on another host: only its heartbeat row tells whether it lives."""


@contextmanager
def mortal_engine_id() -> Iterator[str]:
    """The id of an engine process on this host that lives during the block and is dead after it
    (so a survivor running meanwhile adopts nothing of it too early)."""
    process = subprocess.Popen([sys.executable, "-c", "import time; time.sleep(600)"])
    try:
        yield f"{HOST}:{process.pid}:mortal"
    finally:
        process.kill()
        process.wait()


def dead_process_turns(store_url, shop, acknowledges: bool, engine_id: str | None = None) -> list[str]:
    """Two turns run by a process that then 'dies': the first reply posted, the second not."""
    if engine_id is None:
        with mortal_engine_id() as mortal:
            return dead_process_turns(store_url, shop, acknowledges, mortal)
    engine = Engine(make_config(store_url, shop), build_agent=build_agent, engine_id=engine_id)

    async def ignore(notification):
        pass

    async def turns():
        engine.add_sink("slack", ignore, acknowledges)
        async with engine:
            posted = await engine.handle_message(KEY, "U1", ORDER[0], "m0")
            await engine.delivered(KEY, "m0")
            lost = await engine.handle_message(KEY, "U1", ORDER[1], "m1")
        return [posted[0].text, lost[0].text]

    return run(turns())


def survivor_notes(store_url, shop, **settings) -> tuple[list, int]:
    notes = []

    async def sink(notification):
        notes.append(notification)

    async def survive():
        engine = make_engine(store_url, shop, **settings)
        engine.add_sink("slack", sink, acknowledges=True)
        async with engine:
            return await engine.redeliver()

    return notes, run(survive())


async def out_of_the_outbox(store_url, notes) -> None:
    """Until the survivor has taken the events it posted out of the outbox (after their last part)."""
    while not all(await asyncio.to_thread(lambda: [event_state(store_url, n.event_id)[1] for n in notes])):
        await asyncio.sleep(0.01)


def test_a_restarted_process_posts_the_replies_a_dead_one_never_posted_once(store_url, shop):
    posted, lost = dead_process_turns(store_url, shop, acknowledges=True)
    notes, again = survivor_notes(store_url, shop)
    assert [(n.session_key, n.reply.text, n.reason) for n in notes] == [(KEY, lost, "recovered")]
    assert again == 0  # start-up recovery already posted it; nothing is left
    assert survivor_notes(store_url, shop)[0] == []


def test_replies_of_platforms_without_acknowledgements_count_as_delivered_when_committed(store_url, shop):
    dead_process_turns(store_url, shop, acknowledges=False)
    assert survivor_notes(store_url, shop)[0] == []


def running_survivor(store_url, shop, meanwhile) -> tuple[list, object]:
    """A survivor with a short lease (a heartbeat every 0.1 s) runs while ``meanwhile()`` (another
    'process', with the default lease) runs in a thread; returns the first notification the
    survivor posted (and any posted with it), and what ``meanwhile`` returned."""
    notes = []
    posted = asyncio.Event()

    async def sink(notification):
        notes.append(notification)
        posted.set()

    async def scenario():
        survivor = make_engine(store_url, shop, lease_seconds=0.3)
        survivor.add_sink("slack", sink, acknowledges=True)
        async with survivor:
            result = await asyncio.to_thread(meanwhile)
            await asyncio.wait_for(posted.wait(), timeout=120)  # its next heartbeats; long only on failure
            await asyncio.wait_for(out_of_the_outbox(store_url, notes), timeout=120)
        return result

    result = run(scenario())
    return notes, result


def test_a_running_survivor_picks_up_lost_replies_at_its_heartbeat(store_url, shop):
    notes, lost = running_survivor(store_url, shop, lambda: dead_process_turns(store_url, shop, True))
    assert [(n.reply.text, n.event_id, n.part) for n in notes] == [(lost[1], "m1", 0)]


def test_a_message_a_dead_process_recorded_but_never_ran_is_run_and_answered_by_a_survivor(store_url, shop):
    def record_then_die():
        engine = Engine(make_config(store_url, shop), build_agent=build_agent, engine_id=dead_engine_id())

        async def accept():
            async with engine:  # acknowledged to Slack from here on; the process dies before running it
                return await engine.accept_message(KEY, "U1", ORDER[0], "m0")

        return run(accept())

    notes, accepted = running_survivor(store_url, shop, record_then_die)
    assert accepted is not None
    assert [(n.session_key, n.event_id, n.reason) for n in notes] == [(KEY, "m0", "recovered")]
    assert notes[0].reply.text.startswith("Hi! Orders food.")
    assert event_state(store_url, "m0") == ("done", True)  # run once, and out of the outbox


def test_an_engine_on_another_host_is_dead_once_its_heartbeat_is_stale_or_gone(store_url):
    db = Database(store_url)
    now = utcnow()
    with db.write() as conn:
        engines.beat(db, conn, "another-host:1:fresh", now)
        engines.beat(db, conn, "another-host:1:stale", now - dt.timedelta(minutes=5))
        dead = dead_among(conn, ["another-host:1:fresh", "another-host:1:stale", "another-host:1:gone", "me:1:x"],
                          "me:1:x", now - dt.timedelta(minutes=1))
    db.dispose()
    assert dead == ["another-host:1:gone", "another-host:1:stale"]


def test_replies_a_stopped_process_on_another_host_never_posted_are_posted_by_a_survivor(store_url, shop):
    notes, lost = running_survivor(store_url, shop, lambda: dead_process_turns(store_url, shop, True, ELSEWHERE))
    assert [(n.reply.text, n.event_id) for n in notes] == [(lost[1], "m1")]


def test_a_live_process_on_this_host_is_alive_however_long_ago_it_beat(store_url):
    """Its lease may be longer than the observer's (it beats less often); presumed dead, its replies
    would be posted twice. It is dead once its pid is gone, or once it stopped (its row deleted)."""
    db = Database(store_url)
    now = utcnow()
    with mortal_engine_id() as mortal, mortal_engine_id() as stopped:
        with db.write() as conn:
            engines.beat(db, conn, mortal, now - dt.timedelta(minutes=5))
            assert dead_among(conn, [mortal, stopped], "me:1:x", now - dt.timedelta(seconds=1)) == [stopped]
    with db.write() as conn:
        assert dead_among(conn, [mortal], "me:1:x", now - dt.timedelta(seconds=1)) == [mortal]
    db.dispose()


def event_state(store_url, event_id) -> tuple[str, bool]:
    """(status, posted) of a Slack event."""
    db = Database(store_url)
    with db.read() as conn:
        status, _ = events.outcome(conn, ("slack", event_id))
        undelivered = [row.pk for row in events.undelivered_of(conn, events.undelivered_owners(conn))]
    db.dispose()
    return status, ("slack", event_id) not in undelivered


class FlakySink:
    """An adapter whose platform is down until ``up`` is set."""

    def __init__(self) -> None:
        self.up = False
        self.posted: list = []
        self.tries = 0

    async def __call__(self, notification) -> None:
        self.tries += 1
        if not self.up:
            raise ConnectionError("the platform is down")
        self.posted.append(notification)


def test_a_reply_the_adapter_could_not_post_is_posted_again_by_the_live_process_with_backoff(store_url, shop):
    clock, sink = FakeClock(), FlakySink()

    async def scenario():
        engine = make_engine(store_url, shop, clock=clock)
        engine.add_sink("slack", sink, acknowledges=True)
        async with engine:
            [reply] = await engine.replies_of(await engine.accept_message(KEY, "U1", ORDER[0], "m0"))
            await engine.delivery_failed(KEY, "m0")  # e.g. Slack kept answering 429
            sent = [await engine.redeliver()]  # not yet: the first retry waits 5 s
            clock.advance(seconds=5)
            sent.append(await engine.redeliver())  # tried: the platform is still down
            clock.advance(seconds=5)
            sent.append(await engine.redeliver())  # not yet: the second retry waits 10 s
            sink.up = True
            clock.advance(seconds=5)
            sent.append(await engine.redeliver())
            clock.advance(minutes=10)
            sent.append(await engine.redeliver())
            return reply, sent

    reply, sent = run(scenario())
    assert sent == [0, 0, 0, 1, 0] and sink.tries == 2
    assert [(n.reply.text, n.event_id, n.reason) for n in sink.posted] == [(reply.text, "m0", "recovered")]
    assert event_state(store_url, "m0") == ("done", True)


def test_a_reply_handed_to_an_adapter_that_never_answers_is_posted_after_a_grace(store_url, shop):
    clock, sink = FakeClock(), FlakySink()
    sink.up = True

    async def scenario():
        engine = make_engine(store_url, shop, clock=clock)
        engine.add_sink("slack", sink, acknowledges=True)
        async with engine:
            await engine.replies_of(await engine.accept_message(KEY, "U1", ORDER[0], "m0"))  # its task then died
            clock.advance(seconds=HAND_OFF_GRACE.total_seconds() - 1)
            early = await engine.redeliver()  # it may still be posting (paced, rate limited)
            clock.advance(seconds=1)
            return early, await engine.redeliver(), await engine.redeliver()

    assert run(scenario()) == (0, 1, 0)
    assert [n.event_id for n in sink.posted] == ["m0"]
