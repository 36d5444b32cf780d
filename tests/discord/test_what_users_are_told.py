"""In Discord, what the user is told is what happened: a lone surrogate is answered, a mention of
the bot's role is a mention, an edit gets a note and no turn, and a card never says "Done" for a
confirmation that expired or that a reload of the agent superseded."""

from __future__ import annotations

from pathlib import Path

from genie_bot.adapters.incoming import EDIT_NOT_APPLIED
from tests.engine.support import ORDER, SHOP_YAML, FakeClock, build_agent, calls
from tests.fakes.discord_server import FakeDiscord

from .harness import (Chat, Deployment, async_test, custom_id, enroll, last_message_with_buttons, original_edit,
                      serving, shop_config, start_thread)


def bots_role(fake: FakeDiscord) -> int:
    """The role Discord gives the bot in its guild (what "@genie" autocompletes to first)."""
    roles = fake.world.guilds[fake.guild_id].roles
    return next(int(role["id"]) for role in roles.values() if role.get("tags", {}).get("bot_id") == str(fake.bot_user.id))


@async_test
async def test_a_lone_surrogate_is_repaired_and_answered(deployment: Deployment) -> None:
    async with FakeDiscord() as fake, serving(deployment.config(fake)) as bot:
        chat, greeting = await start_thread(fake, "I want to enroll in courses \ud83d")
        [thread] = await fake.wait_for_request("POST", rf"/channels/{fake.channel_id}/messages/{chat.channel_id}/threads")
        assert greeting["content"].startswith("Hi! I'm the course enrollment assistant.")
        assert thread.json["name"] == "I want to enroll in courses \ufffd" and bot.engine.turns_run == 1


@async_test
async def test_a_mention_of_the_bots_role_starts_a_conversation(deployment: Deployment) -> None:
    async with FakeDiscord() as fake, serving(deployment.config(fake)) as bot:
        message = await fake.send_message(fake.channel_id, f"<@&{bots_role(fake)}> I want to enroll in courses")
        greeting = await Chat(fake, int(message["id"])).next()
        assert greeting["content"].startswith("Hi! I'm the course enrollment assistant.")
        assert bot.engine.turns_run == 1


@async_test
async def test_an_edit_of_a_message_the_bot_read_gets_a_note_and_starts_no_turn(deployment: Deployment) -> None:
    async with FakeDiscord() as fake, serving(deployment.config(fake)) as bot:
        chat, _ = await start_thread(fake, "I want to enroll in courses")
        first = int(chat.channel_id)  # the thread started from the mention takes its id
        await chat.say("CS 224V")
        answered = [m for m in fake.messages.values() if m["channel_id"] == str(chat.channel_id)
                    and m["author"]["id"] == str(fake.tester.id)][-1]
        turns = bot.engine.turns_run
        await fake.edit_message(int(answered["id"]), "CS 107")
        assert (await chat.next())["content"] == EDIT_NOT_APPLIED
        await fake.edit_message(first, f"{fake.bot_user.mention} I want to drop a course")  # the first message
        assert (await chat.next())["content"] == EDIT_NOT_APPLIED
        assert bot.engine.turns_run == turns


@async_test
async def test_an_expired_confirmation_is_shown_as_no_longer_valid(deployment: Deployment) -> None:
    clock = FakeClock()
    async with FakeDiscord() as fake, serving(deployment.config(fake), clock=clock):
        _, summary = await enroll(fake)
        clock.advance(minutes=16)
        click = await fake.click_button(custom_id(summary, "confirm"), message_id=int(summary["id"]))
        edited = await original_edit(fake, click.token)
        assert edited["embeds"][0]["fields"][0]["value"] == "⌛ **No longer valid** (it expired)"


@async_test
async def test_a_reload_that_asks_for_more_leaves_the_card_no_longer_valid(tmp_path: Path) -> None:
    async with FakeDiscord() as fake:
        config = shop_config(fake, tmp_path)
        async with serving(config, build_agent=build_agent) as bot:
            chat, _ = await start_thread(fake, ORDER[0])
            for text in ORDER[1:]:
                await chat.say(text)
            card = last_message_with_buttons(fake, chat.channel_id)
            (tmp_path / "shop" / "agent.yaml").write_text(SHOP_YAML.replace(
                "      - {name: note, type: str, required: false, dont_ask: true}",
                "      - {name: phone, type: str, description: a phone number for the order}\n"
                "      - {name: note, type: str, required: false, dont_ask: true}").lstrip("\n"), encoding="utf-8")
            assert (await bot.engine.reload()).ok
            click = await fake.click_button(custom_id(card, "confirm"), message_id=int(card["id"]))
            edited = await original_edit(fake, click.token)
            asked = await chat.next()
        assert edited["embeds"][0]["fields"][0]["value"] == "⌛ **No longer valid** (the agent was updated)"
        assert "phone number" in asked["content"].lower() and calls() == []
