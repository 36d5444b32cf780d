"""A local fake of the Slack Web API, response URLs and Socket Mode for tests.

Tests run the real ``slack_sdk.WebClient`` and ``slack_bolt.App`` against this
server instead of mocking them, so request encoding, token handling and the
Socket Mode envelope/ack protocol are exercised as in production.

One aiohttp server on a free loopback port, in its own thread and event loop,
serves three things:

* ``/api/<method>``   -- Web API methods (``base_url`` for ``WebClient``)
* ``/response/<name>`` -- response URLs for slash commands / interactivity
* ``/link``            -- the Socket Mode WebSocket that ``apps.connections.open``
  points to; it speaks to slack_sdk's built-in ``SocketModeClient``, the one
  ``slack_bolt.adapter.socket_mode.SocketModeHandler`` uses.

The fake keeps a small message store so ``chat.update``, ``chat.delete`` and
``conversations.replies`` see what was posted (or seeded with ``add_message``).

Faults a busy workspace produces can be injected per method: ``fail`` (an ``ok: false``
answer), ``rate_limit`` (HTTP 429 with ``Retry-After`` and ``error: ratelimited``, as Slack
answers a method called too often) and ``hold`` (no answer until the test releases it).

Several workspaces may install the app ("Add to Slack", see :mod:`.slack_oauth`): a call made
with a token of one of them sees that workspace only (its messages, its bot user), so two
workspaces may have channels of the same id. Calls with any other token are the default
workspace's, :data:`TEAM_ID`.
"""

from __future__ import annotations

import asyncio
import itertools
import json
import threading
import time
import uuid
from collections.abc import Callable
from dataclasses import dataclass
from types import TracebackType
from typing import TYPE_CHECKING, Any, TypeVar

from aiohttp import WSCloseCode, WSMsgType, web

from .slack_oauth import FakeInstalls, FakeWorkspace

if TYPE_CHECKING:
    from slack_sdk.socket_mode.builtin import SocketModeClient

BOT_USER_ID = "UBOT"
BOT_ID = "BBOT"
TEAM_ID = "T1"
APP_ID = "A1"

# Fields that carry JSON; form-encoded requests send them as JSON strings.
_JSON_FIELDS = ("blocks", "attachments", "view", "metadata")
_ENVELOPE_TYPES = ("events_api", "slash_commands", "interactive")

_HEARTBEAT_SECONDS = 0.05
_T = TypeVar("_T")


@dataclass(frozen=True)
class SlackCall:
    """One Web API call. ``headers`` names are lower-cased; JSON fields are decoded."""

    method: str
    params: dict[str, Any]
    headers: dict[str, str]
    status: int = 200
    """The HTTP status answered: 429 for a call refused by :meth:`MockSlackWebAPI.rate_limit`."""

    @property
    def token(self) -> str | None:
        """The token used, from the ``Authorization`` header or a ``token`` param."""
        auth = self.headers.get("authorization", "")
        if auth.startswith("Bearer "):
            return auth.removeprefix("Bearer ")
        return self.params.get("token")


def event_callback(event: dict[str, Any], *, team_id: str = TEAM_ID, bot_user_id: str = BOT_USER_ID
                   ) -> dict[str, Any]:
    """Wrap an event the way the Events API delivers it (``events_api`` payload)."""
    return {
        "token": "verification-token",
        "team_id": team_id,
        "api_app_id": APP_ID,
        "event": event,
        "type": "event_callback",
        "event_id": f"Ev{uuid.uuid4().hex[:10].upper()}",
        "event_time": int(time.time()),
        "authorizations": [
            {"enterprise_id": None, "team_id": team_id, "user_id": bot_user_id, "is_bot": True,
             "is_enterprise_install": False}
        ],
        "is_ext_shared_channel": False,
    }


def slash_command(
    command: str, text: str, *, response_url: str, user_id: str = "U1", channel_id: str = "C1", team_id: str = TEAM_ID
) -> dict[str, Any]:
    """A ``slash_commands`` payload (the form fields Slack would POST in HTTP mode)."""
    return {
        "token": "verification-token",
        "team_id": team_id,
        "team_domain": "genie-test",
        "channel_id": channel_id,
        "channel_name": "general",
        "user_id": user_id,
        "user_name": user_id.lower(),
        "command": command,
        "text": text,
        "api_app_id": APP_ID,
        "is_enterprise_install": "false",
        "response_url": response_url,
        "trigger_id": f"{int(time.time())}.{uuid.uuid4().int % 10**12}",
    }


def close_socket_mode_client(client: SocketModeClient) -> None:
    """Close slack_sdk's built-in Socket Mode client in ~0.1 s instead of ~1 s.

    Its message processor blocks on the message queue with a 1 s timeout and
    checks ``closed`` only between waits. Marking the client closed and waking
    the queue (``None`` entries are skipped) lets ``close()`` join that thread
    at once. For a bolt ``SocketModeHandler`` pass ``handler.client``: the
    handler's own ``close()`` only closes that client.
    """
    client.closed = True
    client.message_queue.put(None)
    client.close()


async def _read_params(request: web.Request) -> dict[str, Any]:
    """Merge query string and JSON / urlencoded / multipart body into one dict."""
    params: dict[str, Any] = dict(request.query)
    if request.content_type == "application/json":
        body = await request.json() if request.can_read_body else None
        if isinstance(body, dict):
            params.update(body)
    elif request.content_type in ("application/x-www-form-urlencoded", "multipart/form-data"):
        for key, value in (await request.post()).items():
            params[key] = value if isinstance(value, str) else value.file.read()
    for field in _JSON_FIELDS:
        if isinstance(params.get(field), str):
            try:
                params[field] = json.loads(params[field])
            except ValueError:
                pass  # leave it as sent; a test asserting on it will show the raw string
    return params


class MockSlackWebAPI:
    """Fake Slack Web API + response URLs + Socket Mode on 127.0.0.1.

    Use as a context manager. ``admins`` maps user IDs to the ``is_admin`` flag
    that ``users.info`` reports (unknown users are not admins); ``display_names`` maps user
    IDs to their profile's display name (by default the lower-cased id). With ``token_rotation``
    the bot tokens of installed workspaces expire and come with refresh tokens.
    """

    def __init__(self, admins: dict[str, bool] | None = None, display_names: dict[str, str] | None = None, *,
                 token_rotation: bool = False) -> None:
        self.admins = dict(admins or {})
        self.display_names = dict(display_names or {})
        self.installs = FakeInstalls(APP_ID, token_rotation=token_rotation)
        self._cond = threading.Condition()
        self._calls: list[SlackCall] = []
        self._failures: dict[str, list[str | None]] = {}
        self._rate_limits: dict[str, list[int | None]] = {}
        self._holds: dict[str, threading.Event] = {}
        self._held: dict[str, int] = {}
        """Calls waiting on a hold, per method."""
        self._messages: dict[tuple[str, str], list[dict[str, Any]]] = {}
        """By workspace and channel."""
        self._responses: dict[str, list[dict[str, Any]]] = {}
        self._acks: list[dict[str, Any]] = []
        self._sockets: list[web.WebSocketResponse] = []
        self._ts_counter = itertools.count(1)
        self._envelope_counter = itertools.count(1)
        self._loop: asyncio.AbstractEventLoop | None = None
        self._thread: threading.Thread | None = None
        self._runner: web.AppRunner | None = None
        self._port = 0

    # -- lifecycle -------------------------------------------------------

    def start(self) -> MockSlackWebAPI:
        """Start the server on a free port; returns once it accepts connections."""
        if self._thread is not None:
            raise RuntimeError("MockSlackWebAPI is already running")
        self._loop = asyncio.new_event_loop()
        self._thread = threading.Thread(target=self._loop.run_forever, name="mock-slack", daemon=True)
        self._thread.start()
        try:
            asyncio.run_coroutine_threadsafe(self._start_site(), self._loop).result(timeout=5)
        except BaseException:
            self.close()
            raise
        return self

    def close(self) -> None:
        """Close WebSockets, stop the server and join its thread. Idempotent."""
        if self._thread is None:
            return
        assert self._loop is not None
        try:
            asyncio.run_coroutine_threadsafe(self._stop_site(), self._loop).result(timeout=10)
        finally:
            self._loop.call_soon_threadsafe(self._loop.stop)
        self._thread.join(timeout=10)
        self._loop.close()
        self._loop = self._thread = self._runner = None

    def __enter__(self) -> MockSlackWebAPI:
        return self.start()

    def __exit__(
        self, exc_type: type[BaseException] | None, exc: BaseException | None, tb: TracebackType | None
    ) -> None:
        self.close()

    async def _start_site(self) -> None:
        app = web.Application()
        app.router.add_route("*", "/api/{method}", self._handle_api)
        app.router.add_post("/response/{name}", self._handle_response_url)
        app.router.add_get("/link", self._handle_socket)
        app.router.add_get("/oauth/v2/authorize", self._handle_authorize)
        self._runner = web.AppRunner(app, access_log=None, shutdown_timeout=1)
        await self._runner.setup()
        await web.TCPSite(self._runner, "127.0.0.1", 0).start()
        self._port = self._runner.addresses[0][1]

    async def _stop_site(self) -> None:
        with self._cond:
            held, self._holds = list(self._holds.values()), {}
        for released in held:
            released.set()
        for ws in list(self._sockets):
            await ws.close(code=WSCloseCode.GOING_AWAY, message=b"server shutdown")
        if self._runner is not None:
            await self._runner.cleanup()

    def _url(self, scheme: str, path: str) -> str:
        if self._thread is None:
            raise RuntimeError("MockSlackWebAPI is not running; use it as a context manager or call start()")
        return f"{scheme}://127.0.0.1:{self._port}{path}"

    @property
    def base_url(self) -> str:
        """``http://127.0.0.1:PORT/api/`` for ``WebClient(base_url=...)``.

        slack_sdk joins it with the method name via ``urljoin``, so the trailing
        slash matters (WebClient appends one if missing).
        """
        return self._url("http", "/api/")

    @property
    def authorize_url(self) -> str:
        """Slack's authorize page, for the app's ``authorization_url``."""
        return self._url("http", "/oauth/v2/authorize")

    @property
    def socket_mode_url(self) -> str:
        """The WebSocket URL that ``apps.connections.open`` hands out."""
        return self._url("ws", "/link")

    # -- Web API recording -----------------------------------------------

    @property
    def calls(self) -> list[SlackCall]:
        """Snapshot of every Web API call received, in order."""
        with self._cond:
            return list(self._calls)

    def calls_to(self, method: str) -> list[SlackCall]:
        """Calls to one API method, e.g. ``calls_to("chat.postMessage")``."""
        with self._cond:
            return [call for call in self._calls if call.method == method]

    def wait_for(self, method: str, count: int = 1, timeout: float = 5.0) -> list[SlackCall]:
        """Block until ``count`` calls to ``method`` arrived; return them all.

        Bolt runs listeners in worker threads, so tests must wait rather than
        assert immediately after pushing an event.
        """

        def arrived() -> list[SlackCall] | None:
            matching = [call for call in self._calls if call.method == method]
            return matching if len(matching) >= count else None

        return self._wait(
            arrived,
            timeout,
            lambda: f"expected {count} call(s) to {method} within {timeout}s, got "
            f"{len([c for c in self._calls if c.method == method])}; "
            f"all calls so far: {[c.method for c in self._calls]}",
        )

    def fail(self, method: str, error: str, *, times: int = 1, after: int = 0) -> None:
        """Make ``times`` calls to ``method``, after the next ``after`` ones, return ``{"ok": false, "error": error}``."""
        with self._cond:
            self._failures.setdefault(method, []).extend([None] * after + [error] * times)

    def rate_limit(self, method: str, *, retry_after: int = 0, times: int = 1, after: int = 0) -> None:
        """Refuse ``times`` calls to ``method``, after the next ``after`` ones, as Slack refuses a method called
        too often: HTTP 429, header ``Retry-After: <retry_after>`` (seconds), body ``{"ok": false, "error":
        "ratelimited"}``."""
        with self._cond:
            self._rate_limits.setdefault(method, []).extend([None] * after + [retry_after] * times)

    def hold(self, method: str) -> Callable[[], None]:
        """Answer no call to ``method`` until the returned function is called (a slow Slack)."""
        released = threading.Event()
        with self._cond:
            self._holds[method] = released

        def release() -> None:
            with self._cond:
                self._holds.pop(method, None)
            released.set()

        return release

    def wait_for_held(self, method: str, count: int = 1, timeout: float = 5.0) -> None:
        """Block until ``count`` calls to ``method`` wait on its :meth:`hold`."""
        self._wait(lambda: self._held.get(method, 0) >= count or None, timeout,
                   lambda: f"expected {count} held call(s) to {method}, got {self._held.get(method, 0)}")

    def add_message(self, channel: str, text: str, *, user: str = "U1", thread_ts: str | None = None,
                    team: str = TEAM_ID, ts: str | None = None, **fields: Any) -> str:
        """Seed a message (e.g. a user's thread) in ``team``'s ``channel`` that the bot can later read;
        returns its ts (``ts``, else a new one). ``fields`` are further message keys (``bot_id``,
        ``metadata``, ``files``...)."""
        message = {"type": "message", "user": user, "text": text, "team": team, **fields}
        if thread_ts is not None:
            message["thread_ts"] = thread_ts
        with self._cond:
            return self._store(team, channel, message, ts)["ts"]

    # -- workspaces ("Add to Slack") ---------------------------------------------------------

    def add_workspace(self, team_id: str, name: str | None = None, **options: Any) -> FakeWorkspace:
        """A workspace whose installer will approve the app (see :meth:`.FakeInstalls.add_workspace`)."""
        with self._cond:
            return self.installs.add_workspace(team_id, name, **options)

    def uninstall(self, team: str) -> None:
        """Someone removes the app from workspace ``team`` in Slack: its tokens stop working (the
        test then delivers the ``app_uninstalled`` event Slack sends)."""
        with self._cond:
            self.installs.uninstall(team)

    def tokens_of(self, team: str) -> list[str]:
        with self._cond:
            return self.installs.tokens_of(team)

    # -- response URLs -----------------------------------------------------

    def messages(self, channel: str, team: str = TEAM_ID) -> list[dict[str, Any]]:
        """Copies of every message of ``team``'s ``channel`` as it is now (updates applied, deletions gone)."""
        with self._cond:
            return [dict(m) for m in self._messages.get((team, channel), [])]

    def response_url(self, name: str) -> str:
        """A URL on this server recording what is posted to it, under ``name``."""
        return self._url("http", f"/response/{name}")

    def responses(self, name: str) -> list[dict[str, Any]]:
        """Bodies posted so far to ``response_url(name)``."""
        with self._cond:
            return list(self._responses.get(name, []))

    def wait_for_response(self, name: str, count: int = 1, timeout: float = 5.0) -> list[dict[str, Any]]:
        """Block until ``count`` bodies were posted to ``response_url(name)``."""
        return self._wait(
            lambda: list(self._responses.get(name, [])) if len(self._responses.get(name, [])) >= count else None,
            timeout,
            lambda: f"expected {count} post(s) to response_url({name!r}) within {timeout}s, "
            f"got {self._responses.get(name, [])}",
        )

    # -- Socket Mode -------------------------------------------------------

    def push_envelope(
        self, type: str, payload: dict[str, Any], *, envelope_id: str | None = None, timeout: float = 5.0
    ) -> str:
        """Send an envelope to the connected Socket Mode client; returns its envelope_id.

        ``type`` is ``events_api`` (payload: see ``event_callback``),
        ``slash_commands`` (see ``slash_command``) or ``interactive``. Waits up to
        ``timeout`` for a client to be connected.
        """
        if type not in _ENVELOPE_TYPES:
            raise ValueError(f"envelope type must be one of {_ENVELOPE_TYPES}, got {type!r}")
        envelope_id = envelope_id or f"envelope-{next(self._envelope_counter)}"
        envelope: dict[str, Any] = {
            "envelope_id": envelope_id,
            "type": type,
            "payload": payload,
            "accepts_response_payload": type != "events_api",
        }
        if type == "events_api":
            envelope.update(retry_attempt=0, retry_reason="")
        ws = self._wait(
            lambda: self._sockets[-1] if self._sockets else None,
            timeout,
            lambda: f"no Socket Mode client connected within {timeout}s (did the test call handler.connect()?)",
        )
        assert self._loop is not None
        asyncio.run_coroutine_threadsafe(ws.send_json(envelope), self._loop).result(timeout=timeout)
        return envelope_id

    @property
    def acks(self) -> list[dict[str, Any]]:
        """Messages the Socket Mode client sent back (``envelope_id`` + optional ``payload``)."""
        with self._cond:
            return list(self._acks)

    def wait_for_ack(self, envelope_id: str, timeout: float = 5.0) -> dict[str, Any]:
        """Block until the client acknowledged ``envelope_id``; returns the ack message."""
        return self._wait(
            lambda: next((ack for ack in self._acks if ack.get("envelope_id") == envelope_id), None),
            timeout,
            lambda: f"envelope {envelope_id!r} was not acked within {timeout}s; acks so far: {self._acks}",
        )

    # -- internals ---------------------------------------------------------

    def _wait(self, ready: Callable[[], _T | None], timeout: float, describe: Callable[[], str]) -> _T:
        with self._cond:
            result = self._cond.wait_for(ready, timeout)
            if result is None:
                raise AssertionError(describe())
            return result

    async def _handle_api(self, request: web.Request) -> web.Response:
        params = await _read_params(request)
        headers = {name.lower(): value for name, value in request.headers.items()}
        method = request.match_info["method"]
        with self._cond:
            held = self._holds.get(method)
        if held is not None:
            with self._cond:
                self._held[method] = self._held.get(method, 0) + 1
                self._cond.notify_all()
            await asyncio.get_running_loop().run_in_executor(None, held.wait)
            with self._cond:
                self._held[method] -= 1
        with self._cond:
            limits = self._rate_limits.get(method)
            retry_after = limits.pop(0) if limits else None
            call = SlackCall(method, params, headers, status=200 if retry_after is None else 429)
            self._calls.append(call)
            body = self._respond(call) if retry_after is None else {"ok": False, "error": "ratelimited"}
            self._cond.notify_all()
        if retry_after is not None:
            return web.json_response(body, status=429, headers={"Retry-After": str(retry_after)})
        return web.json_response(body)

    async def _handle_authorize(self, request: web.Request) -> web.Response:
        with self._cond:
            status, answer = self.installs.authorize(dict(request.query))
        if status == 302:
            raise web.HTTPFound(answer)
        return web.Response(status=status, text=answer)

    async def _handle_response_url(self, request: web.Request) -> web.Response:
        body = await _read_params(request)
        with self._cond:
            self._responses.setdefault(request.match_info["name"], []).append(body)
            self._cond.notify_all()
        return web.json_response({"ok": True})

    async def _handle_socket(self, request: web.Request) -> web.WebSocketResponse:
        ws = web.WebSocketResponse(timeout=1)
        await ws.prepare(request)
        await ws.send_json(
            {
                "type": "hello",
                "num_connections": len(self._sockets) + 1,
                "debug_info": {"host": "mock-slack", "build_number": 1, "approximate_connection_time": 3600},
                "connection_info": {"app_id": APP_ID},
            }
        )
        with self._cond:
            self._sockets.append(ws)
            self._cond.notify_all()
        heartbeat = asyncio.create_task(self._heartbeat(ws))
        try:
            async for message in ws:
                if message.type == WSMsgType.TEXT:
                    with self._cond:
                        self._acks.append(json.loads(message.data))
                        self._cond.notify_all()
        finally:
            heartbeat.cancel()
            with self._cond:
                self._sockets.remove(ws)
        return ws

    @staticmethod
    async def _heartbeat(ws: web.WebSocketResponse) -> None:
        """Ping the client every 50 ms (nothing enforces the pongs).

        slack_sdk's built-in client blocks in ``recv`` for up to 3 s while
        holding the receive lock its ``disconnect()`` needs. A ping wakes it,
        and answering needs the send lock that ``disconnect()`` already holds,
        so the receiver parks there and disconnecting takes ~0.1 s, not 3 s.

        The ping carries a payload on purpose: that client's frame parser does
        a further blocking ``recv`` whenever it holds <= 2 bytes, so a stream of
        empty (2-byte) pings would stall delivery of every other message.
        """
        try:
            while not ws.closed:
                await ws.ping(b"mock-slack")
                await asyncio.sleep(_HEARTBEAT_SECONDS)
        except ConnectionError:
            pass  # the client went away; the receive loop notices and cleans up

    def _respond(self, call: SlackCall) -> dict[str, Any]:
        """Build the API response; runs with ``self._cond`` held."""
        pending_errors = self._failures.get(call.method)
        error = pending_errors.pop(0) if pending_errors else None
        if error is not None:
            return {"ok": False, "error": error}
        if call.method == "oauth.v2.access":
            return self.installs.oauth_access(call.params, call.headers)
        if call.method == "apps.uninstall":
            return self.installs.uninstall_app(call.params, call.token)
        token_error = self._token_error(call) or self.installs.token_error(call.token)
        if token_error:
            return {"ok": False, "error": token_error}
        handler = self._METHODS.get(call.method)
        return handler(self, call.params, self._workspace(call)) if handler else {"ok": True}

    @staticmethod
    def _token_error(call: SlackCall) -> str | None:
        token = call.token
        if not token:
            return "not_authed"
        is_app_token = token.startswith("xapp-")
        if is_app_token != (call.method == "apps.connections.open"):
            return "not_allowed_token_type"
        return None

    def _workspace(self, call: SlackCall) -> FakeWorkspace:
        """The workspace a call acts in: its token's (the default workspace for a token not issued here)."""
        return self.installs.workspace_of(call.token) or _DEFAULT_WORKSPACE

    def _store(self, team: str, channel: str, message: dict[str, Any], ts: str | None = None) -> dict[str, Any]:
        message["ts"] = ts or self._next_ts()
        self._messages.setdefault((team, channel), []).append(message)
        return message

    def _next_ts(self) -> str:
        """Unique, increasing Slack timestamps: 1700000000.000100, 1700000000.000200, ..."""
        micros = 1_700_000_000_000_000 + 100 * next(self._ts_counter)
        return f"{micros // 1_000_000}.{micros % 1_000_000:06d}"

    def _find(self, team: str, channel: str, ts: str) -> dict[str, Any] | None:
        return next((m for m in self._messages.get((team, channel), []) if m["ts"] == ts), None)

    def _auth_test(self, params: dict[str, Any], workspace: FakeWorkspace) -> dict[str, Any]:
        return {
            "ok": True,
            "url": "https://genie-test.slack.com/",
            "team": workspace.name,
            "user": "genie",
            "team_id": workspace.team_id,
            "user_id": workspace.bot_user_id,
            "bot_id": workspace.bot_id,
            "is_enterprise_install": False,
        }

    def _post_message(self, params: dict[str, Any], workspace: FakeWorkspace) -> dict[str, Any]:
        channel = params.get("channel")
        if not channel:
            return {"ok": False, "error": "channel_not_found"}
        if not params.get("text") and not params.get("blocks") and not params.get("attachments"):
            return {"ok": False, "error": "no_text"}
        message = {"type": "message", "user": workspace.bot_user_id, "bot_id": workspace.bot_id,
                   "team": workspace.team_id, "text": params.get("text", "")}
        for key in ("blocks", "attachments", "thread_ts", "metadata"):
            if key in params:
                message[key] = params[key]
        self._store(workspace.team_id, channel, message)
        return {"ok": True, "channel": channel, "ts": message["ts"], "message": dict(message)}

    def _update(self, params: dict[str, Any], workspace: FakeWorkspace) -> dict[str, Any]:
        channel, ts = params.get("channel", ""), params.get("ts", "")
        message = self._find(workspace.team_id, channel, ts)
        if message is None:
            return {"ok": False, "error": "message_not_found"}
        for key in ("text", "blocks", "attachments", "metadata"):
            if key in params:
                message[key] = params[key]
        return {"ok": True, "channel": channel, "ts": ts, "text": message.get("text", ""), "message": dict(message)}

    def _delete(self, params: dict[str, Any], workspace: FakeWorkspace) -> dict[str, Any]:
        channel, ts = params.get("channel", ""), params.get("ts", "")
        message = self._find(workspace.team_id, channel, ts)
        if message is None:
            return {"ok": False, "error": "message_not_found"}
        self._messages[(workspace.team_id, channel)].remove(message)
        return {"ok": True, "channel": channel, "ts": ts}

    def _post_ephemeral(self, params: dict[str, Any], workspace: FakeWorkspace) -> dict[str, Any]:
        return {"ok": True, "message_ts": self._next_ts()}

    def _users_info(self, params: dict[str, Any], workspace: FakeWorkspace) -> dict[str, Any]:
        user_id = params.get("user")
        if not user_id:
            return {"ok": False, "error": "user_not_found"}
        name = user_id.lower()
        display_name = self.display_names.get(user_id, name)
        return {
            "ok": True,
            "user": {
                "id": user_id,
                "team_id": workspace.team_id,
                "name": name,
                "real_name": f"User {user_id}",
                "deleted": False,
                "is_admin": bool(self.admins.get(user_id, False)),
                "is_owner": False,
                "is_bot": user_id == workspace.bot_user_id,
                "tz": "UTC",
                "tz_offset": 0,
                "profile": {"real_name": f"User {user_id}", "display_name": display_name},
            },
        }

    def _replies(self, params: dict[str, Any], workspace: FakeWorkspace) -> dict[str, Any]:
        channel, ts = params.get("channel", ""), params.get("ts", "")
        parent = self._find(workspace.team_id, channel, ts)
        if parent is None:
            return {"ok": False, "error": "thread_not_found"}
        replies = [m for m in self._messages[(workspace.team_id, channel)]
                   if m.get("thread_ts") == ts and m["ts"] != ts]
        head = {**parent, "thread_ts": ts, "reply_count": len(replies)} if replies else dict(parent)
        messages = [head] + sorted(replies, key=lambda m: m["ts"])
        return {"ok": True, "messages": _as_listed(messages, params), "has_more": False,
                "response_metadata": {"next_cursor": ""}}

    def _history(self, params: dict[str, Any], workspace: FakeWorkspace) -> dict[str, Any]:
        """A channel's top-level messages, newest first (``limit`` of them)."""
        top = [m for m in self._messages.get((workspace.team_id, params.get("channel", "")), [])
               if m.get("thread_ts") in (None, m["ts"])]
        newest = sorted(top, key=lambda m: m["ts"], reverse=True)[:int(params.get("limit", 100))]
        return {"ok": True, "messages": _as_listed(newest, params), "has_more": False,
                "response_metadata": {"next_cursor": ""}}

    def _conversations_info(self, params: dict[str, Any], workspace: FakeWorkspace) -> dict[str, Any]:
        channel = params.get("channel")
        if not channel:
            return {"ok": False, "error": "channel_not_found"}
        return {
            "ok": True,
            "channel": {
                "id": channel,
                "name": f"channel-{channel.lower()}",
                "is_channel": channel.startswith("C"),
                "is_group": channel.startswith("G"),
                "is_im": channel.startswith("D"),
                "is_private": not channel.startswith("C"),
                "is_member": True,
            },
        }

    def _connections_open(self, params: dict[str, Any], workspace: FakeWorkspace) -> dict[str, Any]:
        return {"ok": True, "url": self.socket_mode_url}

    _METHODS: dict[str, Callable[[MockSlackWebAPI, dict[str, Any], FakeWorkspace], dict[str, Any]]] = {
        "auth.test": _auth_test,
        "chat.postMessage": _post_message,
        "chat.update": _update,
        "chat.delete": _delete,
        "chat.postEphemeral": _post_ephemeral,
        "users.info": _users_info,
        "conversations.replies": _replies,
        "conversations.history": _history,
        "conversations.info": _conversations_info,
        "apps.connections.open": _connections_open,
    }


def _as_listed(messages: list[dict[str, Any]], params: dict[str, Any]) -> list[dict[str, Any]]:
    """Copies of ``messages`` as Slack lists them: metadata only when ``include_all_metadata`` is asked."""
    with_metadata = str(params.get("include_all_metadata", "")).lower() in ("1", "true")
    return [m if with_metadata else {k: v for k, v in m.items() if k != "metadata"} for m in map(dict, messages)]


_DEFAULT_WORKSPACE = FakeWorkspace(TEAM_ID, "Genie Test", BOT_USER_ID, BOT_ID, installer="U1")
