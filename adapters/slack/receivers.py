"""How Slack's requests reach the Bolt app: Socket Mode, or HTTP with signed requests.

HTTP mode serves Bolt's standard endpoint (``POST <path>``: events, interactivity and the
slash command) and ``GET /healthz`` for load balancers and orchestrators, which answers 200
only while the engine's database answers. The endpoint is public, so every request's
signature is checked before Bolt reads its body: anything not signed with the signing secret
(missing, stale or forged signature, garbage) gets 401 and one log line, never a traceback;
a signed request Bolt cannot read gets 400.
"""

from __future__ import annotations

import logging
from collections.abc import Awaitable, Callable
from typing import Protocol

from aiohttp import web
from slack_bolt.adapter.socket_mode.async_handler import AsyncSocketModeHandler
from slack_bolt.async_app import AsyncApp
from slack_sdk.signature import SignatureVerifier

from genie_bot.web_server import WebServer

log = logging.getLogger(__name__)


class Receiver(Protocol):
    async def start(self) -> None: ...

    async def stop(self) -> None: ...


class SocketModeReceiver:
    def __init__(self, app: AsyncApp, app_token: str):
        self.handler = AsyncSocketModeHandler(app, app_token=app_token)

    async def start(self) -> None:
        # The client retries a connection Slack refuses for ever; asking for the first connection's
        # URL here makes a wrong app token fail the start (SlackApiError) instead.
        client = self.handler.client
        client.wss_uri = (await client.web_client.apps_connections_open(app_token=client.app_token))["url"]
        await self.handler.connect_async()
        log.info("connected to Slack in Socket Mode")

    async def stop(self) -> None:
        await self.handler.close_async()


class HttpReceiver(WebServer):
    def __init__(self, app: AsyncApp, host: str, port: int, path: str, healthy: Callable[[], Awaitable[bool]],
                 signing_secret: str | None = None):
        """``signing_secret``: the requests to ``path`` not signed with it are refused before Bolt reads them
        (without it, Bolt alone verifies them, answering garbage with 500)."""
        super().__init__(app.web_app(path=path, port=port), host, port, "Slack requests")
        self.healthy = healthy
        self.web_app.router.add_get("/healthz", self._health)
        self.web_app.middlewares.append(_same_site_cookies)
        if signing_secret:
            self.web_app.middlewares.append(_signed_only(path, SignatureVerifier(signing_secret)))

    async def _health(self, request: web.Request) -> web.Response:
        ok = await self.healthy()
        return web.json_response({"ok": ok}, status=200 if ok else 503)


@web.middleware
async def _same_site_cookies(request: web.Request, handler: Callable[[web.Request], Awaitable[web.StreamResponse]]
                             ) -> web.StreamResponse:
    """Every cookie set here (the OAuth state cookie of "Add to Slack") is ``SameSite=Lax``: sent along
    when Slack sends the installer back (a top-level navigation), not with another site's requests
    from within its pages. Bolt's aiohttp adapter sets cookies with Secure and HttpOnly only."""
    response = await handler(request)
    for morsel in response.cookies.values():
        morsel["samesite"] = "Lax"
    return response


def _signed_only(path: str, verifier: SignatureVerifier) -> Callable:
    @web.middleware
    async def signed_only(request: web.Request, handler: Callable[[web.Request], Awaitable[web.StreamResponse]]
                          ) -> web.StreamResponse:
        if request.method != "POST" or request.path != path:
            return await handler(request)
        body = await request.read()
        try:
            signed = verifier.is_valid_request(body, dict(request.headers))
        except ValueError:  # a timestamp that is no number, a body that is no UTF-8
            signed = False
        if not signed:
            log.warning("refused a request to %s from %s: no valid Slack signature", path, request.remote)
            return web.json_response({"error": "invalid request"}, status=401)
        try:
            return await handler(request)
        except ValueError as exc:  # Bolt could not parse the body (JSON, form)
            log.warning("refused a signed request to %s that cannot be read: %s", path, type(exc).__name__)
            return web.json_response({"error": "malformed request"}, status=400)

    return signed_only
