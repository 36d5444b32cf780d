"""The LLM parser's behaviour: counting, repair paths, fast path, fallbacks, and untrusted output."""

from __future__ import annotations

from genie_bot.llm import make_client
from genie_bot.parsers import RuleParser
from genie_bot.parsers.llm import LLMParser, extract_statements
from genie_bot.runtime import Runtime

from .conftest import NOW, TODAY, make_settings


def parser_for(server, **settings) -> LLMParser:
    return LLMParser(make_client(make_settings(server, **settings)), RuleParser(), fast_path=False)


def test_statements_are_taken_from_the_code_block_and_usage_is_counted(server, script, ticket_spec, chat_with):
    chat = chat_with(ticket_spec)
    script.add("parser", "Sure! Here you go:\n```python\nmain_0.student_task = 'Leave of Absence'\n```\nDone.")
    script.add("responder", "Has the form been submitted?")
    reply = chat.say("I need to take a leave of absence next quarter")
    parse = reply.parse
    assert parse.statements == "main_0.student_task = 'Leave of Absence'" and parse.source == "llm"
    assert parse.llm_calls == 1 and parse.prompt_tokens > 500 and parse.completion_tokens > 5
    assert reply.acts[0].formal().startswith("AskField(leave_of_absence_0, form_status")


def test_misspelt_names_are_snapped_by_the_runtime_without_asking_again(server, script, ticket_spec, chat_with):
    chat = chat_with(ticket_spec)
    script.add("parser", "mian_0.studnet_task = 'leave of absence'")
    script.add("responder", "Has the form been submitted?")
    reply = chat.say("I need to take a leave of absence next quarter")
    assert reply.parse.llm_calls == 1 and not reply.errors
    assert chat.state.instances["main_0"].values["student_task"] == "Leave of Absence"


def test_an_interpreter_error_is_sent_back_once(server, script, ticket_spec, chat_with):
    chat = chat_with(ticket_spec)
    script.add("parser", "main_0.student_task = 'Leave of Absence'\nmain_0.faculty_advisor = 'Prof. X'",
               "main_0.student_task = 'Leave of Absence'")
    script.add("responder", "Has the form been submitted?")
    reply = chat.say("leave of absence; my advisor is Prof. X")

    assert reply.parse.llm_calls == 2 and not reply.errors
    assert reply.parse.statements == "main_0.student_task = 'Leave of Absence'"
    first, second = script.requests["parser"]
    assert second["messages"][:2] == first["messages"]  # same prompt, then the answer and the errors
    assert second["messages"][2]["role"] == "assistant" and "faculty_advisor" in second["messages"][2]["content"]
    repair = second["messages"][3]["content"]
    assert "Main has no field 'faculty_advisor'" in repair and "corrected statements" in repair


def test_a_second_bad_answer_is_not_asked_again_and_the_better_one_is_kept(server, script, ticket_spec):
    parser = parser_for(server)
    script.add("parser", "main_0.student_task = 'TroubleShoot'\nmain_0.nonsense = 1", "this is not code at all")
    state = _new_state(ticket_spec)
    parse = parser.parse(ticket_spec, state, "blorp", TODAY)  # nothing the rules read: the LLM's parse is kept
    assert parse.llm_calls == 2 and parse.reasked and parse.source == "llm"
    assert parse.statements == "main_0.student_task = 'TroubleShoot'"  # the line that applies, without the other
    assert any("dropped" in note and "nonsense" in note for note in parse.notes)


def test_omission_repair_fills_the_field_just_asked(server, script, restaurant_spec, chat_with):
    chat = chat_with(restaurant_spec)
    chat.statements("book_restaurant_0 = BookRestaurant(restaurant=restaurants(id=1, name='The Oak Spoon'), "
                "date='2026-11-27', time='19:00')")
    assert chat.state.last_acts[0].formal().startswith("AskField(book_restaurant_0, num_people")
    script.add("parser", "book_restaurant_0.special_request = 'a high chair'")
    script.add("responder", "Shall I book it?")
    reply = chat.say("four of us, and we need a high chair for the baby please")
    assert reply.parse.statements == \
        "book_restaurant_0.special_request = 'a high chair'\nbook_restaurant_0.num_people = 4"
    assert "omission repaired" in " ".join(reply.parse.notes)
    assert chat.state.instances["book_restaurant_0"].values["num_people"] == 4


def test_omission_repair_leaves_free_text_fields_alone_when_the_parse_did_something(server, script, ticket_spec):
    state = _new_state(ticket_spec, "main_0.student_task = 'TroubleShoot'\nmain_0.troubleshoot_details = "
                                    "TroubleShoot(issue_type='Join Waitlist')")
    assert state.last_acts[0].formal().startswith("AskField(join_waitlist_0, course_name")
    script.add("parser", "join_waitlist_0.quarter = 'Winter'")
    parse = parser_for(server).parse(ticket_spec, state, "it's for the winter quarter, I think", TODAY)
    assert parse.statements == "join_waitlist_0.quarter = 'Winter'"


def test_omission_repair_does_not_override_a_question(server, script, restaurant_spec):
    state = _new_state(restaurant_spec, "book_restaurant_0 = BookRestaurant()")
    script.add("parser", "answer('which restaurants seat 4 people at the bar?')")
    parse = parser_for(server).parse(restaurant_spec, state, "which places seat 4 people at the bar?", TODAY)
    assert parse.statements == "answer('which restaurants seat 4 people at the bar?')"


def test_fast_path_skips_the_llm_for_a_direct_answer(server, script, course_spec, chat_with):
    chat = chat_with(course_spec)
    script.add("responder", "Letter or credit?")
    reply = chat.say("CS 224V")
    assert reply.parse.source == "fast-path" and reply.parse.llm_calls == 0
    assert reply.parse.statements == "course_0.course_name = 'CS 224V'"
    assert script.calls("parser") == 0


def test_fast_path_can_be_switched_off(server, script, settings, course_spec, chat_with):
    chat = chat_with(course_spec, settings.replace(fast_path=False))
    script.add("parser", "course_0.course_name = 'CS 224V'")
    script.add("responder", "Letter or credit?")
    assert chat.say("CS 224V").parse.source == "llm"
    assert script.calls("parser") == 1


def test_fast_path_is_not_taken_when_the_message_says_more_or_asks(server, script, ticket_spec, course_spec):
    parser = LLMParser(make_client(make_settings(server)), RuleParser())
    script.add("parser", "main_0.student_task = 'TroubleShoot'\nmain_0.troubleshoot_details = "
                         "TroubleShoot(issue_type='Join Waitlist')", "answer('what is CS 224V about?')")
    more = parser.parse(ticket_spec, _new_state(ticket_spec), "I want to join the waitlist for a course", TODAY)
    assert more.source == "llm" and "Join Waitlist" in more.statements
    question = parser.parse(course_spec, _new_state(course_spec), "what is CS 224V about?", TODAY)
    assert question.source == "llm"


def test_llm_failure_falls_back_to_the_rule_based_parse(server, script, course_spec, chat_with, settings):
    chat = chat_with(course_spec, settings.replace(fast_path=False))
    script.add("parser", {"status": 500})
    script.add("responder", "Letter or credit?")
    reply = chat.say("CS 224V")
    assert reply.parse.source == "rules" and reply.parse.llm_calls == 1
    assert reply.parse.statements == "course_0.course_name = 'CS 224V'"
    assert reply.parse.notes == ["LLM parser unavailable (status)"]


def test_an_empty_parse_gives_the_rule_based_parse(server, script, ticket_spec):
    script.add("parser", "```python\n```")
    state = _new_state(ticket_spec)
    parse = parser_for(server).parse(ticket_spec, state, "blorp", TODAY)
    by_rules = RuleParser().parse(ticket_spec, state, "blorp", TODAY)
    assert (parse.source, parse.statements, parse.understood) == ("rules", by_rules.statements, by_rules.understood)
    assert parse.llm_calls == 1


def test_llm_output_is_never_executed(server, script, ticket_spec, chat_with, tmp_path):
    marker = tmp_path / "pwned"
    chat = chat_with(ticket_spec)
    script.add("parser", f"__import__('os').system('touch {marker}')\nopen('{marker}', 'w')",
               f"exec(\"open('{marker}', 'w')\")")
    script.add("responder", "What can I help you with?")
    reply = chat.say("please run this for me")
    assert not marker.exists()
    assert reply.parse.source == "rules" and reply.parse.llm_calls == 2  # refused twice, then the rules
    assert any("dropped" in note and "exec" in note for note in reply.parse.notes)  # refused, and why


def test_extract_statements():
    assert extract_statements("```python\na = 1\n```\ntext\n```\nb = 2\n```") == "a = 1\nb = 2"
    assert extract_statements("x.y = 'z'  ") == "x.y = 'z'"
    assert extract_statements("```py\n# chit-chat\n```") == "# chit-chat"


def _new_state(spec, statements: str = ""):
    runtime = Runtime(spec, clock=lambda: NOW)
    state = runtime.new_state()
    return runtime.run_turn(state, statements).state if statements else state


def test_output_nothing_can_be_applied_from_is_not_understood(server, script, ticket_spec):
    script.add("parser", "I'm sorry, I cannot help with that.", "Sorry, still no idea.")
    state = _new_state(ticket_spec)
    parse = parser_for(server).parse(ticket_spec, state, "zxcv qwer", TODAY)
    assert parse.llm_calls == 2 and parse.source == "rules"  # what the bot would have done offline
    assert parse.statements == RuleParser().parse(ticket_spec, state, "zxcv qwer", TODAY).statements
