"""The outcome of a side effect survives a database blip right after the API ran.

Faults are injected at the driver (:mod:`.faults`): once the action is claimed
(``pending -> executing``, committed), the next statements fail as in an outage. The engine
must record what happened when the store is back, or tell the user exactly what is known;
never "Nothing was changed" after the API ran, never a second call for the same task.
"""

from __future__ import annotations

import pytest

from genie_bot.engine import Decision
from genie_bot.engine.turns import APOLOGY, RAN_UNSAVED
from genie_bot.store import Database
from genie_bot.store import pending as actions

from .faults import CLAIM, Outage, ServerKill
from .support import KEY, ORDER, calls, make_engine, prepare_database, run

FAST = (0.0, 0.0, 0.0)
"""Retry pauses for the tests: the faults below are counted in statements, not seconds."""


def action_rows(url: str) -> list[actions.PendingRow]:
    db = Database(url)
    with db.read() as conn:
        rows = actions.of_session(conn, str(KEY), tuple(actions.ActionStatus))
    db.dispose()
    return rows


async def ask(engine) -> str:
    for i, text in enumerate(ORDER):
        replies = await engine.handle_message(KEY, "U1", text, f"fill-{i}")
    return replies[0].pending_action.id


def fast(engine):
    engine.turns.record_retry_seconds = FAST
    return engine


def test_a_blip_after_the_call_is_outlasted_and_the_outcome_recorded(store_url, shop):
    async def scenario():
        async with make_engine(store_url, shop) as engine:
            action_id = await ask(fast(engine))
            outage = Outage(engine.db.engine, CLAIM, statements=2)
            done = await engine.handle_action(KEY, "U1", action_id, Decision.CONFIRM, "c1")
            again = await engine.handle_message(KEY, "U1", "order_0.confirmed = True", "yes-again")
            return outage.failed, done, again

    failed, done, again = run(scenario())
    assert failed == 2
    assert "Order Pizza-2-Ann placed" in done[0].text
    assert [a.status for a in action_rows(store_url)] == ["done"] and len(calls()) == 1
    assert len(calls()) == 1 and APOLOGY not in again[0].text


def test_an_outage_through_the_turn_is_outlasted_by_its_commit(store_url, shop):
    """The done write fails on every try; the turn goes on and its commit records it."""
    async def scenario():
        async with make_engine(store_url, shop) as engine:
            action_id = await ask(fast(engine))
            Outage(engine.db.engine, CLAIM, statements=len(FAST) + 1)  # every try of the gate's write
            return await engine.handle_action(KEY, "U1", action_id, Decision.CONFIRM, "c1")

    done = run(scenario())
    assert "Order Pizza-2-Ann placed" in done[0].text
    assert [a.status for a in action_rows(store_url)] == ["done"] and len(calls()) == 1


GATE_AND_COMMIT = 2 * (len(FAST) + 1)
"""Statements that fail while the gate tries to record the outcome, then the turn tries to commit."""


def test_a_longer_outage_tells_the_user_what_ran_and_nothing_runs_twice(store_url, shop):
    """The store is back only when the failed turn is recorded: the outcome is, the state is not."""
    async def scenario():
        async with make_engine(store_url, shop) as engine:
            action_id = await ask(fast(engine))
            Outage(engine.db.engine, CLAIM, statements=GATE_AND_COMMIT)
            failed = await engine.handle_action(KEY, "U1", action_id, Decision.CONFIRM, "c1")
            recorded = {a.id: a.status for a in action_rows(store_url)}
            changed = await engine.handle_message(KEY, "U1", "order_0.count = 3", "change")
            other = await engine.handle_action(KEY, "U1", changed[0].pending_action.id, Decision.CONFIRM, "c2")
            same = await engine.handle_message(KEY, "U1", "order_0.count = 2", "change-back")
            replayed = await engine.handle_message(KEY, "U1", "order_0.confirmed = True", "yes")
            return action_id, failed, recorded, other, same, replayed

    action_id, failed, recorded, other, same, replayed = run(scenario())
    assert failed[0].text == RAN_UNSAVED.format(api="place_order", id=action_id)
    assert "Nothing was changed" not in failed[0].text and recorded == {action_id: "done"}
    assert f"it already went through with other details (reference {action_id})" in other[0].text
    assert "Order Pizza-2-Ann placed" in replayed[0].text  # the same task confirmed again: its outcome
    assert len(calls()) == 1


def test_a_store_still_down_after_the_turn_gets_the_outcome_recorded_when_it_is_back(store_url, shop):
    """Down until the failed turn could not even be recorded (a database restart at that moment):
    the user is told what ran, the process keeps the outcome, and writes it when the session is next
    claimed; confirming again replays it, and nothing says the call may not have gone through."""
    notes = []

    async def sink(notification):
        notes.append(notification)

    async def scenario():
        async with make_engine(store_url, shop) as engine:
            engine.add_sink("slack", sink)
            action_id = await ask(fast(engine))
            Outage(engine.db.engine, CLAIM, statements=GATE_AND_COMMIT + 1)
            failed = await engine.handle_action(KEY, "U1", action_id, Decision.CONFIRM, "c1")
            kept = dict(engine.turns.unwritten)
            again = await engine.handle_message(KEY, "U1", "order_0.confirmed = True", "yes-again")
            return action_id, failed, kept, engine.turns.unwritten, again

    action_id, failed, kept, unwritten, again = run(scenario())
    assert failed[0].text == RAN_UNSAVED.format(api="place_order", id=action_id)
    assert list(kept) == [("slack", "c1")] and not unwritten
    assert notes == [] and [a.status for a in action_rows(store_url)] == ["done"]
    assert "Order Pizza-2-Ann placed" in again[0].text and len(calls()) == 1


@pytest.mark.postgres
def test_postgresql_ending_the_connection_after_the_call_loses_no_outcome(pg_url, postgres_url, shop):
    """The server terminates the turn's connection right after the API ran, twice (the done write,
    then its first retry): a new connection records the outcome, and the user gets the real reply."""
    prepare_database(pg_url)

    async def scenario():
        async with make_engine(pg_url, shop) as engine:
            action_id = await ask(fast(engine))
            kill = ServerKill(engine.db.engine, postgres_url, CLAIM, times=2)
            try:
                done = await engine.handle_action(KEY, "U1", action_id, Decision.CONFIRM, "c1")
            finally:
                kill.close()
            return kill.killed, done

    killed, done = run(scenario())
    assert killed == 2 and "Order Pizza-2-Ann placed" in done[0].text
    assert [a.status for a in action_rows(pg_url)] == ["done"] and len(calls()) == 1
