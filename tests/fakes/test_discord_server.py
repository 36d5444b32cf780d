"""The real discord.py client against FakeDiscord: proves the fake is faithful enough to build on."""

from __future__ import annotations

import asyncio
import functools
import re
from collections.abc import Awaitable, Callable

import discord
import pytest
from discord import app_commands
from discord.ext import commands

from tests.fakes.discord_gateway import MESSAGE_CONTENT
from tests.fakes.discord_server import FakeDiscord

TEST_TIMEOUT = 20.0
FAST_READY = {"guild_ready_timeout": 0.05}  # discord.py waits 2s for more GUILD_CREATEs by default


def async_test(test: Callable[[], Awaitable[None]]) -> Callable[[], None]:
    """Run an async test in a fresh loop with a hard timeout, so nothing can hang the suite."""

    @functools.wraps(test)
    def run() -> None:
        asyncio.run(asyncio.wait_for(test(), TEST_TIMEOUT))

    return run


async def eventually(condition: Callable[[], bool], timeout: float = 5.0) -> None:
    async with asyncio.timeout(timeout):
        while not condition():
            await asyncio.sleep(0.01)


class ConfirmButton(discord.ui.DynamicItem[discord.ui.Button], template=r"genie:confirm:(?P<pending_id>[0-9a-f]+)"):
    """A persistent button: any process can answer clicks on messages sent by an earlier one."""

    def __init__(self, pending_id: str) -> None:
        super().__init__(discord.ui.Button(label="Confirm", custom_id=f"genie:confirm:{pending_id}"))
        self.pending_id = pending_id

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction, item: discord.ui.Button, match: re.Match[str]
    ) -> ConfirmButton:
        return cls(match["pending_id"])

    async def callback(self, interaction: discord.Interaction) -> None:
        if self.pending_id == "dead":
            await interaction.response.send_message("That request expired.", ephemeral=True)
        else:
            await interaction.response.edit_message(content=f"Confirmed {self.pending_id}.", view=None)


class PersistentClient(discord.Client):
    async def setup_hook(self) -> None:
        self.add_dynamic_items(ConfirmButton)


def message_intents() -> discord.Intents:
    intents = discord.Intents.default()
    intents.message_content = True
    return intents


@async_test
async def test_client_connects_receives_a_message_and_replies_with_typing() -> None:
    async with FakeDiscord() as fake:
        client = discord.Client(intents=message_intents(), **FAST_READY)
        own_echo = asyncio.Event()

        @client.event
        async def on_message(message: discord.Message) -> None:
            if message.author == client.user:
                own_echo.set()  # Discord echoes the bot's own messages; bots must ignore them
                return
            async with message.channel.typing():
                await message.channel.send(f"you said: {message.content}")

        async with fake.run(client):
            assert client.user.id == fake.bot_user.id
            assert fake.identifies[0].intents & MESSAGE_CONTENT
            guild = client.get_guild(fake.guild_id)
            assert guild.get_channel(fake.channel_id).name == "general"

            await fake.send_message(fake.channel_id, "hello genie")

            await fake.wait_for_request("POST", rf"/channels/{fake.channel_id}/typing")
            [reply] = await fake.wait_for_request("POST", rf"/channels/{fake.channel_id}/messages")
            assert reply.json["content"] == "you said: hello genie"
            assert reply.headers["Authorization"] == f"Bot {fake.token}"
            await asyncio.wait_for(own_echo.wait(), 5)
        assert fake.unhandled_requests == []


@async_test
async def test_guild_message_content_needs_the_intent_unless_the_bot_is_mentioned() -> None:
    async with FakeDiscord() as fake:
        client = discord.Client(intents=discord.Intents.default(), **FAST_READY)
        received: asyncio.Queue[discord.Message] = asyncio.Queue()

        @client.event
        async def on_message(message: discord.Message) -> None:
            await received.put(message)

        async with fake.run(client):
            await fake.send_message(fake.channel_id, "secret plans")
            plain = await asyncio.wait_for(received.get(), 5)
            await fake.send_message(fake.channel_id, "status please", mentions_bot=True)
            mentioned = await asyncio.wait_for(received.get(), 5)

        assert plain.content == ""
        assert mentioned.content == f"<@{fake.bot_user.id}> status please"
        assert client.user in mentioned.mentions


@async_test
async def test_member_cache_is_filled_by_chunking_only_with_the_members_intent() -> None:
    async with FakeDiscord() as fake:
        moderator = fake.create_user("mod", guild_id=fake.guild_id,
                                     permissions=discord.Permissions(manage_guild=True).value)
        intents = discord.Intents.default()
        intents.members = True
        async with fake.run(discord.Client(intents=intents, **FAST_READY)) as client:
            guild = client.get_guild(fake.guild_id)
            assert guild.chunked and guild.get_member(fake.tester.id).name == "tester"
            assert guild.get_member(moderator.id).guild_permissions.manage_guild
            assert not guild.get_member(fake.tester.id).guild_permissions.manage_guild

        async with fake.run(discord.Client(intents=discord.Intents.default(), **FAST_READY)) as client:
            assert [m.id for m in client.get_guild(fake.guild_id).members] == [fake.bot_user.id]


@async_test
async def test_threads_dms_and_unknown_routes() -> None:
    async with FakeDiscord() as fake:
        client = discord.Client(intents=message_intents(), **FAST_READY)
        threads_created: asyncio.Queue[discord.Thread] = asyncio.Queue()
        thread_messages: asyncio.Queue[discord.Message] = asyncio.Queue()

        @client.event
        async def on_thread_create(thread: discord.Thread) -> None:
            await threads_created.put(thread)

        @client.event
        async def on_message(message: discord.Message) -> None:
            if message.author.bot:
                return
            if isinstance(message.channel, discord.Thread):
                await thread_messages.put(message)
            elif message.content == "!start":
                thread = await message.create_thread(name="genie task")
                await thread.send("Let's fill in the worksheet.")
                await message.author.send("I opened a thread for you.")
                await message.channel.create_thread(name="notes", type=discord.ChannelType.public_thread)

        async with fake.run(client):
            start = await fake.send_message(fake.channel_id, "!start")
            channel = fake.channel_id
            await fake.wait_for_request("POST", rf"/channels/{channel}/messages/{start['id']}/threads")
            thread = await asyncio.wait_for(threads_created.get(), 5)
            assert (thread.id, thread.parent_id, thread.name) == (int(start["id"]), channel, "genie task")
            [opened] = await fake.wait_for_request("POST", r"/users/@me/channels")
            assert opened.json == {"recipient_id": fake.tester.id}
            dm = fake.dm_channel(fake.tester)
            [dm_call] = await fake.wait_for_request("POST", rf"/channels/{dm}/messages")
            assert dm_call.json["content"] == "I opened a thread for you."
            [standalone] = await fake.wait_for_request("POST", rf"/channels/{channel}/threads")
            assert standalone.json["name"] == "notes"
            assert (await asyncio.wait_for(threads_created.get(), 5)).name == "notes"

            await fake.send_message(thread.id, "name: Ada")
            in_thread = await asyncio.wait_for(thread_messages.get(), 5)
            assert in_thread.channel.id == thread.id and in_thread.content == "name: Ada"

            with pytest.raises(discord.NotFound):
                await client.fetch_guild(fake.guild_id)
            assert [(c.method, c.path) for c in fake.unhandled_requests] == [("GET", f"/guilds/{fake.guild_id}")]
            with pytest.raises(AssertionError, match="requests seen"):
                await fake.wait_for_request("DELETE", r"/channels/\d+", timeout=0.05)


@async_test
async def test_dynamic_button_click_on_a_message_from_an_earlier_process() -> None:
    async with FakeDiscord() as fake:
        async with fake.run(PersistentClient(intents=discord.Intents.default(), **FAST_READY)):
            click = await fake.click_button("genie:confirm:abc123")
            [callback] = await fake.wait_for_request("POST", click.callback_path)
            assert callback.json["type"] == 7  # UPDATE_MESSAGE, i.e. edit_message
            assert callback.json["data"]["content"] == "Confirmed abc123."
            assert fake.messages[click.message_id]["content"] == "Confirmed abc123."
            assert fake.messages[click.message_id]["components"] == []

            expired = await fake.click_button("genie:confirm:dead")
            [callback] = await fake.wait_for_request("POST", expired.callback_path)
            assert callback.json["type"] == 4  # CHANNEL_MESSAGE_WITH_SOURCE
            assert callback.json["data"]["flags"] == 64  # ephemeral
            assert callback.json["data"]["content"] == "That request expired."


class GenieBot(commands.Bot):
    """A bot with an admin-only ``/genie`` group synced to one guild."""

    def __init__(self, guild_id: int) -> None:
        super().__init__(command_prefix="!", intents=message_intents(), **FAST_READY)
        self.guild_id = guild_id

    async def setup_hook(self) -> None:
        genie = app_commands.Group(name="genie", description="Genie administration")

        @genie.command(description="Reload an agent's worksheets")
        @app_commands.checks.has_permissions(manage_guild=True)
        async def reload(interaction: discord.Interaction, agent: str) -> None:
            await interaction.response.send_message(f"Reloaded {agent}.", ephemeral=True)

        @reload.error
        async def reload_denied(interaction: discord.Interaction, error: app_commands.AppCommandError) -> None:
            await interaction.response.send_message("You need Manage Server.", ephemeral=True)

        @genie.command(description="Summarise open tasks")
        async def status(interaction: discord.Interaction) -> None:
            await interaction.response.defer()
            await interaction.followup.send("3 tasks open.")

        guild = discord.Object(self.guild_id)
        self.tree.add_command(genie, guild=guild)
        await self.tree.sync(guild=guild)


@async_test
async def test_app_command_group_synced_to_a_guild_answers_ephemerally_and_defers() -> None:
    async with FakeDiscord() as fake:
        admin = fake.create_user("admin", guild_id=fake.guild_id,
                                 permissions=discord.Permissions(manage_guild=True).value)
        async with fake.run(GenieBot(fake.guild_id)):
            [sync] = await fake.wait_for_request(
                "PUT", rf"/applications/{fake.application_id}/guilds/{fake.guild_id}/commands")
            [group] = sync.json
            assert group["name"] == "genie"
            assert sorted(option["name"] for option in group["options"]) == ["reload", "status"]

            allowed = await fake.invoke_command("genie", {"agent": "foo"}, subcommand="reload", user=admin)
            [callback] = await fake.wait_for_request("POST", allowed.callback_path)
            assert callback.json == {"type": 4, "data": {"content": "Reloaded foo.", "flags": 64, "tts": False}}

            denied = await fake.invoke_command("genie", {"agent": "foo"}, subcommand="reload")
            [callback] = await fake.wait_for_request("POST", denied.callback_path)
            assert callback.json["data"]["content"] == "You need Manage Server."

            deferred = await fake.invoke_command("genie", subcommand="status")
            [callback] = await fake.wait_for_request("POST", deferred.callback_path)
            assert callback.json["type"] == 5  # DEFERRED_CHANNEL_MESSAGE_WITH_SOURCE
            [followup] = await fake.wait_for_request(
                "POST", rf"/webhooks/{fake.application_id}/{re.escape(deferred.token)}")
            assert followup.json["content"] == "3 tasks open."
            # Like Discord, the first follow-up replaces the "thinking..." message.
            assert fake.messages[deferred.original_message_id]["content"] == "3 tasks open."


@async_test
async def test_global_command_edits_its_response_and_manages_channel_messages() -> None:
    async with FakeDiscord() as fake:
        client = discord.Client(intents=discord.Intents.default(), **FAST_READY)
        tree = app_commands.CommandTree(client)

        @tree.command(description="Draft a worksheet summary")
        async def draft(interaction: discord.Interaction) -> None:
            await interaction.response.send_message("Drafting...")
            await interaction.edit_original_response(content="Draft ready.")
            await interaction.original_response()
            scratch = await interaction.channel.send("scratch")
            await scratch.edit(content="scratch, edited")
            await scratch.delete()

        async with fake.run(client):
            await tree.sync()
            [fetched] = await tree.fetch_commands()
            assert fetched.name == "draft"
            app = fake.application_id
            await fake.wait_for_request("GET", rf"/applications/{app}/commands")

            interaction = await fake.invoke_command("draft")  # global command, invoked in a guild channel
            [edit] = await fake.wait_for_request(
                "PATCH", rf"/webhooks/{app}/{re.escape(interaction.token)}/messages/@original")
            assert edit.json["content"] == "Draft ready."
            assert fake.messages[interaction.original_message_id]["content"] == "Draft ready."
            await fake.wait_for_request("GET", rf"/webhooks/{app}/{re.escape(interaction.token)}/messages/@original")

            channel = fake.channel_id
            [patch] = await fake.wait_for_request("PATCH", rf"/channels/{channel}/messages/\d+")
            assert patch.json["content"] == "scratch, edited"
            [delete] = await fake.wait_for_request("DELETE", rf"/channels/{channel}/messages/\d+")
            assert delete.status == 204 and int(delete.path.rsplit("/", 1)[1]) not in fake.messages


class ShardedBot(discord.AutoShardedClient):
    async def before_identify_hook(self, shard_id: int | None, *, initial: bool = False) -> None:
        """No 5 s pause between IDENTIFYs: that rate limit exists only on real Discord."""


@async_test
async def test_auto_sharded_client_brings_up_both_shards() -> None:
    async with FakeDiscord(shard_count=2) as fake:
        client = ShardedBot(intents=message_intents(), **FAST_READY)
        shards_ready: set[int] = set()
        messages: asyncio.Queue[discord.Message] = asyncio.Queue()

        @client.event
        async def on_message(message: discord.Message) -> None:
            await messages.put(message)

        @client.event
        async def on_shard_ready(shard_id: int) -> None:
            shards_ready.add(shard_id)

        async with fake.run(client):
            assert client.shard_count == 2
            assert shards_ready == {0, 1}
            assert sorted((i.shard_id, i.shard_count) for i in fake.identifies) == [(0, 2), (1, 2)]
            await fake.send_message(fake.channel_id, "routed by guild shard")
            message = await asyncio.wait_for(messages.get(), 5)
            assert message.guild.shard_id == (fake.guild_id >> 22) % 2


@async_test
async def test_resume_after_reconnect_request() -> None:
    async with FakeDiscord(heartbeat_interval_ms=100) as fake:
        client = discord.Client(intents=message_intents(), **FAST_READY)
        resumed = asyncio.Event()
        messages: asyncio.Queue[discord.Message] = asyncio.Queue()

        @client.event
        async def on_message(message: discord.Message) -> None:
            await messages.put(message)

        @client.event
        async def on_resumed() -> None:
            resumed.set()

        async with fake.run(client):
            await eventually(lambda: fake.gateway.heartbeats >= 3)
            await fake.request_reconnect()
            await fake.send_message(fake.channel_id, "sent while reconnecting")
            await asyncio.wait_for(resumed.wait(), 5)
            assert (await asyncio.wait_for(messages.get(), 5)).content == "sent while reconnecting"
            assert fake.gateway.connections[-1].startswith("/resume")
            assert len(fake.identifies) == 1 and len(fake.gateway.resumed_sessions) == 1


@async_test
async def test_closed_client_can_be_replaced_by_a_new_one() -> None:
    async with FakeDiscord() as fake:
        first = discord.Client(intents=discord.Intents.default(), **FAST_READY)
        async with fake.run(first):
            view = discord.ui.View(timeout=None)
            view.add_item(ConfirmButton("beef"))
            sent = await first.get_channel(fake.channel_id).send("Save these answers?", view=view)
        assert first.is_closed()
        await eventually(lambda: not any(session.connected for session in fake.gateway.sessions.values()))

        async with fake.run(PersistentClient(intents=discord.Intents.default(), **FAST_READY)):
            assert len(fake.identifies) == 2
            click = await fake.click_button("genie:confirm:beef", message_id=sent.id)
            [callback] = await fake.wait_for_request("POST", click.callback_path)
            assert callback.json["data"]["content"] == "Confirmed beef."


@async_test
async def test_a_429_is_retried_by_discord_py_after_retry_after_and_the_message_is_sent_once() -> None:
    async with FakeDiscord() as fake:
        client = discord.Client(intents=message_intents(), **FAST_READY)
        async with fake.run(client):
            fake.rate_limit("POST", rf"/channels/{fake.channel_id}/messages", retry_after=0.05)
            await client.get_partial_messageable(fake.channel_id).send("hello")
        statuses = [c.status for c in fake.requests if c.path == f"/channels/{fake.channel_id}/messages"]
        assert statuses == [429, 200]
        assert [m["content"] for m in fake.messages.values() if m["channel_id"] == str(fake.channel_id)] == ["hello"]


@async_test
async def test_an_injected_failure_reaches_the_client_as_an_http_exception() -> None:
    async with FakeDiscord() as fake:
        client = discord.Client(intents=message_intents(), **FAST_READY)
        async with fake.run(client):
            fake.fail("POST", rf"/channels/{fake.channel_id}/messages", status=503)
            with pytest.raises(discord.DiscordServerError):
                await client.get_partial_messageable(fake.channel_id).send("hello")
            await client.get_partial_messageable(fake.channel_id).send("again")
        assert [m["content"] for m in fake.messages.values()] == ["again"]


@async_test
async def test_system_messages_and_attachments_arrive_as_discord_sends_them() -> None:
    async with FakeDiscord() as fake:
        client = discord.Client(intents=message_intents(), **FAST_READY)
        seen: list[discord.Message] = []
        client.event(_record(seen))
        async with fake.run(client):
            await fake.send_message(fake.channel_id, "", type=6)
            await fake.send_message(fake.channel_id, "", attachments=["photo.png"])
            await eventually(lambda: len(seen) == 2)
        assert seen[0].type is discord.MessageType.pins_add
        assert (seen[1].type, [a.filename for a in seen[1].attachments]) == (discord.MessageType.default, ["photo.png"])


def _record(seen: list[discord.Message]) -> Callable[[discord.Message], Awaitable[None]]:
    async def on_message(message: discord.Message) -> None:
        seen.append(message)
    return on_message
