"""The LLM response generator: its prompt, its checks, and the templated fallback on every failure."""

from __future__ import annotations

import pytest

from genie_bot.acts import AskField, Report
from genie_bot.llm import make_client
from genie_bot.parsers import Parse
from genie_bot.responders import TemplateResponder
from genie_bot.responders.llm import LLMResponder
from genie_bot.runtime import Runtime
from genie_bot.state import KnowledgeAnswer

from .conftest import NOW, make_settings


@pytest.fixture
def ticket_turn(ticket_spec):
    """The state and acts after the user chose a leave of absence: the agent asks for the form status."""
    runtime = Runtime(ticket_spec, clock=lambda: NOW)
    statements = "main_0.student_task = 'Leave of Absence'\nmain_0.full_name = 'Ann Lee'"
    result = runtime.run_turn(runtime.new_state(), statements)
    return result.state, result.acts


def respond(server, spec, state, acts, text="I need a leave of absence", parse=None, **settings) -> str:
    config = make_settings(server, **settings)
    responder = LLMResponder(make_client(config), check_questions=config.check_questions,
                             template_replies=config.template_replies)
    return responder.respond(spec, state, acts, text, parse or Parse("..."))


def templated(spec, state, acts, parse=None) -> str:
    return TemplateResponder().respond(spec, state, acts, "", parse or Parse("..."))


def test_prompt_has_the_description_acts_state_message_and_templated_reply(server, script, ticket_spec, ticket_turn):
    state, acts = ticket_turn
    script.add("responder", "Sure, Ann. Have you already submitted the leave of absence form?")
    reply = respond(server, ticket_spec, state, acts)
    assert reply == "Sure, Ann. Have you already submitted the leave of absence form?"
    system, user = (m["content"] for m in script.requests["responder"][0]["messages"])
    assert "Student services assistant of a university" in system
    assert "Perform every act" in system and "Invent nothing" in system and "Never say you will check" in system
    assert 'AskField(leave_of_absence_0, form_status, "the status of the leave of absence form")' in user
    assert "main_0 = Main(student_task='Leave of Absence', leave_of_absence_details=leave_of_absence_0, " \
           "full_name='Ann Lee')" in user
    assert "User: I need a leave of absence" in user
    assert "Have you already submitted the leave of absence form, or not yet?" in user  # the templated reply
    assert "Query that was run" not in user
    assert script.requests["responder"][0]["temperature"] == 0.3


def test_temperature_is_configurable(server, script, ticket_spec, ticket_turn):
    script.add("responder", "Have you submitted the form?")
    respond(server, ticket_spec, *ticket_turn, temperature={"responder": 0.9})
    assert script.requests["responder"][0]["temperature"] == 0.9


@pytest.mark.parametrize("failure", [
    {"status": 500}, {"status": 429}, {"garbage": True}, {"garbage": True, "content_type": "text/html"},
    {"content": ""}, {"delay": 1.5, "content": "too late"},
    "Let me check on that for you and get back to you.", "One moment please, looking it up.",
])
def test_any_failure_gives_the_templated_reply(server, script, ticket_spec, ticket_turn, failure):
    state, acts = ticket_turn
    script.add("responder", failure)
    assert respond(server, ticket_spec, state, acts, timeout=0.5) == templated(ticket_spec, state, acts)


def test_a_reply_that_leaves_out_the_question_gets_it_appended(server, script, ticket_spec, ticket_turn):
    state, acts = ticket_turn
    script.add("responder", "Sorry to hear you need time off, Ann.", "Sorry to hear you need time off, Ann.")
    assert respond(server, ticket_spec, state, acts) == (
        "Sorry to hear you need time off, Ann.\n\n"
        "Have you already submitted the leave of absence form, or not yet?")
    assert respond(server, ticket_spec, state, acts, check_questions=False) == "Sorry to hear you need time off, Ann."


def test_the_search_is_shown_with_a_knowledge_report(server, script, restaurant_spec):
    runtime = Runtime(restaurant_spec, clock=lambda: NOW)
    state = runtime.new_state()
    state.answer = KnowledgeAnswer("highly rated places", query="SELECT * FROM restaurants WHERE rating > 4.4 LIMIT 20",
                                   result=[{"id": 7, "name": "Golden Fig", "review": "x" * 500}], status="done")
    acts = [Report("answer('highly rated places')", state.answer.result)]
    script.add("responder", "I searched for highly rated (rating > 4.4) places: Golden Fig.")
    respond(server, restaurant_spec, state, acts)
    user = script.requests["responder"][0]["messages"][1]["content"]
    assert "Query that was run: SELECT * FROM restaurants WHERE rating > 4.4 LIMIT 20" in user
    assert "x" * 200 not in user  # long texts are shortened in the acts


def test_a_message_that_was_not_understood_is_flagged(server, script, ticket_spec, ticket_turn):
    state, _ = ticket_turn
    acts = [AskField("leave_of_absence_0", "form_status", "the status of the leave of absence form")]
    script.add("responder", "Sorry, I didn't get that. Have you submitted the form?")
    respond(server, ticket_spec, state, acts, text="blorp", parse=Parse("", understood=False))
    assert "did not understand this message" in script.requests["responder"][0]["messages"][1]["content"]
