"""The reply outbox: replies a process committed but never posted are posted by another one.

An adapter that acknowledges deliveries (Slack, Discord) calls ``engine.delivered`` once it
has posted a turn's replies. A process killed between its commit and that call leaves the
replies in the outbox; a surviving or restarted process posts them as notifications, once.
"""

from __future__ import annotations

import asyncio

from genie_bot.engine import Engine

from .support import KEY, ORDER, build_agent, make_config, make_engine, run
from .test_recovery import dead_engine_id


def dead_process_turns(store_url, shop, acknowledges: bool) -> list[str]:
    """Two turns run by a process that then 'dies': the first reply posted, the second not."""
    engine = Engine(make_config(store_url, shop), build_agent=build_agent, engine_id=dead_engine_id())

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


def test_a_restarted_process_posts_the_replies_a_dead_one_never_posted_once(store_url, shop):
    posted, lost = dead_process_turns(store_url, shop, acknowledges=True)
    notes, again = survivor_notes(store_url, shop)
    assert [(n.session_key, n.reply.text, n.reason) for n in notes] == [(KEY, lost, "recovered")]
    assert again == 0  # start-up recovery already posted it; nothing is left
    assert survivor_notes(store_url, shop)[0] == []


def test_replies_of_platforms_without_acknowledgements_count_as_delivered_when_committed(store_url, shop):
    dead_process_turns(store_url, shop, acknowledges=False)
    assert survivor_notes(store_url, shop)[0] == []


def test_a_running_survivor_picks_up_lost_replies_at_its_heartbeat(store_url, shop):
    notes = []

    async def sink(notification):
        notes.append(notification)

    async def scenario():
        survivor = make_engine(store_url, shop, lease_seconds=0.3)
        survivor.add_sink("slack", sink, acknowledges=True)
        async with survivor:
            lost = await asyncio.to_thread(dead_process_turns, store_url, shop, True)
            for _ in range(50):
                if notes:
                    break
                await asyncio.sleep(0.05)
        return lost

    lost = run(scenario())
    assert [n.reply.text for n in notes] == [lost[1]]
