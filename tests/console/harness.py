"""Serving the console in-process for browser tests, and driving its page like a bot builder.

The server runs on an event loop of its own in a background thread, as ``genie-bot console``
runs it; the test drives headless Chromium from the main thread. Every wait is on a DOM
condition (``body[data-turns]``, a locator's text), never on a clock.
"""

from __future__ import annotations

import asyncio
import datetime as dt
import os
import threading
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path
from types import TracebackType
from typing import TYPE_CHECKING

from genie_bot.agent import Agent, AgentBuilder
from genie_bot.console_web import Access, Console, ConsoleServer, LiveConsole, agent_dir_config

try:
    from playwright.sync_api import expect, sync_playwright
except ImportError:  # the browser fixture skips the tests (or fails them in CI) and says why
    expect = sync_playwright = None
else:
    expect.set_options(timeout=30_000)  # how long a DOM condition may take to hold on a busy machine

if TYPE_CHECKING:
    from playwright.sync_api import Browser, Page

REPO = Path(__file__).resolve().parents[2]
TICKETS = REPO / "worksheets" / "ticket_submission"
NOON = dt.datetime(2026, 11, 21, 12, 0)
CHROMIUM = os.environ.get("GENIE_TEST_CHROMIUM", "/usr/bin/chromium")
CHROMIUM_ARGS = ["--no-sandbox", "--disable-gpu", "--disable-background-networking", "--disable-component-update",
                 "--disable-sync", "--disable-quic", "--no-first-run"]
"""Playwright adds --headless and a fresh temporary --user-data-dir to every launch."""

WAITLIST_TICKET = ["I need help joining a waitlist", "CS 224V", "winter", "the class is required for my major",
                   "my name is Ann Lee", "ann@stanford.edu"]
"""Messages that file a waitlist ticket up to its confirmation card."""


def offline_agents(spec) -> Agent:
    return Agent(spec, clock=lambda: NOON)


def console_for(database_url: str, agent_dir: Path = TICKETS, build: AgentBuilder = offline_agents) -> Console:
    """The console of one agent (by default the ticket agent, offline, on 2026-11-21)."""
    return Console(LiveConsole(agent_dir_config(agent_dir.name, agent_dir, database_url), build), None)


class ServedConsole:
    """A console (made by ``make`` on the server's own loop) served on 127.0.0.1 at a free port."""

    def __init__(self, make: Callable[[], Console], token: str | None = None, serving_as: str = "127.0.0.1",
                 clock: Callable[[], float] = time.monotonic):
        """``serving_as``: the address the console believes it is bound to (what its access rules follow);
        ``clock``: what its logins' expiry and wrong-token waits are timed by."""
        self.make = make
        self.clock = clock
        self.token = token
        self.serving_as = serving_as
        self.console: Console | None = None
        self.server: ConsoleServer | None = None
        self._loop = asyncio.new_event_loop()
        self._thread = threading.Thread(target=self._loop.run_forever, name="console-server", daemon=True)

    def __enter__(self) -> "ServedConsole":
        self._thread.start()
        asyncio.run_coroutine_threadsafe(self._start(), self._loop).result()
        return self

    def __exit__(self, kind: type[BaseException] | None, error: BaseException | None, tb: TracebackType | None) -> None:
        asyncio.run_coroutine_threadsafe(self._stop(), self._loop).result()
        self._loop.call_soon_threadsafe(self._loop.stop)
        self._thread.join()
        self._loop.close()

    async def _start(self) -> None:
        self.console = self.make()
        self.server = ConsoleServer(self.console, Access(self.token, self.serving_as, self.clock), "127.0.0.1", 0)
        if self.console.live is not None:
            await self.console.live.start()
        await self.server.start()

    async def _stop(self) -> None:
        if self.server is not None:
            await self.server.stop()
        if self.console is not None and self.console.live is not None:
            await self.console.live.stop()

    @property
    def url(self) -> str:
        assert self.server is not None
        return self.server.url


@contextmanager
def chromium() -> Iterator[Browser]:
    with sync_playwright() as playwright:
        browser = playwright.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)
        try:
            yield browser
        finally:
            browser.close()


def say(page: Page, text: str) -> None:
    """Type ``text`` and send it; return once its turn is on the page."""
    turns = int(page.locator("body").get_attribute("data-turns") or 0)
    page.fill("#message", text)
    page.click("#send")
    expect(page.locator("body")).to_have_attribute("data-turns", str(turns + 1))


def open_new_conversation(page: Page, base_url: str) -> None:
    page.goto(base_url + "/")
    expect(page.locator("body")).to_have_attribute("data-turns", "0")


def file_waitlist_ticket(page: Page, base_url: str) -> None:
    """A new conversation up to the confirmation card of a waitlist ticket."""
    open_new_conversation(page, base_url)
    for text in WAITLIST_TICKET:
        say(page, text)
    expect(page.locator("#messages .card button.confirm")).to_be_visible()


def click_confirm(page: Page) -> None:
    turns = int(page.locator("body").get_attribute("data-turns") or 0)
    page.locator("#messages .card button.confirm").click()
    expect(page.locator("body")).to_have_attribute("data-turns", str(turns + 1))
