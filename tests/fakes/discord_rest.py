"""A fake Discord REST API (``/api/v10``) on 127.0.0.1 that records every request.

Tests assert on what the bot *did* by looking at ``FakeRest.requests``; the
responses are realistic enough (full message objects, fresh snowflakes, Discord
error codes) that discord.py keeps working after each call. Routes that the fake
does not know answer 404 and are listed in ``unhandled`` so a test can see what
discord.py tried.

Faults are injected per route: ``rate_limit`` answers Discord's 429 (``retry_after`` in the
body, ``Retry-After`` and ``Via`` headers, so discord.py treats it as Discord's own limit and
not a Cloudflare ban) and ``fail`` any other error, each for the next ``times`` matching calls.
"""

from __future__ import annotations

import asyncio
import json
import re
from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field
from typing import Any

from aiohttp import web

from .discord_state import (
    EPHEMERAL,
    LOADING,
    PUBLIC_THREAD,
    THREAD_TYPES,
    FakeInteraction,
    Payload,
    World,
)

API_PREFIX = "/api/v10"
WEBHOOK_MESSAGE = "/webhooks/{application_id}/{token}/messages/{message}"  # {message} may be "@original"

# Interaction callback types.
CHANNEL_MESSAGE = 4
DEFERRED_CHANNEL_MESSAGE = 5
DEFERRED_UPDATE_MESSAGE = 6
UPDATE_MESSAGE = 7

Reply = tuple[int, Any]
Dispatch = Callable[[str, Payload, int | None], Awaitable[None]]


@dataclass(frozen=True)
class RestCall:
    """One request as discord.py sent it; ``path`` is relative to ``/api/v10``."""

    method: str
    path: str
    json: Any
    headers: dict[str, str]
    query: dict[str, str] = field(default_factory=dict)
    status: int = 200
    files: tuple[str, ...] = ()


class DiscordError(Exception):
    """An error reply in Discord's shape, so discord.py raises the matching HTTPException."""

    def __init__(self, status: int, code: int, message: str) -> None:
        super().__init__(message)
        self.status, self.code, self.message = status, code, message


@dataclass
class _Fault:
    """An injected answer for the next ``times`` requests matching ``method`` and ``pattern``."""

    method: str
    pattern: re.Pattern[str]
    status: int
    body: Payload
    headers: dict[str, str]
    times: int


@dataclass(frozen=True)
class _Incoming:
    """A parsed request body; ``files`` are the names of multipart uploads."""

    body: Any
    files: tuple[str, ...]


@dataclass(frozen=True)
class _Route:
    method: str
    pattern: re.Pattern[str]
    handler: Callable[..., Awaitable[Reply]]
    auth: bool


def _route(method: str, template: str, handler: Callable[..., Awaitable[Reply]], *, auth: bool = True) -> _Route:
    """Compile ``/channels/{channel_id}/messages``-style templates; ``*_id`` parts match digits only."""

    def group(match: re.Match[str]) -> str:
        name = match.group(1)
        return rf"(?P<{name}>\d+)" if name.endswith("_id") else rf"(?P<{name}>[^/]+)"

    return _Route(method, re.compile(re.sub(r"\{(\w+)\}", group, template)), handler, auth)


class FakeRest:
    """The HTTP half of the fake: routing, recording, and Discord-like replies."""

    def __init__(self, world: World, *, token: str, dispatch: Dispatch, shard_count: int) -> None:
        self.world = world
        self.token = token
        self.shard_count = shard_count
        self.gateway_url = ""
        self.base_url = ""
        self.requests: list[RestCall] = []
        self.unhandled: list[RestCall] = []
        self._dispatch = dispatch
        self._faults: list[_Fault] = []
        self._recorded = asyncio.Condition()
        self._runner: web.AppRunner | None = None
        self._routes = [
            _route("GET", "/gateway", self._gateway, auth=False),
            _route("GET", "/gateway/bot", self._gateway_bot),
            _route("GET", "/users/@me", self._current_user),
            _route("GET", "/applications/@me", self._application),
            _route("GET", "/oauth2/applications/@me", self._application),
            _route("POST", "/users/@me/channels", self._open_dm),
            _route("POST", "/channels/{channel_id}/messages", self._create_message),
            _route("GET", "/channels/{channel_id}/messages/{message_id}", self._get_message),
            _route("PATCH", "/channels/{channel_id}/messages/{message_id}", self._edit_message),
            _route("DELETE", "/channels/{channel_id}/messages/{message_id}", self._delete_message),
            _route("POST", "/channels/{channel_id}/typing", self._typing),
            _route("POST", "/channels/{channel_id}/messages/{message_id}/threads", self._thread_from_message),
            _route("POST", "/channels/{channel_id}/threads", self._thread),
            _route("POST", "/interactions/{interaction_id}/{token}/callback", self._callback, auth=False),
            _route("POST", "/webhooks/{application_id}/{token}", self._followup, auth=False),
            _route("GET", WEBHOOK_MESSAGE, self._get_webhook_message, auth=False),
            _route("PATCH", WEBHOOK_MESSAGE, self._edit_webhook_message, auth=False),
            _route("DELETE", WEBHOOK_MESSAGE, self._delete_webhook_message, auth=False),
            _route("GET", "/applications/{application_id}/commands", self._get_commands),
            _route("PUT", "/applications/{application_id}/commands", self._put_commands),
            _route("GET", "/applications/{application_id}/guilds/{guild_id}/commands", self._get_commands),
            _route("PUT", "/applications/{application_id}/guilds/{guild_id}/commands", self._put_commands),
        ]

    # -- server lifecycle and recording -------------------------------------------

    async def start(self) -> None:
        app = web.Application()
        app.router.add_route("*", "/{path:.*}", self._handle)
        self._runner = web.AppRunner(app, shutdown_timeout=1.0, access_log=None)
        await self._runner.setup()
        await web.TCPSite(self._runner, "127.0.0.1", 0).start()
        port = self._runner.addresses[0][1]
        self.base_url = f"http://127.0.0.1:{port}{API_PREFIX}"

    async def stop(self) -> None:
        if self._runner is not None:
            await self._runner.cleanup()

    def rate_limit(self, method: str, path_pattern: str, *, retry_after: float = 0.0, is_global: bool = False,
                   times: int = 1) -> None:
        """Answer the next ``times`` matching requests with Discord's 429 "You are being rate limited."."""
        body = {"message": "You are being rate limited.", "retry_after": retry_after, "global": is_global, "code": 0}
        headers = {"Retry-After": str(retry_after), "Via": "1.1 google",
                   "X-RateLimit-Scope": "global" if is_global else "user"}
        self._faults.append(_Fault(method.upper(), re.compile(path_pattern), 429, body, headers, times))

    def fail(self, method: str, path_pattern: str, *, status: int = 503, code: int = 0,
             message: str = "Service Unavailable", times: int = 1) -> None:
        """Answer the next ``times`` matching requests with ``status`` (503: discord.py does not retry it)."""
        self._faults.append(_Fault(method.upper(), re.compile(path_pattern), status,
                                   {"message": message, "code": code}, {}, times))

    def _fault(self, method: str, path: str) -> _Fault | None:
        for fault in self._faults:
            if fault.method == method and fault.pattern.fullmatch(path):
                fault.times -= 1
                if fault.times == 0:
                    self._faults.remove(fault)
                return fault
        return None

    async def wait_for_request(self, method: str, path_pattern: str, *, count: int = 1,
                               timeout: float = 5.0) -> list[RestCall]:
        """Wait until ``count`` requests match (``re.fullmatch`` on the path); return all matches."""
        pattern = re.compile(path_pattern)

        def matches() -> list[RestCall]:
            return [c for c in self.requests if c.method == method.upper() and pattern.fullmatch(c.path)]

        try:
            async with asyncio.timeout(timeout):
                async with self._recorded:
                    await self._recorded.wait_for(lambda: len(matches()) >= count)
        except TimeoutError:
            seen = "\n".join(f"  {c.method} {c.path} -> {c.status}" for c in self.requests) or "  (none)"
            raise AssertionError(
                f"expected {count} x {method.upper()} {path_pattern} within {timeout}s; requests seen:\n{seen}"
            ) from None
        return matches()

    async def _handle(self, request: web.Request) -> web.StreamResponse:
        body, files = await self._read_body(request)
        path = request.path.removeprefix(API_PREFIX) if request.path.startswith(API_PREFIX + "/") else request.path
        route, params = self._match(request.method, path)
        fault = self._fault(request.method, path)
        if fault is not None:
            call = RestCall(request.method, path, body, dict(request.headers), dict(request.query), fault.status, files)
            async with self._recorded:
                self.requests.append(call)
                self._recorded.notify_all()
            return web.Response(status=fault.status, body=json.dumps(fault.body).encode(),
                                headers={"Content-Type": "application/json", **fault.headers})
        try:
            if route is None:
                raise DiscordError(404, 0, "404: Not Found")
            if route.auth and request.headers.get("Authorization") != f"Bot {self.token}":
                raise DiscordError(401, 0, "401: Unauthorized")
            status, reply = await route.handler(_Incoming(body, files), **params)
        except DiscordError as error:
            status, reply = error.status, {"message": error.message, "code": error.code}
        except (LookupError, TypeError, ValueError) as error:
            # A body the fake cannot digest: answer like Discord's form validation, since a 5xx
            # would make discord.py retry with back-off for ~25 seconds.
            status, reply = 400, {"message": f"Invalid Form Body ({error!r})", "code": 50035}
        call = RestCall(request.method, path, body, dict(request.headers), dict(request.query), status, files)
        async with self._recorded:
            self.requests.append(call)
            if route is None:
                self.unhandled.append(call)
            self._recorded.notify_all()
        if status == 204:
            return web.Response(status=204)
        # discord.py only parses JSON when the content type is exactly this (no charset).
        encoded = json.dumps(reply).encode()
        return web.Response(status=status, body=encoded, headers={"Content-Type": "application/json"})

    def _match(self, method: str, path: str) -> tuple[_Route | None, dict[str, str]]:
        for route in self._routes:
            match = route.pattern.fullmatch(path)
            if match and route.method == method:
                return route, match.groupdict()
        return None, {}

    @staticmethod
    async def _read_body(request: web.Request) -> tuple[Any, tuple[str, ...]]:
        """JSON body, or ``payload_json`` plus file names for multipart uploads."""
        if not request.can_read_body:
            return None, ()
        if request.content_type.startswith("multipart/"):
            form = await request.post()
            files = tuple(f.filename for key, f in form.items() if key.startswith("files["))
            payload = form.get("payload_json")
            return (json.loads(payload) if isinstance(payload, str) else None), files
        text = await request.text()
        return (json.loads(text) if text else None), ()

    # -- lookups ---------------------------------------------------------------------

    def _channel(self, channel_id: str) -> Payload:
        channel = self.world.channels.get(int(channel_id))
        if channel is None:
            raise DiscordError(404, 10003, "Unknown Channel")
        return channel

    def _message(self, channel_id: str, message_id: str) -> Payload:
        message = self.world.messages.get(int(message_id))
        if message is None or message["channel_id"] != channel_id:
            raise DiscordError(404, 10008, "Unknown Message")
        return message

    def _interaction(self, application_id: str, token: str) -> FakeInteraction:
        interaction = self.world.interactions.get(token)
        if application_id != str(self.world.application_id) or interaction is None:
            raise DiscordError(404, 10015, "Unknown Webhook")
        return interaction

    def _webhook_message_id(self, interaction: FakeInteraction, message: str) -> int:
        if message != "@original":
            return int(message)
        if interaction.original_message_id is None:
            raise DiscordError(404, 10008, "Unknown Message")
        return interaction.original_message_id

    def _check_application(self, application_id: str) -> None:
        if application_id != str(self.world.application_id):
            raise DiscordError(403, 50001, "Missing Access")

    # -- message helpers shared by channel and interaction routes ----------------------

    async def _post(self, channel_id: int, body: Payload, files: tuple[str, ...] = (),
                    interaction: FakeInteraction | None = None) -> Payload:
        attachments = [
            {"id": str(self.world.snowflakes.next()), "filename": name, "size": 0,
             "url": f"{self.base_url}/attachments/{name}", "proxy_url": f"{self.base_url}/attachments/{name}"}
            for name in files
        ]
        extra = self._interaction_fields(interaction) if interaction else None
        known = len(self.world.messages)
        message = self.world.create_message(channel_id, self.world.bot, body, attachments=attachments, extra=extra)
        if len(self.world.messages) > known:  # not a message returned again for its enforced nonce
            await self._announce("MESSAGE_CREATE", message)
        return message

    async def _edit(self, message_id: int, body: Payload) -> Payload:
        message = self.world.edit_message(message_id, body)
        await self._announce("MESSAGE_UPDATE", message)
        return message

    async def _delete(self, message_id: int) -> None:
        await self._announce("MESSAGE_DELETE", self.world.messages.pop(message_id))

    async def _announce(self, event: str, message: Payload) -> None:
        """Echo the bot's own message changes over the gateway, as Discord does (never ephemeral ones)."""
        if message["flags"] & EPHEMERAL:
            return
        if event == "MESSAGE_DELETE":
            payload = {key: message[key] for key in ("id", "channel_id", "guild_id") if key in message}
        else:
            payload = self.world.gateway_message(message)
        guild_id = message.get("guild_id")
        await self._dispatch(event, payload, int(guild_id) if guild_id else None)

    def _interaction_fields(self, interaction: FakeInteraction) -> Payload:
        return {
            "type": 20 if interaction.type == 2 else 0,
            "webhook_id": str(self.world.application_id),
            "application_id": str(self.world.application_id),
            "interaction_metadata": {
                "id": str(interaction.id),
                "type": interaction.type,
                "user": interaction.user.payload(),
                "authorizing_integration_owners": {"0": str(interaction.guild_id or 0)},
            },
        }

    # -- handlers: session bootstrap -------------------------------------------------------

    async def _gateway(self, req: _Incoming) -> Reply:
        return 200, {"url": self.gateway_url}

    async def _gateway_bot(self, req: _Incoming) -> Reply:
        limit = {"total": 1000, "remaining": 999, "reset_after": 0, "max_concurrency": 1}
        return 200, {"url": self.gateway_url, "shards": self.shard_count, "session_start_limit": limit}

    async def _current_user(self, req: _Incoming) -> Reply:
        return 200, {**self.world.bot.payload(), "verified": True, "mfa_enabled": False, "flags": 0}

    async def _application(self, req: _Incoming) -> Reply:
        return 200, {
            "id": str(self.world.application_id),
            "name": self.world.bot.username,
            "icon": None,
            "description": "",
            "summary": "",
            "rpc_origins": [],
            "bot_public": True,
            "bot_require_code_grant": False,
            "owner": self.world.owner.payload(),
            "team": None,
            "verify_key": "0" * 64,
            "flags": 0,
            "bot": self.world.bot.payload(),
            "interactions_endpoint_url": None,
        }

    # -- handlers: channels and messages -----------------------------------------------------

    async def _open_dm(self, req: _Incoming) -> Reply:
        user = self.world.users.get(int((req.body or {}).get("recipient_id", 0)))
        if user is None:
            raise DiscordError(400, 50033, "Invalid Recipient(s)")
        return 200, self.world.dm_channel(user)

    async def _create_message(self, req: _Incoming, channel_id: str) -> Reply:
        self._channel(channel_id)
        return 200, await self._post(int(channel_id), req.body or {}, req.files)

    async def _get_message(self, req: _Incoming, channel_id: str, message_id: str) -> Reply:
        return 200, self._message(channel_id, message_id)

    async def _edit_message(self, req: _Incoming, channel_id: str, message_id: str) -> Reply:
        self._message(channel_id, message_id)
        return 200, await self._edit(int(message_id), req.body or {})

    async def _delete_message(self, req: _Incoming, channel_id: str, message_id: str) -> Reply:
        self._message(channel_id, message_id)
        await self._delete(int(message_id))
        return 204, None

    async def _typing(self, req: _Incoming, channel_id: str) -> Reply:
        self._channel(channel_id)
        return 204, None

    async def _thread_from_message(self, req: _Incoming, channel_id: str, message_id: str) -> Reply:
        self._message(channel_id, message_id)
        thread = self.world.create_thread(int(channel_id), req.body["name"], thread_id=int(message_id),
                                          auto_archive_duration=req.body.get("auto_archive_duration") or 1440)
        return await self._announce_thread(thread)

    async def _thread(self, req: _Incoming, channel_id: str) -> Reply:
        self._channel(channel_id)
        kind = req.body.get("type") or PUBLIC_THREAD
        if kind not in THREAD_TYPES:
            raise DiscordError(400, 50035, "Invalid Form Body")
        thread = self.world.create_thread(int(channel_id), req.body["name"], type=kind,
                                          auto_archive_duration=req.body.get("auto_archive_duration") or 1440)
        return await self._announce_thread(thread)

    async def _announce_thread(self, thread: Payload) -> Reply:
        await self._dispatch("THREAD_CREATE", {**thread, "newly_created": True}, int(thread["guild_id"]))
        return 201, thread

    # -- handlers: interactions ------------------------------------------------------------------

    async def _callback(self, req: _Incoming, interaction_id: str, token: str) -> Reply:
        interaction = self.world.interactions.get(token)
        if interaction is None or str(interaction.id) != interaction_id:
            raise DiscordError(404, 10062, "Unknown interaction")
        if interaction.response_type is not None:
            raise DiscordError(400, 40060, "Interaction has already been acknowledged.")
        kind, data = req.body["type"], req.body.get("data") or {}
        interaction.response_type = kind
        message = None
        if kind in (CHANNEL_MESSAGE, DEFERRED_CHANNEL_MESSAGE):
            flags = (data.get("flags") or 0) | (LOADING if kind == DEFERRED_CHANNEL_MESSAGE else 0)
            message = await self._post(interaction.channel_id, {**data, "flags": flags}, req.files, interaction)
            interaction.original_message_id = int(message["id"])
        elif kind in (DEFERRED_UPDATE_MESSAGE, UPDATE_MESSAGE):
            if interaction.message_id is None:
                raise DiscordError(400, 50035, "Invalid Form Body")
            interaction.original_message_id = interaction.message_id
            if kind == UPDATE_MESSAGE:
                message = await self._edit(interaction.message_id, data)
        callback: Payload = {
            "id": str(interaction.id),
            "type": interaction.type,
            "response_message_loading": kind == DEFERRED_CHANNEL_MESSAGE,
            "response_message_ephemeral": bool(message and message["flags"] & EPHEMERAL),
        }
        resource: Payload = {"type": kind}
        if message is not None:
            callback["response_message_id"] = message["id"]
            resource["message"] = message
        return 200, {"interaction": callback, "resource": resource}

    async def _followup(self, req: _Incoming, application_id: str, token: str) -> Reply:
        interaction = self._interaction(application_id, token)
        if interaction.response_type is None:
            raise DiscordError(404, 10015, "Unknown Webhook")
        original = self.world.messages.get(interaction.original_message_id or 0)
        if original is not None and original["flags"] & LOADING:
            # The first follow-up after a "thinking" defer replaces the loading message.
            return 200, await self._edit(int(original["id"]), {**req.body, "flags": original["flags"] & ~LOADING})
        return 200, await self._post(interaction.channel_id, req.body, req.files, interaction)

    async def _get_webhook_message(self, req: _Incoming, application_id: str, token: str, message: str) -> Reply:
        interaction = self._interaction(application_id, token)
        message_id = self._webhook_message_id(interaction, message)
        return 200, self._message(str(interaction.channel_id), str(message_id))

    async def _edit_webhook_message(self, req: _Incoming, application_id: str, token: str, message: str) -> Reply:
        interaction = self._interaction(application_id, token)
        message_id = self._webhook_message_id(interaction, message)
        stored = self._message(str(interaction.channel_id), str(message_id))
        return 200, await self._edit(message_id, {**req.body, "flags": stored["flags"] & ~LOADING})

    async def _delete_webhook_message(self, req: _Incoming, application_id: str, token: str, message: str) -> Reply:
        interaction = self._interaction(application_id, token)
        message_id = self._webhook_message_id(interaction, message)
        self._message(str(interaction.channel_id), str(message_id))
        await self._delete(message_id)
        return 204, None

    # -- handlers: application commands ------------------------------------------------------------

    async def _get_commands(self, req: _Incoming, application_id: str, guild_id: str | None = None) -> Reply:
        self._check_application(application_id)
        return 200, self.world.commands.get(int(guild_id) if guild_id else None, [])

    async def _put_commands(self, req: _Incoming, application_id: str, guild_id: str | None = None) -> Reply:
        self._check_application(application_id)
        if guild_id is not None and int(guild_id) not in self.world.guilds:
            raise DiscordError(403, 50001, "Missing Access")
        return 200, self.world.sync_commands(int(guild_id) if guild_id else None, req.body or [])
