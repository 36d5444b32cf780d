"""Dialogues at a chosen point, for tests of what the rule-based parser reads in a message.

A state is built by running formal statements through the real runtime (not through the
parser under test), so each test reads one message against exactly the state it names:
the agent's last question, the values given so far, the tasks open.
"""

from __future__ import annotations

import datetime as dt
from functools import lru_cache
from typing import Any

from genie_bot.acts import formal_value
from genie_bot.agent.components import knowledge_store
from genie_bot.knowledge import KeywordQuery, KnowledgeStore
from genie_bot.parse import Parse
from genie_bot.parsers import RuleParser
from genie_bot.runtime import LocalApiExecutor, Runtime, TurnResult
from genie_bot.spec import AgentSpec, load_agent
from genie_bot.state import DialogueState
from tests.conftest import WORKSHEETS

TODAY = dt.date(2026, 11, 21)
"""A Saturday."""

TICKET, COURSES, RESTAURANT = "ticket_submission", "course_enrollment", "restaurant_reservation"


@lru_cache(maxsize=None)
def loaded(name: str) -> tuple[AgentSpec, KnowledgeStore | None]:
    """An example agent's spec and its knowledge tables (read-only, shared by the tests)."""
    spec = load_agent(WORKSHEETS / name)
    return spec, knowledge_store(spec)


def record(name: str, table: str = "restaurants") -> dict[str, Any]:
    """The row of ``table`` whose name (or course id) is ``name``."""
    spec, store = loaded(RESTAURANT if table == "restaurants" else COURSES)
    key = "name" if table == "restaurants" else "course_id"
    rows = store.rows(table, where={key: name})
    assert len(rows) == 1, f"{name!r} names {len(rows)} rows of {table}"
    return rows[0]


class Dialogue:
    """One conversation with an example agent: statements move it on, messages are read against it."""

    def __init__(self, agent: str, today: dt.date = TODAY):
        self.spec, self.store = loaded(agent)
        self.today = today
        knowledge = KeywordQuery(self.store) if self.store is not None else None
        self.runtime = Runtime(self.spec, LocalApiExecutor(self.spec, knowledge=knowledge),
                               clock=lambda: dt.datetime.combine(today, dt.time(12)))
        self.state: DialogueState = self.runtime.new_state()
        self.result: TurnResult | None = None

    def do(self, *statements: str) -> "Dialogue":
        """Run each statement as a turn of its own; fails on an interpreter error."""
        for statement in statements:
            self.result = self.runtime.run_turn(self.state, statement)
            assert not self.result.errors, self.result.errors
            self.state = self.result.state
        return self

    def set(self, target: str, value: Any) -> "Dialogue":
        """``target = value`` with ``value`` written as the parser would write it (a record, a date)."""
        return self.do(f"{target} = {formal_value(value)}")

    @property
    def asked(self) -> str:
        """The last question, formally: ``AskField(instance, field, ...)``."""
        question = next(a for a in reversed(self.state.last_acts) if a.is_question)
        return question.formal()

    def parse(self, text: str, today: dt.date | None = None) -> Parse:
        return RuleParser(self.store).parse(self.spec, self.state, text, today or self.today)

    def said(self, text: str, today: dt.date | None = None) -> list[str]:
        """The statements ``text`` gives here, one a line (comments included)."""
        return lines(self.parse(text, today).statements)

    def reply(self, text: str) -> TurnResult:
        """Parse ``text`` and run the turn; the dialogue moves on."""
        self.result = self.runtime.run_turn(self.state, self.parse(text).statements)
        self.state = self.result.state
        return self.result

    def values(self, instance: str) -> dict[str, Any]:
        return self.state.instances[instance].values

    def value(self, path: str) -> Any:
        """``instance.field``'s value, following nested worksheets (``main_0.leave_of_absence_details``)."""
        instance, field = path.split(".")
        return self.state.resolve(self.state.instances[instance].values.get(field))


def lines(statements: list[str] | str) -> list[str]:
    if isinstance(statements, str):
        return [s for s in statements.splitlines() if s.strip()]
    return list(statements)


# Points of the example conversations, as the statements that lead there (each comment: what is asked next).

LEAVE = ("main_0.student_task = 'Leave of Absence'",)  # leave_of_absence_0.form_status
LEAVE_SUBMITTED = LEAVE + ("leave_of_absence_0.form_status = 'Submitted'",)  # submission_method
LEAVE_DATE = LEAVE_SUBMITTED + ("leave_of_absence_0.submission_method = 'Email'",)  # submission_date (max: today)
LEAVE_QUARTER = LEAVE_DATE + ("leave_of_absence_0.submission_date = '2026-11-03'",)  # start_quarter
LEAVE_ANYTHING_ELSE = LEAVE_QUARTER + ("leave_of_absence_0.start_quarter = 'Winter'",)  # main_0.extra_details
LEAVE_NAME = LEAVE_ANYTHING_ELSE + ("main_0.extra_details = NA",)  # main_0.full_name
LEAVE_EMAIL = LEAVE_NAME + ("main_0.full_name = 'Jane Doe'",)  # main_0.email
LEAVE_SUMMARY = LEAVE_EMAIL + ("main_0.email = 'jane@stanford.edu'",)  # AskForConfirmation(main_0)
TROUBLE = ("main_0.student_task = 'TroubleShoot'",)  # trouble_shoot_0.issue_type
WAITLIST = TROUBLE + ("trouble_shoot_0.issue_type = 'Join Waitlist'",)  # join_waitlist_0.course_name
WAITLIST_QUARTER = WAITLIST + ("join_waitlist_0.course_name = 'CS 107'",)  # join_waitlist_0.quarter
CHANGE = TROUBLE + ("trouble_shoot_0.issue_type = 'Change Course'",)  # change_course_0.current_course
CHANGE_REASON = CHANGE + ("change_course_0.current_course = 'CS 106A'",
                          "change_course_0.new_course = 'CS 106B'")  # change_course_0.reason (optional)
EXTERNAL = ("main_0.student_task = 'External Test Credits'",)  # external_test_credits_0.test_type
EXTERNAL_DATE = EXTERNAL + ("external_test_credits_0.test_type = 'AP'",
                            "external_test_credits_0.issue = 'Missing Credits'")  # submission_time (max: today)

TWO_COURSES = ("main_0.courses_to_take = CoursesToTake("
               "course_0_details=Course(course_name='CS 224V', grade_type='Letter', course_num_units=3), "
               "course_1_details=Course(course_name='CS 229', grade_type='Letter', course_num_units=4))",)
# courses_to_take_0.more_courses_2 (yes/no)
COURSE_LIST = TWO_COURSES + ("courses_to_take_0.more_courses_2 = False",)  # courses_to_take_0.confirm
STUDENT = COURSE_LIST + ("courses_to_take_0.confirm = True",)  # student_info_0.student_name
STUDENT_EMAIL = STUDENT + ("student_info_0.student_name = 'Jane Doe'",
                           "student_info_0.student_id = '06123456'")  # student_info_0.student_email_address
ENROLL_SUMMARY = STUDENT + ("main_0.student_info_details = StudentInfo(student_name='Jane Doe', student_id='06123456', "
                            "student_email_address='jane@stanford.edu', is_international_student=False)",)
# AskForConfirmation(main_0)

UNITS = ("main_0.courses_to_take = CoursesToTake("
         "course_0_details=Course(course_name='CS 107', grade_type='Letter'))",)  # course_0.course_num_units
BOOK = ("book_restaurant_0 = BookRestaurant()",)  # book_restaurant_0.restaurant


def booking(*statements: str, restaurant: str | None = "Enoteca Vigna", today: dt.date = TODAY) -> Dialogue:
    """A booking with ``restaurant`` chosen (open 17:00-23:00), then ``statements``; asks the date next."""
    dialogue = Dialogue(RESTAURANT, today).do(*BOOK)
    if restaurant:
        dialogue.set("book_restaurant_0.restaurant", record(restaurant))
    return dialogue.do(*statements)


BOOKING_TIME = ("book_restaurant_0.date = '2026-11-27'",)  # book_restaurant_0.time
BOOKING_PEOPLE = BOOKING_TIME + ("book_restaurant_0.time = '19:30'",)  # book_restaurant_0.num_people
BOOKING_SUMMARY = BOOKING_PEOPLE + ("book_restaurant_0.num_people = 4",)  # AskForConfirmation(book_restaurant_0)

TRIP = "star/trip_directions"
DIRECTIONS = ("conversation_0 = Conversation(trip=Trip(arrival_location='the park', travel_mode='Walking'))",)
# directions_0.reply: go on, more detail, found it, no thanks (the member "proceed" answers a remark)
TRIP_MODE = ("conversation_0 = Conversation(trip=Trip(arrival_location='the park'))",)  # trip_0.travel_mode
