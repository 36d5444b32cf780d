"""Conversations over Discord: threads, channels and DMs as sessions, who the bot listens to,
typing, the course enrollment ending with a Confirm click, and engine notifications."""

from __future__ import annotations

import datetime as dt
import re

from genie_bot.engine import Reply, SessionKey
from genie_bot.engine.engine import utcnow
from genie_bot.store import sessions
from genie_bot.submissions import submissions
from tests.fakes.discord_server import FakeDiscord

from .harness import ENROLMENT, Chat, Deployment, async_test, buttons, custom_id, enroll, original_edit, serving, \
    start_thread


def session_turns(engine, key: SessionKey) -> int | None:
    with engine.db.read() as conn:
        row = sessions.load(conn, str(key))
    return row.turns if row else None


@async_test
async def test_course_enrollment_in_a_thread_ends_with_a_confirm_click(deployment: Deployment) -> None:
    async with FakeDiscord() as fake, serving(deployment.config(fake)) as bot:
        chat, summary = await enroll(fake)

        thread = chat.channel_id
        await fake.wait_for_request("POST", rf"/channels/{fake.channel_id}/messages/{thread}/threads")
        await fake.wait_for_request("POST", rf"/channels/{thread}/typing", count=len(ENROLMENT))
        [embed] = summary["embeds"]
        assert embed["title"] == "Enroll a student in courses for the coming quarter"
        assert "CS 224V" in embed["description"] and "ann@stanford.edu" in embed["description"]
        success, danger = 3, 4
        assert [(b["label"], b["style"]) for b in buttons(summary)] == [("Confirm", success), ("Cancel", danger)]
        assert submissions("enrollment") == []

        click = await fake.click_button(custom_id(summary, "confirm"), message_id=int(summary["id"]))
        [callback] = await fake.wait_for_request("POST", click.callback_path)
        assert callback.json["type"] == 6  # deferred message update: acknowledged before the engine runs
        edited = await original_edit(fake, click.token)
        assert all(b["disabled"] for b in buttons(edited))
        assert edited["embeds"][0]["fields"] == [
            {"name": "Outcome", "value": f"✅ **Done** (confirmed by <@{fake.tester.id}>)", "inline": False}]
        done = await chat.next()
        assert "You're enrolled! Your enrollment id is ENR-00001" in done["content"]

        assert len(submissions("enrollment")) == 1
        key = SessionKey("discord", str(fake.guild_id), str(fake.channel_id), str(thread))
        assert session_turns(bot.engine, key) == len(ENROLMENT) + 1
        assert bot.engine.turns_run == len(ENROLMENT) + 1  # the bot's own messages in its thread start no turn
        assert fake.unhandled_requests == []


@async_test
async def test_without_threads_a_channel_is_one_session_and_a_dm_another(deployment: Deployment) -> None:
    async with FakeDiscord() as fake, serving(deployment.config(fake, use_threads=False)) as bot:
        general = Chat(fake, fake.channel_id)
        greeting = await general.say("I want to enroll in courses", mention=True)
        assert greeting["content"].startswith("Hi! I'm the course enrollment assistant.")
        await fake.send_message(fake.channel_id, "CS 224V")  # no mention: not for the bot
        assert "letter grade" in (await general.say("CS 224V", mention=True))["content"]

        dm = Chat(fake, fake.dm_channel(fake.tester))
        assert (await dm.say("I want to enroll in courses"))["content"].startswith("Hi!")

        channel_key = SessionKey("discord", str(fake.guild_id), str(fake.channel_id))
        dm_key = SessionKey("discord", "dm", str(dm.channel_id))
        assert (session_turns(bot.engine, channel_key), session_turns(bot.engine, dm_key)) == (2, 1)
        assert bot.engine.turns_run == 3
        threads = [c for c in fake.requests if c.path.endswith("/threads")]
        assert threads == []


@async_test
async def test_bots_broadcasts_and_other_threads_are_ignored(deployment: Deployment) -> None:
    async with FakeDiscord() as fake:
        helper = fake.create_user("helper-bot", guild_id=fake.guild_id)
        helper.bot = True
        others = fake.world.create_thread(fake.channel_id, "humans only")
        others["owner_id"] = str(fake.tester.id)
        async with serving(deployment.config(fake)) as bot:
            await fake.send_message(fake.channel_id, "enroll me", author=helper, mentions_bot=True)
            await fake.send_message(fake.channel_id, "@everyone enroll me")
            await fake.send_message(int(others["id"]), "enroll me")

            await Chat(fake, fake.dm_channel(fake.tester)).say("I want to enroll in courses")

            assert bot.engine.turns_run == 1
            posted = {c.path for c in fake.requests if c.method == "POST"}
            assert not any(str(fake.channel_id) in path or others["id"] in path for path in posted), posted


@async_test
async def test_engine_notifications_reach_the_thread_split_within_discords_limit(deployment: Deployment) -> None:
    closing = "\n\n".join(f"Paragraph {i}: " + "lorem ipsum " * 40 for i in range(9))
    async with FakeDiscord() as fake, serving(deployment.config(fake, closing_message=closing)) as bot:
        chat, _ = await start_thread(fake, ENROLMENT[0])

        assert await bot.engine.maintenance.close_idle_sessions(now=utcnow() + dt.timedelta(days=2)) == 1

        pieces = [(await chat.next())["content"] for _ in range(3)]
        assert all(len(piece) <= 2000 for piece in pieces)
        assert re.sub(r"\s+", " ", " ".join(pieces)) == re.sub(r"\s+", " ", closing)


@async_test
async def test_a_recovered_reply_already_posted_is_not_posted_again(deployment: Deployment) -> None:
    async with FakeDiscord() as fake, serving(deployment.config(fake)) as bot:
        first = await fake.send_message(fake.channel_id, ENROLMENT[0], author=fake.tester, mentions_bot=True)
        chat = Chat(fake, int(first["id"]))
        answer = await chat.next()
        key = SessionKey("discord", str(fake.guild_id), str(fake.channel_id), str(chat.channel_id))

        # the outbox re-sends it: the process that posted it died before acknowledging it
        assert await bot.engine.notify(key, Reply(answer["content"]), "recovered", event_id=first["id"], part=0)
        assert await bot.engine.notify(key, Reply("A reply never posted."), "recovered", event_id="123", part=0)
        await chat.next()
        await chat.next()

        posted = [m["content"] for m in fake.world.messages.values()
                  if m["channel_id"] == str(chat.channel_id) and m["author"]["id"] == str(fake.world.bot.id)]
        assert posted == [answer["content"], "A reply never posted."]
