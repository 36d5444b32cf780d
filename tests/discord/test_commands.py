"""``/genie``: synced at start-up, ephemeral answers, the engine's admin rules, a broken reload."""

from __future__ import annotations

import re

import discord
import pytest

from genie_bot.engine.admin import SUBCOMMANDS
from tests.fakes.discord_server import FakeDiscord
from tests.fakes.discord_state import FakeUser

from .harness import ENROLMENT, Deployment, async_test, followups, serving, start_thread

MANAGE_SERVER = discord.Permissions(manage_guild=True).value


async def genie(fake: FakeDiscord, subcommand: str, user: FakeUser, channel_id: int, **options: str) -> str:
    """Run ``/genie <subcommand>`` as ``user``; its (ephemeral) answer."""
    interaction = await fake.invoke_command("genie", options, subcommand=subcommand, user=user, channel_id=channel_id)
    [callback] = await fake.wait_for_request("POST", interaction.callback_path)
    assert callback.json == {"type": 5, "data": {"flags": 64}}  # "thinking", privately: a reload may be slow
    [answer] = await followups(fake, interaction.token)
    assert answer["flags"] == 64
    return answer["content"]


def command_syncs(fake: FakeDiscord) -> list[str]:
    return [c.path for c in fake.requests if c.method == "PUT"]


@async_test
async def test_genie_is_synced_to_the_configured_guilds_at_start_up(deployment: Deployment) -> None:
    async with FakeDiscord() as fake, serving(deployment.config(fake, command_guilds=[str(fake.guild_id)])):
        assert command_syncs(fake) == [f"/applications/{fake.application_id}/guilds/{fake.guild_id}/commands"]
        [group] = fake.world.commands[fake.guild_id]
        assert group["name"] == "genie"
        subcommands = {option["name"]: option for option in group["options"]}
        assert sorted(subcommands) == sorted(SUBCOMMANDS)
        assert [(o["name"], o["type"], o["required"]) for o in subcommands["reload"]["options"]] == [
            ("agent", 3, False)]


@async_test
async def test_without_command_guilds_genie_is_synced_globally(deployment: Deployment) -> None:
    async with FakeDiscord() as fake, serving(deployment.config(fake)):
        assert command_syncs(fake) == [f"/applications/{fake.application_id}/commands"]
        assert (await genie(fake, "agents", fake.tester, fake.channel_id)).startswith("Agents:\n• courses")


@async_test
async def test_a_command_guild_the_bot_is_not_in_stops_the_start_with_a_hint(deployment: Deployment) -> None:
    async with FakeDiscord() as fake:
        with pytest.raises(RuntimeError, match=r"cannot sync /genie to guild 42 .*applications\.commands scope"):
            async with serving(deployment.config(fake, command_guilds=[42])):
                pass


@async_test
async def test_each_genie_command_with_and_without_admin_rights(deployment: Deployment) -> None:
    async with FakeDiscord() as fake:
        moderator = fake.create_user("moderator", guild_id=fake.guild_id, permissions=MANAGE_SERVER)
        admin = fake.create_user("configured-admin", guild_id=fake.guild_id)
        bob = fake.create_user("bob", guild_id=fake.guild_id)
        config = deployment.config(fake, admins=(admin.id,), command_guilds=[fake.guild_id])
        async with serving(config) as bot:
            chat, _ = await start_thread(fake, ENROLMENT[0])  # the tester's conversation
            thread = chat.channel_id
            version = (await bot.engine.status()).agents["courses"]

            for subcommand in ("reload", "status", "state"):
                refusal = f"Sorry, only admins can use /genie {subcommand}."
                assert await genie(fake, subcommand, fake.tester, thread) == refusal
            for user in (moderator, admin):
                assert await genie(fake, "reload", user, thread) == f"courses: {version} -> {version} (unchanged)"
                assert "live sessions: 1;" in await genie(fake, "status", user, thread)
                assert (await genie(fake, "state", user, thread)).startswith("Agent `courses`")

            for user in (fake.tester, admin):
                agents = await genie(fake, "agents", user, thread)
                assert agents == f"Agents:\n• courses (version {version}) - answers here"

            assert (await genie(fake, "reset", bob, thread)).startswith("Sorry, only the person who started")
            assert (await genie(fake, "reset", moderator, thread)).startswith("Done")
            assert (await genie(fake, "reset", fake.tester, thread)).startswith("Done")
            assert await genie(fake, "state", admin, thread) == "This conversation has no state yet."


@async_test
async def test_manage_server_grants_nothing_when_the_setting_is_off(deployment: Deployment) -> None:
    async with FakeDiscord() as fake:
        moderator = fake.create_user("moderator", guild_id=fake.guild_id, permissions=MANAGE_SERVER)
        admin = fake.create_user("configured-admin", guild_id=fake.guild_id)
        config = deployment.config(fake, admins=(admin.id,), allow_manage_server_admins=False)
        async with serving(config):
            refusal = "Sorry, only admins can use /genie status."
            assert await genie(fake, "status", moderator, fake.channel_id) == refusal
            assert "live sessions" in await genie(fake, "status", admin, fake.channel_id)


@async_test
async def test_a_reload_with_a_broken_worksheet_reports_where_and_keeps_serving(deployment: Deployment) -> None:
    async with FakeDiscord() as fake:
        admin = fake.create_user("configured-admin", guild_id=fake.guild_id)
        async with serving(deployment.config(fake, admins=(admin.id,))):
            chat, _ = await start_thread(fake, ENROLMENT[0])
            spec = deployment.agent_dir / "agent.yaml"
            spec.write_text(spec.read_text(encoding="utf-8").replace("type: int\n", "type: integr\n"), encoding="utf-8")

            report = await genie(fake, "reload", admin, chat.channel_id, agent="courses")

            assert report.startswith("reload failed; the running versions keep serving:")
            assert re.search(r"agent\.yaml:\d+:\d+: unknown type 'integr'", report), report
            assert "letter grade" in (await chat.say(ENROLMENT[1]))["content"]
