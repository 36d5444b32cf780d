"""Serving an aiohttp application on a host and port, for as long as a component runs."""

from __future__ import annotations

import logging

from aiohttp import web

log = logging.getLogger(__name__)


class WebServer:
    """Start, report the bound address of, and stop one aiohttp application."""

    def __init__(self, web_app: web.Application, host: str, port: int, what: str):
        self.web_app = web_app
        self.host, self.port = host, port
        self.what = what
        self._runner: web.AppRunner | None = None

    async def start(self) -> None:
        self._runner = web.AppRunner(self.web_app, access_log=None)
        await self._runner.setup()
        await web.TCPSite(self._runner, self.host, self.port).start()
        log.info("serving %s on http://%s:%d", self.what, *self.address)

    @property
    def address(self) -> tuple[str, int]:
        """The bound host and port (the port chosen by the system when configured as 0)."""
        assert self._runner is not None, "not started"
        return self._runner.addresses[0][:2]

    async def stop(self) -> None:
        if self._runner is not None:
            await self._runner.cleanup()
