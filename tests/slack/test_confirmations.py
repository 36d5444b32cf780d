"""Confirmation cards: their Block Kit, clicks by the owner and others, double clicks, restarts, expiry."""

from __future__ import annotations

import asyncio
import datetime as dt

from genie_bot.engine.engine import utcnow
from genie_bot.engine.turns import NOT_OWNER
from genie_bot.runtime.policy import DECLINED_TEXT
from tests.engine.support import build_agent, calls, run

from .harness import SlackHarness, ask, has_buttons

ASKED = "Here is what I have:\n• Dish: Pizza\n• Count: 2\n• Name: Ann\nShall I go ahead and order food? (yes / no)"


def card_updates(slack, card) -> list[dict]:
    """Updates of ``card`` once shown (it was shown by updating the "thinking" placeholder)."""
    return [c.params for c in slack.calls_to("chat.update") if c.params["ts"] == card["ts"]][1:]


def test_the_card_summarises_the_values_and_a_confirm_updates_it_in_place(slack, shop_config):
    async def scenario():
        async with SlackHarness(slack, shop_config(), build_agent=build_agent) as h:
            thread, card = await ask(h)
            assert await h.click(card, "confirm") == 200
            await h.settle()
            return thread, card, await h.thread(thread)

    thread, card, messages = run(scenario())
    action_id = card["blocks"][2]["elements"][0]["value"]
    assert card["text"] == ASKED
    assert card["blocks"][:3] == [
        {"type": "section", "text": {"type": "mrkdwn", "text": ASKED}},
        {"type": "section", "text": {"type": "mrkdwn", "text": "*order food*"},
         "fields": [{"type": "mrkdwn", "text": "*Dish*\nPizza"}, {"type": "mrkdwn", "text": "*Count*\n2"},
                    {"type": "mrkdwn", "text": "*Name*\nAnn"}]},
        {"type": "actions", "block_id": "genie_buttons", "elements": [
            {"type": "button", "action_id": f"genie_confirm:{action_id}", "value": action_id, "style": "primary",
             "text": {"type": "plain_text", "text": "Confirm", "emoji": True}},
            {"type": "button", "action_id": f"genie_cancel:{action_id}", "value": action_id,
             "text": {"type": "plain_text", "text": "Cancel", "emoji": True}}]},
    ]
    [expiry] = card["blocks"][3:]
    assert expiry["block_id"] == "genie_expiry" and expiry["elements"][0]["text"].startswith("Expires <!date^")

    outcome = ":white_check_mark: *Done* (confirmed by <@U1>)\n>Order Pizza-2-Ann placed"
    [update] = card_updates(slack, card)
    assert update == {"channel": "C1", "ts": card["ts"], "text": outcome, "blocks": card["blocks"][:2] + [
        {"type": "section", "block_id": "genie_outcome", "text": {"type": "mrkdwn", "text": outcome}}]}
    assert messages[-1]["text"] == "Order Pizza-2-Ann placed"
    assert [c["key"] for c in calls()] == [action_id]


def test_cancel_closes_the_card_without_running_the_action(slack, shop_config):
    async def scenario():
        async with SlackHarness(slack, shop_config(), build_agent=build_agent) as h:
            thread, card = await ask(h)
            await h.click(card, "cancel")
            await h.settle()
            return card, await h.texts(thread)

    card, texts = run(scenario())
    [update] = card_updates(slack, card)
    assert update["blocks"][-1]["text"]["text"] == ":heavy_multiplication_x: *Cancelled* by <@U1>"
    assert not has_buttons(update) and texts[-1] == DECLINED_TEXT and calls() == []


def test_someone_elses_click_is_refused_privately_and_leaves_the_card_to_its_owner(slack, shop_config):
    async def scenario():
        async with SlackHarness(slack, shop_config(), build_agent=build_agent) as h:
            thread, card = await ask(h, user="U1")
            await h.click(card, "confirm", user="U2", response="stranger")
            await h.settle()
            refused = (await h.texts(thread), card_updates(slack, card), slack.responses("stranger"), calls())
            await h.click(card, "confirm", user="U1")
            await h.settle()
            return card, refused, card_updates(slack, card)

    card, (texts, updates, responses, executed), later = run(scenario())
    assert responses == [{"text": NOT_OWNER, "response_type": "ephemeral", "replace_original": False}]
    assert updates == [] and executed == [] and texts[-1] == ASKED  # the placeholder is gone again
    assert len(later) == 1 and "confirmed by <@U1>" in later[0]["text"] and len(calls()) == 1


def test_a_double_click_runs_the_action_once(slack, shop_config):
    async def scenario():
        async with SlackHarness(slack, shop_config(), build_agent=build_agent) as h:
            thread, card = await ask(h)
            await asyncio.gather(h.click(card, "confirm", response="first"), h.click(card, "confirm", response="second"))
            await h.settle()
            return card, await h.texts(thread)

    card, texts = run(scenario())
    assert len(calls()) == 1 and len(card_updates(slack, card)) == 1
    assert [t for t in texts if t == "Order Pizza-2-Ann placed"] == ["Order Pizza-2-Ann placed"]
    ephemeral = slack.responses("first") + slack.responses("second")
    assert [r["text"] for r in ephemeral] == ["That was already done."]


def test_a_card_posted_before_a_restart_still_works(slack, shop_config):
    config = shop_config()

    async def scenario():
        async with SlackHarness(slack, config, build_agent=build_agent) as h:
            thread, card = await ask(h)
        async with SlackHarness(slack, config, build_agent=build_agent) as h:
            await h.click(card, "confirm")
            await h.settle()
            return card, await h.texts(thread)

    card, texts = run(scenario())
    assert "confirmed by <@U1>" in card_updates(slack, card)[0]["text"] and texts[-1] == "Order Pizza-2-Ann placed"
    assert [c["key"] for c in calls()] == [card["blocks"][2]["elements"][0]["value"]]


class FakeClock:
    def __init__(self) -> None:
        self.now = utcnow()

    def __call__(self) -> dt.datetime:
        return self.now


def test_an_expired_card_says_so_and_a_fresh_one_is_asked_for(slack, shop_config):
    clock = FakeClock()

    async def scenario():
        async with SlackHarness(slack, shop_config(), build_agent=build_agent, clock=clock) as h:
            thread, card = await ask(h)
            clock.now += dt.timedelta(minutes=16)
            await h.engine.maintenance.expire_pending_actions()
            await h.click(card, "confirm")
            await h.settle()
            fresh = await h.card(thread)
            await h.click(fresh, "confirm")
            await h.settle()
            return card, fresh, await h.texts(thread)

    card, fresh, texts = run(scenario())
    assert texts[3] == "The confirmation for “order food” expired, so I did not do it. " \
                       "If you still want it, tell me and I'll ask you again."
    [update] = card_updates(slack, card)
    assert update["blocks"][-1]["text"]["text"] == ":hourglass: *No longer valid* (it expired)"
    assert fresh["ts"] != card["ts"] and fresh["text"].startswith("That confirmation is no longer valid (it expired).")
    assert texts[-1] == "Order Pizza-2-Ann placed" and [c["key"] for c in calls()] == [fresh["blocks"][2]["elements"][0]["value"]]


def test_a_destructive_action_asks_slack_to_confirm_the_click(slack, shop_config):
    async def scenario():
        async with SlackHarness(slack, shop_config(destructive=frozenset({"place_order"})),
                                build_agent=build_agent) as h:
            return (await ask(h))[1]

    confirm, cancel = run(scenario())["blocks"][2]["elements"]
    assert confirm["style"] == "danger" and "style" not in cancel
    assert confirm["confirm"] == {
        "title": {"type": "plain_text", "text": "Are you sure?", "emoji": True},
        "text": {"type": "mrkdwn", "text": "*order food* cannot be undone."},
        "confirm": {"type": "plain_text", "text": "Confirm", "emoji": True},
        "deny": {"type": "plain_text", "text": "Go back", "emoji": True}, "style": "danger"}
