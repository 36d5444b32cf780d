"""Sessions persisted across turns and restarts, idempotent event ids, traces, reset, status."""

from __future__ import annotations

import asyncio
import json

import pytest
from sqlalchemy import select

from genie_bot.engine import SessionKey
from genie_bot.state import DialogueState
from genie_bot.store import Database, SchemaOutdated, head_revision
from genie_bot.store import traces
from genie_bot.store.migrations import head_revision
from genie_bot.store.schema import sessions

from .support import KEY, ORDER, make_engine, run


def session_row(url: str, key: SessionKey = KEY):
    db = Database(url)
    try:
        with db.read() as conn:
            return conn.execute(select(sessions).where(sessions.c.key == str(key))).first()
    finally:
        db.dispose()


def test_a_conversation_is_persisted_and_continues_after_a_restart(store_url, shop):
    async def first_half():
        async with make_engine(store_url, shop) as engine:
            replies = await engine.handle_message(KEY, "U1", ORDER[0], "m1")
            assert replies[0].text.startswith("Hi! Orders food.")  # a new session is greeted
            assert "How many?" in replies[0].text
            return await engine.handle_message(KEY, "U1", ORDER[1], "m2")

    async def second_half():
        async with make_engine(store_url, shop) as engine:
            return await engine.handle_message(KEY, "U1", ORDER[2], "m3")

    assert "name for the order" in run(first_half())[0].text
    reply = run(second_half())[0]
    assert "Shall I go ahead and order food?" in reply.text and reply.pending_action is not None
    row = session_row(store_url)
    state = DialogueState.from_json(row.state)
    assert state.instances["order_0"].values == {"dish": "Pizza", "count": 2, "name": "Ann"}
    assert (row.agent, row.owner, row.turns, row.lease_owner) == ("shop", "U1", 3, None)


def test_a_repeated_event_id_is_ignored(store_url, shop):
    async def scenario():
        async with make_engine(store_url, shop) as engine:
            first = await engine.handle_message(KEY, "U1", ORDER[0], "m1")
            again = await engine.handle_message(KEY, "U1", ORDER[0], "m1")
            other_text = await engine.handle_message(KEY, "U1", ORDER[1], "m1")  # same id, retried with edits
            concurrent = await asyncio.gather(
                *(engine.handle_message(KEY, "U1", ORDER[1], "m2") for _ in range(5)))
            return first, again, other_text, concurrent

    first, again, other_text, concurrent = run(scenario())
    assert first and again == [] and other_text == []
    assert sorted(len(r) for r in concurrent) == [0, 0, 0, 0, 1]
    assert session_row(store_url).turns == 2


def test_each_turn_is_traced(store_url, shop):
    async def scenario():
        async with make_engine(store_url, shop) as engine:
            await engine.handle_message(KEY, "U1", ORDER[0], "m1")
            await engine.handle_message(KEY, "U1", "order_0.count = 'many'", "m2")

    run(scenario())
    db = Database(store_url)
    with db.read() as conn:
        turns = traces.for_session(conn, str(KEY))
    db.dispose()
    assert [t.event_id for t in turns] == ["m1", "m2"] and [t.turn for t in turns] == [1, 2]
    first, second = turns
    assert first.message == ORDER[0] and first.statements == ORDER[0] and first.parse_source == "statements"
    assert first.acts == ['AskField(order_0, count, "how many")'] and "How many?" in first.reply
    assert {"queue", "load", "parse", "runtime", "respond", "confirmations", "total"} <= set(first.latencies)
    assert (first.llm_calls, first.prompt_tokens, first.completion_tokens, first.outcome) == (0, 0, 0, "ok")
    assert second.acts[0].startswith("AskField(order_0, count") and "reason=" in second.acts[0]


def test_channels_route_to_their_agents_and_sessions_are_separate(store_url, shop):
    async def scenario():
        async with make_engine(store_url, shop) as engine:
            await engine.handle_message(KEY, "U1", ORDER[0], "m1")
            other = SessionKey("slack", "T1", "C1", "another-thread")
            return await engine.handle_message(other, "U2", "# hello", "m2")

    reply = run(scenario())[0]
    assert "What is the dish?" in reply.text  # the other thread starts its own order
    assert session_row(store_url).turns == 1


def test_reset_forgets_the_conversation_and_cancels_its_confirmation(store_url, shop):
    async def scenario():
        async with make_engine(store_url, shop) as engine:
            for i, text in enumerate(ORDER):
                replies = await engine.handle_message(KEY, "U1", text, f"m{i}")
            await engine.reset(KEY)
            click = await engine.handle_action(KEY, "U1", replies[0].pending_action.id, "confirm", "c1")
            after = await engine.handle_message(KEY, "U1", "# hi", "m9")
            return click, after, await engine.status()

    click, after, status = run(scenario())
    assert click[0].text == "That was cancelled."
    assert after[0].text.startswith("Hi! Orders food.") and "What is the dish?" in after[0].text
    assert status.pending_actions == {"cancelled": 1} and status.live_sessions == 1


def test_status_reports_the_engine(store_url, shop):
    async def scenario():
        async with make_engine(store_url, shop) as engine:
            await engine.handle_message(KEY, "U1", ORDER[0], "m1")
            return await engine.status(), engine

    status, engine = run(scenario())
    assert status.instance == engine.id and status.schema_revision == head_revision()
    assert status.agents == {"shop": engine.registry.get("shop").version}
    assert status.live_sessions == 1 and status.events == {"done": 1} and status.turns_run == 1
    assert "password" not in status.database


def test_the_engine_refuses_an_outdated_schema(tmp_path, shop):
    engine = make_engine(f"sqlite:///{tmp_path / 'empty.sqlite3'}", shop)
    with pytest.raises(SchemaOutdated, match="genie-bot db upgrade --config"):
        run(engine.start())
    run(engine.stop())


def test_replies_round_trip_through_the_store(store_url, shop):
    async def scenario():
        async with make_engine(store_url, shop) as engine:
            for i, text in enumerate(ORDER):
                replies = await engine.handle_message(KEY, "U1", text, f"m{i}")
            return replies, await engine.in_db(engine.inbox.replies, ("slack", "m2"))

    direct, stored = run(scenario())
    assert stored == direct
    view = direct[0].pending_action
    assert view.title == "order food" and (view.confirm_label, view.cancel_label, view.destructive) == \
        ("Confirm", "Cancel", False)
    assert view.summary == [("Dish", "Pizza"), ("Count", "2"), ("Name", "Ann")]  # labels from the spec
    assert json.loads(json.dumps(direct[0].to_dict()))["pending_action"]["id"] == view.id
