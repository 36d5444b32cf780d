"""What parsers written for the reference Genie emit: each statement form it logs is understood.

The forms come from the reference's course-enrollment logs (docs/genie-compatibility.md):
``Answer(sql, params, tables, question)``, its rewriter's aliases and self-assignments,
``main`` for the start worksheet's instance, and constructor placeholders.
"""

from __future__ import annotations

import datetime as dt

import pytest

from genie_bot.acts import AskField, Report
from genie_bot.runtime import LocalApiExecutor, RecordedKnowledge, Runtime
from genie_bot.spec import InstanceRef, load_agent
from genie_bot.state import DialogueState, InstanceStatus

from .agents import GENIE_COURSE_AGENT, GENIE_COURSE_API

NOW = dt.datetime(2026, 11, 21, 12, 0)


@pytest.fixture
def spec(make_agent):
    spec = load_agent(make_agent(GENIE_COURSE_AGENT.format(policy=""), GENIE_COURSE_API))
    spec.apis["courses_to_take_oval"].fn.__globals__["CALLS"].clear()
    return spec


class Chat:
    def __init__(self, spec, knowledge=None):
        self.runtime = Runtime(spec, LocalApiExecutor(spec, knowledge=knowledge), clock=lambda: NOW)
        self.state = self.runtime.new_state()
        self.result = None

    def say(self, statements: str) -> list[str]:
        acts = self.attempt(statements)
        assert self.result.errors == []
        return acts

    def attempt(self, statements: str) -> list[str]:
        """The turn's acts, whether or not every statement applied (``self.result.errors``)."""
        self.result = self.runtime.run_turn(self.state, statements)
        self.state = self.result.state
        return [a.formal() for a in self.result.acts]

    def values(self, path: str) -> dict:
        """The values of the instance ``path`` names: ``course`` or ``main_0.courses_to_take.course_0_details``."""
        first, *fields = path.split(".")
        instance = self.state.named(first)
        for name in fields:
            instance = self.state.resolve(instance.values[name])
        return instance.values

    def question(self) -> tuple[str, str]:
        asked = next(a for a in self.result.acts if isinstance(a, AskField))
        return self.state.instances[asked.instance].worksheet, asked.field


@pytest.mark.parametrize("statement", [
    '''answer = Answer("SELECT title FROM courses WHERE title LIKE '%learning%';", {}, ['courses'], 'Which courses teach learning?')''',
    """answer = Answer('SELECT title FROM courses;', {'courses': []}, ['courses'], "Which courses teach learning?")""",
    """Answer('', {}, [], 'Which courses teach learning?')""",
    """answer_1 = answer('Which courses teach learning?')""",
    """Answer(query='SELECT 1', required_params={}, tables=['ratings'], query_nl='Which courses teach learning?')""",
])
def test_a_reference_answer_is_a_knowledge_query_of_its_question(spec, statement):
    rows = [{"course_id": 1, "title": "Machine Learning"}]
    chat = Chat(spec, RecordedKnowledge(rows))
    acts = chat.say(statement)
    assert acts[0] == f"Report(answer('Which courses teach learning?'), {rows!r})"
    assert chat.state.answer.question == "Which courses teach learning?"
    assert chat.state.answer.table is None or chat.state.answer.table == "courses"


def test_an_alias_names_the_same_instance_and_a_self_assignment_changes_nothing(spec):
    chat = Chat(spec)
    chat.say("course = Course(course_name='CS 104')\ncourse_0 = course\n"
             "courses_to_take = CoursesToTake(course_0_details=course_0)\n"
             "courses_to_take = courses_to_take\nmain.courses_to_take = courses_to_take")
    assert chat.values("main_0")["courses_to_take"] == InstanceRef("courses_to_take")
    assert chat.values("courses_to_take")["course_0_details"] == InstanceRef("course")
    chat.say("course_0.grade_type = 'Letter'")
    assert chat.values("course")["grade_type"] == "Letter"
    assert [i.name for i in chat.state.instances.values() if i.worksheet == "Course" and i.open] == ["course"]
    assert DialogueState.from_json(chat.state.to_json()).aliases == {"course_0": "course"}


def test_rebinding_a_name_to_a_new_list_replaces_the_old_one_everywhere(spec):
    chat = Chat(spec)
    chat.say("course = Course(course_name='CS 104')\ncourses_to_take = CoursesToTake(course_0_details=course)\n"
             "main.courses_to_take = courses_to_take")
    chat.say("course_1 = Course(course_name='ECON 1')\n"
             "courses_to_take_1 = CoursesToTake(course_0_details=course_1, more_courses_1=False)\n"
             "courses_to_take = courses_to_take_1\nmain.courses_to_take = courses_to_take")
    assert chat.values("main_0")["courses_to_take"] == InstanceRef("courses_to_take_1")
    assert chat.state.instances["courses_to_take"].status == InstanceStatus.DROPPED
    assert chat.state.instances["course"].status == InstanceStatus.DROPPED  # only the old list held it
    assert chat.question() == ("Course", "grade_type")  # about ECON 1, never the dropped course


def test_main_is_the_start_worksheets_instance(spec):
    chat = Chat(spec)
    chat.say("main = Main(courses_to_take=CoursesToTake(course_0_details=Course(course_name='CS 1')))")
    assert [i.name for i in chat.state.instances.values() if i.worksheet == "Main"] == ["main_0"]
    chat.say("main.courses_to_take.course_0_details.grade_type = 'Letter'")
    assert chat.values("main_0.courses_to_take.course_0_details")["grade_type"] == "Letter"


def test_empty_strings_and_none_in_a_constructor_are_not_given(spec):
    chat = Chat(spec)
    chat.say("student_info = StudentInfo(student_name='Ann Lee', student_id='')\n"
             "main.student_info_details = student_info")
    assert chat.values("student_info") == {"student_name": "Ann Lee"}
    chat.say("courses_to_take = CoursesToTake(course_0_details=Course(course_name='', grade_type='', "
             "course_num_units=0), course_1_details=None)\nmain.courses_to_take = courses_to_take")
    assert chat.values("courses_to_take.course_0_details") == {"course_num_units": 0}  # 0 is a value, as in the reference
    assert "course_1_details" not in chat.values("courses_to_take")
    assert chat.question() == ("Course", "course_name")
    chat.say("courses_to_take.course_0_details.course_name = ''")
    assert "course_name" not in chat.values("courses_to_take.course_0_details")


def test_a_confirmation_counts_only_as_the_answer_to_a_confirmation_question(spec):
    chat = Chat(spec)
    chat.say("course = Course(course_name='CS 1', grade_type='Letter', course_num_units=3)\n"
             "courses_to_take = CoursesToTake(course_0_details=course, more_courses_1=False, confirm=False)\n"
             "main.courses_to_take = courses_to_take")
    assert "confirm" not in chat.values("courses_to_take")  # nothing was shown to the user yet
    assert chat.question() == ("CoursesToTake", "confirm")
    chat.say("courses_to_take.confirm = True")
    assert chat.values("courses_to_take")["confirm"] is True
    assert chat.question() == ("StudentInfo", "student_name")
    chat.say("main.confirm_submission = True")  # volunteered before the summary: not a confirmation
    assert "confirm_submission" not in chat.values("main_0")


def test_changing_a_course_takes_back_the_confirmation_of_the_list(spec):
    chat = Chat(spec)
    chat.say("courses_to_take = CoursesToTake(course_0_details=Course(course_name='CS 1', grade_type='Letter', "
             "course_num_units=3), more_courses_1=False)\nmain.courses_to_take = courses_to_take")
    chat.say("courses_to_take.confirm = True")
    chat.say("courses_to_take.course_0_details.course_num_units = 4")
    assert "confirm" not in chat.values("courses_to_take")
    assert chat.question() == ("CoursesToTake", "confirm")


def test_main_after_submission_is_the_submitted_instance(spec):
    chat = Chat(spec)
    chat.say("main.courses_to_take = CoursesToTake(course_0_details=Course(course_name='CS 1', grade_type='Letter', "
             "course_num_units=3), more_courses_1=False)")
    chat.say("main.courses_to_take.confirm = True")
    chat.say("main.student_info_details = StudentInfo(student_name='Ann', student_id='1')")
    assert chat.say("main.confirm_submission = True")[0].startswith("Report(main_0, {'success': True})")
    assert chat.say("main.confirm_submission = True") == []  # a second yes: nothing to do, no error
    assert chat.state.instances["main_0"].status == InstanceStatus.COMPLETED


def test_reference_answers_ignore_tables_genie_bot_does_not_know(spec):
    chat = Chat(spec, RecordedKnowledge([]))
    chat.say("Answer('SELECT 1', {}, ['offerings'], 'When is CS 1 offered?')")
    assert chat.state.answer.table is None
    assert isinstance(chat.result.acts[0], Report)


def test_a_name_whose_instance_was_dropped_names_the_new_instance(spec):
    chat = Chat(spec)  # genie-bot's own questions open nested instances (first_field): course_0, then course_1
    chat.say("courses_to_take = CoursesToTake()\nmain.courses_to_take = courses_to_take")
    assert chat.state.instances["course_1"].parent == ("courses_to_take", "course_0_details")
    chat.say("course = Course(course_name='CS 1', grade_type='Letter', course_num_units=3)\n"
             "courses_to_take.course_0_details = course\ncourses_to_take.more_courses_1 = True")
    assert chat.state.instances["course_1"].status == InstanceStatus.DROPPED
    chat.say("course_1 = Course(course_name='CS 2')\ncourses_to_take.course_1_details = course_1")
    assert chat.values("main_0.courses_to_take.course_1_details") == {"course_name": "CS 2"}
    assert chat.state.named("course_1").status == InstanceStatus.ACTIVE
