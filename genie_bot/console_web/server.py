"""The console's web server: pages rendered from plain templates, and the JSON API their script uses.

Pages carry no user content: the script fetches it as JSON and builds the DOM with text
nodes only, never markup, and the Content-Security-Policy allows no script but the page's
own file. Templates are autoescaped all the same.

======================================  =====================================================
``GET /``                               a new conversation (or the sessions, read-only)
``GET /sessions``                       every session the console can show
``GET /session?key=K``                  one conversation: chat and turn inspector
``GET /new?agent=A``                    a new conversation with agent A
``GET|POST /login``                     the operator's token, for a cookie
``GET /api/sessions[?platform=P&workspace=W]``  the sessions (of a Slack workspace, a Discord server), as JSON
``GET /api/session?key=K``              a session's turns, actions and state
``POST /api/session/message``           ``{key, text}``: a user's message; returns the session
``POST /api/session/action``            ``{key, action_id, decision}``: a Confirm/Cancel click
``GET /api/session/scenario?key=K``     the conversation as a conversation test, checked
``POST /api/reload``                    load the agents again (worksheets edited meanwhile)
======================================  =====================================================
"""

from __future__ import annotations

import asyncio
import json
import math
from collections.abc import Awaitable, Callable
from dataclasses import asdict
from functools import cache, partial
from importlib import resources
from typing import Any
from urllib.parse import quote

import jinja2
from aiohttp import web

from ..engine import Decision, SessionKey
from ..web_server import WebServer
from .access import COOKIE, SESSION_SECONDS, Access
from .export import export_scenario
from .live import PLATFORM, LiveConsole
from .sources import SessionSource, loaded_agents
from .views import empty_session_view

MAX_MESSAGE = 4000
STATIC = {"console.js": "text/javascript; charset=utf-8", "console.css": "text/css; charset=utf-8"}
CSP = ("default-src 'none'; script-src 'self'; style-src 'self'; img-src 'self'; connect-src 'self'; "
       "form-action 'self'; base-uri 'none'; frame-ancestors 'none'")
_dumps = partial(json.dumps, ensure_ascii=False, default=str)


@cache
def _templates() -> jinja2.Environment:
    return jinja2.Environment(loader=jinja2.PackageLoader(__package__, "templates"), autoescape=True,
                              undefined=jinja2.StrictUndefined)


@cache
def _static(name: str) -> bytes:
    return resources.files(__package__).joinpath("static", name).read_bytes()


def session_url(key: SessionKey | str) -> str:
    return f"/session?key={quote(str(key), safe='')}"


class Console:
    """What the page shows: the console's own conversations (``live``) and/or a deployment's
    stored sessions (``stored``)."""

    def __init__(self, live: LiveConsole | None, stored: SessionSource | None):
        self.live = live
        self.stored = stored
        self.live_source = None if live is None else SessionSource(
            live.engine.db, agents=loaded_agents(live.engine.registry), confirmation=live.config.confirmation,
            llm=live.config.llm, include_content=True, captures=live.captures)

    def source(self, key: SessionKey) -> SessionSource | None:
        return self.live_source if self.is_live(key) else self.stored

    def is_live(self, key: SessionKey) -> bool:
        return self.live is not None and key.platform == PLATFORM and key.channel in self.live.config.agents


class ConsoleServer(WebServer):
    def __init__(self, console: Console, access: Access, host: str, port: int):
        super().__init__(web.Application(middlewares=[self._checked]), host, port, "the console")
        self.console = console
        self.access = access
        self.web_app.on_response_prepare.append(_security_headers)
        routes = self.web_app.router
        routes.add_get("/", self._home)
        routes.add_get("/sessions", self._sessions_page)
        routes.add_get("/session", self._session_page)
        routes.add_get("/new", self._new)
        routes.add_get("/login", self._login_page)
        routes.add_post("/login", self._login)
        routes.add_get("/static/{name}", self._static)
        routes.add_get("/favicon.ico", _no_content)
        routes.add_get("/api/sessions", self._sessions)
        routes.add_get("/api/session", self._session)
        routes.add_post("/api/session/message", self._message)
        routes.add_post("/api/session/action", self._action)
        routes.add_get("/api/session/scenario", self._scenario)
        routes.add_post("/api/reload", self._reload)

    @property
    def url(self) -> str:
        host, port = self.address
        return f"http://{'[' + host + ']' if ':' in host else host}:{port}"

    # -- checks ------------------------------------------------------------------------------------
    @web.middleware
    async def _checked(self, request: web.Request, handler: Callable[[web.Request], Awaitable[web.StreamResponse]]
                       ) -> web.StreamResponse:
        if not self.access.host_allowed(request):
            return _error(421, "this console answers only to its loopback address")
        if self.access.reads_need_login and not self.access.logged_in(request) and \
                not self.access.open_to_all(request.path):
            if request.path.startswith("/api/"):
                return _error(401, "log in with the console's token to read this")
            raise web.HTTPSeeOther(f"/login?next={quote(request.path_qs, safe='')}")
        if request.method == "POST" and request.path.startswith("/api/"):
            if not self.access.same_origin_json(request):
                return _error(403, "writes must be JSON requests from the console's own page")
            if not self.access.logged_in(request):
                return _error(401, "log in with the console's token to do this")
        return await handler(request)

    def _writable(self, request: web.Request, key: SessionKey) -> bool:
        return self.console.is_live(key) and self.access.logged_in(request)

    # -- pages -------------------------------------------------------------------------------------
    async def _home(self, request: web.Request) -> web.StreamResponse:
        live = self.console.live
        raise web.HTTPSeeOther(session_url(live.new_session()) if live is not None else "/sessions")

    async def _new(self, request: web.Request) -> web.StreamResponse:
        live = self.console.live
        agent = request.query.get("agent")
        if live is None or (agent is not None and agent not in live.config.agents):
            return _error(404, "no such agent in this console")
        raise web.HTTPSeeOther(session_url(live.new_session(agent)))

    async def _sessions_page(self, request: web.Request) -> web.StreamResponse:
        return self._page("sessions.html", request, title="Sessions")

    async def _session_page(self, request: web.Request) -> web.StreamResponse:
        key = _key(request.query.get("key"))
        if self.console.source(key) is None:
            return _error(404, "this console does not show that session")
        live = self.console.live
        return self._page("session.html", request, title=str(key), key=str(key),
                          writable=self._writable(request, key),
                          mode=live.mode(key.channel) if self.console.is_live(key) and live is not None else "",
                          agent=key.channel if self.console.is_live(key) else "")

    def _page(self, template: str, request: web.Request, **values: Any) -> web.Response:
        login = self.access.needs_login and not self.access.logged_in(request) and self.console.live is not None
        html = _templates().get_template(template).render(
            login_url=f"/login?next={quote(request.path_qs, safe='')}" if login else "",
            can_reload=self.console.live is not None and self.access.logged_in(request), **values)
        return web.Response(text=html, content_type="text/html")

    async def _login_page(self, request: web.Request) -> web.StreamResponse:
        return self._login_form(request.query.get("next", "/"), "")

    async def _login(self, request: web.Request) -> web.StreamResponse:
        form = await request.post()
        target = str(form.get("next", "/"))
        wait = self.access.throttle.seconds_to_wait()
        if wait > 0:
            return self._login_form(target, f"Too many wrong tokens: try again in {math.ceil(wait)} s.", status=429,
                                    headers={"Retry-After": str(math.ceil(wait))})
        cookie = self.access.log_in(str(form.get("token", "")))
        if cookie is None:
            return self._login_form(target, "That is not the console's token.", status=403)
        response = web.HTTPSeeOther(_local(target))
        response.set_cookie(COOKIE, cookie, httponly=True, samesite="Strict", path="/", max_age=SESSION_SECONDS,
                            secure=self.access.secure_cookie(request))
        raise response

    def _login_form(self, target: str, error: str, status: int = 200, headers: dict[str, str] | None = None
                    ) -> web.Response:
        html = _templates().get_template("login.html").render(title="Log in", next=_local(target), error=error,
                                                              login_url="", can_reload=False)
        return web.Response(text=html, content_type="text/html", status=status, headers=headers)

    async def _static(self, request: web.Request) -> web.StreamResponse:
        name = request.match_info["name"]
        if name not in STATIC:
            return _error(404, "no such file")
        return web.Response(body=_static(name), headers={"Content-Type": STATIC[name]})

    # -- the API -----------------------------------------------------------------------------------
    async def _sessions(self, request: web.Request) -> web.StreamResponse:
        platform, workspace = request.query.get("platform") or None, request.query.get("workspace") or None
        sections = []
        live_source, stored = self.console.live_source, self.console.stored
        if live_source is not None:
            listed = await asyncio.to_thread(partial(live_source.listing, platform=platform, workspace=workspace))
            sections.append({"title": "Conversations in this console", "sessions": listed})
        if stored is not None:
            listed = await asyncio.to_thread(partial(stored.listing, platform=platform, workspace=workspace))
            sections.append({"title": f"Sessions in {stored.db.safe_url}", "sessions": listed,
                             "workspaces": await asyncio.to_thread(stored.workspaces)})
        live = self.console.live
        agents = list(live.config.agents) if live is not None and self.access.logged_in(request) else []
        return _json({"sections": sections, "agents": agents, "filter": {"platform": platform, "workspace": workspace}})

    async def _session(self, request: web.Request) -> web.StreamResponse:
        return _json(await self._view(request, _key(request.query.get("key"))))

    async def _view(self, request: web.Request, key: SessionKey) -> dict[str, Any]:
        source = self.console.source(key)
        view = await asyncio.to_thread(source.view, str(key)) if source is not None else None
        if view is None:
            if not self.console.is_live(key):
                raise _http(404, "no such session")
            view = empty_session_view(str(key), key.channel)
        view["writable"] = self._writable(request, key)
        view["exportable"] = not view["redacted"] and bool(view["turns"])
        return view

    async def _message(self, request: web.Request) -> web.StreamResponse:
        payload = await _payload(request)
        live, key = self._live(payload.get("key"))
        text = str(payload.get("text") or "").strip()
        if not text or len(text) > MAX_MESSAGE:
            return _error(400, f"a message has 1 to {MAX_MESSAGE} characters")
        await live.send(key, text)
        return _json(await self._view(request, key))

    async def _action(self, request: web.Request) -> web.StreamResponse:
        payload = await _payload(request)
        live, key = self._live(payload.get("key"))
        try:
            decision = Decision(str(payload.get("decision")))
        except ValueError:
            return _error(400, "decision is 'confirm' or 'cancel'")
        await live.click(key, str(payload.get("action_id") or ""), decision)
        return _json(await self._view(request, key))

    async def _scenario(self, request: web.Request) -> web.StreamResponse:
        key = _key(request.query.get("key"))
        source = self.console.source(key)
        record = await asyncio.to_thread(source.record, str(key)) if source is not None else None
        if source is None or record is None:
            return _error(404, "no such session")
        if not source.include_content:
            return _error(403, "this session's content is redacted (logging.include_content: false)")
        loaded = source.agents(record.row.agent)
        if loaded is None:
            return _error(409, f"agent '{record.row.agent}' is not loaded, so its conversation cannot be checked")

        async def export() -> Any:
            return await asyncio.to_thread(export_scenario, loaded.spec, record, source.captures)

        live = self.console.live
        result = await (live.exclusively(export) if live is not None else export())
        return _json(asdict(result))

    async def _reload(self, request: web.Request) -> web.StreamResponse:
        if self.console.live is None:
            return _error(404, "this console runs no agent")
        report = await self.console.live.reload()
        return _json({"ok": report.ok, "lines": report.lines()})

    def _live(self, text: Any) -> tuple[LiveConsole, SessionKey]:
        """The console's engine and the key of one of its conversations, which take messages and clicks."""
        key = _key(text)
        if self.console.live is None or not self.console.is_live(key):
            raise _http(403, "only the console's own conversations take messages")
        return self.console.live, key


def _key(text: Any) -> SessionKey:
    try:
        return SessionKey.parse(str(text or ""))
    except ValueError:
        raise _http(400, "not a session key") from None


async def _payload(request: web.Request) -> dict[str, Any]:
    try:
        payload = await request.json()
    except ValueError:
        raise _http(400, "the body is not JSON") from None
    if not isinstance(payload, dict):
        raise _http(400, "the body is not a JSON object")
    return payload


def _local(target: str) -> str:
    """A redirect target on this server only."""
    return target if target.startswith("/") and not target.startswith("//") and "\\" not in target else "/"


async def _no_content(request: web.Request) -> web.Response:
    return web.Response(status=204)


def _json(data: Any, status: int = 200) -> web.Response:
    return web.json_response(data, status=status, dumps=_dumps)


def _error(status: int, message: str) -> web.Response:
    return _json({"error": message}, status)


_HTTP_ERRORS: dict[int, type[web.HTTPException]] = {400: web.HTTPBadRequest, 403: web.HTTPForbidden,
                                                     404: web.HTTPNotFound}


def _http(status: int, message: str) -> web.HTTPException:
    """An error to raise from deep in a handler, with the same JSON body as :func:`_error`."""
    return _HTTP_ERRORS[status](text=_dumps({"error": message}), content_type="application/json")


async def _security_headers(request: web.Request, response: web.StreamResponse) -> None:
    response.headers["Content-Security-Policy"] = CSP
    response.headers["X-Content-Type-Options"] = "nosniff"
    response.headers["Referrer-Policy"] = "no-referrer"
    response.headers["Cache-Control"] = "no-store"
