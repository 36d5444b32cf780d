"""The responder's output check: replies showing code, internal names or prompt text, rambling, or
leaving out an action's result are replaced by the templated reply (seen with SmolLM2-135M)."""

from __future__ import annotations

import pytest

from genie_bot.acts import Report
from genie_bot.llm import make_client
from genie_bot.parsers import Parse
from genie_bot.responders import TemplateResponder
from genie_bot.responders.llm import LLMResponder
from genie_bot.responders.output_check import reply_problem
from genie_bot.runtime import Runtime

from .conftest import NOW, make_settings


@pytest.fixture
def ticket_turn(ticket_spec):
    runtime = Runtime(ticket_spec, clock=lambda: NOW)
    result = runtime.run_turn(runtime.new_state(), "main_0.student_task = 'Leave of Absence'\nmain_0.full_name = 'Ann Lee'")
    return result.state, result.acts


def _responder(server) -> LLMResponder:
    return LLMResponder(make_client(make_settings(server)), template_replies=False)


def _templated(spec, state, acts) -> str:
    return TemplateResponder().respond(spec, state, acts, "", Parse("..."))


@pytest.mark.parametrize("reply, reason", [
    ("```python\nleave_of_absence_0.form_status = 'not yet'\n```", "code"),
    ("Sure!\nleave_of_absence_0.form_status = None\nHave you submitted the form?", "code"),
    ("Have you submitted the form? main_0 = Main(student_task='Leave of Absence')", "code"),
    ("AskField(leave_of_absence_0, form_status): have you submitted the form?", "internal names"),
    ("I will now AskField about the form. Have you submitted it?", "internal names"),
    ("Got it, main_0 is a leave of absence. Have you submitted the form?", "internal names"),
    ("What is the form_status of your leave of absence form?", "internal names"),
    ("Templated reply (correct but plain): Have you already submitted the leave of absence form?", "prompt text"),
    ("# nothing yet", "prompt text"),
    ("Let me check on that for you and get back to you.", "stalling"),
    ("Have you already submitted the leave of absence form? " + "It is a very important form. " * 20, "too long"),
])
def test_a_bad_reply_gives_the_templated_one(server, script, ticket_spec, ticket_turn, reply, reason):
    state, acts = ticket_turn
    templated = _templated(ticket_spec, state, acts)
    assert reply_problem(ticket_spec, state, acts, templated, reply) == reason
    script.add("responder", reply)
    responder = _responder(server)
    assert responder.respond(ticket_spec, state, acts, "I need a leave of absence", Parse("...")) == templated
    assert responder.rejections == {reason: 1}


@pytest.mark.parametrize("reply", [
    "Sure, Ann! Have you already submitted the **leave of absence** form, or not yet?",
    "Got it. Have you submitted the form yet? (Options: submitted, not yet.)",
])
def test_a_good_reply_is_kept(server, script, ticket_spec, ticket_turn, reply):
    state, acts = ticket_turn
    script.add("responder", reply)
    responder = _responder(server)
    assert responder.respond(ticket_spec, state, acts, "I need a leave of absence", Parse("...")) == reply
    assert not responder.rejections


def test_a_final_report_must_keep_the_result(server, script, course_spec):
    state = Runtime(course_spec, clock=lambda: NOW).new_state()
    acts = [Report("main_0", {"enrollment_id": "ENR-12345"})]
    templated = _templated(course_spec, state, acts)
    assert "ENR-12345" in templated
    script.add("responder", "All done, you're enrolled! Good luck this quarter.",
               "All done! Your enrollment ENR-12345 went through.")
    responder = _responder(server)
    assert responder.respond(course_spec, state, acts, "yes", Parse("...")) == templated
    assert responder.rejections == {"dropped a result": 1}
    assert responder.respond(course_spec, state, acts, "yes", Parse("...")) == \
        "All done! Your enrollment ENR-12345 went through."


def test_names_the_templated_reply_itself_uses_are_allowed(ticket_spec, ticket_turn):
    state, acts = ticket_turn
    templated = "Your task is TroubleShoot: state: open. Have you submitted the form?"
    reply = "Your task is TroubleShoot (state: open). Have you submitted the form?"
    assert reply_problem(ticket_spec, state, acts, templated, reply) is None
