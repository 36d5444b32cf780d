"""Who may chat: the operator's token (a long one beyond loopback), a cookie of its own per login that expires,
wrong tokens slowed, JSON writes from the page's own origin, loopback host names."""

from __future__ import annotations

import http.client
import json
from pathlib import Path
from urllib.parse import urlencode, urlsplit

import pytest

from genie_bot.cli import main
from genie_bot.console_web.access import MIN_TOKEN_CHARS, SESSION_SECONDS

from .harness import TICKETS, ServedConsole, console_for, expect, say

TOKEN = "correct horse battery staple"


class Clock:
    """The console's clock, moved by the test."""

    def __init__(self) -> None:
        self.now = 1000.0

    def __call__(self) -> float:
        return self.now


def test_chatting_needs_the_operators_token_when_one_is_set(page, tmp_path: Path):
    clock = Clock()
    with ServedConsole(lambda: console_for(f"sqlite:///{tmp_path / 'console.sqlite3'}"), token=TOKEN,
                       clock=clock) as served:
        page.goto(served.url + "/")
        expect(page.locator("body")).to_have_attribute("data-turns", "0")
        expect(page.locator("#composer")).to_have_count(0)
        key = page.locator("body").get_attribute("data-key")
        message = {"key": key, "text": "I need help joining a waitlist"}
        assert page.request.post(served.url + "/api/session/message", data=message).status == 401

        page.click("#login")
        page.fill("#token", "wrong")
        page.click("#login-submit")
        expect(page.locator("#login-error")).to_have_text("That is not the console's token.")
        page.fill("#token", TOKEN)
        page.click("#login-submit")
        expect(page.locator("#login-error")).to_have_text("Too many wrong tokens: try again in 1 s.")
        clock.now += 1
        page.fill("#token", TOKEN)
        page.click("#login-submit")
        expect(page.locator("body")).to_have_attribute("data-key", key)
        say(page, "I need help joining a waitlist")
        expect(page.locator(".msg.bot").last).to_contain_text("Which course's waitlist")

        # With the cookie, still no write from another origin or as a plain form.
        other_site = page.request.post(served.url + "/api/session/message", data=message,
                                       headers={"Origin": "http://attacker.example"})
        assert other_site.status == 403
        form = page.request.post(served.url + "/api/session/message", form=message)
        assert form.status == 403


def test_a_request_naming_another_host_is_refused(tmp_path: Path):
    """A page of another site resolving its name to 127.0.0.1 (DNS rebinding) reads nothing."""
    with ServedConsole(lambda: console_for(f"sqlite:///{tmp_path / 'console.sqlite3'}")) as served:
        address = urlsplit(served.url)
        for host, status in (("attacker.example", 421), (address.netloc, 200)):
            connection = http.client.HTTPConnection(address.hostname, address.port)
            connection.request("GET", "/api/sessions", headers={"Host": host})
            assert connection.getresponse().status == status
            connection.close()


def _get(served: ServedConsole, path: str, cookie: str = "") -> http.client.HTTPResponse:
    address = urlsplit(served.url)
    connection = http.client.HTTPConnection(address.hostname, address.port)
    connection.request("GET", path, headers={"Cookie": cookie} if cookie else {})
    response = connection.getresponse()
    response.read()
    connection.close()
    return response


def _log_in(served: ServedConsole, token: str) -> http.client.HTTPResponse:
    address = urlsplit(served.url)
    connection = http.client.HTTPConnection(address.hostname, address.port)
    connection.request("POST", "/login", body=urlencode({"token": token, "next": "/sessions"}),
                       headers={"Content-Type": "application/x-www-form-urlencoded"})
    response = connection.getresponse()
    response.read()
    connection.close()
    return response


def _cookie(login: http.client.HTTPResponse) -> str:
    return login.getheader("Set-Cookie").split(";")[0]


def test_beyond_loopback_the_token_guards_reading_too(tmp_path: Path):
    """Served on a network address, nobody without the token lists the sessions or reads one."""
    with ServedConsole(lambda: console_for(f"sqlite:///{tmp_path / 'console.sqlite3'}"), token=TOKEN,
                       serving_as="0.0.0.0") as served:
        home = _get(served, "/")
        assert home.status == 303 and home.getheader("Location").startswith("/login?next=")
        key = "console/local/ticket_submission/x"
        for path in ("/api/sessions", f"/api/session?key={key}", f"/api/session/scenario?key={key}"):
            assert _get(served, path).status == 401, path
        assert _get(served, f"/session?key={key}").getheader("Location").startswith("/login?next=")
        assert _get(served, "/login").status == 200 and _get(served, "/static/console.js").status == 200

        login = _log_in(served, TOKEN)
        cookie = _cookie(login)
        assert login.status == 303 and _get(served, "/api/sessions", cookie).status == 200
        assert _get(served, "/api/sessions", cookie.replace("=", "=forged")).status == 401


@pytest.mark.parametrize("serving_as", ["127.0.0.1", "0.0.0.0"])
def test_each_login_gets_a_cookie_of_its_own_that_expires_and_is_secure_beyond_loopback(tmp_path: Path,
                                                                                         serving_as: str):
    clock = Clock()
    with ServedConsole(lambda: console_for(f"sqlite:///{tmp_path / 'console.sqlite3'}"), token=TOKEN,
                       serving_as=serving_as, clock=clock) as served:
        first, second = _log_in(served, TOKEN), _log_in(served, TOKEN)
        attributes = {part.strip().split("=")[0].lower() for part in first.getheader("Set-Cookie").split(";")}
        cookie = _cookie(first)
        write = {"key": "console/local/ticket_submission/x", "text": "hi"}
        clock.now += SESSION_SECONDS - 1
        alive = _get(served, "/api/sessions", cookie).status
        clock.now += 1
        expired = _get(served, "/api/sessions", cookie).status
        address = urlsplit(served.url)
        connection = http.client.HTTPConnection(address.hostname, address.port)
        connection.request("POST", "/api/session/message", body=json.dumps(write),
                           headers={"Content-Type": "application/json", "Cookie": cookie})
        written = connection.getresponse().status
        connection.close()

    assert first.status == second.status == 303 and _cookie(first) != _cookie(second)
    assert TOKEN not in cookie and len(cookie.split("=", 1)[1]) >= 43  # 32 random bytes
    assert {"httponly", "samesite", "max-age", "path"} <= attributes
    assert ("secure" in attributes) == (serving_as == "0.0.0.0")
    assert f"Max-Age={SESSION_SECONDS}" in first.getheader("Set-Cookie")
    assert alive == 200 and written == 401 and expired == (401 if serving_as == "0.0.0.0" else 200)


def test_wrong_tokens_make_the_next_attempt_wait_longer_each_time(tmp_path: Path):
    clock = Clock()
    with ServedConsole(lambda: console_for(f"sqlite:///{tmp_path / 'console.sqlite3'}"), token=TOKEN,
                       serving_as="0.0.0.0", clock=clock) as served:
        burst = [_log_in(served, f"guess {n}").status for n in range(300)]
        right_too_soon = _log_in(served, TOKEN)
        clock.now += 1
        second_guess = _log_in(served, "guess").status  # the next wait is 2 s
        clock.now += 1
        still_waiting = _log_in(served, TOKEN).status
        clock.now += 1
        right = _log_in(served, TOKEN).status
        after_right = _log_in(served, "guess").status  # the waits start over

    assert burst == [403] + [429] * 299  # one token checked, not 300
    assert right_too_soon.status == 429 and right_too_soon.getheader("Retry-After") == "1"
    assert (second_guess, still_waiting, right, after_right) == (403, 429, 303, 403)


def test_serving_beyond_loopback_needs_a_long_enough_token(monkeypatch: pytest.MonkeyPatch, capsys):
    monkeypatch.setenv("GENIE_CONSOLE_TOKEN", "x" * (MIN_TOKEN_CHARS - 1))
    assert main(["console", str(TICKETS), "--host", "0.0.0.0"]) == 2
    assert capsys.readouterr().err.startswith(f"genie-bot console: serving on 0.0.0.0 needs a GENIE_CONSOLE_TOKEN of "
                                              f"at least {MIN_TOKEN_CHARS} characters (it has {MIN_TOKEN_CHARS - 1};")


def test_serving_beyond_loopback_needs_a_token(monkeypatch: pytest.MonkeyPatch, capsys):
    monkeypatch.delenv("GENIE_CONSOLE_TOKEN", raising=False)
    assert main(["console", str(TICKETS), "--host", "0.0.0.0"]) == 2
    assert "GENIE_CONSOLE_TOKEN" in capsys.readouterr().err
