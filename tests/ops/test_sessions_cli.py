"""``genie-bot sessions list|show|export``, and an exported conversation replaying to the same acts."""

from __future__ import annotations

import asyncio
import datetime as dt
import json

from genie_bot.cli import main
from genie_bot.config import load_config
from genie_bot.engine import Engine
from genie_bot.cli.sessions import since

from .conftest import TICKETS
from .conversation import KEY, MESSAGES, file_ticket


def serve_a_ticket(path) -> None:
    async def scenario():
        async with Engine(load_config(path)) as engine:
            await file_ticket(engine)
    asyncio.run(scenario())


def test_list_and_show_read_every_turn_of_a_session(genie_yaml, capsys):
    path = genie_yaml()
    serve_a_ticket(path)
    assert main(["sessions", "list", "--config", str(path), "--agent", "tickets", "--since", "1h"]) == 0
    listed = capsys.readouterr().out.splitlines()
    assert len(listed) == 2 and listed[1].endswith(f"tickets      active      7  U1           {KEY}")
    assert main(["sessions", "list", "--config", str(path), "--agent", "courses"]) == 0
    assert len(capsys.readouterr().out.splitlines()) == 1  # the header only
    for workspace, found in ((KEY.workspace, 1), ("T-OTHER", 0)):
        assert main(["sessions", "list", "--config", str(path), "--platform", "slack", "--workspace", workspace]) == 0
        assert len(capsys.readouterr().out.splitlines()) == 1 + found

    assert main(["sessions", "show", "--config", str(path), str(KEY)]) == 0
    shown = capsys.readouterr().out
    assert "agent tickets" in shown and "submit_ticket done" in shown
    assert shown.count("\n#") == 7 and "user:       my name is Ann Lee" in shown
    assert "statements: main_0.full_name = 'Ann Lee'" in shown
    assert "acts:       AskForConfirmation(main_0)" in shown and "[confirm " in shown
    assert "latency ms: queue" in shown and "llm:        0 call(s)" in shown

    assert main(["sessions", "show", "--config", str(path), str(KEY), "--json"]) == 0
    turns = [json.loads(line) for line in capsys.readouterr().out.splitlines()]
    assert [t["message"] for t in turns[:-1]] == MESSAGES and all(t["outcome"] == "ok" for t in turns)

    assert main(["sessions", "show", "--config", str(path), "slack/T1/C1/nope"]) == 1


def test_an_exported_session_replays_to_the_same_acts(genie_yaml, tmp_path, monkeypatch, capsys):
    path = genie_yaml()
    serve_a_ticket(path)
    out = tmp_path / "traces"
    assert main(["sessions", "export", "--config", str(path), "--all", "--out", str(out)]) == 0
    [trace] = out.glob("*.jsonl")
    exported = [json.loads(line) for line in trace.read_text().splitlines()]
    assert [line["user"] for line in exported[:-1]] == MESSAGES and exported[-1]["parse"] == "main_0.confirmed = True"
    today = exported[0]["today"]
    assert f"--parser recorded --today {today}" in capsys.readouterr().out

    monkeypatch.setenv("GENIE_DATA_DIR", str(tmp_path / "replay-data"))  # a fresh ledger: the same ticket id
    replayed_path = tmp_path / "replayed.jsonl"
    assert main(["replay", str(TICKETS), str(trace), "--parser", "recorded", "--today", today,
                 "--out", str(replayed_path)]) == 0
    replayed = [json.loads(line) for line in replayed_path.read_text().splitlines()]
    assert [r["acts"] for r in replayed] == [line["acts"] for line in exported]
    assert any(act.startswith("Report(main_0, {'ticket_id': 'TKT-00001'") for act in replayed[-1]["acts"])
    assert {i["name"]: i["status"] for i in replayed[-1]["state"]["instances"]}["main_0"] == "completed"


def test_export_needs_a_key_or_all(genie_yaml, tmp_path):
    path = genie_yaml()
    assert main(["sessions", "export", "--config", str(path), "--out", str(tmp_path)]) == 2
    assert main(["sessions", "export", "--config", str(path), "--all", "--out", str(tmp_path)]) == 1  # nothing yet


def test_since_takes_dates_and_durations():
    now = dt.datetime(2026, 11, 21, 12, 0)
    assert since("30m", now) == dt.datetime(2026, 11, 21, 11, 30)
    assert since("7d", now) == dt.datetime(2026, 11, 14, 12, 0)
    assert since("2026-11-01") == dt.datetime(2026, 11, 1)
