"""Who may do what on the console's page, and the checks every request passes.

On a loopback address (127.0.0.1, the default), reading (the page, sessions, turns) is open to
whoever reaches the server, i.e. to this machine's users. Writing (chatting, clicking,
reloading) needs the operator's token when one is set (``GENIE_CONSOLE_TOKEN``): the login form
exchanges it for a session cookie, random for each login, HttpOnly, SameSite=Strict, valid for
:data:`SESSION_SECONDS`, and Secure when the console is served over TLS or beyond loopback
(there, behind a TLS proxy). A wrong token makes the next attempt wait (:class:`LoginThrottle`),
so tokens cannot be tried quickly. Bound beyond loopback (which needs a token of at least
:data:`MIN_TOKEN_CHARS` characters), the token guards reading as well: anyone on the network
could otherwise list the sessions and read every conversation. Write requests must be JSON from
the page's own origin, so another site's form or script cannot make a turn run. On a loopback
address, requests must name a loopback host, so a site resolving its own name to 127.0.0.1 (DNS
rebinding) reads nothing.
"""

from __future__ import annotations

import hmac
import ipaddress
import secrets
import time
from collections import OrderedDict
from collections.abc import Callable

from aiohttp import web

TOKEN_ENV = "GENIE_CONSOLE_TOKEN"
COOKIE = "genie_console"
LOOPBACK_NAMES = frozenset({"localhost", "127.0.0.1", "::1"})
MIN_TOKEN_CHARS = 16
"""The shortest token allowed beyond loopback."""
SESSION_SECONDS = 12 * 3600
"""How long a login lasts."""
MAX_SESSIONS = 1000
"""Logins kept at once (the oldest is forgotten first)."""
FIRST_WAIT_SECONDS = 1.0
MAX_WAIT_SECONDS = 60.0


def is_loopback(host: str) -> bool:
    try:
        return ipaddress.ip_address(host).is_loopback
    except ValueError:
        return host == "localhost"


def token_problem(token: str | None, host: str) -> str | None:
    """Why ``token`` does not guard a console bound to ``host``, or None."""
    if is_loopback(host):
        return None
    if token is None:
        return f"serving on {host} needs {TOKEN_ENV} (anyone reaching it could chat)"
    if len(token) < MIN_TOKEN_CHARS:
        return (f"serving on {host} needs a {TOKEN_ENV} of at least {MIN_TOKEN_CHARS} characters (it has "
                f"{len(token)}; make one: python -c 'import secrets; print(secrets.token_urlsafe(24))')")
    return None


class LoginThrottle:
    """After a wrong token, the next attempt waits: 1 s, then twice as long after each wrong one, up to
    a minute; the right token starts over. One throttle for all clients, so many addresses guess no
    faster than one."""

    def __init__(self, clock: Callable[[], float] = time.monotonic):
        self.clock = clock
        self.wait_seconds = 0.0
        self.next_attempt = 0.0

    def seconds_to_wait(self) -> float:
        """How long until the next attempt may be checked (0: now)."""
        return max(0.0, self.next_attempt - self.clock())

    def failed(self) -> None:
        self.wait_seconds = min(MAX_WAIT_SECONDS, max(FIRST_WAIT_SECONDS, 2 * self.wait_seconds))
        self.next_attempt = self.clock() + self.wait_seconds

    def succeeded(self) -> None:
        self.wait_seconds = self.next_attempt = 0.0


class Access:
    def __init__(self, token: str | None, bound_host: str, clock: Callable[[], float] = time.monotonic):
        self.token = token or None
        self.loopback_only = is_loopback(bound_host)
        self.clock = clock
        self.throttle = LoginThrottle(clock)
        self._sessions: OrderedDict[str, float] = OrderedDict()
        """Session cookie -> when it expires (the clock's seconds)."""

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

    def log_in(self, given: str) -> str | None:
        """A new session cookie for the right token (None for a wrong one); call only when the
        throttle lets an attempt through."""
        if self.token is None or not hmac.compare_digest(given.encode(), self.token.encode()):
            self.throttle.failed()
            return None
        self.throttle.succeeded()
        cookie = secrets.token_urlsafe(32)
        self._sessions[cookie] = self.clock() + SESSION_SECONDS
        while len(self._sessions) > MAX_SESSIONS:
            self._sessions.popitem(last=False)
        return cookie

    def logged_in(self, request: web.Request) -> bool:
        """True when no token is set, or the request carries the cookie of a login not expired."""
        if self.token is None:
            return True
        cookie = request.cookies.get(COOKIE, "")
        expires = self._sessions.get(cookie)
        if expires is not None and expires <= self.clock():
            del self._sessions[cookie]
            return False
        return expires is not None

    def secure_cookie(self, request: web.Request) -> bool:
        """Whether the session cookie is sent over TLS only: served over TLS, or beyond loopback."""
        return request.secure or not self.loopback_only

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
