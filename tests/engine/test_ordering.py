"""Per-session order: reordered and duplicated deliveries are applied once, in sequence order."""

from __future__ import annotations

import asyncio

from genie_bot.store import Database, traces

from .support import KEY, ORDER, make_engine, run


def turn_events(url: str) -> list[str]:
    db = Database(url)
    with db.read() as conn:
        rows = traces.for_session(conn, str(KEY))
    db.dispose()
    return [t.event_id for t in rows]


def test_messages_delivered_out_of_order_within_the_window_run_in_sequence_order(store_url, shop):
    async def deliver(engine, index: int, delay: float):
        await asyncio.sleep(delay)
        return await engine.handle_message(KEY, "U1", ORDER[index], f"m{index}", sequence=index + 1)

    async def scenario():
        async with make_engine(store_url, shop, ordering_window_ms=1000) as engine:
            return await asyncio.gather(deliver(engine, 2, 0.0), deliver(engine, 0, 0.05), deliver(engine, 1, 0.1),
                                        deliver(engine, 0, 0.12))

    third, first, second, duplicate = run(scenario())
    assert turn_events(store_url) == ["m0", "m1", "m2"]
    assert "How many?" in first[0].text and "name for the order" in second[0].text
    assert third[0].pending_action is not None
    assert sorted(map(len, (first, duplicate))) == [0, 1]


def test_a_message_arriving_after_a_later_one_ran_is_applied_next(store_url, shop):
    async def scenario():
        async with make_engine(store_url, shop) as engine:
            later = await engine.handle_message(KEY, "U1", ORDER[1], "m1", sequence=2)
            earlier = await engine.handle_message(KEY, "U1", ORDER[0], "m0", sequence=1)
            return later, earlier

    later, earlier = run(scenario())
    assert turn_events(store_url) == ["m1", "m0"]
    assert "What is the dish?" in later[0].text and "name for the order" in earlier[0].text


def test_sessions_do_not_wait_for_each_other(store_url, shop):
    from genie_bot.engine import SessionKey

    async def scenario():
        async with make_engine(store_url, shop, ordering_window_ms=500) as engine:
            keys = [SessionKey("slack", "T1", "C1", f"thread-{i}") for i in range(20)]
            started = asyncio.get_running_loop().time()
            await asyncio.gather(*(engine.handle_message(k, "U1", ORDER[0], f"m-{k.thread}") for k in keys))
            return asyncio.get_running_loop().time() - started

    assert run(scenario()) < 5.0  # 20 sessions waiting 0.5 s each side by side, not one after the other
