"""A failing turn changes nothing and is answered with an apology, never with silence."""

from __future__ import annotations

from genie_bot.agent import Agent
from genie_bot.engine import Decision, Engine
from genie_bot.engine.turns import APOLOGY, RAN_UNSAVED
from genie_bot.store import Database, sessions, traces

from .faults import CLAIM, Outage
from .support import KEY, ORDER, StatementParser, calls, make_config, run


class ExplodingParser(StatementParser):
    def parse(self, spec, state, text, today):
        if text == "boom":
            raise RuntimeError("parser exploded")
        return super().parse(spec, state, text, today)


def build_exploding(spec):
    agent = Agent(spec)
    agent.parser = ExplodingParser(agent.parser)
    return agent


def stored_state(url: str) -> str | None:
    db = Database(url)
    with db.read() as conn:
        row = sessions.load(conn, str(KEY))
    db.dispose()
    return row.state


def test_a_turn_that_raises_leaves_the_session_unchanged_and_apologises(store_url, shop):
    async def scenario():
        async with Engine(make_config(store_url, shop), build_agent=build_exploding) as engine:
            await engine.handle_message(KEY, "U1", ORDER[0], "m1")
            before = stored_state(store_url)
            failed = await engine.handle_message(KEY, "U1", "boom", "m2")
            after = stored_state(store_url)
            next_turn = await engine.handle_message(KEY, "U1", ORDER[1], "m3")
            return before, failed, after, next_turn

    before, failed, after, next_turn = run(scenario())
    assert failed[0].text == APOLOGY and after == before
    assert "name for the order" in next_turn[0].text
    db = Database(store_url)
    with db.read() as conn:
        rows = traces.for_session(conn, str(KEY))
    db.dispose()
    assert [(t.event_id, t.outcome) for t in rows] == [("m1", "ok"), ("m2", "failed"), ("m3", "ok")]
    assert rows[1].errors == ["RuntimeError: parser exploded"]


def test_a_commit_that_fails_after_the_api_ran_is_repaired_by_the_next_click(store_url, shop):
    """The side effect is recorded apart from the turn; confirming again replays it, never re-runs it.
    The store fails (at the driver) for every try of the commit after the outcome was recorded."""
    async def scenario():
        async with Engine(make_config(store_url, shop), build_agent=build_exploding) as engine:
            engine.turns.record_retry_seconds = (0.0,)
            for i, text in enumerate(ORDER):
                asked = await engine.handle_message(KEY, "U1", text, f"m{i}")
            before = stored_state(store_url)
            Outage(engine.db.engine, CLAIM, statements=2, status="done")
            action_id = asked[0].pending_action.id
            failed = await engine.handle_action(KEY, "U1", action_id, Decision.CONFIRM, "c1")
            unchanged = stored_state(store_url) == before
            repaired = await engine.handle_action(KEY, "U1", action_id, Decision.CONFIRM, "c2")
            return action_id, failed, unchanged, repaired

    action_id, failed, unchanged, repaired = run(scenario())
    assert failed[0].text == RAN_UNSAVED.format(api="place_order", id=action_id) and unchanged
    assert "Order Pizza-2-Ann placed" in repaired[0].text
    assert len(calls()) == 1
