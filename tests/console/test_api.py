"""The console's JSON API without a browser: bad requests, reloading the agent."""

from __future__ import annotations

import json
import urllib.error
import urllib.request
from pathlib import Path
from typing import Any

import pytest

from .harness import ServedConsole, console_for


@pytest.fixture
def served(tmp_path: Path):
    with ServedConsole(lambda: console_for(f"sqlite:///{tmp_path / 'console.sqlite3'}")) as console:
        yield console


def call(url: str, payload: Any = None) -> tuple[int, dict]:
    data = None if payload is None else json.dumps(payload).encode()
    request = urllib.request.Request(url, data=data, headers={"Content-Type": "application/json"})
    try:
        with urllib.request.urlopen(request) as response:
            return response.status, json.load(response)
    except urllib.error.HTTPError as error:
        return error.code, json.load(error)


def test_requests_the_console_cannot_serve_say_why(served):
    live = "web/console/ticket_submission/abc"
    cases = [
        ("/api/session?key=not-a-key", None, 400, "not a session key"),
        ("/api/session?key=slack/T1/C1/1", None, 404, "no such session"),
        ("/api/session/message", {"key": live, "text": "   "}, 400, "a message has 1 to 4000 characters"),
        ("/api/session/message", {"key": "slack/T1/C1/1", "text": "hi"}, 403, "only the console's own conversations"),
        ("/api/session/message", ["not", "an", "object"], 400, "not a JSON object"),
        ("/api/session/action", {"key": live, "action_id": "x", "decision": "maybe"}, 400, "'confirm' or 'cancel'"),
        ("/api/session/scenario?key=" + live, None, 404, "no such session"),
    ]
    for path, payload, status, error in cases:
        got, body = call(served.url + path, payload)
        assert (got, error in body.get("error", "")) == (status, True), (path, got, body)


def test_a_new_conversation_is_empty_and_reloading_the_agent_reports_its_version(served):
    status, view = call(served.url + "/api/session?key=web/console/ticket_submission/abc")
    assert status == 200 and view["status"] == "new" and view["turns"] == [] and view["writable"]
    status, report = call(served.url + "/api/reload", {})
    assert status == 200 and report["ok"] and report["lines"][0].endswith("(unchanged)")
