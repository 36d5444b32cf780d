"""The web console's screenshots (docs/console.md), taken with headless Chromium: ``python -m tests.console.screenshots``.

Writes ``docs/console-chat.png`` (a ticket at its confirmation card, the latest turn open in
the inspector), ``docs/console-export.png`` (the ticket confirmed and the conversation
exported as a test) and ``docs/console-stored-session.png`` (a Slack thread from a
deployment's database, content redacted), on fresh private databases and ledger.
"""

from __future__ import annotations

import os
import tempfile
from pathlib import Path

from genie_bot.config import load_config
from tests.engine.support import prepare_database

from .harness import REPO, ServedConsole, chromium, click_confirm, console_for, expect, file_waitlist_ticket
from .test_stored_sessions import console_command, file_ticket_in_a_slack_thread, genie_yaml

DOCS = REPO / "docs"
VIEWPORT = {"width": 1440, "height": 960}


def main() -> None:
    with tempfile.TemporaryDirectory(prefix="genie-screenshots-") as scratch, chromium() as browser:
        directory = Path(scratch)
        os.environ["GENIE_DATA_DIR"] = str(directory / "ledger")
        page = browser.new_page(viewport=VIEWPORT, accept_downloads=True)
        with ServedConsole(lambda: console_for(f"sqlite:///{directory / 'console.sqlite3'}")) as served:
            file_waitlist_ticket(page, served.url)
            page.screenshot(path=DOCS / "console-chat.png")
            click_confirm(page)
            page.click("#export")
            expect(page.locator("#export-status")).to_contain_text("Passes genie-bot test")
            page.locator("#export-panel").scroll_into_view_if_needed()
            page.screenshot(path=DOCS / "console-export.png")

        url = f"sqlite:///{directory / 'genie.sqlite3'}"
        prepare_database(url)
        config = genie_yaml(directory, url, include_content=False)
        file_ticket_in_a_slack_thread(load_config(config, environ={}))
        with console_command(config, directory / "console.log") as address:
            page.goto(address)
            expect(page.locator("body")).to_have_attribute("data-turns", "7")
            page.locator("#turn-3 > summary").click()
            page.screenshot(path=DOCS / "console-stored-session.png")
    for name in ("console-chat.png", "console-export.png", "console-stored-session.png"):
        print(DOCS / name)


if __name__ == "__main__":
    main()
