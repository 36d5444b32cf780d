"""The turn log: one JSON line per turn with latencies, LLM use, acts and outcome; content redacted by default."""

from __future__ import annotations

import asyncio
import json
import logging

import pytest

from genie_bot.config import AgentConfig, Config, LoggingSettings, SchedulerSettings
from genie_bot.engine import Engine
from genie_bot.observability.logs import JsonFormatter, TextFormatter
from genie_bot.observability.turnlog import act_outline, redact_quoted
from tests.engine.support import prepare_database

from .conftest import TICKETS
from .conversation import MESSAGES, PRIVATE, file_ticket


def logged_turns(tmp_path, caplog, include_content: bool) -> list[dict]:
    url = f"sqlite:///{tmp_path / f'log-{include_content}.sqlite3'}"
    prepare_database(url)
    config = Config(agents={"tickets": AgentConfig("tickets", TICKETS)}, default_agent="tickets", database_url=url,
                    scheduler=SchedulerSettings(enabled=False), logging=LoggingSettings(include_content=include_content))

    async def scenario():
        async with Engine(config) as engine:
            await file_ticket(engine)

    with caplog.at_level(logging.INFO, logger="genie_bot.turns"):
        asyncio.run(scenario())
    formatter = JsonFormatter()
    lines = [formatter.format(r) for r in caplog.records if r.name == "genie_bot.turns"]
    assert all("\n" not in line for line in lines)
    return [json.loads(line) for line in lines]


def test_one_redacted_json_line_per_turn(tmp_path, caplog):
    turns = logged_turns(tmp_path, caplog, include_content=False)
    assert len(turns) == len(MESSAGES) + 1
    first, confirm = turns[0], turns[-1]
    assert first["event"] == "turn" and first["level"] == "INFO" and first["logger"] == "genie_bot.turns"
    assert first["agent"] == "tickets" and first["session"] == "slack/T1/C1/1700000000.000100"
    assert first["kind"] == "message" and first["outcome"] == "ok" and first["parse_source"] == "rules"
    assert set(first["latency_ms"]) == {"queue", "load", "parse", "runtime", "respond", "confirmations", "total"}
    assert first["llm"] == {"calls": 0, "prompt_tokens": 0, "completion_tokens": 0, "cost_usd": 0.0}
    assert first["acts"] == ["AskField join_waitlist_0.course_name"]
    assert first["text_chars"] == len(MESSAGES[0]) and "text" not in first and "reply" not in first
    assert turns[-2]["acts"] == ["AskForConfirmation main_0"] and turns[-2]["pending_action"]
    assert confirm["kind"] == "action" and confirm["acts"] == ["Report main_0", "Say"]
    for secret in PRIVATE:
        assert all(secret not in json.dumps(t) for t in turns), secret


def test_content_is_logged_when_enabled(tmp_path, caplog):
    turns = logged_turns(tmp_path, caplog, include_content=True)
    assert [t["text"] for t in turns[:-1]] == MESSAGES
    assert "main_0.full_name = 'Ann Lee'" in turns[4]["statements"] and "Ann Lee" in turns[-2]["reply"]
    assert turns[0]["acts"][0].startswith("AskField(join_waitlist_0, course_name, ")


@pytest.mark.parametrize("formal, outline", [
    ('AskField(main_0, email, "Your email")', "AskField main_0.email"),
    ("AskForFieldConfirmation(main_0, full_name, 'Ann Lee')", "AskForFieldConfirmation main_0.full_name"),
    ("AskForConfirmation(main_0)", "AskForConfirmation main_0"),
    ("Report(main_0, {'ticket_id': 'TKT-00001'})", "Report main_0"),
    ("Report(main_0, True)", "Report main_0"),
    ("Report(answer(\"Ann's courses\"), [])", "Report answer"),
    ('Say("Hello Ann")', "Say"),
    ("ProposeWorksheet(Order, {'dish': 'Pizza'})", "ProposeWorksheet Order"),
])
def test_acts_are_reduced_to_kind_and_target(formal, outline):
    assert act_outline(formal) == outline


def test_quoted_values_are_redacted_from_errors():
    assert redact_quoted("main_0.email: 'ann@x' is not an email; \"Ann\" too") == \
        "main_0.email: '…' is not an email; '…' too"


def test_the_text_format_appends_the_fields():
    record = logging.LogRecord("genie_bot.turns", logging.INFO, __file__, 1, "turn %s", ("1",), None)
    record.fields = {"outcome": "ok"}
    assert TextFormatter("%(message)s").format(record) == 'turn 1 {"outcome": "ok"}'
