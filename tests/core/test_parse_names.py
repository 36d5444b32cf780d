"""LLM parses the runtime must survive (issue 27), one test per class of the issue:

1. an old name of a replaced instance used again;
2. names that collide with the runtime's automatic names;
3. a second start task;
4. plain-value helper variables;
5. ``'None'`` placeholders, one message however many values a submitted task refused, ``x.f = None``.

(6, list-shaped arguments in ``compare-genie``, is in tests/test_genie_compare.py; the invariants
over generated parses in :mod:`.test_runtime_invariants`.) Issue 39, round two:

7. list items as assignment targets (``main.courses_to_take[0].more_courses_1 = False``; lists of
   instances in tests/core/test_list_fields.py);
8. names of instances nested in a replaced instance, also in helper expressions;
9. turns after a submission: what was submitted, and a correction or a new request in one message;
10. a search as the first message.
"""

from __future__ import annotations

import re

import pytest

from genie_bot.acts import Submitted
from genie_bot.responders.templates import TemplateResponder
from genie_bot.runtime.after_submission import FOLLOW_UP_TEXT
from genie_bot.runtime import RecordedKnowledge
from genie_bot.runtime.assign import CANCELLED_REASON, SUBMITTED_REASON
from genie_bot.spec import InstanceRef, load_agent
from genie_bot.state import DialogueState, InstanceStatus

from .agents import GENIE_COURSE_AGENT, GENIE_COURSE_API, GENIE_POLICY
from .test_genie_statements import Chat

ENROLL = ("course = Course(course_name='CS 1', grade_type='Letter', course_num_units=3)\n"
          "courses_to_take = CoursesToTake(course_0_details=course, more_courses_1=False)\n"
          "main.courses_to_take = courses_to_take")


@pytest.fixture(params=["genie_bot_policy", "reference_policy"])
def spec(request, make_agent):
    spec = load_agent(make_agent(GENIE_COURSE_AGENT.format(policy=GENIE_POLICY if request.param == "reference_policy"
                                                           else ""), GENIE_COURSE_API))
    spec.apis["courses_to_take_oval"].fn.__globals__["CALLS"].clear()
    return spec


def calls(spec) -> list[dict]:
    return spec.apis["courses_to_take_oval"].fn.__globals__["CALLS"]


def asks(acts: list[str]) -> bool:
    return any(a.startswith(("AskField", "AskForConfirmation", "AskForFieldConfirmation")) for a in acts)


def submit(chat: Chat, name: str = "Ann") -> list[str]:
    """Confirm the course list, give the student, confirm the enrollment; the acts of each turn."""
    return [chat.say("courses_to_take.confirm = True"),
            chat.say(f"main.student_info_details = StudentInfo(student_name='{name}', student_id='1')"),
            chat.say("main.confirm_submission = True")]


# -- 1 ------------------------------------------------------------------------------------------------
def test_an_old_name_of_a_replaced_course_denotes_the_course_put_in_its_place(spec):
    chat = Chat(spec)
    chat.say(ENROLL)
    chat.say("course_1 = Course(course_name='CS 2')\ncourses_to_take.course_0_details = course_1")
    assert chat.state.instances["course"].status == InstanceStatus.DROPPED
    acts = chat.say("course.grade_type = 'Credit/No Credit'")  # the old name: the course now in its place
    assert chat.values("course_1")["grade_type"] == "Credit/No Credit"
    assert not any(CANCELLED_REASON in a for a in acts) and asks(acts)
    chat.say("courses_to_take.course_0_details = course")  # puts no dropped course back
    assert chat.values("courses_to_take")["course_0_details"] == InstanceRef("course_1")
    assert chat.question() == ("Course", "course_num_units")
    chat.say("course.course_num_units = 4")
    *_, done = submit(chat)
    assert done[0].startswith("Report(main_0") and calls(spec)[0]["courses_to_take"]["course_0_details"] == \
        {"course_name": "CS 2", "grade_type": "Credit/No Credit", "course_num_units": 4}


def test_a_name_of_an_instance_dropped_with_nothing_in_its_place_is_refused_with_the_reason(spec):
    chat = Chat(spec)
    chat.say(ENROLL)
    chat.say("courses_to_take.course_0_details = None")
    before = chat.state.to_json()
    acts = chat.attempt("course.grade_type = 'Credit/No Credit'")  # the course taken out of the list
    [error] = chat.result.errors
    assert error.startswith("course.grade_type = 'Credit/No Credit': line 1: 'course' is no longer part of any task "
                            "(it was taken out of courses_to_take.course_0_details); open instances: ")
    assert asks(acts) and not any(CANCELLED_REASON in a for a in acts)
    assert DialogueState.from_json(before).instances == chat.state.instances


def test_a_stored_state_with_a_dropped_instance_in_a_field_asks_that_field_again(spec):
    chat = Chat(spec)
    chat.say(ENROLL)
    chat.state.instances["course"].status = InstanceStatus.ABANDONED  # as states before issue 27 could be
    acts = chat.say("# nothing")
    assert acts and asks(acts)
    assert chat.question() in (("CoursesToTake", "course_0_details"), ("Course", "course_name"))


# -- 2 ------------------------------------------------------------------------------------------------
def test_automatic_names_never_take_a_name_the_same_output_binds(spec):
    chat = Chat(spec)
    chat.say("course_0 = Course(course_name='CS 1', grade_type='Letter', course_num_units=3)\n"
             "courses_to_take = CoursesToTake(course_0_details=course_0, more_courses_1=False)\n"
             "main.courses_to_take = courses_to_take")
    assert chat.state.named("course_0").status == InstanceStatus.COMPLETED and "course_1" not in chat.state.instances
    chat.say("course_0 = Course(course_name='CS 2', grade_type='Letter', course_num_units=4)\n"  # a finished name
             "course_1 = Course(course_name='CS 3', grade_type='Letter', course_num_units=5)\n"  # the next number
             "courses_to_take.more_courses_1 = True\n"
             "courses_to_take.course_0_details = course_0\ncourses_to_take.course_1_details = course_1")
    first = chat.values("main_0.courses_to_take.course_0_details")
    second = chat.values("main_0.courses_to_take.course_1_details")
    assert (first["course_name"], second["course_name"]) == ("CS 2", "CS 3")
    assert chat.state.aliases["course_0"] not in ("course_0", "course_1")


# -- 3 ------------------------------------------------------------------------------------------------
def test_rebinding_main_to_a_second_start_task_gives_its_values_to_the_open_one(spec):
    chat = Chat(spec)
    chat.say(ENROLL)
    chat.say("main_1 = Main(student_info_details=StudentInfo(student_name='Ann', student_id='1'))\nmain = main_1")
    mains = [i for i in chat.state.instances.values() if i.worksheet == "Main" and i.open]
    assert [m.name for m in mains] == ["main_0"]
    assert chat.values("main_0.student_info_details") == {"student_name": "Ann", "student_id": "1"}
    assert chat.values("main_0.courses_to_take.course_0_details")["course_name"] == "CS 1"
    assert chat.state.denoted("main_1").name == "main_0"
    chat.say("courses_to_take.confirm = True")
    done = chat.say("main.confirm_submission = True")
    assert done[0].startswith("Report(main_0") and not asks(done)  # no second enrollment is asked for
    assert len(calls(spec)) == 1


# -- 4 ------------------------------------------------------------------------------------------------
def test_helper_variables_live_for_one_parser_output(spec):
    chat = Chat(spec)
    chat.say("u = 3\nr = 7 - u\nname = 'CS ' + '1'\n"
             "course = Course(course_name=name, grade_type='Letter', course_num_units=r)\n"
             "courses_to_take = CoursesToTake(course_0_details=course)\nmain.courses_to_take = courses_to_take")
    assert chat.values("course") == {"course_name": "CS 1", "grade_type": "Letter", "course_num_units": 4}
    chat.attempt("course.course_num_units = r")
    assert "unknown name 'r'" in chat.result.errors[0]
    chat.attempt("course = 5")
    assert chat.result.errors == ["course = 5: line 1: 'course' is Course course: set its fields with course.field = "
                                  "value, or take it out of a field with owner.field = None"]


# -- 5 ------------------------------------------------------------------------------------------------
def test_the_string_none_is_a_placeholder_never_a_value(spec):
    chat = Chat(spec)
    acts = chat.say("course = Course(course_name='CS 1', grade_type='None', course_num_units='None')\n"
                    "courses_to_take = CoursesToTake(course_0_details=course, course_1_details='None')\n"
                    "main.courses_to_take = courses_to_take")
    assert chat.values("course") == {"course_name": "CS 1"}
    assert "course_1_details" not in chat.values("courses_to_take")
    assert chat.result.update.rejected == [] and not any("reason=" in a or a.startswith("Say") for a in acts)
    chat.say("course.grade_type = 'None'\ncourse.course_num_units = 'None'")
    assert chat.values("course") == {"course_name": "CS 1"} and chat.result.update.rejected == []


def test_values_a_submitted_task_refuses_are_refused_in_one_message(spec):
    chat = Chat(spec)
    chat.say("extra = Course(course_name='CS 2')\n" + ENROLL.replace("more_courses_1=False",
                                                                    "more_courses_1=False, course_1_details=extra"))
    submit(chat)
    # a course in the slot the user turned down, never asked and never sent: no new request would send it
    acts = chat.say("extra.grade_type = 'Letter'\nextra.course_num_units = 4")
    assert acts == [f'Say("{SUBMITTED_REASON}")', "Submitted(main_0)"]


def test_setting_a_field_to_none_clears_it_and_drops_the_instance_it_held(spec):
    chat = Chat(spec)
    chat.say(ENROLL)
    acts = chat.say("courses_to_take.course_0_details = None")
    assert chat.values("courses_to_take").get("course_0_details") != InstanceRef("course")  # asked again
    assert chat.state.instances["course"].status == InstanceStatus.DROPPED and asks(acts)
    chat.attempt("course.grade_type = 'Letter'")
    assert "'course' is no longer part of any task (it was taken out of courses_to_take.course_0_details)" \
        in chat.result.errors[0]


# -- 7 ------------------------------------------------------------------------------------------------
def test_an_item_of_a_field_holding_one_instance_is_that_instance(spec):
    chat = Chat(spec)
    chat.say(ENROLL.replace(", more_courses_1=False", ""))
    chat.say("main.courses_to_take[0].more_courses_1 = False")  # the reference showed its LLM a list there
    assert chat.values("courses_to_take")["more_courses_1"] is False
    chat.say("main.courses_to_take[0].course_0_details[0].course_num_units = 4")
    assert chat.values("course")["course_num_units"] == 4
    before = chat.state.to_json()
    acts = chat.attempt("main.courses_to_take[1].confirm = True")
    assert chat.result.errors == ["main.courses_to_take[1].confirm = True: line 1: main.courses_to_take holds one "
                                  "instance, not a list: write main.courses_to_take.field = value"]
    assert asks(acts) and DialogueState.from_json(before).instances == chat.state.instances


# -- 8 ------------------------------------------------------------------------------------------------
TWO_COURSES = ("course = Course(course_name='CS 1', grade_type='Letter', course_num_units=3)\n"
               "course_1 = Course(course_name='CS 2', grade_type='Letter', course_num_units=4)\n"
               "courses_to_take = CoursesToTake(course_0_details=course, more_courses_1=True, course_1_details=course_1)\n"
               "main.courses_to_take = courses_to_take")


def test_a_name_of_an_instance_of_a_replaced_list_denotes_the_one_in_the_same_place(spec):
    chat = Chat(spec)
    chat.say(TWO_COURSES)
    chat.say("courses_to_take_1 = CoursesToTake(course_0_details=Course(course_name='CS 3', grade_type='Letter'), "
             "more_courses_1=True, course_1_details=Course(course_name='CS 4'))\n"
             "main.courses_to_take = courses_to_take_1")
    assert chat.state.instances["course_1"].status == InstanceStatus.DROPPED
    acts = chat.say("course_1.grade_type = 'Credit/No Credit'\ncourse.course_num_units = 5")  # CS 4 and CS 3 now
    new_list = chat.values("main_0.courses_to_take")
    assert chat.values(new_list["course_0_details"].name) == \
        {"course_name": "CS 3", "grade_type": "Letter", "course_num_units": 5}
    assert chat.values(new_list["course_1_details"].name) == {"course_name": "CS 4", "grade_type": "Credit/No Credit"}
    assert asks(acts) and not any(CANCELLED_REASON in a for a in acts)


def test_a_helper_naming_an_instance_of_a_replaced_list_reads_the_one_in_its_place_or_is_refused(spec):
    chat = Chat(spec)
    chat.say(TWO_COURSES)
    chat.say("courses_to_take_1 = CoursesToTake(course_0_details=Course(course_name='CS 3', grade_type='Letter', "
             "course_num_units=2), more_courses_1=False)\nmain.courses_to_take = courses_to_take_1")
    chat.say("total_units = course.course_num_units + 1\nmain.student_info_details = "
             "StudentInfo(student_name='Ann', student_id=str(total_units))")
    assert chat.values("main_0.student_info_details")["student_id"] == "3"  # course: CS 3, at 2 units
    before = chat.state.to_json()
    acts = chat.attempt("total_units = course.course_num_units + course_1.course_num_units\n"
                        "main.student_info_details.student_id = str(total_units)")
    assert [re.split(r": line \d: ", e)[1] for e in chat.result.errors] == [
        "'course_1' is no longer part of any task (courses_to_take, which held it, was replaced by courses_to_take_1, "
        "and courses_to_take_1.course_1_details holds no Course); open instances: "
        + ", ".join(i.name for i in chat.state.instances.values() if i.open),
        "unknown name 'total_units'; worksheets are Main, StudentInfo, CoursesToTake, Course, courses; instances are "
        + ", ".join(chat.state.instances)]
    assert asks(acts) and DialogueState.from_json(before).instances == chat.state.instances


# -- 9 ------------------------------------------------------------------------------------------------
def test_a_change_after_the_submission_is_a_new_request_made_from_it_and_confirmed_before_it_is_sent(spec):
    chat = Chat(spec)
    chat.say(ENROLL)
    submit(chat)
    acts = chat.say("course.course_num_units = 4")  # "can CS 1 be 4 units?"
    assert acts[0] == f'Say("{FOLLOW_UP_TEXT}")' and chat.question() == ("CoursesToTake", "confirm")
    assert chat.state.instances["course"].values["course_num_units"] == 3  # what was sent stays as it was
    assert chat.state.instances["main_0"].status == InstanceStatus.COMPLETED
    assert chat.values("course")["course_num_units"] == 4  # its names now denote the new request
    assert chat.say("courses_to_take.confirm = True") == ["AskForConfirmation(main_1)"]
    done = chat.say("main.confirm_submission = True")
    assert done[0].startswith("Report(main_1") and len(calls(spec)) == 2
    assert calls(spec)[1]["courses_to_take"]["course_0_details"]["course_num_units"] == 4
    assert calls(spec)[1]["student_info_details"] == {"student_name": "Ann", "student_id": "1"}


def test_another_course_after_the_submission_is_asked_for_in_a_new_request_in_one_message(spec):
    chat = Chat(spec)
    chat.say(ENROLL)
    submit(chat)
    acts = chat.say("course_2 = Course(course_name='CS 2', grade_type='Letter')\n"  # "also enroll me in CS 2"
                    "courses_to_take.more_courses_1 = True\ncourses_to_take.course_1_details = course_2")
    assert acts == [f'Say("{FOLLOW_UP_TEXT}")', 'AskField(course_2, course_num_units, "course num units")']
    chat.say("course_2.course_num_units = 5")
    chat.say("courses_to_take.confirm = True")
    chat.say("main.confirm_submission = True")
    assert [[c["course_name"] for k, c in call["courses_to_take"].items() if k.endswith("_details")]
            for call in calls(spec)] == [["CS 1"], ["CS 1", "CS 2"]]


def test_the_same_value_again_after_the_submission_starts_nothing(spec):
    chat = Chat(spec)
    chat.say(ENROLL)
    submit(chat)
    instances = set(chat.state.instances)
    assert chat.say("course.course_num_units = 3\nmain.confirm_submission = True") == []
    assert set(chat.state.instances) == instances and chat.state.named("course").name == "course"


def test_a_turn_after_the_submission_that_comes_to_nothing_says_what_was_submitted(spec):
    chat = Chat(spec)
    chat.say(ENROLL)
    submit(chat)
    chat.say("answer('am I enrolled?')")  # no knowledge source can say
    reminder = chat.result.acts[-1]
    assert isinstance(reminder, Submitted) and reminder.instance == "main_0"
    assert reminder.values["courses_to_take"]["course_0_details"]["course_name"] == "CS 1"
    text = TemplateResponder().render(spec, chat.state, reminder)
    assert text.startswith("Your request to ") and "CS 1" in text and "Ann" in text
    assert text.endswith("To change something or make another request, just tell me.")
    assert DialogueState.from_json(chat.state.to_json()).last_acts == chat.state.last_acts  # stored with the session
    assert chat.say("# thanks!") == []  # a message that asks for nothing gets no reminder


# -- 10 -----------------------------------------------------------------------------------------------
SEARCH = "answer = Answer(\"SELECT title FROM courses WHERE title LIKE '%Programming%';\", {}, ['courses'], " \
         "'What programming courses are offered?')"


@pytest.mark.parametrize("rows", [[{"course_id": 1, "title": "Programming Abstractions"}], []])
def test_a_search_as_the_first_message_is_answered_and_followed_by_the_question_only_when_it_found_something(
        spec, rows):
    chat = Chat(spec, RecordedKnowledge(rows))
    acts = chat.say(SEARCH)  # "find me programming courses"
    assert acts[0] == f"Report(answer('What programming courses are offered?'), {rows!r})"
    if spec.policy.start_task == "at_greeting":  # the greeting asked already: the question stands
        assert chat.question() == ("Course", "course_name")
    elif rows:  # the results are what the user picks from
        assert acts[1:] == ['AskField(main_0, courses_to_take, "The courses that the student wants to take")']
    else:  # nothing to pick from: the agent waits for the user to search again, as after a failed search
        assert acts[1:] == [] and not chat.state.instances
    chat.say(ENROLL)
    assert chat.question() == ("CoursesToTake", "confirm")
