"""Cards in a busy workspace: edited mentions, the same message under two event ids, one live card per
action, strangers' clicks, clicks from ephemeral messages, and the destructive confirm dialog."""

from __future__ import annotations

from genie_bot.adapters.slack.poster import SHOWN_AGAIN
from tests.engine.support import ORDER, SHOP_YAML, build_agent, calls, run, write_shop
from tests.fakes.slack_api import BOT_USER_ID

from .harness import SlackHarness, has_buttons, make_config, mention_event, slack_settings


async def card_by_mention(h: SlackHarness) -> tuple[str, str]:
    """An order whose last answer, the one asking for confirmation, @mentions the bot; returns
    (thread, that mention's ts)."""
    thread = await h.mention(ORDER[0])
    await h.say(ORDER[1], thread_ts=thread)
    last = await h.mention(ORDER[2], thread_ts=thread)
    await h.settle()
    return thread, last


def test_editing_a_mention_already_answered_starts_no_second_turn(slack, shop_config):
    async def scenario():
        async with SlackHarness(slack, shop_config(), build_agent=build_agent) as h:
            thread, last = await card_by_mention(h)
            before = (await h.thread(thread), (await h.engine.status()).turns_run)
            assert await h.edit_mention(last, ORDER[2] + "  ", thread_ts=thread) == 200
            await h.settle()
            return before, (await h.thread(thread), (await h.engine.status()).turns_run)

    before, after = run(scenario())
    assert after == before and before[1] == 3
    assert len([m for m in after[0] if has_buttons(m)]) == 1


def test_the_same_message_under_two_event_ids_is_answered_once(slack, shop_config):
    async def scenario():
        async with SlackHarness(slack, shop_config(), build_agent=build_agent) as h:
            text = f"<@{BOT_USER_ID}> {ORDER[0]}"
            ts = slack.add_message("C1", text)
            statuses = [(await h.event(mention_event(text, ts), event_id=event_id))[0] for event_id in ("EvA", "EvB")]
            await h.settle()
            return statuses, await h.texts(ts), (await h.engine.status()).turns_run

    assert run(scenario()) == ([200, 200], ["Hi! Orders food.\n\nHow many?"], 1)


def test_a_summary_asked_again_leaves_one_live_card_and_the_click_settles_it(slack, shop_config):
    async def scenario():
        async with SlackHarness(slack, shop_config(), build_agent=build_agent) as h:
            thread, _ = await card_by_mention(h)
            first = await h.card(thread)
            await h.say("# nothing to change", thread_ts=thread)  # the same summary is asked again
            await h.settle()
            shown = await h.thread(thread)
            second = await h.card(thread)
            await h.click(second, "confirm")
            await h.settle()
            return first, second, shown, await h.thread(thread)

    first, second, shown, final = run(scenario())
    action = first["blocks"][2]["elements"][0]["value"]
    assert second["ts"] != first["ts"] and second["blocks"][2]["elements"][0]["value"] == action
    assert [m["ts"] for m in shown if has_buttons(m)] == [second["ts"]]
    assert next(m for m in shown if m["ts"] == first["ts"])["blocks"][-1]["text"]["text"] == SHOWN_AGAIN
    assert not any(has_buttons(m) for m in final) and len(calls()) == 1


def test_a_strangers_click_shows_nothing_in_the_thread(slack, shop_config):
    async def scenario():
        async with SlackHarness(slack, shop_config(), build_agent=build_agent) as h:
            thread, _ = await card_by_mention(h)
            card = await h.card(thread)
            before = [(c.method, c.params.get("ts")) for c in slack.calls if c.method.startswith("chat.")]
            await h.click(card, "confirm", user="U2", response="stranger")
            await h.settle()
            after = [(c.method, c.params.get("ts")) for c in slack.calls if c.method.startswith("chat.")]
            return before, after, slack.responses("stranger")

    before, after, responses = run(scenario())
    assert after == before  # no "thinking" message posted and deleted, no update
    assert [r["response_type"] for r in responses] == ["ephemeral"] and calls() == []


def test_a_click_from_an_ephemeral_message_is_answered_cleanly(slack, shop_config):
    async def scenario():
        async with SlackHarness(slack, shop_config(), build_agent=build_agent) as h:
            thread, _ = await card_by_mention(h)
            card = await h.card(thread)
            payload = h.click_payload(card, "confirm")
            del payload["message"]  # what Slack sends for a button on an ephemeral message
            payload["container"]["is_ephemeral"] = True
            status = await h.send_click(payload)
            await h.settle()
            return status, await h.thread(thread)

    status, final = run(scenario())
    assert status == 200 and len(calls()) == 1
    assert final[-1]["text"] == "Order Pizza-2-Ann placed" and not any(has_buttons(m) for m in final)


LONG_TITLE = "cancel every standing order of the account, " * 9


def test_the_destructive_confirm_dialog_keeps_cannot_be_undone_within_slacks_300_characters(slack, store_url,
                                                                                            tmp_path):
    agent = write_shop(tmp_path / "long", SHOP_YAML.replace("description: order food", f"description: {LONG_TITLE}"))
    config = make_config(store_url, agent, slack_settings(slack), destructive=frozenset({"place_order"}))

    async def scenario():
        async with SlackHarness(slack, config, build_agent=build_agent) as h:
            thread, _ = await card_by_mention(h)
            return (await h.card(thread))["blocks"]

    blocks = run(scenario())
    dialog = next(b for b in blocks if b["type"] == "actions")["elements"][0]["confirm"]["text"]["text"]
    assert len(dialog) <= 300 and dialog.endswith("…* cannot be undone.")
    assert dialog.startswith("*cancel every standing order of the account, cancel")
