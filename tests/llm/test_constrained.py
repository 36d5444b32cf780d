"""Constrained parser output: the statement language generated from the spec, sent in each server's form."""

from __future__ import annotations

import json
import re

import pytest

from genie_bot.llm import make_client
from genie_bot.parsers import RuleParser
from genie_bot.parsers.constrained import statement_grammar, statements_from_json
from genie_bot.parsers.llm import LLMParser
from genie_bot.runtime import Runtime

from .conftest import NOW, TODAY, make_settings

LEAVE = "main_0.student_task = 'Leave of Absence'"


def _state(spec, statements: str = ""):
    runtime = Runtime(spec, clock=lambda: NOW)
    state = runtime.new_state()
    return runtime.run_turn(state, statements).state if statements else state


def _parse(server, spec, state, text: str, mode: str):
    parser = LLMParser(make_client(make_settings(server, constrained=mode)), RuleParser(), fast_path=False,
                       constrained=mode)
    return parser.parse(spec, state, text, TODAY)


def test_llama_cpp_gets_a_gbnf_grammar(server, script, ticket_spec):
    script.add("parser", LEAVE)
    parse = _parse(server, ticket_spec, _state(ticket_spec), "I'd like a leave of absence", "llama_cpp")
    body = script.requests["parser"][0]
    grammar = body["grammar"]
    assert grammar.startswith("root ::= ") and '"main_0.student_task = " ("\'TroubleShoot\'" | ' in grammar
    assert '"pass"' not in grammar.splitlines()[0]  # the user gave a value: no way out without a statement
    assert "#" not in grammar and "response_format" not in body
    assert parse.statements == LEAVE and parse.source == "llm"


def test_vllm_gets_the_grammar_for_guided_decoding(server, script, ticket_spec):
    script.add("parser", LEAVE)
    _parse(server, ticket_spec, _state(ticket_spec), "I'd like a leave of absence", "vllm")
    body = script.requests["parser"][0]
    assert body["guided_grammar"].startswith("root ::= ") and "grammar" not in body


@pytest.mark.parametrize("mode", ["json_schema", "ollama"])
def test_json_modes_get_a_schema_and_answer_in_json(server, script, ticket_spec, mode):
    script.add("parser", json.dumps({"statements": [LEAVE, "main_0.full_name = 'Ann Lee'"]}))
    parse = _parse(server, ticket_spec, _state(ticket_spec), "a leave of absence; I'm Ann Lee", mode)
    body = script.requests["parser"][0]
    response_format = body["response_format"]
    assert response_format["type"] == "json_schema" and response_format["json_schema"]["strict"] is True
    schema = response_format["json_schema"]["schema"]
    statements = schema["properties"]["statements"]
    assert statements["minItems"] == 1 and schema["required"] == ["statements"]
    pattern = re.compile(statements["items"]["pattern"])
    assert pattern.match(LEAVE) and not pattern.match("# nothing yet") and not pattern.match("main_0.x = 1")
    assert (body.get("format") == schema) is (mode == "ollama")
    assert '{"statements"' in body["messages"][-1]["content"]  # the model is told the form too
    assert parse.statements == f"{LEAVE}\nmain_0.full_name = 'Ann Lee'"


def test_no_constraint_sends_nothing_more(server, script, ticket_spec):
    script.add("parser", LEAVE)
    _parse(server, ticket_spec, _state(ticket_spec), "I'd like a leave of absence", "none")
    body = script.requests["parser"][0]
    assert not {"grammar", "guided_grammar", "format", "response_format"} & set(body)


def test_pass_is_allowed_only_when_the_user_gave_no_value(ticket_spec):
    state = _state(ticket_spec)
    assert '"pass"' in statement_grammar(ticket_spec, state, value_given=False).gbnf().splitlines()[0]
    root = re.compile("^" + statement_grammar(ticket_spec, state, value_given=True).regex("root") + "$")
    assert root.match(f"{LEAVE}\nexitws()") and not root.match("pass") and not root.match("")


def test_the_language_follows_the_spec_and_state(course_spec, ticket_spec):
    state = _state(ticket_spec, "main_0.student_task = 'TroubleShoot'\nmain_0.troubleshoot_details = "
                                "TroubleShoot(issue_type='Join Waitlist')")
    statement = re.compile("^" + statement_grammar(ticket_spec, state, True).regex("statement") + "$")
    open_instances = [i.name for i in state.instances.values() if i.open]
    assert "join_waitlist_0" in open_instances
    assert statement.match("join_waitlist_0.course_name = 'CS 224V'")
    assert statement.match("leave_of_absence_1 = LeaveOfAbsence(form_status='Submitted')")
    assert statement.match("italia = LeaveOfAbsence()") is None  # a new task is named after its worksheet
    assert statement.match("main_0.troubleshoot_details = TroubleShoot(issue_type='Change Course', extra=1)") is None
    assert statement.match("course_0.course_name = 'CS 224V'") is None  # not an instance of this conversation
    assert statement.match("answer('which courses are offered?')") is None  # the ticket agent has no knowledge
    course = re.compile("^" + statement_grammar(course_spec, _state(course_spec), True).regex("statement") + "$")
    assert course.match("answer('which courses are offered in winter?')")


def test_statements_from_json():
    assert statements_from_json('{"statements": ["a.b = 1", " ", "c = D()"]}') == "a.b = 1\nc = D()"
    assert statements_from_json("main_0.x = 1") is None and statements_from_json('{"x": 1}') is None
