"""What users send in a busy workspace: bare mentions, mentions of people, threads the bot is not in,
files, values that try to be links or to display backwards, bots answering bots, long rows, and
requests that are not Slack's."""

from __future__ import annotations

import json
import logging

from genie_bot.adapters.incoming import ATTACHMENTS_ONLY
from genie_bot.adapters.slack.messages import MAX_BOT_TURNS
from tests.engine.support import ORDER, build_agent, calls, run
from tests.fakes.slack_api import BOT_ID, BOT_USER_ID

from .harness import SlackHarness

EVIL = "[free pizza](https://evil.example)"
SPOOFED = "Ann\u202eazzip\u202c"
"""Shows as "Ann" and "pizza" reversed: the override reverses what follows it on screen."""


def test_a_bare_mention_is_greeted_without_an_apology(slack, shop_config):
    async def scenario():
        async with SlackHarness(slack, shop_config(), build_agent=build_agent) as h:
            thread = await h.mention("")
            await h.say(ORDER[0], thread_ts=thread)
            again = await h.mention("", thread_ts=thread)  # "@genie?" in the middle of the order
            await h.settle()
            return await h.texts(thread), await h.recorded_text("C1", again)

    texts, recorded = run(scenario())
    assert texts == ["Hi! Orders food.\n\nWhat is the dish? (Pizza, Pasta or Salad)", "How many?", "How many?"]
    assert recorded == ""  # what the user said: the agent reads it as nothing said


def test_people_mentioned_reach_the_agent_by_name_looked_up_once(slack, shop_config):
    slack.display_names["U7"] = "Bob"

    async def scenario():
        async with SlackHarness(slack, shop_config(), build_agent=build_agent) as h:
            thread = await h.mention("order_0.name = '<@U7>'")
            again = await h.say("order_0.note = 'ask <@U7|bob>, not <@U8>'", thread_ts=thread)
            await h.settle()
            return await h.recorded_text("C1", thread), await h.recorded_text("C1", again)

    assert run(scenario()) == ("order_0.name = '@Bob'", "order_0.note = 'ask @bob, not @u8'")
    assert [c.params["user"] for c in slack.calls_to("users.info")] == ["U7", "U8"]


def test_a_thread_the_bot_is_not_in_is_looked_up_once_and_only_after_the_ack(slack, shop_config):
    async def scenario():
        async with SlackHarness(slack, shop_config(), build_agent=build_agent) as h:
            chatter = slack.add_message("C1", "who wants lunch?", user="U7")
            release = slack.hold("conversations.replies")  # Slack answers slowly
            statuses = [(await h.event({"type": "message", "user": "U7", "text": f"me {n}", "channel": "C1",
                                        "ts": slack.add_message("C1", f"me {n}", user="U7", thread_ts=chatter),
                                        "thread_ts": chatter, "channel_type": "channel"}))[0] for n in range(40)]
            release()
            await h.settle()
            for n in range(40, 45):  # later messages: the answer is kept
                await h.say(f"me {n}", thread_ts=chatter, user="U7")
            await h.settle()
            return statuses, (await h.engine.status()).turns_run

    statuses, turns = run(scenario())
    assert statuses == [200] * 40 and turns == 0
    assert len(slack.calls_to("conversations.replies")) == 1 and slack.calls_to("chat.postMessage") == []


def test_a_thread_the_bot_posted_in_before_its_session_existed_is_answered_after_the_lookup(slack, shop_config):
    async def scenario():
        async with SlackHarness(slack, shop_config(), build_agent=build_agent) as h:
            old = slack.add_message("C1", "An answer from last year", user=BOT_USER_ID, bot_id=BOT_ID)
            await h.say(ORDER[0], thread_ts=old)
            await h.say(ORDER[1], thread_ts=old)
            await h.settle()
            return await h.texts(old)

    assert run(scenario()) == ["An answer from last year", "Hi! Orders food.\n\nHow many?",
                               "What is the name for the order?"]
    assert len(slack.calls_to("conversations.replies")) == 1


def test_files_without_words_get_a_short_explanation_and_no_turn(slack, shop_config):
    photo = {"subtype": "file_share", "files": [{"id": "F1", "name": "menu.png"}]}

    async def scenario():
        async with SlackHarness(slack, shop_config(), build_agent=build_agent) as h:
            thread = await h.mention("", **photo)
            await h.say("", thread_ts=None, channel="D1", **photo)
            await h.settle()
            return await h.texts(thread), [m["text"] for m in slack.messages("D1") if m.get("user") == BOT_USER_ID], \
                (await h.engine.status()).turns_run

    assert run(scenario()) == ([ATTACHMENTS_ONLY], [ATTACHMENTS_ONLY], 0)


def test_values_users_typed_never_become_links_or_display_backwards(slack, shop_config):
    async def scenario():
        async with SlackHarness(slack, shop_config(), build_agent=build_agent) as h:
            thread = await h.mention(ORDER[0])
            await h.say(ORDER[1], thread_ts=thread)
            await h.say(f"order_0.name = '{EVIL} {SPOOFED}'", thread_ts=thread)
            await h.settle()
            await h.click(await h.card(thread), "confirm")
            await h.settle()
            return [c.params for c in slack.calls if c.method in ("chat.postMessage", "chat.update")]

    posted = json.dumps(run(scenario()), ensure_ascii=False)
    assert "evil.example" in posted and "<https://evil.example" not in posted  # shown as typed, never a link
    assert "\u202e" not in posted and "Annazzip" in posted
    assert "Order Pizza-2-[free pizza](https://evil.example) Annazzip placed" in posted


def test_two_bots_answering_each_other_stop_after_a_few_rounds(slack, shop_config):
    async def scenario():
        async with SlackHarness(slack, shop_config({"ignore_bots": False}), build_agent=build_agent) as h:
            thread = await h.mention("")
            await h.settle()
            for n in range(MAX_BOT_TURNS + 3):  # another bot answers every answer
                await h.say(f"echo {n}", thread_ts=thread, subtype="bot_message", bot_id="B2", user=None)
                await h.settle()
            stopped = (await h.engine.status()).turns_run
            await h.say(ORDER[0], thread_ts=thread)  # a person writes: bots are answered again
            await h.say("echo again", thread_ts=thread, subtype="bot_message", bot_id="B2", user=None)
            await h.settle()
            return stopped, (await h.engine.status()).turns_run

    assert run(scenario()) == (1 + MAX_BOT_TURNS, 1 + MAX_BOT_TURNS + 2)


class RowsResponder:
    """Answers with a table whose rows are long (every ingredient of a salad)."""

    ROWS = ["Salads with basil:" + " and more" * 150,
            "• Caprese: " + ", ".join(["tomato", "basil", "mozzarella"] * 90),
            "• Panzanella: " + ", ".join(["bread", "basil", "onion"] * 90)]

    def respond(self, *args) -> str:
        return "\n".join(self.ROWS)


def test_long_replies_are_split_between_rows_never_inside_one(slack, shop_config):
    def rows_agent(spec):
        agent = build_agent(spec)
        agent.responder = RowsResponder()
        return agent

    async def scenario():
        async with SlackHarness(slack, shop_config(), build_agent=rows_agent) as h:
            thread = await h.mention("salads with basil")
            await h.settle()
            return await h.texts(thread)

    assert run(scenario()) == ["Hi! Orders food.\n\n" + RowsResponder.ROWS[0], *RowsResponder.ROWS[1:]]


def test_requests_not_signed_by_slack_get_401_and_one_log_line_each(slack, shop_config, caplog):
    garbage = [({}, b"{}", "application/json"),
               ({"X-Slack-Request-Timestamp": "soon", "X-Slack-Signature": "v0=00"}, b"{", "application/json"),
               ({}, b"payload=%7Bnot-json", "application/x-www-form-urlencoded"),
               ({"X-Slack-Request-Timestamp": "1", "X-Slack-Signature": "v0=1"}, b"\xff\xfe", "text/plain")]

    async def scenario():
        async with SlackHarness(slack, shop_config(), build_agent=build_agent) as h:
            caplog.clear()
            with caplog.at_level(logging.INFO):
                statuses = []
                for headers, body, content_type in garbage:
                    async with h.http.post(h.base + "/slack/events", data=body,
                                           headers={"Content-Type": content_type, **headers}) as response:
                        statuses.append(response.status)
                signed_garbage = (await h.post("not json", "application/json"))[0]
            return statuses, signed_garbage, list(caplog.records)

    statuses, signed_garbage, records = run(scenario())
    assert statuses == [401] * 4 and signed_garbage == 400
    assert len(records) == 5 and not any(r.exc_info for r in records)
    assert [r.getMessage().split(":")[0] for r in records[:4]] == ["refused a request to /slack/events from 127.0.0.1"] * 4
    assert calls() == [] and slack.calls_to("chat.postMessage") == []


def test_a_thread_one_process_found_not_the_bots_is_answered_once_another_process_answered_there(slack,
                                                                                                shop_config):
    config = shop_config()

    async def scenario():
        async with SlackHarness(slack, config, build_agent=build_agent) as a, \
                SlackHarness(slack, config, build_agent=build_agent) as b:
            chatter = slack.add_message("C1", "who wants lunch?", user="U7")
            await a.say("me", thread_ts=chatter, user="U7")  # process a: not the bot's thread
            await a.settle()
            await b.mention(ORDER[0], thread_ts=chatter)  # process b: the bot is mentioned there
            await b.settle()
            await a.say(ORDER[1], thread_ts=chatter)  # process a again: its session says it is the bot's now
            await a.settle()
            return await a.texts(chatter)

    assert run(scenario()) == ["Hi! Orders food.\n\nHow many?", "What is the name for the order?"]
    assert len(slack.calls_to("conversations.replies")) == 1
