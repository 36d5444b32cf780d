"""Who may chat: the operator's token, JSON writes from the page's own origin, loopback host names."""

from __future__ import annotations

import http.client
from pathlib import Path
from urllib.parse import urlencode, urlsplit

import pytest

from genie_bot.cli import main

from .harness import TICKETS, ServedConsole, console_for, expect, say

TOKEN = "correct horse battery staple"


def test_chatting_needs_the_operators_token_when_one_is_set(page, tmp_path: Path):
    with ServedConsole(lambda: console_for(f"sqlite:///{tmp_path / 'console.sqlite3'}"), token=TOKEN) as served:
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


def test_beyond_loopback_the_token_guards_reading_too(tmp_path: Path):
    """Served on a network address, nobody without the token lists the sessions or reads one."""
    with ServedConsole(lambda: console_for(f"sqlite:///{tmp_path / 'console.sqlite3'}"), token=TOKEN,
                       serving_as="0.0.0.0") as served:
        address = urlsplit(served.url)

        def get(path: str, cookie: str = "") -> http.client.HTTPResponse:
            connection = http.client.HTTPConnection(address.hostname, address.port)
            connection.request("GET", path, headers={"Cookie": cookie} if cookie else {})
            response = connection.getresponse()
            response.read()
            connection.close()
            return response

        home = get("/")
        assert home.status == 303 and home.getheader("Location").startswith("/login?next=")
        key = "console/local/ticket_submission/x"
        for path in ("/api/sessions", f"/api/session?key={key}", f"/api/session/scenario?key={key}"):
            assert get(path).status == 401, path
        assert get(f"/session?key={key}").getheader("Location").startswith("/login?next=")
        assert get("/login").status == 200 and get("/static/console.js").status == 200

        connection = http.client.HTTPConnection(address.hostname, address.port)
        connection.request("POST", "/login", body=urlencode({"token": TOKEN, "next": "/sessions"}),
                           headers={"Content-Type": "application/x-www-form-urlencoded"})
        login = connection.getresponse()
        cookie = login.getheader("Set-Cookie").split(";")[0]
        connection.close()
        assert login.status == 303 and get("/api/sessions", cookie).status == 200
        assert get("/api/sessions", cookie.replace("=", "=forged")).status == 401


def test_serving_beyond_loopback_needs_a_token(monkeypatch: pytest.MonkeyPatch, capsys):
    monkeypatch.delenv("GENIE_CONSOLE_TOKEN", raising=False)
    assert main(["console", str(TICKETS), "--host", "0.0.0.0"]) == 2
    assert "GENIE_CONSOLE_TOKEN" in capsys.readouterr().err
