"""Side effects run exactly once, only after the owner confirmed the values they were shown."""

from __future__ import annotations

import asyncio

from genie_bot.config import AgentConfig
from genie_bot.engine import ClickOutcome, Decision, Engine
from genie_bot.engine.turns import APOLOGY
from genie_bot.runtime.policy import DECLINED_TEXT
from genie_bot.store import Database
from genie_bot.store import pending as actions

from .support import KEY, ORDER, FakeClock, build_agent, calls, make_config, make_engine, run


async def ask(engine, user: str = "U1"):
    """Fill the order; return the reply that asks for confirmation."""
    for i, text in enumerate(ORDER):
        replies = await engine.handle_message(KEY, user, text, f"fill-{i}")
    assert replies[0].pending_action is not None
    return replies[0]


def action_rows(url: str) -> list[actions.PendingRow]:
    db = Database(url)
    with db.read() as conn:
        rows = actions.of_session(conn, str(KEY), tuple(actions.ActionStatus))
    db.dispose()
    return rows


def test_confirm_runs_the_api_once_with_the_action_id_as_idempotency_key(store_url, shop):
    async def scenario():
        async with make_engine(store_url, shop) as engine:
            asked = await ask(engine)
            done = await engine.handle_action(KEY, "U1", asked.pending_action.id, Decision.CONFIRM, "c1")
            again = await engine.handle_action(KEY, "U1", asked.pending_action.id, Decision.CONFIRM, "c2")
            return asked, done, again

    asked, done, again = run(scenario())
    assert "Order Pizza-2-Ann placed" in done[0].text and done[0].pending_action is None
    assert again[0].text == "That was already done."
    assert [(c["dish"], c["key"]) for c in calls()] == [("Pizza", asked.pending_action.id)]
    assert [(a.status, a.result) for a in action_rows(store_url)] == [("done", '{"order_id": "Pizza-2-Ann"}')]


def test_double_click_and_typed_yes_racing_a_click_execute_once(store_url, shop):
    async def scenario():
        async with make_engine(store_url, shop) as engine:
            action_id = (await ask(engine)).pending_action.id
            return await asyncio.gather(
                engine.handle_action(KEY, "U1", action_id, Decision.CONFIRM, "click-1"),
                engine.handle_action(KEY, "U1", action_id, Decision.CONFIRM, "click-2"),
                engine.handle_message(KEY, "U1", "yes", "typed-yes"),
                engine.handle_action(KEY, "U1", action_id, Decision.CONFIRM, "click-1"))  # a retried delivery

    replies = run(scenario())
    assert len(calls()) == 1
    assert sum("Order Pizza-2-Ann placed" in r[0].text for r in replies if r) == 1
    assert sorted(map(len, (replies[0], replies[3]))) == [0, 1]  # one delivery of click-1 is ignored


def test_a_typed_yes_goes_through_the_same_gate(store_url, shop):
    async def scenario():
        async with make_engine(store_url, shop) as engine:
            asked = await ask(engine)
            yes = await engine.handle_message(KEY, "U1", "yes", "typed")
            click = await engine.handle_action(KEY, "U1", asked.pending_action.id, Decision.CONFIRM, "late-click")
            return asked, yes, click

    asked, yes, click = run(scenario())
    assert "Order Pizza-2-Ann placed" in yes[0].text and click[0].text == "That was already done."
    assert [c["key"] for c in calls()] == [asked.pending_action.id]


def test_two_engine_instances_clicking_at_once_execute_once(store_url, shop):
    async def scenario():
        first, second = make_engine(store_url, shop), make_engine(store_url, shop)
        await first.start()
        await second.start()
        try:
            action_id = (await ask(first)).pending_action.id
            return await asyncio.gather(*(
                engine.handle_action(KEY, "U1", action_id, Decision.CONFIRM, f"click-{i}")
                for i, engine in enumerate([first, second, first, second])))
        finally:
            await first.stop()
            await second.stop()

    replies = run(scenario())
    assert len(calls()) == 1
    assert sorted("placed" in r[0].text for r in replies) == [False, False, False, True]


def test_only_the_owner_may_confirm(store_url, shop):
    async def scenario():
        async with make_engine(store_url, shop) as engine:
            asked = await ask(engine, user="U1")
            click = await engine.handle_action(KEY, "U2", asked.pending_action.id, Decision.CONFIRM, "c1")
            typed = await engine.handle_message(KEY, "U2", "yes", "m-yes")
            typed_no = await engine.handle_message(KEY, "U2", "no", "m-no")
            owner = await engine.handle_action(KEY, "U1", asked.pending_action.id, Decision.CONFIRM, "c2")
            return click, typed, typed_no, owner

    click, typed, typed_no, owner = run(scenario())
    refusal = "Sorry, only the person who started this conversation can confirm or cancel this."
    assert click[0].text == typed[0].text == typed_no[0].text == refusal
    assert "Order Pizza-2-Ann placed" in owner[0].text and len(calls()) == 1


def test_anyone_may_confirm_when_configured(store_url, shop):
    async def scenario():
        async with make_engine(store_url, shop, owner_only=False) as engine:
            asked = await ask(engine, user="U1")
            return await engine.handle_action(KEY, "U2", asked.pending_action.id, Decision.CONFIRM, "c1")

    assert "Order Pizza-2-Ann placed" in run(scenario())[0].text


def test_cancel_and_a_typed_no_close_the_action_without_running_it(store_url, shop):
    async def scenario():
        async with make_engine(store_url, shop) as engine:
            asked = await ask(engine)
            cancelled = await engine.handle_action(KEY, "U1", asked.pending_action.id, Decision.CANCEL, "c1")
            late = await engine.handle_action(KEY, "U1", asked.pending_action.id, Decision.CONFIRM, "c2")
            again = await engine.handle_message(KEY, "U1", "order_0.count = 3", "m-change")
            typed_no = await engine.handle_message(KEY, "U1", "no", "m-no")
            return cancelled, late, again, typed_no

    cancelled, late, again, typed_no = run(scenario())
    assert cancelled[0].text == DECLINED_TEXT and late[0].text == "That was cancelled."
    assert again[0].pending_action is not None and typed_no[0].text == DECLINED_TEXT
    assert calls() == [] and [a.status for a in action_rows(store_url)] == ["cancelled", "cancelled"]


def test_an_expired_confirmation_needs_a_fresh_one(store_url, shop):
    clock = FakeClock()

    async def scenario():
        async with make_engine(store_url, shop, clock=clock) as engine:
            asked = await ask(engine)
            clock.advance(minutes=16)
            stale = await engine.handle_action(KEY, "U1", asked.pending_action.id, Decision.CONFIRM, "c1")
            fresh = await engine.handle_action(KEY, "U1", stale[0].pending_action.id, Decision.CONFIRM, "c2")
            return asked, stale, fresh

    asked, stale, fresh = run(scenario())
    assert stale[0].text.startswith("That confirmation is no longer valid (it expired).")
    assert stale[0].pending_action.id != asked.pending_action.id and "Shall I go ahead" in stale[0].text
    assert "Order Pizza-2-Ann placed" in fresh[0].text
    assert [c["key"] for c in calls()] == [stale[0].pending_action.id]
    assert [a.status for a in action_rows(store_url)] == ["expired", "done"]


def test_a_change_after_the_summary_invalidates_the_confirmation(store_url, shop):
    async def scenario():
        async with make_engine(store_url, shop) as engine:
            asked = await ask(engine)
            changed = await engine.handle_message(KEY, "U1", "order_0.count = 3", "m-change")
            old = await engine.handle_action(KEY, "U1", asked.pending_action.id, Decision.CONFIRM, "c-old")
            new = await engine.handle_action(KEY, "U1", changed[0].pending_action.id, Decision.CONFIRM, "c-new")
            return asked, changed, old, new

    asked, changed, old, new = run(scenario())
    assert changed[0].pending_action.id != asked.pending_action.id
    assert ("Count", "3") in changed[0].pending_action.summary
    assert old[0].text.startswith("That confirmation is no longer valid (asked again with other details).")
    assert "Order Pizza-3-Ann placed" in new[0].text
    assert [(c["count"], c["key"]) for c in calls()] == [(3, changed[0].pending_action.id)]


def test_the_same_question_asked_again_keeps_its_action(store_url, shop):
    async def scenario():
        async with make_engine(store_url, shop) as engine:
            asked = await ask(engine)
            chat = await engine.handle_message(KEY, "U1", "# the user chats about the weather", "m-chat")
            return asked, chat

    asked, chat = run(scenario())
    assert chat[0].pending_action.id == asked.pending_action.id


def test_values_changed_in_the_confirming_message_are_refused(store_url, shop):
    async def scenario():
        async with make_engine(store_url, shop) as engine:
            await ask(engine)
            return await engine.handle_message(KEY, "U1", "order_0.count = 5\norder_0.confirmed = True", "m-sneaky")

    reply = run(scenario())[0]
    assert calls() == [] and "the details changed after the summary was shown" in reply.text
    assert [a.status for a in action_rows(store_url)] == ["invalidated"]


def test_destructive_apis_are_flagged(store_url, shop):
    config = make_config(store_url, shop)
    config.agents["shop"] = AgentConfig("shop", shop, frozenset({"place_order"}))

    async def scenario():
        async with Engine(config, build_agent=build_agent) as engine:
            return await ask(engine)

    assert run(scenario()).pending_action.destructive


def confirm_twice_failing_the_store_once(url, shop, monkeypatch, operation: str, broken) -> tuple[list, list]:
    """Confirm with ``actions.<operation>`` replaced by ``broken``, then confirm again with it restored."""
    working = getattr(actions, operation)

    async def scenario():
        async with make_engine(url, shop) as engine:
            action_id = (await ask(engine)).pending_action.id
            monkeypatch.setattr(actions, operation, broken)
            failed = await engine.handle_action(KEY, "U1", action_id, Decision.CONFIRM, "c1")
            monkeypatch.setattr(actions, operation, working)
            return failed, await engine.handle_action(KEY, "U1", action_id, Decision.CONFIRM, "c2")

    return run(scenario())


def test_a_store_failure_before_the_call_fails_the_turn_and_nothing_runs(store_url, shop, monkeypatch):
    def broken_store(*args, **kwargs):
        raise ConnectionError("the database went away")

    failed, done = confirm_twice_failing_the_store_once(store_url, shop, monkeypatch, "claim", broken_store)
    assert failed[0].outcome == ClickOutcome.FAILED and failed[0].text == APOLOGY
    assert "Order Pizza-2-Ann placed" in done[0].text
    assert len(calls()) == 1 and [a.status for a in action_rows(store_url)] == ["done"]
