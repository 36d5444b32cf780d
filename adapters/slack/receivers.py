"""How Slack's requests reach the Bolt app: Socket Mode, or HTTP with signed requests.

HTTP mode serves Bolt's standard endpoint (``POST <path>``: events, interactivity and the
slash command; Bolt verifies every request's signature) and ``GET /healthz`` for load
balancers and orchestrators, which answers 200 only while the engine's database answers.
"""

from __future__ import annotations

import logging
from collections.abc import Awaitable, Callable
from typing import Protocol

from aiohttp import web
from slack_bolt.adapter.socket_mode.async_handler import AsyncSocketModeHandler
from slack_bolt.async_app import AsyncApp

from genie_bot.web_server import WebServer

log = logging.getLogger(__name__)


class Receiver(Protocol):
    async def start(self) -> None: ...

    async def stop(self) -> None: ...


class SocketModeReceiver:
    def __init__(self, app: AsyncApp, app_token: str):
        self.handler = AsyncSocketModeHandler(app, app_token=app_token)

    async def start(self) -> None:
        await self.handler.connect_async()
        log.info("connected to Slack in Socket Mode")

    async def stop(self) -> None:
        await self.handler.close_async()


class HttpReceiver(WebServer):
    def __init__(self, app: AsyncApp, host: str, port: int, path: str, healthy: Callable[[], Awaitable[bool]]):
        super().__init__(app.web_app(path=path, port=port), host, port, "Slack requests")
        self.healthy = healthy
        self.web_app.router.add_get("/healthz", self._health)

    async def _health(self, request: web.Request) -> web.Response:
        ok = await self.healthy()
        return web.json_response({"ok": ok}, status=200 if ok else 503)
