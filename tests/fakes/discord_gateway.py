"""A fake Discord gateway: a local WebSocket server speaking enough of gateway v10.

It plays Discord's side of the handshake (HELLO, IDENTIFY -> READY + GUILD_CREATE,
heartbeat ACKs, RESUME with replay) and routes test-driven events to the right
shard with Discord's intent rules, so the real discord.py client runs unmodified.
Frames go out as uncompressed text; discord.py accepts those even though it asks
for ``compress=zlib-stream``.
"""

from __future__ import annotations

import asyncio
import json
import secrets
from dataclasses import dataclass

from aiohttp import WSMsgType, web

from .discord_state import Payload, World

# Opcodes.
DISPATCH = 0
HEARTBEAT = 1
IDENTIFY = 2
RESUME = 6
RECONNECT = 7
REQUEST_GUILD_MEMBERS = 8
INVALID_SESSION = 9
HELLO = 10
HEARTBEAT_ACK = 11

# Intent bits that decide what a session may see.
GUILDS = 1 << 0
GUILD_MEMBERS = 1 << 1
GUILD_PRESENCES = 1 << 8
GUILD_MESSAGES = 1 << 9
DIRECT_MESSAGES = 1 << 12
MESSAGE_CONTENT = 1 << 15

_MESSAGE_EVENTS = {"MESSAGE_CREATE", "MESSAGE_UPDATE", "MESSAGE_DELETE"}
_EVENT_INTENTS = {
    "GUILD_CREATE": GUILDS,
    "CHANNEL_CREATE": GUILDS,
    "THREAD_CREATE": GUILDS,
    "GUILD_MEMBER_ADD": GUILD_MEMBERS,
}
# Closing with these codes ends a session for good; anything else leaves it resumable.
# (discord.py's Client.close() races its reader and usually closes with 4000, so, as on
# Discord, a closed client's session lingers as resumable; it just never resumes.)
_FINAL_CLOSE_CODES = (1000, 1001)


def shard_of(guild_id: int | None, shard_count: int) -> int:
    """Discord's routing rule; events without a guild (DMs) go to shard 0."""
    return 0 if guild_id is None else (guild_id >> 22) % shard_count


@dataclass(frozen=True)
class Identify:
    """What a client announced in IDENTIFY, kept so tests can assert on intents and shards."""

    token: str
    intents: int
    shard_id: int
    shard_count: int
    large_threshold: int


class GatewaySession:
    """One identified session. It outlives its socket so a RESUME can replay what was missed."""

    def __init__(self, session_id: str, identify: Identify, socket: web.WebSocketResponse) -> None:
        self.session_id = session_id
        self.identify = identify
        self.socket: web.WebSocketResponse | None = socket
        self.invalidated = False
        self.reconnect_requested = False  # dropped because we sent RECONNECT: a RESUME is coming
        self._history: list[Payload] = []
        self._lock = asyncio.Lock()  # keeps sequence numbers and send order in step

    @property
    def connected(self) -> bool:
        return self.socket is not None and not self.socket.closed

    async def dispatch(self, event: str, data: Payload) -> None:
        async with self._lock:
            frame = {"op": DISPATCH, "t": event, "s": len(self._history) + 1, "d": data}
            self._history.append(frame)
            await self._send(frame)

    async def resume(self, socket: web.WebSocketResponse, seq: int | None) -> None:
        async with self._lock:
            self.socket = socket
            self.reconnect_requested = False
            for frame in self._history[seq or 0:]:
                await self._send(frame)
        await self.dispatch("RESUMED", {})

    async def _send(self, frame: Payload) -> None:
        if not self.connected:
            return  # kept in history; a RESUME will deliver it
        try:
            await self.socket.send_json(frame)
        except ConnectionResetError:
            self.socket = None


class FakeGateway:
    """WebSocket server on 127.0.0.1; every path is the gateway, ``/resume`` is the resume URL."""

    def __init__(self, world: World, *, heartbeat_interval_ms: int) -> None:
        self.world = world
        self.heartbeat_interval_ms = heartbeat_interval_ms
        self.url = ""
        self.identifies: list[Identify] = []
        self.resumed_sessions: list[str] = []
        self.connections: list[str] = []  # path and query of every socket opened
        self.heartbeats = 0
        self.sessions: dict[str, GatewaySession] = {}
        self._sockets: set[web.WebSocketResponse] = set()
        self._runner: web.AppRunner | None = None

    @property
    def resume_url(self) -> str:
        return self.url + "resume"

    async def start(self) -> None:
        app = web.Application()
        app.router.add_get("/{path:.*}", self._handle)
        self._runner = web.AppRunner(app, shutdown_timeout=1.0, access_log=None)
        await self._runner.setup()
        await web.TCPSite(self._runner, "127.0.0.1", 0).start()
        port = self._runner.addresses[0][1]
        self.url = f"ws://127.0.0.1:{port}/"

    async def stop(self) -> None:
        for socket in list(self._sockets):
            await socket.close(code=1001, message=b"fake gateway stopping")
        if self._runner is not None:
            await self._runner.cleanup()

    def live_sessions(self, guild_id: int | None) -> list[GatewaySession]:
        """Sessions that receive events for ``guild_id`` (including ones awaiting a RESUME)."""
        return [
            session
            for session in self.sessions.values()
            if not session.invalidated
            and shard_of(guild_id, session.identify.shard_count) == session.identify.shard_id
        ]

    def has_listener(self, guild_id: int | None) -> bool:
        """Whether a client is connected for ``guild_id`` or about to RESUME after our RECONNECT."""
        return any(s.connected or s.reconnect_requested for s in self.live_sessions(guild_id))

    async def dispatch(self, event: str, data: Payload, guild_id: int | None = None) -> None:
        """Send a DISPATCH to every session of the guild's shard whose intents allow it."""
        for session in self.live_sessions(guild_id):
            visible = self._visible(session.identify.intents, event, data)
            if visible is not None:
                await session.dispatch(event, visible)

    async def request_reconnect(self, shard_id: int = 0) -> None:
        """Send op 7 RECONNECT, as Discord does before moving a session; clients should RESUME."""
        for session in self.sessions.values():
            if session.connected and session.identify.shard_id == shard_id:
                session.reconnect_requested = True
                await session.socket.send_json({"op": RECONNECT, "d": None})

    def _visible(self, intents: int, event: str, data: Payload) -> Payload | None:
        """Apply intent gating; without MESSAGE_CONTENT, guild messages arrive with content blanked."""
        if event not in _MESSAGE_EVENTS:
            needed = _EVENT_INTENTS.get(event, 0)
            return data if intents & needed == needed else None
        if not intents & (GUILD_MESSAGES if "guild_id" in data else DIRECT_MESSAGES):
            return None
        if event == "MESSAGE_DELETE" or intents & MESSAGE_CONTENT or self._content_exempt(data):
            return data
        return {**data, "content": "", "embeds": [], "attachments": [], "components": []}

    def _content_exempt(self, message: Payload) -> bool:
        bot_id = str(self.world.bot.id)
        return (
            "guild_id" not in message
            or message["author"]["id"] == bot_id
            or any(user["id"] == bot_id for user in message["mentions"])
        )

    async def _handle(self, request: web.Request) -> web.WebSocketResponse:
        socket = web.WebSocketResponse()
        await socket.prepare(request)
        self.connections.append(request.path_qs)
        self._sockets.add(socket)
        session: GatewaySession | None = None
        try:
            await socket.send_json({"op": HELLO, "d": {"heartbeat_interval": self.heartbeat_interval_ms}})
            async for message in socket:
                if message.type is WSMsgType.TEXT:
                    session = await self._on_frame(socket, session, json.loads(message.data))
        finally:
            self._sockets.discard(socket)
            if session is not None and session.socket is socket:
                session.socket = None
                session.invalidated = socket.close_code in _FINAL_CLOSE_CODES
        return socket

    async def _on_frame(
        self, socket: web.WebSocketResponse, session: GatewaySession | None, frame: Payload
    ) -> GatewaySession | None:
        """Handle one client frame; returns the session the socket now belongs to."""
        op, data = frame.get("op"), frame.get("d")
        if op == HEARTBEAT:
            self.heartbeats += 1
            await socket.send_json({"op": HEARTBEAT_ACK, "d": None})
        elif op == IDENTIFY:
            return await self._identify(socket, data)
        elif op == RESUME:
            return await self._resume(socket, data)
        elif op == REQUEST_GUILD_MEMBERS and session is not None:
            await self._send_members(session, data)
        return session  # presence updates and voice ops are accepted and ignored

    async def _identify(self, socket: web.WebSocketResponse, data: Payload) -> GatewaySession:
        shard_id, shard_count = data.get("shard") or (0, 1)
        identify = Identify(
            token=data["token"],
            intents=data.get("intents", 0),
            shard_id=shard_id,
            shard_count=shard_count,
            large_threshold=data.get("large_threshold", 50),
        )
        self.identifies.append(identify)
        session = GatewaySession(secrets.token_hex(16), identify, socket)
        self.sessions[session.session_id] = session
        guilds = [g for g in self.world.guilds.values() if shard_of(g.id, shard_count) == shard_id]
        await session.dispatch("READY", {
            "v": 10,
            "user": {**self.world.bot.payload(), "verified": True, "mfa_enabled": False, "flags": 0},
            "guilds": [{"id": str(guild.id), "unavailable": True} for guild in guilds],
            "session_id": session.session_id,
            "resume_gateway_url": self.resume_url,
            "shard": [shard_id, shard_count],
            "application": {"id": str(self.world.application_id), "flags": 0},
            "private_channels": [],
            "relationships": [],
            "presences": [],
        })
        if identify.intents & GUILDS:
            for guild in guilds:
                all_members = bool(identify.intents & GUILD_PRESENCES) and len(guild.members) < identify.large_threshold
                await session.dispatch("GUILD_CREATE", self.world.guild_create_payload(guild, all_members=all_members))
        return session

    async def _resume(self, socket: web.WebSocketResponse, data: Payload) -> GatewaySession | None:
        session = self.sessions.get(data.get("session_id", ""))
        if session is None or session.invalidated:
            await socket.send_json({"op": INVALID_SESSION, "d": False})
            return None
        self.resumed_sessions.append(session.session_id)
        await session.resume(socket, data.get("seq"))
        return session

    async def _send_members(self, session: GatewaySession, data: Payload) -> None:
        """Answer a member chunk request (sent by discord.py when the GUILD_MEMBERS intent is on)."""
        guild = self.world.guilds[int(data["guild_id"])]
        members = list(guild.members.values())
        if data.get("user_ids"):
            wanted = {int(user_id) for user_id in data["user_ids"]}
            members = [m for m in members if m.user.id in wanted]
        elif data.get("query"):
            members = [m for m in members if m.user.username.lower().startswith(data["query"].lower())]
        if data.get("limit"):
            members = members[: data["limit"]]
        await session.dispatch("GUILD_MEMBERS_CHUNK", {
            "guild_id": str(guild.id),
            "members": [member.payload() for member in members],
            "chunk_index": 0,
            "chunk_count": 1,
            "not_found": [],
            "nonce": data.get("nonce"),
        })
