"""``GET /metrics`` on a port of its own (``metrics.host``/``metrics.port``), served by ``genie-bot run``.

Not on the Slack HTTP app's port: that one faces Slack (the public Request URL), and metrics
are for the cluster's Prometheus only; a port of its own also serves Socket Mode and Discord
deployments, which have no HTTP server at all.
"""

from __future__ import annotations

import logging

from aiohttp import web

from ..observability.metrics import CONTENT_TYPE
from ..store import pending as actions
from ..store import sessions
from ..web_server import WebServer
from .engine import Engine

log = logging.getLogger(__name__)
PATH = "/metrics"


class MetricsServer(WebServer):
    def __init__(self, engine: Engine, host: str, port: int):
        super().__init__(web.Application(), host, port, f"metrics at {PATH}")
        self.engine = engine
        self.web_app.router.add_get(PATH, self._metrics)

    async def _metrics(self, request: web.Request) -> web.Response:
        try:
            pending, active = await self.engine.in_db(self._database_state)
            self.engine.metrics.database_state(pending, active)
        except Exception:  # noqa: BLE001 - the process's own counters are still worth serving
            log.exception("metrics: reading the database gauges failed")
        return web.Response(body=self.engine.metrics.render(), headers={"Content-Type": CONTENT_TYPE})

    def _database_state(self) -> tuple[dict[str, int], dict[str, int]]:
        with self.engine.db.read() as conn:
            pending = actions.count_by_status(conn)
            live = sessions.live_by_version(conn)
        active: dict[str, int] = {}
        for (agent, _version), count in live.items():
            active[agent] = active.get(agent, 0) + count
        return pending, active
