"""Replaying reference Genie conversation logs through an agent and comparing, turn by turn.

The logs here are written for the tests in the reference's ``conversation.json`` layout; real
logs are never committed.
"""

from __future__ import annotations

import datetime as dt
import json
from pathlib import Path

import pytest

from genie_bot.genie_compat.compare import compare_log, log_files, totals
from genie_bot.genie_compat.log import read_log
from genie_bot.genie_compat.text import GenieObject, Name, parse_context, parse_value, split_top_level
from genie_bot.spec import load_agent
from tests.core.agents import GENIE_COURSE_AGENT, GENIE_COURSE_API, GENIE_POLICY

NOW = dt.datetime(2026, 11, 21, 12)
SESSIONS = Path(__file__).parent / "data" / "genie_sessions"
"""Synthetic development sessions of the LLM parses the runtime must survive (issue 27), in the
reference's log layout, written for the reference's course agent (its four course slots)."""
FOUR_COURSES_AGENT = """
name: genie_four_courses
start: Main
policy: {nested_worksheet_question: parent_field, start_task: when_nothing_asked}
tasks:
  - name: Main
    fields:
      - {name: courses_to_take, type: CoursesToTake}
      - {name: student_info_details, type: StudentInfo}
      - {name: confirm_submission, type: confirm}
    api: {function: courses_to_take_oval, side_effects: true}
  - name: StudentInfo
    fields:
      - {name: student_name, type: str}
      - {name: student_id, type: str}
      - {name: student_email_address, type: str}
      - {name: is_international_student, type: bool}
  - name: CoursesToTake
    fields:
      - {name: course_0_details, type: Course}
      - {name: course_1_details, type: Course}
      - {name: more_courses_2, type: bool}
      - {name: course_2_details, type: Course, predicate: "not self.more_courses_2 == False", required: false}
      - {name: more_courses_3, type: bool, predicate: "not self.more_courses_2 == False", required: false}
      - {name: course_3_details, type: Course, required: false,
         predicate: "not self.more_courses_2 == False and not self.more_courses_3 == False"}
      - {name: confirm, type: confirm, required: false}
  - name: Course
    fields:
      - {name: course_name, type: str}
      - {name: grade_type, type: enum, values: [Credit/No Credit, Letter]}
      - {name: course_num_units, type: int}
"""
ASK_COURSES = "AskField(main, courses_to_take, The courses that the student wants to take)"
TYPED_MAIN = ("main = Main(courses_to_take = CoursesToTake(course_0_details: Course = Course(course_name: str = "
              "'{name}', grade_type: Enum['Credit/No Credit', 'Letter'] = 'Letter', course_num_units: int = 3), "
              "more_courses_1: bool = False, course_1_details: Course = 'None', confirm: bool = True), "
              "student_info_details = StudentInfo(student_name: str = 'Ann', student_id: str = '123'), "
              "confirm_submission = True)")


def turn(user: str, target: str, acts: list[str], context: str = "", state: str = "") -> dict:
    return {"user": user, "bot": "", "turn_context": context, "global_context": state or context,
            "system_action": acts, "user_target_sp": target, "user_target": target, "user_target_suql": ""}


def enrollment_log(course: str = "CS 1", first_question: str = ASK_COURSES) -> list[dict]:
    courses = "course = Course(course_name = 'CS 1', grade_type = 'Letter', course_num_units = 3)\n" \
              "courses_to_take = CoursesToTake(course_0_details = course)\nmain = Main(courses_to_take = courses_to_take)\n"
    return [
        turn("what ML courses are there?",
             """answer = Answer("SELECT title FROM courses WHERE title LIKE '%learning%';", {}, ['courses'], """
             """'Which ML courses are there?')""",
             ["Report(answer, answer.result)", first_question],
             "answer = answer('Which ML courses are there?')\nanswer.result = [{'title': 'Machine Learning'}]\n"
             "main = Main()\n"),
        turn("and the fun ones?", "answer = Answer('', {}, [], 'Which courses are fun?')", [ASK_COURSES],
             "answer = answer('Which courses are fun?')\nanswer.result = None\n"),
        turn("CS 1, letter, 3 units",
             "course = Course(course_name='CS 1', grade_type='Letter', course_num_units=3)\ncourse_0 = course\n"
             "courses_to_take = CoursesToTake(course_0_details=course_0, course_1_details=None, confirm=False)\n"
             "main.courses_to_take = courses_to_take",
             ["AskField(courses_to_take, more_courses_1, Does the user want to take more courses)"], courses),
        turn("no", "courses_to_take.more_courses_1 = False",
             ["AskField(courses_to_take, confirm, Confirm all the course details)"], "", courses),
        turn("yes", "courses_to_take.confirm = True",
             ["AskField(main, student_info_details, The details about the student)"], "", courses),
        turn("Ann, 123", "student_info = StudentInfo(student_name='Ann', student_id='123')\n"
                         "student_info = student_info\nmain.student_info_details = student_info",
             ["AskField(main, confirm_submission, Ask the student to confirm the submission)"], "", courses),
        turn("yes", "main.confirm_submission = True",
             ["Report(courses_to_take_oval(courses_to_take= self.courses_to_take, student_info_details= "
              "self.student_info_details, confirm_submission= self.confirm_submission), main.result)"],
             TYPED_MAIN.format(name=course) + "\nmain.result = {'success': True, 'transaction_id': UUID('0f0e')}\n"),
    ]


@pytest.fixture
def spec(make_agent):
    return load_agent(make_agent(GENIE_COURSE_AGENT.format(policy=GENIE_POLICY), GENIE_COURSE_API))


def write_log(directory: Path, turns: list[dict]) -> Path:
    directory.mkdir(parents=True)
    path = directory / "conversation.json"
    path.write_text(json.dumps(turns), encoding="utf-8")
    return path


def test_a_log_the_agent_follows_agrees_on_every_turn_and_the_api_call(spec, tmp_path):
    session = compare_log(spec, write_log(tmp_path / "a1", enrollment_log()), lambda: NOW)
    assert [(str(t.reference), t.same_question) for t in session.turns] == [
        ("ask Main.courses_to_take", True),
        ("ask Main.courses_to_take", True),  # the failed query of turn 1 left the task where it was
        ("ask CoursesToTake.more_courses_1", True),
        ("confirm CoursesToTake.confirm", True),
        ("ask Main.student_info_details", True),
        ("confirm Main.confirm_submission", True),  # genie-bot's AskForConfirmation(main)
        ("None", True),
    ]
    assert [t.errors for t in session.turns] == [[]] * 7
    assert [(t.reference_answered, t.ours_answered) for t in session.turns[:2]] == [(True, True), (False, False)]
    assert [t.reference_api for t in session.turns] == [False] * 6 + [True]
    assert all(t.same_reports for t in session.turns)
    assert session.same_call and session.reference_call["function"] == "courses_to_take_oval"
    assert session.reference_call["arguments"]["courses_to_take"]["course_0_details"] == \
        {"course_name": "CS 1", "grade_type": "Letter", "course_num_units": 3}


def test_differences_are_found_per_turn_and_in_the_call(spec, tmp_path):
    log = enrollment_log(course="CS 2", first_question="AskField(main, student_info_details, The details)")
    session = compare_log(spec, write_log(tmp_path / "a2", log), lambda: NOW)
    first = session.turns[0]
    assert (first.same_question, str(first.reference), str(first.ours)) == \
        (False, "ask Main.student_info_details", "ask Main.courses_to_take")
    assert session.call_differences == ["courses_to_take.course_0_details.course_name: 'CS 2' != 'CS 1'"]
    assert not session.same_call
    assert compare_log(spec, write_log(tmp_path / "a3", log), lambda: NOW, match_fields={"grade_type"}).same_call


def test_a_list_the_reference_made_of_a_rebound_argument_is_compared_with_its_closest_item(spec, tmp_path):
    """The reference's context turns a rebound name into a list of both instances, and its API gets
    the list: genie-bot's one value is the same call when it equals one of the items."""
    log = enrollment_log()
    listed = "main = Main(courses_to_take = [CoursesToTake(course_0_details = Course(course_name = 'CS 9')), " \
             "CoursesToTake(course_0_details = Course(course_name = '{name}', grade_type = 'Letter', " \
             "course_num_units = 3), more_courses_1 = False)], " \
             "student_info_details = StudentInfo(student_name = 'Ann', student_id = '123'), " \
             "confirm_submission = True)" \
             "\nmain.result = {{'success': True}}\n"
    log[-1]["turn_context"] = log[-1]["global_context"] = listed.format(name="CS 1")
    assert compare_log(spec, write_log(tmp_path / "a7", log), lambda: NOW).same_call
    log[-1]["turn_context"] = log[-1]["global_context"] = listed.format(name="CS 2")
    session = compare_log(spec, write_log(tmp_path / "a8", log), lambda: NOW)
    assert session.call_differences == ["courses_to_take.course_0_details.course_name: 'CS 2' != 'CS 1'"]


def test_the_synthetic_development_sessions_agree_on_every_turn_and_call(make_agent):
    spec = load_agent(make_agent(FOUR_COURSES_AGENT, GENIE_COURSE_API))
    sessions = {Path(path).parent.name: compare_log(spec, path, lambda: NOW) for path in log_files([SESSIONS])}
    assert len(sessions) == 11
    summary = totals(sessions.values())
    assert (summary.refused_statements, summary.same_question, summary.same_reports) == (0, 75, 75)
    assert (summary.reference_calls, summary.same_call_where_reference_called) == (11, 11)
    courses = {name: [(c["course_name"], c.get("course_num_units"))
                      for slot, c in s.our_call["arguments"]["courses_to_take"].items() if slot.endswith("_details")]
               for name, s in sessions.items()}
    assert [name for name, _ in courses["replaced-course-old-name"]] == ["CS 106B", "CS 161"]
    assert [name for name, _ in courses["finished-name-and-next-number"]] == ["CS 106A", "CS 103", "CS 161", "CS 109"]
    # issue 39: item targets, old names of a replaced list's courses (and a helper reading one), changes after the
    # submission sent again once confirmed, a first search that found nothing followed by no question
    assert courses["list-item-targets"] == [("CS 106A", 5), ("CS 103", 5)]
    assert courses["replaced-list-old-names"] == [("CS 106B", 4), ("CS 161", 3)]
    assert courses["correction-after-submission"] == [("CS 106A", 5), ("CS 103", 4)]
    assert courses["next-request-after-submission"] == [("CS 106A", 5), ("CS 103", 3), ("CS 161", 3)]
    assert [t.ours for t in sessions["first-turn-search-found-nothing"].turns[:1]] == [None]
    # "am i enrolled now?": the second enrollment (main_0, made from the first, main) is said again
    assert sessions["correction-after-submission"].turns[-1].acts[-1] == "Submitted(main_0)"


def test_nested_questions_count_as_the_parents_question_up_to_nesting(make_agent, tmp_path):
    spec = load_agent(make_agent(GENIE_COURSE_AGENT.format(policy="policy: {start_task: when_nothing_asked}"),
                                 GENIE_COURSE_API))
    session = compare_log(spec, write_log(tmp_path / "a4", enrollment_log()), lambda: NOW)
    first = session.turns[0]
    assert (str(first.ours), first.same_question, first.same_up_to_nesting) == \
        ("ask Course.course_name", False, True)


def test_refused_statements_are_counted(spec, tmp_path):
    log = enrollment_log()
    log[3]["user_target"] = "courses_to_take.more_courses_1 = False\nbogus.field = 1"
    summary = totals([compare_log(spec, write_log(tmp_path / "a5", log), lambda: NOW)])
    assert (summary.refused_statements, summary.turns_with_refusals, summary.same_question) == (1, 1, 7)


def test_compare_genie_command_reports_per_turn_and_in_total(genie, make_agent, tmp_path):
    agent = make_agent(GENIE_COURSE_AGENT.format(policy=GENIE_POLICY), GENIE_COURSE_API)
    write_log(tmp_path / "logs" / "a1", enrollment_log())
    write_log(tmp_path / "logs" / "a2", enrollment_log(course="CS 2"))
    result = genie("compare-genie", str(agent), str(tmp_path / "logs"), "--today", "2026-11-21")
    assert result.returncode == 0, result.stderr
    assert "  #1   same  reference: ask Main.courses_to_take" in result.stdout
    assert "  final API call: DIFF (reference called, genie-bot called) " \
           "courses_to_take.course_0_details.course_name: 'CS 2' != 'CS 1'" in result.stdout
    assert "same final API call where the reference called its API: 1/2 (50.0%)" in result.stdout
    as_json = json.loads(genie("compare-genie", str(agent), str(tmp_path / "logs" / "a1" / "conversation.json"),
                               "--json").stdout)
    assert as_json["totals"]["same_question"] == 7 and as_json["totals"]["turns"] == 7
    assert as_json["sessions"][0]["turns"][5]["ours"] == "confirm Main.confirm_submission"


def test_a_file_that_is_no_conversation_log_is_refused(genie, make_agent, tmp_path):
    agent = make_agent(GENIE_COURSE_AGENT.format(policy=GENIE_POLICY), GENIE_COURSE_API)
    (tmp_path / "x.json").write_text('{"user": "hi"}', encoding="utf-8")
    result = genie("compare-genie", str(agent), str(tmp_path / "x.json"))
    assert result.returncode == 1 and "expected a list of turns" in result.stderr


# -- reading the reference's renderings ------------------------------------------------------------
def test_typed_reprs_and_library_values_are_read_as_data():
    value = parse_value("Course(course_name: str = 'CS 1', grade_type: Enum['Credit/No Credit', 'Letter'] = 'None', "
                        "course_num_units: int = 0)")
    assert value == GenieObject("Course", {"course_name": "CS 1", "grade_type": None, "course_num_units": 0})
    assert parse_value("{'success': True, 'transaction_id': UUID('0f0e')}") == {"success": True, "transaction_id": "0f0e"}
    assert parse_context("courses = CoursesToTake(course_0_details = course)\nx.result = None\n") == \
        {"courses": GenieObject("CoursesToTake", {"course_0_details": Name("course")}), "x.result": None}


def test_acts_keep_descriptions_with_commas_and_name_the_api_of_a_report(tmp_path):
    log = enrollment_log()
    log[0]["system_action"] = ["AskField(main, student_info_details, The details, such as name, id)"]
    path = write_log(tmp_path / "a6", log)
    first, *_, last = read_log(path)
    assert (first.question.instance, first.question.field) == ("main", "student_info_details")
    assert [(c.function, c.instance, c.result) for c in last.api_calls] == \
        [("courses_to_take_oval", "main", {"success": True, "transaction_id": "0f0e"})]
    assert split_top_level("a, f(b, c), 'd, e', g", limit=2) == ["a", "f(b, c)", "'d, e', g"]
