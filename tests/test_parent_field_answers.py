"""Asked for a field that holds a worksheet (the reference Genie's way), a reply answers its first question."""

from __future__ import annotations

import datetime as dt

from genie_bot.agent import Agent
from genie_bot.spec import load_agent

AGENT = """
name: enroll
start: Main
policy: {nested_worksheet_question: parent_field}
vocabulary: {users: [student]}
tasks:
  - name: Main
    fields:
      - {name: courses, type: CoursesToTake, description: The courses that the student wants to take}
      - {name: student_name, type: str, description: the student's full name}
  - name: CoursesToTake
    fields:
      - {name: first_course, type: Course, description: the first course}
      - {name: second_course, type: Course, description: the second course}
  - name: Course
    fields:
      - {name: course_name, type: str, description: Name of the course that the student wants to take}
      - name: grade
        type: enum
        description: the grading option
        values: [Letter, Credit/No Credit]
"""


def test_the_reply_to_a_parent_field_question_fills_the_first_nested_question(make_agent):
    spec = load_agent(make_agent(AGENT))
    agent = Agent(spec, clock=lambda: dt.datetime(2026, 11, 21, 12))
    state = agent.new_state()
    assert [a.formal() for a in state.last_acts] == [
        'AskField(main_0, courses, "The courses that the student wants to take")']
    assert agent.greeting(state).endswith("What are the courses that you want to take?")  # not "The courses"
    reply = agent.respond(state, "CS 224V for a letter grade")
    assert reply.parse.statements == ("main_0.courses = CoursesToTake(first_course=Course(course_name='CS 224V', "
                                      "grade='Letter'))")
    assert [a.formal() for a in reply.acts][0].startswith("AskField(")
    assert reply.state.instances["course_0"].values == {"course_name": "CS 224V", "grade": "Letter"}
