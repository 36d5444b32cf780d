"""A busy Discord server: threads other people opened, system messages, attachments, bare mentions,
values that try to be links or to display backwards, rate limits, a database that blinks, replies
Discord refused, summaries asked again, and 400-row answers."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import Any

from sqlalchemy import text as sql_text

from genie_bot.adapters.discord.adapter import NOT_RECORDED
from genie_bot.adapters.discord.poster import SHOWN_AGAIN
from genie_bot.adapters.discord.render import MESSAGE_LIMIT
from genie_bot.adapters.incoming import ATTACHMENTS_ONLY
from genie_bot.engine import Engine
from tests.adapters.agents import ROWS, long_agent
from tests.engine.support import ORDER, FakeClock, build_agent, calls
from tests.fakes.discord_server import FakeDiscord

from .harness import (Chat, Deployment, async_test, buttons, custom_id, eventually, last_message_with_buttons,
                      original_edit, serving, shop_config, start_thread)

PIN, MEMBER_ADDED = 6, 1
EVIL = "[free pizza](https://evil.example)"
SPOOFED = "Ann\u202eazzip\u202c"
"""Shows as "Ann" and "pizza" reversed: the override reverses what follows it on screen."""


def bot_messages(fake: FakeDiscord, channel_id: int) -> list[dict]:
    return [m for m in fake.messages.values()
            if m["channel_id"] == str(channel_id) and m["author"]["id"] == str(fake.bot_user.id)]


@async_test
async def test_a_thread_someone_else_opened_is_the_bots_once_it_answered_there(tmp_path: Path) -> None:
    async with FakeDiscord() as fake:
        lunch = fake.world.create_thread(fake.channel_id, "lunch orders")
        lunch["owner_id"] = str(fake.tester.id)  # a thread a person opened (a forum post is one too)
        config = shop_config(fake, tmp_path)
        chat = Chat(fake, int(lunch["id"]))
        async with serving(config, build_agent=build_agent):
            asked = await chat.say(ORDER[0], mention=True)
            answered = await chat.say(ORDER[1])  # no mention: the bot's thread now
        async with serving(config, build_agent=build_agent) as restarted:
            card = await chat.say(ORDER[2])  # a new process: the engine knows the thread
        assert (asked["content"], answered["content"]) == ("Hi! Orders food.\n\nHow many?",
                                                          "What is the name for the order?")
        assert card["components"] and restarted.engine.turns_run == 1
        assert [c for c in fake.requests if c.path.endswith("/threads")] == []


@async_test
async def test_system_messages_start_no_turn(deployment: Deployment) -> None:
    async with FakeDiscord() as fake, serving(deployment.config(fake)) as bot:
        chat, _ = await start_thread(fake, "I want to enroll in courses")
        await fake.send_message(chat.channel_id, "", type=PIN)
        await fake.send_message(chat.channel_id, fake.bot_user.mention, type=MEMBER_ADDED)  # the bot was added
        answer = await chat.say("CS 224V")
        assert "letter grade" in answer["content"] and bot.engine.turns_run == 2
        assert len(bot_messages(fake, chat.channel_id)) == 2


@async_test
async def test_attachments_without_words_get_a_short_explanation_and_no_turn(deployment: Deployment) -> None:
    async with FakeDiscord() as fake, serving(deployment.config(fake)) as bot:
        chat, _ = await start_thread(fake, "I want to enroll in courses")
        await fake.send_message(chat.channel_id, "", attachments=["transcript.png"])
        explained = await chat.next()
        await fake.send_message(fake.channel_id, "", mentions_bot=True, attachments=["menu.png"])
        [in_channel] = await fake.wait_for_request("POST", rf"/channels/{fake.channel_id}/messages")
        assert explained["content"] == in_channel.json["content"] == ATTACHMENTS_ONLY
        assert bot.engine.turns_run == 1


@async_test
async def test_a_bare_mention_is_greeted_without_an_apology(tmp_path: Path) -> None:
    async with FakeDiscord() as fake, serving(shop_config(fake, tmp_path), build_agent=build_agent) as bot:
        chat, greeting = await start_thread(fake, "")
        await chat.say(ORDER[0])
        again = await chat.say("", mention=True)  # "@genie?" in the middle of the order
        assert greeting["content"] == "Hi! Orders food.\n\nWhat is the dish? (Pizza, Pasta or Salad)"
        assert again["content"] == "How many?"
        with bot.engine.db.read() as conn:  # what the agent was told: nothing (it asks its question again)
            said = conn.execute(sql_text("SELECT text FROM genie_events ORDER BY sequence")).scalars().all()
        assert said == ["", ORDER[0], ""]


@async_test
async def test_values_users_typed_are_shown_as_typed(tmp_path: Path) -> None:
    async with FakeDiscord() as fake, serving(shop_config(fake, tmp_path), build_agent=build_agent):
        chat, _ = await start_thread(fake, ORDER[0])
        await chat.say(ORDER[1])
        await chat.say(f"order_0.name = '{EVIL} {SPOOFED}'")
        card = last_message_with_buttons(fake, chat.channel_id)
        click = await fake.click_button(custom_id(card, "confirm"), message_id=int(card["id"]))
        await original_edit(fake, click.token)
        done = await chat.next()
        summary = card["embeds"][0]["description"]
        assert r"**Name**: \[free pizza](https://evil.example) Annazzip" in summary
        assert done["content"] == r"Order Pizza-2-\[free pizza](https://evil.example) Annazzip placed"
        assert not any("\u202e" in (m["content"] + str(m["embeds"])) for m in bot_messages(fake, chat.channel_id))


@async_test
async def test_a_rate_limited_reply_arrives_once_after_retry_after(deployment: Deployment) -> None:
    async with FakeDiscord() as fake, serving(deployment.config(fake)):
        fake.rate_limit("POST", r"/channels/\d+/messages", retry_after=0.05)
        message = await fake.send_message(fake.channel_id, "I want to enroll in courses", mentions_bot=True)
        posts = await fake.wait_for_request("POST", rf"/channels/{message['id']}/messages", count=2)
        assert [c.status for c in posts] == [429, 200] and posts[1].json == posts[0].json  # sent again, as it was
        [greeting] = bot_messages(fake, int(message["id"]))
        assert greeting["content"].startswith("Hi!")


def database_away(outages: int) -> Callable[[Engine], Engine]:
    """The real engine, whose inbox table is away (renamed) while the first ``outages`` messages are recorded."""

    def wrap(engine: Engine) -> Engine:
        record, left = engine.inbox.accept, [outages]

        def record_during_outage(*args: Any) -> bool:
            if not left[0]:
                return record(*args)
            left[0] -= 1
            rename(engine, "genie_events", "genie_events_away")
            try:
                return record(*args)
            finally:
                rename(engine, "genie_events_away", "genie_events")

        engine.inbox.accept = record_during_outage
        return engine

    return wrap


def rename(engine: Engine, table: str, to: str) -> None:
    with engine.db.write() as conn:
        conn.execute(sql_text(f"ALTER TABLE {table} RENAME TO {to}"))


@async_test
async def test_a_message_whose_recording_failed_is_recorded_on_the_next_try(deployment: Deployment) -> None:
    async with FakeDiscord() as fake, serving(deployment.config(fake), database_away(1)) as bot:
        _, greeting = await start_thread(fake, "I want to enroll in courses")
        assert greeting["content"].startswith("Hi!") and bot.engine.turns_run == 1


@async_test
async def test_a_message_that_cannot_be_recorded_asks_its_author_to_send_it_again(deployment: Deployment) -> None:
    async with FakeDiscord() as fake, serving(deployment.config(fake), database_away(2)) as bot:
        chat, answer = await start_thread(fake, "I want to enroll in courses")
        assert answer["content"] == NOT_RECORDED and bot.engine.turns_run == 0
        assert (await chat.say("I want to enroll in courses"))["content"].startswith("Hi!")  # sent again


@async_test
async def test_a_reply_discord_refused_is_posted_again_from_the_outbox(tmp_path: Path) -> None:
    clock = FakeClock()
    async with FakeDiscord() as fake, serving(shop_config(fake, tmp_path), build_agent=build_agent,
                                              clock=clock) as bot:
        fake.fail("POST", r"/channels/\d+/messages", status=503)
        message = await fake.send_message(fake.channel_id, ORDER[0], mentions_bot=True)
        chat = Chat(fake, int(message["id"]))
        await fake.wait_for_request("POST", rf"/channels/{chat.channel_id}/messages")  # refused
        await eventually(lambda: bot.engine.outbox.failures(("discord", message["id"])) == 1)
        assert await bot.engine.redeliver() == 0  # not yet: the first retry waits a few seconds
        clock.advance(seconds=5)
        assert await bot.engine.redeliver() == 1
        assert (await chat.next())["content"] == "Hi! Orders food.\n\nHow many?"
        assert len(bot_messages(fake, chat.channel_id)) == 1


@async_test
async def test_a_summary_asked_again_leaves_one_live_card_and_the_click_settles_it(tmp_path: Path) -> None:
    async with FakeDiscord() as fake, serving(shop_config(fake, tmp_path), build_agent=build_agent):
        chat, _ = await start_thread(fake, ORDER[0])
        await chat.say(ORDER[1])
        await chat.say(ORDER[2])
        first = last_message_with_buttons(fake, chat.channel_id)
        await chat.say("# nothing to change")  # the same summary is asked again
        second = last_message_with_buttons(fake, chat.channel_id)
        assert second["id"] != first["id"] and custom_id(second, "confirm") == custom_id(first, "confirm")
        await fake.wait_for_request("PATCH", rf"/channels/{chat.channel_id}/messages/{first['id']}")
        older = fake.messages[int(first["id"])]
        assert all(b["disabled"] for b in buttons(older))
        assert older["embeds"][0]["fields"][0]["value"] == SHOWN_AGAIN
        assert [m["id"] for m in bot_messages(fake, chat.channel_id) if m["components"] and
                not all(b.get("disabled") for b in buttons(m))] == [second["id"]]
        click = await fake.click_button(custom_id(second, "confirm"), message_id=int(second["id"]))
        assert all(b["disabled"] for b in buttons(await original_edit(fake, click.token)))
        assert (await chat.next())["content"] == "Order Pizza-2-Ann placed" and len(calls()) == 1


@async_test
async def test_a_400_row_answer_is_at_most_three_messages(tmp_path: Path) -> None:
    async with FakeDiscord() as fake, serving(shop_config(fake, tmp_path), build_agent=long_agent):
        chat, first = await start_thread(fake, ORDER[0] + " # long")
        rest = [await chat.next(), await chat.next()]
        texts = [m["content"] for m in [first, *rest]]
        assert all(len(t) <= MESSAGE_LIMIT for t in texts) and texts[-1].endswith("How many?")
        assert "more lines not shown. Ask me to narrow it down._" in texts[-1] and ROWS[-1] not in "".join(texts)
        assert len(bot_messages(fake, chat.channel_id)) == 3
