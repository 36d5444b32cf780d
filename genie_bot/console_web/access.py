"""Who may do what on the console's page, and the checks every request passes.

On a loopback address (127.0.0.1, the default), reading (the page, sessions, turns) is open to
whoever reaches the server, i.e. to this machine's users. Writing (chatting, clicking,
reloading) needs the operator's token when one is set (``GENIE_CONSOLE_TOKEN``): the login form
exchanges it for an HttpOnly, SameSite=Strict cookie. Bound beyond loopback (which needs a
token), the token guards reading as well: anyone on the network could otherwise list the
sessions and read every conversation. Write requests must be JSON from the page's own origin, so another
site's form or script cannot make a turn run. On a loopback address, requests must name a
loopback host, so a site resolving its own name to 127.0.0.1 (DNS rebinding) reads nothing.
"""

from __future__ import annotations

import hashlib
import hmac
import ipaddress

from aiohttp import web

TOKEN_ENV = "GENIE_CONSOLE_TOKEN"
COOKIE = "genie_console"
LOOPBACK_NAMES = frozenset({"localhost", "127.0.0.1", "::1"})


def is_loopback(host: str) -> bool:
    try:
        return ipaddress.ip_address(host).is_loopback
    except ValueError:
        return host == "localhost"


class Access:
    def __init__(self, token: str | None, bound_host: str):
        self.token = token or None
        self.loopback_only = is_loopback(bound_host)

    @property
    def needs_login(self) -> bool:
        return self.token is not None

    @property
    def reads_need_login(self) -> bool:
        """Whether reading needs the token too: served beyond loopback."""
        return self.token is not None and not self.loopback_only

    @staticmethod
    def open_to_all(path: str) -> bool:
        """What anyone may fetch, logged in or not: the login form and the page's own files."""
        return path in ("/login", "/favicon.ico") or path.startswith("/static/")

    def cookie_value(self) -> str:
        assert self.token is not None
        return hmac.new(self.token.encode(), b"genie-bot console", hashlib.sha256).hexdigest()

    def token_matches(self, given: str) -> bool:
        return self.token is not None and hmac.compare_digest(given.encode(), self.token.encode())

    def logged_in(self, request: web.Request) -> bool:
        """True when no token is set, or the request carries the cookie the token gives."""
        if self.token is None:
            return True
        return hmac.compare_digest(request.cookies.get(COOKIE, ""), self.cookie_value())

    def host_allowed(self, request: web.Request) -> bool:
        if not self.loopback_only:
            return True
        host = (request.url.host or "").strip("[]").lower()
        return host in LOOPBACK_NAMES or is_loopback(host)

    @staticmethod
    def same_origin_json(request: web.Request) -> bool:
        """A write from the page itself: a JSON body, and no Origin but the server's own."""
        origin = request.headers.get("Origin")
        if origin is not None and origin != f"{request.scheme}://{request.host}":
            return False
        return request.content_type == "application/json"
