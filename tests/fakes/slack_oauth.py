"""The "Add to Slack" side of :class:`~tests.fakes.slack_api.MockSlackWebAPI`: workspaces, their
installations and tokens, as Slack's authorize page, ``oauth.v2.access`` and ``apps.uninstall``
answer them.

A test adds workspaces (``add_workspace``), sends an installer's browser to the app's install
page, and follows the "Add to Slack" link to this fake's authorize page with ``team=T...``: the
workspace's installer approves at once, and the browser is sent back to the app's redirect
URL with a one-time code and the app's ``state``. ``oauth.v2.access`` exchanges the code
(with the app's client id and secret, as HTTP Basic auth) for a bot token of that workspace.
With token rotation on, bot tokens expire (``token_lifetime`` seconds) and come with a refresh
token, good for one ``oauth.v2.access`` with ``grant_type=refresh_token``: that gives a new
token and a new refresh token. Uninstalling (``uninstall``, or the app's own ``apps.uninstall``)
revokes every token of the workspace; calls with a revoked token answer ``token_revoked``.
"""

from __future__ import annotations

import base64
import itertools
import time
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any
from urllib.parse import urlencode

CLIENT_ID = "111.222"
CLIENT_SECRET = "client-secret"
DEFAULT_SCOPES = "app_mentions:read,channels:history,groups:history,im:history,chat:write,commands,users:read"


@dataclass(frozen=True)
class FakeWorkspace:
    team_id: str
    name: str
    bot_user_id: str
    bot_id: str
    installer: str
    """The member who approves the app on the authorize page."""
    enterprise_id: str | None = None
    org_wide: bool = False
    """The installer approves for a whole Enterprise Grid organisation (``is_enterprise_install``)."""


@dataclass
class Token:
    team: str
    expires_at: float | None
    revoked: bool = False


class FakeInstalls:
    """Workspaces and tokens; its methods run with the mock's lock held."""

    def __init__(self, app_id: str, *, token_rotation: bool = False, token_lifetime: float = 12 * 3600,
                 clock: Callable[[], float] = time.time):
        self.app_id = app_id
        self.token_rotation = token_rotation
        self.token_lifetime = token_lifetime
        self.clock = clock
        self.workspaces: dict[str, FakeWorkspace] = {}
        self.tokens: dict[str, Token] = {}
        """Every access token issued, by token."""
        self._refresh_tokens: dict[str, str] = {}
        """The refresh tokens not yet used, by token: their workspace."""
        self._codes: dict[str, tuple[str, str | None]] = {}
        """Codes not yet exchanged: their workspace and the redirect URI they were issued for."""
        self._serial = itertools.count(1)
        self.app_redirect_uri: str | None = None
        """The app's Redirect URL (its settings in Slack), for an authorize link that names none."""

    def add_workspace(self, team_id: str, name: str | None = None, *, installer: str = "U1",
                      enterprise_id: str | None = None, org_wide: bool = False) -> FakeWorkspace:
        serial = next(self._serial)
        workspace = FakeWorkspace(team_id, name or f"Workspace {team_id}", f"UBOT{serial}", f"BBOT{serial}", installer,
                                  enterprise_id, org_wide)
        self.workspaces[team_id] = workspace
        return workspace

    # -- the installer's browser --------------------------------------------------------------------
    def authorize(self, query: dict[str, str]) -> tuple[int, str]:
        """Slack's authorize page, approved at once: (302, where the browser goes) or (400, why not)."""
        workspace = self.workspaces.get(query.get("team", ""))
        if query.get("client_id") != CLIENT_ID or workspace is None:
            return 400, "unknown app, or no such workspace (add team=T... to the link)"
        redirect = query.get("redirect_uri") or self.app_redirect_uri or ""
        code = f"code-{next(self._serial)}"
        self._codes[code] = (workspace.team_id, query.get("redirect_uri"))
        return 302, f"{redirect}{'&' if '?' in redirect else '?'}{urlencode({'code': code, 'state': query['state']})}"

    # -- Web API methods ------------------------------------------------------------------------------
    def oauth_access(self, params: dict[str, Any], headers: dict[str, str]) -> dict[str, Any]:
        if _client(params, headers) != (CLIENT_ID, CLIENT_SECRET):
            return {"ok": False, "error": "invalid_client_id"}
        if params.get("grant_type") == "refresh_token":
            team = self._refresh_tokens.pop(params.get("refresh_token", ""), None)
            if team is None:
                return {"ok": False, "error": "invalid_refresh_token"}
            return {"ok": True, "app_id": self.app_id, "token_type": "bot", "scope": DEFAULT_SCOPES,
                    **self._issue(team), "team": {"id": team, "name": self.workspaces[team].name}}
        team, redirect_uri = self._codes.pop(params.get("code", ""), (None, None))
        if team is None:
            return {"ok": False, "error": "invalid_code"}
        if params.get("redirect_uri") not in (None, redirect_uri):
            return {"ok": False, "error": "bad_redirect_uri"}
        workspace = self.workspaces[team]
        enterprise = {"id": workspace.enterprise_id, "name": f"Org {workspace.enterprise_id}"} \
            if workspace.enterprise_id else None
        return {"ok": True, "app_id": self.app_id, "authed_user": {"id": workspace.installer},
                "scope": DEFAULT_SCOPES, "token_type": "bot", "bot_user_id": workspace.bot_user_id,
                **self._issue(team), "team": None if workspace.org_wide else {"id": team, "name": workspace.name},
                "enterprise": enterprise, "is_enterprise_install": workspace.org_wide}

    def uninstall_app(self, params: dict[str, Any], token_used: str | None) -> dict[str, Any]:
        """``apps.uninstall``: the app removes itself from the workspace of the token it is called with."""
        if (params.get("client_id"), params.get("client_secret")) != (CLIENT_ID, CLIENT_SECRET):
            return {"ok": False, "error": "invalid_client_id"}
        token = self.tokens.get(token_used or "")
        if token is None or token.revoked:
            return {"ok": False, "error": "invalid_auth"}
        self.uninstall(token.team)
        return {"ok": True}

    def uninstall(self, team: str) -> None:
        """The workspace removes the app: every token of it is revoked."""
        for token in self.tokens.values():
            if token.team == team:
                token.revoked = True
        self._refresh_tokens = {refresh: t for refresh, t in self._refresh_tokens.items() if t != team}

    # -- tokens ---------------------------------------------------------------------------------------
    def workspace_of(self, token: str | None) -> FakeWorkspace | None:
        """The workspace of a token this fake issued; None for another token (a test's own ``xoxb-...``)."""
        issued = self.tokens.get(token or "")
        return None if issued is None else self.workspaces[issued.team]

    def token_error(self, token: str | None) -> str | None:
        issued = self.tokens.get(token or "")
        if issued is None:
            return None
        if issued.revoked:
            return "token_revoked"
        if issued.expires_at is not None and issued.expires_at <= self.clock():
            return "token_expired"
        return None

    def tokens_of(self, team: str) -> list[str]:
        """The access tokens issued to ``team``, oldest first."""
        return [token for token, issued in self.tokens.items() if issued.team == team]

    def _issue(self, team: str) -> dict[str, Any]:
        serial = next(self._serial)
        token = f"xoxb-{team}-{serial}"
        expires_at = self.clock() + self.token_lifetime if self.token_rotation else None
        self.tokens[token] = Token(team, expires_at)
        if not self.token_rotation:
            return {"access_token": token}
        refresh = f"xoxe-1-{team}-{serial}"
        self._refresh_tokens[refresh] = team
        return {"access_token": token, "refresh_token": refresh, "expires_in": int(self.token_lifetime)}


def _client(params: dict[str, Any], headers: dict[str, str]) -> tuple[str | None, str | None]:
    """The client id and secret of a call: HTTP Basic auth (as slack_sdk sends them), else parameters."""
    auth = headers.get("authorization", "")
    if auth.startswith("Basic "):
        client_id, _, secret = base64.b64decode(auth.removeprefix("Basic ")).decode().partition(":")
        return client_id, secret
    return params.get("client_id"), params.get("client_secret")
