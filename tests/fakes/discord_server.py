"""``FakeDiscord``: a local stand-in for Discord that the real discord.py client talks to.

Tests start it with ``async with FakeDiscord() as fake:``; it serves a fake REST API
and a fake gateway on free 127.0.0.1 ports and points discord.py at them (see
``point_discord_at``). The test then runs its real ``discord.Client`` / ``commands.Bot``
(``fake.run(client)``), plays users with ``send_message`` / ``click_button`` /
``invoke_command``, and asserts on the recorded REST calls with ``wait_for_request``.

A default world is ready before the client connects: the bot, an ``owner`` (owns the
application and the guild), a guild with a ``#general`` channel, and a ``tester``
member without special permissions. Create further users and channels *before*
connecting the client; later additions are not announced over the gateway.
"""

from __future__ import annotations

import asyncio
import contextlib
from collections.abc import AsyncIterator, Iterator, Mapping, Sequence
from types import TracebackType
from typing import Any, TypeVar

import discord
import discord.http
import yarl
from discord.gateway import DiscordWebSocket

from .discord_gateway import FakeGateway, Identify
from .discord_rest import FakeRest, RestCall
from .discord_state import FakeGuild, FakeInteraction, FakeUser, Payload, World

ClientT = TypeVar("ClientT", bound=discord.Client)

APPLICATION_COMMAND = 2
MESSAGE_COMPONENT = 3
BUTTON = 2
_PRIMITIVE_OPTION_TYPES = {3: str, 4: int, 5: bool, 10: (int, float)}  # string, integer, boolean, number


@contextlib.contextmanager
def point_discord_at(fake: FakeDiscord) -> Iterator[None]:
    """Aim discord.py at ``fake`` for the duration of the block, then restore the real hosts.

    discord.py has no public setting for its API host, so this patches the two class
    attributes it reads: ``discord.http.Route.BASE`` (every REST call, including
    webhooks and interaction callbacks) and ``DiscordWebSocket.DEFAULT_GATEWAY`` (the
    first socket of a plain ``Client``). Everything else follows the fake's own answers:
    ``AutoShardedClient`` connects to the URL from ``GET /gateway/bot`` and resumes go to
    READY's ``resume_gateway_url``.
    """
    saved = discord.http.Route.BASE, DiscordWebSocket.DEFAULT_GATEWAY
    discord.http.Route.BASE = fake.rest.base_url
    DiscordWebSocket.DEFAULT_GATEWAY = yarl.URL(fake.gateway.url)
    try:
        yield
    finally:
        discord.http.Route.BASE, DiscordWebSocket.DEFAULT_GATEWAY = saved


class FakeDiscord:
    """Fake Discord (gateway + REST) plus helpers that act as users of the bot."""

    def __init__(
        self,
        *,
        bot_name: str = "genie-bot",
        bot_id: int | None = None,
        application_id: int | None = None,
        token: str = "fake-bot-token",
        shard_count: int = 1,
        heartbeat_interval_ms: int = 41_250,
    ) -> None:
        self.token = token
        self.world = World(bot_name=bot_name, bot_id=bot_id, application_id=application_id)
        self.gateway = FakeGateway(self.world, heartbeat_interval_ms=heartbeat_interval_ms)
        self.rest = FakeRest(self.world, token=token, dispatch=self.gateway.dispatch, shard_count=shard_count)
        self.guild_id = self.world.create_guild("Genie Test Guild", owner=self.world.owner).id
        self.channel_id = self.create_channel("general")
        self.tester = self.create_user("tester", guild_id=self.guild_id)
        self._stack = contextlib.AsyncExitStack()

    async def __aenter__(self) -> FakeDiscord:
        try:
            await self.gateway.start()
            self._stack.push_async_callback(self.gateway.stop)
            self.rest.gateway_url = self.gateway.url
            await self.rest.start()
            self._stack.push_async_callback(self.rest.stop)
            self._stack.enter_context(point_discord_at(self))
        except BaseException:
            await self._stack.aclose()
            raise
        return self

    async def __aexit__(
        self, exc_type: type[BaseException] | None, exc: BaseException | None, tb: TracebackType | None
    ) -> None:
        await self._stack.aclose()

    # -- what the bot sees and did -----------------------------------------------------

    @property
    def bot_user(self) -> FakeUser:
        return self.world.bot

    @property
    def owner(self) -> FakeUser:
        return self.world.owner

    @property
    def application_id(self) -> int:
        return self.world.application_id

    @property
    def requests(self) -> list[RestCall]:
        return self.rest.requests

    @property
    def unhandled_requests(self) -> list[RestCall]:
        """Requests to routes the fake does not implement (they got a 404)."""
        return self.rest.unhandled

    def rate_limit(self, method: str, path_pattern: str, *, retry_after: float = 0.0, is_global: bool = False,
                   times: int = 1) -> None:
        """The next ``times`` REST calls matching (``re.fullmatch`` on the path) get Discord's 429."""
        self.rest.rate_limit(method, path_pattern, retry_after=retry_after, is_global=is_global, times=times)

    def fail(self, method: str, path_pattern: str, *, status: int = 503, times: int = 1) -> None:
        """The next ``times`` REST calls matching get an error ``status`` (default 503, which discord.py raises)."""
        self.rest.fail(method, path_pattern, status=status, times=times)

    @property
    def identifies(self) -> list[Identify]:
        return self.gateway.identifies

    @property
    def messages(self) -> dict[int, Payload]:
        """Every message in the world, by id, as Discord would return it."""
        return self.world.messages

    async def wait_for_request(self, method: str, path_pattern: str, *, count: int = 1,
                               timeout: float = 5.0) -> list[RestCall]:
        """Wait for ``count`` REST calls whose path fully matches the regex; AssertionError lists all calls."""
        return await self.rest.wait_for_request(method, path_pattern, count=count, timeout=timeout)

    # -- running a client ------------------------------------------------------------------

    @contextlib.asynccontextmanager
    async def run(self, client: ClientT, *, timeout: float = 10.0) -> AsyncIterator[ClientT]:
        """Start ``client`` against this fake, wait until it is ready, and always close it afterwards.

        Pass ``guild_ready_timeout=0.05`` to the client: discord.py otherwise waits two
        seconds after the last GUILD_CREATE before it fires ``on_ready``.
        """
        task = asyncio.create_task(client.start(self.token), name="fake-discord-client")
        try:
            await self._wait_until_ready(client, task, timeout)
            yield client
        finally:
            await client.close()
            done, _ = await asyncio.wait({task}, timeout=timeout)
            if not done:
                task.cancel()
        if not done:
            raise AssertionError(f"client did not stop within {timeout}s of close()")
        if task.exception() is not None:
            raise task.exception()

    async def _wait_until_ready(self, client: discord.Client, task: asyncio.Task[None], timeout: float) -> None:
        try:
            async with asyncio.timeout(timeout):
                while not client.is_ready():
                    if task.done():
                        task.result()  # re-raises why the client stopped (e.g. LoginFailure)
                        raise AssertionError("client stopped before it became ready")
                    await asyncio.sleep(0.01)
        except TimeoutError:
            calls = [f"{c.method} {c.path} -> {c.status}" for c in self.requests]
            raise AssertionError(
                f"client not ready after {timeout}s; identifies={self.identifies}, requests={calls}"
            ) from None

    # -- building the world -------------------------------------------------------------------

    def create_user(self, username: str, *, guild_id: int | None = None, permissions: int = 0) -> FakeUser:
        """A human user; with ``guild_id`` they join that guild, holding ``permissions`` via a role.

        ``permissions`` is a Discord bitfield, e.g. ``discord.Permissions(manage_guild=True).value``;
        it shows up in ``member.permissions`` of their interactions and in the guild's roles.
        """
        if permissions and guild_id is None:
            raise ValueError("permissions are granted per guild; pass guild_id")
        user = self.world.create_user(username)
        if guild_id is not None:
            self.world.add_member(guild_id, user, permissions=permissions)
        return user

    def create_channel(self, name: str, *, guild_id: int | None = None) -> int:
        """A text channel in ``guild_id`` (default: the default guild); returns its id."""
        return int(self.world.create_channel(guild_id or self.guild_id, name)["id"])

    def dm_channel(self, user: FakeUser) -> int:
        """The id of the bot's DM channel with ``user`` (the same one ``user.send`` would open)."""
        return int(self.world.dm_channel(user)["id"])

    # -- acting as users ----------------------------------------------------------------------

    async def dispatch(self, event: str, data: Payload, *, guild_id: int | None = None) -> None:
        """Send any gateway event to the shard that owns ``guild_id`` (shard 0 when None)."""
        if not self.gateway.has_listener(guild_id):
            raise AssertionError(f"no client is connected to receive {event} for guild {guild_id}; "
                                 "is it running (fake.run(client))?")
        await self.gateway.dispatch(event, data, guild_id)

    async def send_message(
        self,
        channel_id: int,
        content: str,
        *,
        author: FakeUser | None = None,
        mentions_bot: bool = False,
        reply_to: int | None = None,
        type: int | None = None,
        attachments: Sequence[str] = (),
    ) -> Payload:
        """A user posts in a channel (guild, thread or DM): dispatches MESSAGE_CREATE, returns the message.

        ``type`` makes it a system message (e.g. 6: a pin, 1: a member added to a thread, 7: a
        member joined); ``attachments`` are the names of files attached to it.
        """
        author = author or self.tester
        guild = self._require_member(channel_id, author)
        if mentions_bot and self.bot_user.mention not in content:
            content = f"{self.bot_user.mention} {content}"
        body: Payload = {"content": content}
        if reply_to is not None:
            body["message_reference"] = {"message_id": str(reply_to)}
        if type is not None:
            body["type"] = type
        files = [{"id": str(self.world.snowflakes.next()), "filename": name, "size": 1024,
                  "url": f"{self.rest.base_url}/attachments/{name}", "proxy_url": f"{self.rest.base_url}/attachments/{name}"}
                 for name in attachments]
        message = self.world.create_message(channel_id, author, body, attachments=files)
        await self.dispatch("MESSAGE_CREATE", self.world.gateway_message(message),
                            guild_id=guild.id if guild else None)
        return message

    async def edit_message(self, message_id: int, content: str) -> Payload:
        """The author of a stored message edits its text: dispatches MESSAGE_UPDATE, returns the message."""
        message = self.world.edit_message(message_id, {"content": content})
        channel = self.world.channels[int(message["channel_id"])]
        await self.dispatch("MESSAGE_UPDATE", self.world.gateway_message(message),
                            guild_id=int(channel["guild_id"]) if "guild_id" in channel else None)
        return message

    async def click_button(
        self,
        custom_id: str,
        *,
        message_id: int | None = None,
        channel_id: int | None = None,
        user: FakeUser | None = None,
    ) -> FakeInteraction:
        """A user clicks a button; dispatches a component INTERACTION_CREATE and returns the interaction.

        With ``message_id`` the button must exist on that stored message (e.g. one the bot
        sent earlier). Without it the fake first stores a bot message carrying just this
        button in ``channel_id`` (default channel) - a message from some earlier process.
        Wait for the answer with ``wait_for_request("POST", interaction.callback_path)``.
        """
        user = user or self.tester
        if message_id is None:
            channel = channel_id or self.channel_id
            self._require_member(channel, user)
            row = {"type": 1, "components": [{"type": BUTTON, "style": 1, "label": custom_id, "custom_id": custom_id}]}
            message = self.world.create_message(channel, self.bot_user, {"components": [row]})
        else:
            message = self.world.messages.get(message_id)
            if message is None:
                raise AssertionError(f"no stored message {message_id}; omit message_id to click a synthesized one")
            if not _has_component(message["components"], custom_id):
                raise AssertionError(f"message {message_id} has no component with custom_id {custom_id!r}")
            channel = int(message["channel_id"])
            self._require_member(channel, user)
        interaction = self.world.open_interaction(MESSAGE_COMPONENT, channel, user, message_id=int(message["id"]))
        data = {"custom_id": custom_id, "component_type": BUTTON}
        await self._dispatch_interaction(interaction, data)
        return interaction

    async def invoke_command(
        self,
        name: str,
        options: Mapping[str, Any] | None = None,
        *,
        subcommand_group: str | None = None,
        subcommand: str | None = None,
        user: FakeUser | None = None,
        channel_id: int | None = None,
    ) -> FakeInteraction:
        """A user runs a synced slash command, e.g. ``/genie reload agent:foo`` is
        ``invoke_command("genie", {"agent": "foo"}, subcommand="reload")``.

        Option types come from the synced definition, so the command must have been synced
        (guild commands win over global ones, as in Discord). Only string, integer, boolean
        and number options are supported.
        """
        user = user or self.tester
        channel_id = channel_id or self.channel_id
        guild = self._require_member(channel_id, user)
        command = self.world.find_command(name, guild.id if guild else None)
        path, schema = [], command.get("options", [])
        for kind, wanted in ((2, subcommand_group), (1, subcommand)):
            if wanted is None:
                continue
            step = next((o for o in schema if o["type"] == kind and o["name"] == wanted), None)
            if step is None:
                raise AssertionError(f"/{name} has no {'group' if kind == 2 else 'subcommand'} {wanted!r}")
            path.append(step)
            schema = step.get("options", [])
        if any(o["type"] in (1, 2) for o in schema):
            raise AssertionError(f"/{name} needs a subcommand: {[o['name'] for o in schema]}")
        data_options = _option_values(schema, options or {})
        for step in reversed(path):
            data_options = [{"type": step["type"], "name": step["name"], "options": data_options}]
        data: Payload = {"id": command["id"], "name": name, "type": 1, "options": data_options}
        if "guild_id" in command:
            data["guild_id"] = command["guild_id"]
        interaction = self.world.open_interaction(APPLICATION_COMMAND, channel_id, user)
        await self._dispatch_interaction(interaction, data)
        return interaction

    async def request_reconnect(self, shard_id: int = 0) -> None:
        """Ask the client to reconnect (gateway op 7); discord.py should RESUME its session."""
        await self.gateway.request_reconnect(shard_id)

    async def _dispatch_interaction(self, interaction: FakeInteraction, data: Payload) -> None:
        payload = self.world.interaction_payload(interaction, data)
        await self.dispatch("INTERACTION_CREATE", payload, guild_id=interaction.guild_id)

    def _require_member(self, channel_id: int, user: FakeUser) -> FakeGuild | None:
        """The channel's guild (None for DMs), insisting that ``user`` belongs to it."""
        guild = self.world.guild_of(channel_id)
        if guild is not None and user.id not in guild.members:
            raise AssertionError(f"{user.username} is not in guild {guild.id}; use create_user(..., guild_id=...)")
        return guild


def _has_component(components: list[Payload], custom_id: str) -> bool:
    """Search action rows and (components v2) containers/sections for a custom_id."""
    for component in components:
        if component.get("custom_id") == custom_id:
            return True
        children = list(component.get("components", []))
        if "accessory" in component:
            children.append(component["accessory"])
        if _has_component(children, custom_id):
            return True
    return False


def _option_values(schema: list[Payload], values: Mapping[str, Any]) -> list[Payload]:
    """Typed option payloads; rejects what a real Discord client could not send."""
    by_name = {option["name"]: option for option in schema}
    unknown = sorted(set(values) - set(by_name))
    missing = [o["name"] for o in schema if o.get("required") and o["name"] not in values]
    if unknown or missing:
        raise AssertionError(f"options {sorted(by_name)}: unknown {unknown}, missing required {missing}")
    result = []
    for name, value in values.items():
        kind = by_name[name]["type"]
        expected = _PRIMITIVE_OPTION_TYPES.get(kind)
        if expected is None:
            supported = sorted(_PRIMITIVE_OPTION_TYPES)
            raise AssertionError(f"option {name!r} has type {kind}; the fake supports only types {supported}")
        if not isinstance(value, expected):
            raise AssertionError(f"option {name!r} (type {kind}) got {value!r}")
        result.append({"name": name, "type": kind, "value": value})
    return result
