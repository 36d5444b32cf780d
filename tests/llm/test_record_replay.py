"""Record a session against a (scripted) LLM, then replay it with no network at all."""

from __future__ import annotations

import json

import pytest

from genie_bot.agent import LLMNotConfigured, build_agent, llm_parser_for_replay
from genie_bot.llm import LLMSettings
from genie_bot.llm.recording import TRACE_FILE
from genie_bot.replay import read_trace, replay
from genie_bot.runtime import LocalApiExecutor, Runtime

from .conftest import NOW, TODAY, Chat, make_settings

FIRST = "I can't get into CS 161, I want to be on its waitlist for winter"
LAST = "ann@stanford.edu, and nothing else to add"
PARSES = ["main_0.student_task = 'TroubleShoot'\nmain_0.troubleshoot_details = TroubleShoot(issue_type='Join Waitlist',"
          " join_waitlist=JoinWaitlist(course_name='CS 161', quarter='Winter'))",
          "main_0.extra_details = 'NA'\nmain_0.email = 'ann@stanford.edu'"]


def record_session(server, script, spec, directory) -> list[str]:
    script.add("parser", PARSES[0], PARSES[1])
    script.add("responder", "Anything else the staff should know?", "Thanks Ann! What is your email?",
               "Shall I submit it?")
    chat = Chat(build_agent(spec, make_settings(server, record=str(directory)), clock=lambda: NOW))
    chat.say(FIRST)
    chat.say("skip")  # fast path: no LLM parser call
    chat.statements("main_0.full_name = 'Ann Lee'")
    return [chat.say(LAST).text]


def test_recording_saves_every_prompt_completion_pair_and_a_trace(server, script, ticket_spec, tmp_path):
    record_session(server, script, ticket_spec, tmp_path)
    files = sorted(p.name for p in tmp_path.glob("*.json"))
    assert [f.split("-")[0] for f in files].count("parser") == 2
    assert [f.split("-")[0] for f in files].count("responder") == 3
    saved = json.loads(next(tmp_path.glob("parser-*.json")).read_text())
    assert set(saved) >= {"role", "model", "messages", "completion", "prompt_tokens", "completion_tokens"}
    trace = read_trace(tmp_path / TRACE_FILE)
    assert [line["user"] for line in trace] == [FIRST, "skip", LAST]
    assert trace[0]["parse"] == PARSES[0] and trace[1]["parse"] == "main_0.extra_details = 'NA'"
    assert trace[0]["today"] == "2026-11-23"


def test_replay_serves_the_recording_without_a_network(server, script, ticket_spec, tmp_path):
    recorded = record_session(server, script, ticket_spec, tmp_path)
    server.close()  # nothing is listening any more
    replaying = LLMSettings.from_mapping({"replay": str(tmp_path), "models": {"parser": "other-model"},
                                          "template_replies": False}, environ={})  # recorded so: every reply phrased
    assert replaying.enabled
    chat = Chat(build_agent(ticket_spec, replaying, clock=lambda: NOW))
    first = chat.say(FIRST)
    assert first.parse.source == "llm" and first.text.endswith("\n\nAnything else the staff should know?")
    assert "the course name is CS 161" in first.text  # values the LLM's reply left unsaid are said first
    chat.say("skip")
    chat.statements("main_0.full_name = 'Ann Lee'")
    assert [chat.say(LAST).text] == recorded


def test_an_unrecorded_prompt_falls_back_like_an_unreachable_llm(ticket_spec, tmp_path):
    replaying = LLMSettings.from_mapping({"replay": str(tmp_path)}, environ={})
    chat = Chat(build_agent(ticket_spec, replaying, clock=lambda: NOW))
    reply = chat.say("I need a leave of absence from the university")
    assert reply.parse.source == "rules" and reply.parse.notes == ["LLM parser unavailable (not_recorded)"]
    assert "leave of absence form" in reply.text  # the templated reply


def test_replay_command_parser_runs_a_recorded_trace(server, script, ticket_spec, tmp_path):
    record_session(server, script, ticket_spec, tmp_path)
    server.close()
    parser = llm_parser_for_replay(ticket_spec, LLMSettings.from_mapping({"replay": str(tmp_path)}, environ={}))
    lines = [line for line in read_trace(tmp_path / TRACE_FILE)]
    lines.insert(2, {"user": "Ann Lee", "parse": "main_0.full_name = 'Ann Lee'"})
    runtime = Runtime(ticket_spec, LocalApiExecutor(ticket_spec, knowledge=parser.knowledge), clock=lambda: NOW)
    turns = list(replay(runtime, lines, parser))
    assert [t.parse for t in turns] == [line["parse"] for line in lines]
    assert turns[-1].acts == ["AskForConfirmation(main_0)"]
    assert [p.source for p in parser.parses] == ["llm", "fast-path", "fast-path", "llm"]


def test_replay_parser_uses_the_given_date(server, script, ticket_spec):
    parser = llm_parser_for_replay(ticket_spec, make_settings(server), today=TODAY)
    script.add("parser", "# hello")
    runtime = Runtime(ticket_spec, clock=lambda: NOW)
    parser(runtime.new_state(), {"user": "hello there, how are things?"})
    assert "Monday, 2026-11-23" in script.prompt("parser")


def test_replay_parser_needs_an_llm(ticket_spec):
    with pytest.raises(LLMNotConfigured, match="Offline mode"):
        llm_parser_for_replay(ticket_spec, LLMSettings.from_env({}))


def test_the_replay_command_with_the_llm_parser(server, script, ticket_spec, tmp_path, monkeypatch, capsys):
    from genie_bot.cli import main

    record_session(server, script, ticket_spec, tmp_path / "rec")
    server.close()
    trace = tmp_path / "rec" / TRACE_FILE
    for variable in ("OPENAI_API_KEY", "OPENAI_BASE_URL", "AZURE_OPENAI_ENDPOINT", "AZURE_OPENAI_API_KEY"):
        monkeypatch.delenv(variable, raising=False)
    monkeypatch.delenv("GENIE_LLM_REPLAY", raising=False)
    assert main(["replay", str(ticket_spec.directory), str(trace), "--parser", "llm"]) == 1
    assert "Offline mode" in capsys.readouterr().err
    monkeypatch.setenv("GENIE_LLM_REPLAY", str(tmp_path / "rec"))
    out = tmp_path / "out.jsonl"
    assert main(["replay", str(ticket_spec.directory), str(trace), "--parser", "llm", "--out", str(out),
                 "--today", "2026-11-23"]) == 0
    turns = [json.loads(line) for line in out.read_text().splitlines()]
    assert turns[0]["parse"] == PARSES[0] and turns[0]["errors"] == []
