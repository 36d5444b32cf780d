"""In Slack, what the user is told is what happened: a lone surrogate is answered, an edit gets a
note and no turn, a card says "Failed" for a call that failed and "No longer valid" when a reload
asks for more, and a store that turns read-only never makes the bot say "try again" for a message
it will apply later, nor "could not handle that" for a call that went through."""

from __future__ import annotations

import json

from genie_bot.adapters.incoming import EDIT_NOT_APPLIED
from genie_bot.engine.turns import DEFERRED, RAN_UNSAVED
from genie_bot.store import sessions
from tests.engine.faults import CLAIM, START, ReadOnly
from tests.engine.support import ORDER, SHOP_API, SHOP_YAML, build_agent, calls, run
from tests.fakes.slack_api import BOT_ID, BOT_USER_ID

from .harness import SlackHarness, ask, has_buttons
from .test_confirmations import card_updates

RETRIED_NOW = (0.0,)
"""The engine's retries of the store, without pauses: the faults below are counted, not timed."""


def test_a_lone_surrogate_is_repaired_and_answered(slack, shop_config):
    async def scenario():
        async with SlackHarness(slack, shop_config(), build_agent=build_agent) as h:
            thread = await h.mention("help \ud83d with an order")
            await h.settle()
            return await h.texts(thread), await h.recorded_text("C1", thread)

    texts, recorded = run(scenario())
    assert recorded == "help \ufffd with an order"
    assert texts == ["Hi! Orders food.\n\nSure, let's order food.\n\nWhat is the dish? (Pizza, Pasta or Salad)"]


def changed(ts: str, before: str, after: str, thread: str, **message: str) -> dict:
    """The ``message_changed`` event of message ``ts`` of C1 (in ``thread``) edited from ``before``."""
    return {"type": "message", "subtype": "message_changed", "channel": "C1", "hidden": True, "ts": "9.000001",
            "event_ts": "9.000001", "previous_message": {"type": "message", "user": "U1", "text": before, "ts": ts,
                                                         "thread_ts": thread},
            "message": {"type": "message", "user": "U1", "text": after, "ts": ts, "thread_ts": thread,
                        "edited": {"user": "U1", "ts": "9.000001"}, **message}}


def test_an_edit_of_a_message_the_bot_read_gets_a_note_and_starts_no_turn(slack, shop_config):
    async def scenario():
        async with SlackHarness(slack, shop_config(), build_agent=build_agent) as h:
            thread = await h.mention(ORDER[0])
            await h.settle()
            answered = await h.say(ORDER[1], thread_ts=thread)  # the message that will be edited
            await h.settle()
            turns = (await h.engine.status()).turns_run
            for event in (changed(answered, ORDER[1], "order_0.count = 3", thread),
                          changed(answered, ORDER[1], "order_0.count = 3", thread),  # delivered again
                          changed(answered, ORDER[1], ORDER[1], thread),  # a link unfurled: no words changed
                          changed(answered, "x", "y", thread, user=BOT_USER_ID, bot_id=BOT_ID)):  # the bot's own
                assert (await h.event(event))[0] == 200
                await h.settle()
            return turns, (await h.engine.status()).turns_run, await h.texts(thread)

    before, after, texts = run(scenario())
    assert after == before == 2
    assert texts == ["Hi! Orders food.\n\nHow many?", "What is the name for the order?", EDIT_NOT_APPLIED]


def test_a_call_that_failed_is_shown_as_failed_never_done(slack, shop_config, shop):
    (shop / "api.py").write_text(SHOP_API.replace('    return {"order_id": f"{dish}-{count}-{name}"}',
                                                  '    raise RuntimeError("the kitchen is closed")'), encoding="utf-8")

    async def scenario():
        async with SlackHarness(slack, shop_config(), build_agent=build_agent) as h:
            thread, card = await ask(h)
            await h.click(card, "confirm")
            await h.settle()
            return card_updates(slack, card), await h.texts(thread)

    updates, texts = run(scenario())
    [update] = updates
    outcome = update["blocks"][-1]["text"]["text"]
    assert outcome.startswith(":x: *Failed* (confirmed by <@U1>); nothing was done") and "Done" not in outcome
    assert "kitchen is closed" in texts[-1] and len(calls()) == 1


def test_a_reload_that_asks_for_more_leaves_the_card_no_longer_valid(slack, shop_config, shop):
    async def scenario():
        async with SlackHarness(slack, shop_config(), build_agent=build_agent) as h:
            thread, card = await ask(h)
            (shop / "agent.yaml").write_text(SHOP_YAML.replace(
                "      - {name: note, type: str, required: false, dont_ask: true}",
                "      - {name: phone, type: str, description: a phone number for the order}\n"
                "      - {name: note, type: str, required: false, dont_ask: true}").lstrip("\n"), encoding="utf-8")
            assert (await h.engine.reload()).ok
            await h.click(card, "confirm")
            await h.settle()
            return card_updates(slack, card), await h.thread(thread)

    updates, messages = run(scenario())
    [update] = updates
    assert update["blocks"][-1]["text"]["text"] == ":hourglass: *No longer valid* (the agent was updated)"
    assert "phone number" in messages[-1]["text"].lower() and not has_buttons(messages[-1]) and calls() == []


def test_a_store_turning_read_only_mid_turn_defers_the_answer_and_posts_it_later(slack, shop_config):
    async def scenario():
        async with SlackHarness(slack, shop_config(), build_agent=build_agent) as h:
            h.engine.turns.record_retry_seconds = RETRIED_NOW
            thread = await h.mention(ORDER[0])
            await h.settle()
            store = ReadOnly(h.engine.db.engine, START, status="running")
            await h.say(ORDER[1], thread_ts=thread)
            await h.settle()
            deferred = await h.texts(thread)
            store.end()
            await h.engine.resume_stalled()
            await h.settle()
            return deferred, await h.thread(thread)

    deferred, messages = run(scenario())
    assert deferred == ["Hi! Orders food.\n\nHow many?", DEFERRED]
    assert [m["text"] for m in messages] == ["Hi! Orders food.\n\nHow many?", DEFERRED,
                                            "What is the name for the order?"]
    assert messages[1]["metadata"]["event_type"] == "genie_notice"  # not one of the event's replies


def test_a_click_whose_call_ran_as_the_store_turned_read_only_says_it_went_through(slack, shop_config):
    async def scenario():
        async with SlackHarness(slack, shop_config(), build_agent=build_agent) as h:
            h.engine.turns.record_retry_seconds = RETRIED_NOW
            thread, card = await ask(h)
            store = ReadOnly(h.engine.db.engine, CLAIM, status="executing")
            await h.click(card, "confirm")
            await h.settle()
            told = (await h.texts(thread))[-1]
            store.end()
            await h.engine.resume_stalled()
            await h.click(card, "confirm")  # the card still has its buttons: the turn was not saved
            await h.settle()
            return card, told, card_updates(slack, card), await h.texts(thread)

    card, told, updates, texts = run(scenario())
    action_id = card["blocks"][2]["elements"][0]["value"]
    assert told == RAN_UNSAVED.format(api="place_order", id=action_id)
    assert updates[-1]["blocks"][-1]["text"]["text"].startswith(":white_check_mark: *Done*")
    assert texts[-1] == "Order Pizza-2-Ann placed"
    assert [c["key"] for c in calls()] == [action_id] and json.dumps(texts).count("could not handle") == 0


def test_after_the_store_was_read_only_the_last_card_shows_what_the_session_holds(slack, shop_config):
    """A change made while the store was away is answered once it is back, after a change made
    since: each card goes below the last, so the newest card holds the session's values."""
    async def scenario():
        async with SlackHarness(slack, shop_config(), build_agent=build_agent) as h:
            h.engine.turns.record_retry_seconds = RETRIED_NOW
            thread, _ = await ask(h)
            store = ReadOnly(h.engine.db.engine, START, status="running")
            await h.say("order_0.count = 3", thread_ts=thread)
            await h.settle()
            store.end()
            await h.say("order_0.count = 4", thread_ts=thread)  # runs the deferred change first, then its own
            await h.settle()
            state = await h.engine.in_db(_state, h.engine, thread)
            return await h.thread(thread), state

    messages, state = run(scenario())
    cards = [m["text"] for m in messages if has_buttons(m)]
    assert [m["text"] for m in messages if "Count: " in m["text"]][-1] == cards[-1]
    assert "Count: 4" in cards[-1] and state["count"] == 4
    assert [m["text"] for m in messages].index(DEFERRED) < [m["text"] for m in messages].index(cards[-2])


def _state(engine, thread: str) -> dict:
    with engine.db.read() as conn:
        row = sessions.load(conn, f"slack/T1/C1/{thread}")
    return json.loads(row.state)["instances"][0]["values"]
