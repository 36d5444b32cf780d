"""The documentation: the tutorial's agent works as the page says, every page is on the site, and the README
stays a short entrance with its two commands."""

from __future__ import annotations

import re
from pathlib import Path

import yaml

from genie_bot.submissions import submissions
from tests.conftest import REPO

DOCS = REPO / "docs"
TITLED_BLOCK = re.compile(r'^```\w+ title="([^"]+)"\n(.*?)^```$', re.M | re.S)
TEST_COMMAND = 'python3 -m venv .venv && .venv/bin/pip install -e ".[test,postgres]" && .venv/bin/python -m pytest -q'


def tutorial_files() -> dict[str, str]:
    """The files the tutorial shows whole (a code block with a ``title``), by path."""
    return {path: text for path, text in TITLED_BLOCK.findall((DOCS / "tutorial.md").read_text(encoding="utf-8"))}


def test_an_agent_written_from_the_tutorial_validates_and_passes_its_conversation_tests(genie, tmp_path):
    files = tutorial_files()
    assert {"room_booking/agent.yaml", "room_booking/api.py", "room_booking/data/rooms.csv"} <= set(files)
    assert any(path.startswith("room_booking/tests/") for path in files)
    for path, text in files.items():
        (tmp_path / path).parent.mkdir(parents=True, exist_ok=True)
        (tmp_path / path).write_text(text, encoding="utf-8")
    agent = tmp_path / "room_booking"
    validated = genie("validate", agent)
    assert validated.returncode == 0 and validated.stdout.startswith("ok: room_booking: "), validated.stdout
    tested = genie("test", agent)
    assert tested.returncode == 0, tested.stdout
    assert tested.stdout.strip().endswith(f"{sum(p.startswith('room_booking/tests/') for p in files)} passed, 0 failed")


def test_the_tutorials_chat_books_into_the_ledger(genie, tmp_path):
    for path, text in tutorial_files().items():
        (tmp_path / path).parent.mkdir(parents=True, exist_ok=True)
        (tmp_path / path).write_text(text, encoding="utf-8")
    result = genie("chat", tmp_path / "room_booking", "--today", "2026-11-21", stdin=(
        "how many people fit in Borealis?\nbook Cascade for tomorrow at 2pm\n10 of us\nbob@example.com\nyes\n"))
    for said in ("seats: 8", "How many people will attend?", "Starts at: 2:00 PM",
                 "Shall I go ahead and book a meeting room?", "Booked! Your reference is BK-00001."):
        assert said in result.stdout, result.stdout
    [booking] = submissions("room_booking")
    assert booking["payload"] == {"room": "R3", "date": "2026-11-22", "start": "14:00", "attendees": 10,
                                  "email": "bob@example.com"}


def test_every_page_is_on_the_site_and_every_entry_is_a_page():
    config = yaml.safe_load((REPO / "mkdocs.yml").read_text(encoding="utf-8"))

    def pages(entries) -> list[str]:
        out = []
        for entry in entries:
            value = next(iter(entry.values())) if isinstance(entry, dict) else entry
            out += pages(value) if isinstance(value, list) else [value]
        return out

    listed = pages(config["nav"])
    assert sorted(listed) == sorted(p.name for p in DOCS.glob("*.md"))


def test_the_readme_is_a_short_entrance_with_its_two_commands():
    readme = (REPO / "README.md").read_text(encoding="utf-8")
    assert len(readme.splitlines()) < 200
    assert TEST_COMMAND in readme
    assert "python3 -m venv .venv && .venv/bin/pip install -e . && .venv/bin/genie-bot chat worksheets/ticket_submission" \
        in readme
