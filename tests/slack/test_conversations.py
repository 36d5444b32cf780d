"""Conversations over signed HTTP: threads as sessions, DMs, fast acks, retries, what the bot ignores."""

from __future__ import annotations

import asyncio

from genie_bot.adapters.slack import create_adapter
from genie_bot.adapters.slack.blocks import SECTION_LIMIT
from genie_bot.adapters.slack.poster import THINKING
from genie_bot.adapters.slack.sessions import Place
from genie_bot.engine import Engine, Reply, SessionKey
from genie_bot.submissions import submissions
from tests.conftest import WORKSHEETS
from tests.engine.support import ORDER, build_agent, run
from tests.fakes.slack_api import BOT_ID, BOT_USER_ID, TEAM_ID

from .harness import SlackHarness, make_config, slack_settings, slow_agent

TICKET = ["I need help with joining a waitlist", "join the waitlist", "CS 224V", "winter",
          "the class is required for my major", "my name is Ann Lee",
          "<mailto:ann@stanford.edu|ann@stanford.edu>"]  # how Slack sends an email address a user typed


def test_a_ticket_is_filed_in_a_thread_and_confirmed_with_the_button(slack, store_url):
    config = make_config(store_url, WORKSHEETS / "ticket_submission", slack_settings(slack), name="tickets")

    async def scenario():
        async with SlackHarness(slack, config) as h:
            thread = await h.mention("hi")
            for text in TICKET:
                await h.say(text, thread_ts=thread)
            await h.settle()
            asked = await h.texts(thread)
            card = await h.card(thread)
            assert await h.click(card, "confirm") == 200
            await h.settle()
            return thread, asked, card, await h.thread(thread)

    thread, asked, card, final = run(scenario())
    assert len(asked) == 1 + len(TICKET) and "leave of absence" in asked[0]
    assert asked[-2] == "What is your university email address?" and asked[-1].startswith("Here is what I have")
    fields = [f["text"] for f in card["blocks"][1]["fields"]]
    assert "*University email address*\nann@stanford.edu" in fields and "*Full name*\nAnn Lee" in fields
    assert [call.params["thread_ts"] for call in slack.calls_to("chat.postMessage")] == [thread] * (len(TICKET) + 2)
    settled, result = final[-2:]
    assert settled["ts"] == card["ts"] and len(final) == len(asked) + 1
    outcome = settled["blocks"][-1]["text"]["text"]
    assert outcome.startswith(":white_check_mark: *Done* (confirmed by <@U1>)") and "TKT-00001" in outcome
    assert "TKT-00001 has been submitted" in result["text"]
    assert [s["payload"]["email"] for s in submissions("ticket")] == ["ann@stanford.edu"]


def test_every_message_is_recorded_then_acknowledged_before_its_turn_runs(slack, store_url, shop):
    async def scenario():
        async with SlackHarness(slack, make_config(store_url, shop, slack_settings(slack)), build_agent=slow_agent) as h:
            ts = slack.add_message("C1", "slow")
            status, ack_seconds = await h.event({"type": "app_mention", "user": "U1", "channel": "C1", "ts": ts,
                                                 "text": f"<@{BOT_USER_ID}> {ORDER[0]} # slowly"}, event_id="Ev1")
            recorded_at_ack = await h.event_status(f"{TEAM_ID}/C1/{ts}")  # a message's event id is where it is
            answered_at_ack = slack.calls_to("chat.update")
            [placeholder] = await h.wait_for("chat.postMessage")
            await h.settle()
            return ts, status, ack_seconds, recorded_at_ack, answered_at_ack, placeholder, await h.texts(ts)

    ts, status, ack_seconds, recorded_at_ack, answered_at_ack, placeholder, texts = run(scenario())
    assert status == 200 and answered_at_ack == [] and ack_seconds < 0.9  # the turn takes a second
    assert recorded_at_ack in ("queued", "running")  # a process dying now leaves it to the others
    assert placeholder.params == {"channel": "C1", "thread_ts": ts, "text": THINKING, "metadata": {
        "event_type": "genie_thinking", "event_payload": {"event_id": f"{TEAM_ID}/C1/{ts}"}}}
    assert texts == ["Hi! Orders food.\n\nHow many?"]  # the placeholder, replaced
    [update] = slack.calls_to("chat.update")
    assert update.params["metadata"] == {"event_type": "genie_reply",
                                         "event_payload": {"event_id": f"{TEAM_ID}/C1/{ts}", "part": 0, "piece": 0}}


def test_a_message_that_cannot_be_recorded_is_refused_so_that_slack_delivers_it_again(slack, shop_config):
    async def scenario():
        async with SlackHarness(slack, shop_config(), build_agent=build_agent) as h:
            ts = slack.add_message("C1", ORDER[0])
            mention = {"type": "app_mention", "user": "U1", "channel": "C1", "ts": ts,
                       "text": f"<@{BOT_USER_ID}> {ORDER[0]}"}
            await h.sql("ALTER TABLE genie_events RENAME TO genie_events_away")  # the inbox is unusable
            refused, _ = await h.event(mention, event_id="Ev1")
            await h.sql("ALTER TABLE genie_events_away RENAME TO genie_events")
            retried, _ = await h.event(mention, event_id="Ev1", retry_num=1)
            await h.settle()
            return refused, retried, await h.texts(ts), slack.calls_to("chat.postMessage")

    refused, retried, texts, posts = run(scenario())
    assert (refused, retried) == (500, 200)
    assert texts == ["Hi! Orders food.\n\nHow many?"] and len(posts) == 1  # nothing posted for the refusal


def test_a_mention_in_someone_elses_thread_makes_it_a_session_there(slack, shop_config):
    async def scenario():
        async with SlackHarness(slack, shop_config(), build_agent=build_agent) as h:
            thread = slack.add_message("C1", "who can order lunch?", user="U7")
            await h.mention(ORDER[0], thread_ts=thread)
            await h.say(ORDER[1], thread_ts=thread)
            await h.settle()
            return thread, await h.texts(thread), [c.params["thread_ts"] for c in slack.calls_to("chat.postMessage")]

    thread, texts, threads = run(scenario())
    assert texts == ["Hi! Orders food.\n\nHow many?", "What is the name for the order?"]
    assert threads == [thread, thread]


def test_a_retried_event_is_answered_once(slack, shop_config):
    async def scenario():
        async with SlackHarness(slack, shop_config(), build_agent=build_agent) as h:
            ts = slack.add_message("C1", "hello")
            event = {"type": "app_mention", "user": "U1", "channel": "C1", "ts": ts, "text": f"<@{BOT_USER_ID}> hi"}
            statuses = [(await h.event(event, event_id="EvONCE"))[0],
                        (await h.event(event, event_id="EvONCE", retry_num=1))[0]]
            await h.settle()
            statuses.append((await h.event(event, event_id="EvONCE", retry_num=2))[0])
            await h.settle()
            return statuses, await h.texts(ts), await h.engine.status()

    statuses, texts, status = run(scenario())
    assert statuses == [200, 200, 200]
    assert len(texts) == 1 and len(slack.calls_to("chat.postMessage")) == 1
    assert status.turns_run == 1


def test_requests_with_a_bad_or_stale_signature_are_rejected(slack, shop_config):
    async def scenario():
        async with SlackHarness(slack, shop_config(), build_agent=build_agent) as h:
            ts = slack.add_message("C1", "hello")
            event = {"type": "app_mention", "user": "U1", "channel": "C1", "ts": ts, "text": f"<@{BOT_USER_ID}> hi"}
            forged = await h.event(event, signature="v0=" + "0" * 64)
            stale = await h.event(event, age=600)
            await h.settle()
            return forged[0], stale[0], await h.engine.status()

    forged, stale, status = run(scenario())
    assert forged == stale == 401
    assert slack.calls_to("chat.postMessage") == [] and status.events == {}


def test_a_direct_message_conversation_is_one_session_answered_in_the_dm(slack, shop_config):
    async def scenario():
        async with SlackHarness(slack, shop_config(), build_agent=build_agent) as h:
            for text in ORDER[:2]:
                await h.say(text, thread_ts=None, channel="D1")
                await h.settle()
            return [c.params for c in slack.calls_to("chat.postMessage")], slack.calls_to("chat.update")

    posts, updates = run(scenario())
    assert [(p["channel"], p.get("thread_ts")) for p in posts] == [("D1", None), ("D1", None)]
    assert [u.params["text"] for u in updates] == ["Hi! Orders food.\n\nHow many?",
                                                   "What is the name for the order?"]


def test_the_bot_ignores_its_own_messages_edits_other_bots_and_threads_it_is_not_in(slack, shop_config):
    async def scenario():
        async with SlackHarness(slack, shop_config(), build_agent=build_agent) as h:
            thread = await h.mention(ORDER[0])
            await h.settle()
            other = slack.add_message("C1", "lunch?", user="U7")
            edited = {"subtype": "message_changed", "message": {"user": "U1", "text": "edited"}}
            ignored = {
                "its own message": dict(user=BOT_USER_ID, bot_id=BOT_ID),
                "an edit": edited,
                "another bot": dict(subtype="bot_message", bot_id="B2", user=None),
                "a channel message outside threads": dict(thread_ts=None),
                "a thread the bot is not in": dict(thread_ts=other),
                "the message copy of a mention": dict(text=f"<@{BOT_USER_ID}> {ORDER[1]}"),
            }
            seen = {}
            for case, fields in ignored.items():
                fields = {"thread_ts": thread, **fields}
                await h.say(fields.pop("text", ORDER[1]), thread_ts=fields.pop("thread_ts"), **fields)
                await h.settle()
                seen[case] = (len(slack.calls_to("chat.postMessage")), (await h.engine.status()).turns_run)
            return seen

    assert run(scenario()) == dict.fromkeys(
        ["its own message", "an edit", "another bot", "a channel message outside threads",
         "a thread the bot is not in", "the message copy of a mention"], (1, 1))


def test_other_bots_are_answered_when_configured_but_never_the_bot_itself(slack, shop_config):
    async def scenario():
        async with SlackHarness(slack, shop_config({"ignore_bots": False}), build_agent=build_agent) as h:
            thread = await h.mention(ORDER[0])
            await h.say(ORDER[1], thread_ts=thread, subtype="bot_message", bot_id="B2", user=None)
            await h.say(ORDER[2], thread_ts=thread, user=BOT_USER_ID, bot_id=BOT_ID)
            await h.settle()
            return await h.texts(thread), (await h.engine.status()).turns_run

    texts, turns = run(scenario())
    assert "What is the name for the order?" in texts and turns == 2


def test_a_thread_is_still_the_bots_after_a_restart(slack, shop_config):
    config = shop_config()

    async def scenario():
        async with SlackHarness(slack, config, build_agent=build_agent) as h:
            thread = await h.mention(ORDER[0])
            await h.settle()
        async with SlackHarness(slack, config, build_agent=build_agent) as h:
            await h.say(ORDER[1], thread_ts=thread)
            await h.settle()
            return await h.texts(thread)

    assert run(scenario()) == ["Hi! Orders food.\n\nHow many?", "What is the name for the order?"]
    assert slack.calls_to("conversations.replies") == []  # its session says so: Slack's scarce method is spared


def test_notifications_go_to_the_thread_split_within_slacks_limits(slack, shop_config):
    paragraph = "**Reminder:** " + "word " * 150
    long_text = "\n\n".join([paragraph] * 12)

    async def scenario():
        async with SlackHarness(slack, shop_config(), build_agent=build_agent) as h:
            thread = await h.mention(ORDER[0])
            await h.settle()
            await h.engine.notify(SessionKey("slack", TEAM_ID, "C1", thread), Reply(long_text), "reminder")
            return thread, [c.params for c in slack.calls_to("chat.postMessage")[1:]]

    thread, posts = run(scenario())
    assert len(posts) > 1 and all(len(p["text"]) <= SECTION_LIMIT for p in posts)
    assert all(p["thread_ts"] == thread for p in posts) and posts[0]["text"].startswith("*Reminder:* word")
    assert sum(p["text"].count("*Reminder:*") for p in posts) == 12


def test_the_health_check_answers_while_the_engine_does(slack, shop_config):
    async def scenario():
        async with SlackHarness(slack, shop_config(), build_agent=build_agent) as h:
            async with h.http.get(h.base + "/healthz") as response:
                return response.status, await response.json()

    assert run(scenario()) == (200, {"ok": True})


def test_engine_notifications_are_posted_into_the_thread(slack, shop_config):
    config = shop_config()
    key = SessionKey("slack", TEAM_ID, "C1", "1700000000.000100")

    async def scenario():
        engine = Engine(config, build_agent=build_agent)
        await engine.start(recover=False)  # as `genie-bot run` does: recovery runs once adapters can deliver
        adapter = create_adapter(config, config.platforms["slack"])
        engine.add_sink("slack", adapter.deliver, adapter.acknowledges_delivery)
        await adapter.start(engine)
        await engine.notify(key, Reply("I was interrupted while running place_order."), "recovered")
        [post] = await asyncio.to_thread(slack.wait_for, "chat.postMessage")
        await adapter.stop()
        await engine.stop()
        return post.params, list(engine.undelivered)

    params, undelivered = run(scenario())
    assert params == {"channel": "C1", "thread_ts": key.thread, "text": "I was interrupted while running place_order."}
    assert undelivered == []


def test_a_recovered_reply_replaces_the_placeholder_a_dead_process_left_and_is_never_posted_twice(slack, shop_config):
    async def scenario():
        async with SlackHarness(slack, shop_config(), build_agent=build_agent) as h:
            thread = await h.mention(ORDER[0])
            await h.settle()
            key, place = SessionKey("slack", TEAM_ID, "C1", thread), Place(TEAM_ID, "C1", thread)
            # what a process killed mid-way left: Ev1 thinking, Ev2 answered but not acknowledged
            await h.adapter.poster.placeholder(place, "Ev1")
            await h.adapter.poster.post(place, [Reply("Ev2's answer")], await h.adapter.poster.placeholder(place, "Ev2"),
                                        "Ev2")
            posts_before = len(slack.calls_to("chat.postMessage"))
            for event_id, text in (("Ev1", "Ev1's answer"), ("Ev2", "Ev2's answer"), ("Ev1", "Ev1's answer")):
                assert await h.engine.notify(key, Reply(text), "recovered", event_id=event_id, part=0)
            return await h.texts(thread), len(slack.calls_to("chat.postMessage")) - posts_before

    texts, posted = run(scenario())
    assert texts == ["Hi! Orders food.\n\nHow many?", "Ev1's answer", "Ev2's answer"]
    assert posted == 0  # Ev1 took its placeholder's place; Ev2 and Ev1 again were already there


def test_in_a_direct_message_a_recovered_reply_already_posted_is_not_posted_again(slack, shop_config):
    async def scenario():
        async with SlackHarness(slack, shop_config(), build_agent=build_agent) as h:
            key, place = SessionKey("slack", TEAM_ID, "D1", ""), Place(TEAM_ID, "D1", None)
            await h.adapter.poster.post(place, [Reply("Ev2's answer")], None, "Ev2")
            await h.adapter.poster.placeholder(place, "Ev3")
            for event_id in ("Ev2", "Ev3"):
                assert await h.engine.notify(key, Reply(f"{event_id}'s answer"), "recovered", event_id=event_id)
            return [m["text"] for m in slack.messages("D1")]

    assert run(scenario()) == ["Ev2's answer", "Ev3's answer"]


def test_a_turn_whose_placeholder_slack_refused_still_answers(slack, shop_config):
    async def scenario():
        async with SlackHarness(slack, shop_config(), build_agent=build_agent) as h:
            slack.fail("chat.postMessage", "ratelimited")  # the "thinking" message
            thread = await h.mention(ORDER[0])
            await h.settle()
            return await h.texts(thread)

    assert run(scenario()) == ["Hi! Orders food.\n\nHow many?"]
