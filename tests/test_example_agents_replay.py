"""Replays of whole conversations with the course enrollment and restaurant reservation agents.

Each test loads an example agent from ``worksheets/``, then feeds the runtime the statements
a parser (an LLM) would write for each user message, turn by turn, with a fixed clock, and
checks the agent acts of every turn by their formal strings. Side effects go to a submissions
ledger in ``tmp_path`` (``GENIE_DATA_DIR``), so the tests can check that a side-effecting API
runs only after the user's confirmation, and exactly once.
"""

from __future__ import annotations

import csv
import datetime as dt
from pathlib import Path

import pytest

from genie_bot.acts import AskField, AskForConfirmation, Report, Say
from genie_bot.runtime import LocalApiExecutor, RecordedKnowledge, Runtime
from genie_bot.runtime.after_submission import FOLLOW_UP_TEXT
from genie_bot.runtime.policy import DECLINED_TEXT
from genie_bot.spec import AgentSpec, check_agent, load_agent
from genie_bot.submissions import submissions

REPO_ROOT = Path(__file__).resolve().parents[1]
COURSE_AGENT = REPO_ROOT / "worksheets" / "course_enrollment"
RESTAURANT_AGENT = REPO_ROOT / "worksheets" / "restaurant_reservation"

NOW = dt.datetime(2026, 11, 23, 10, 0)  # a Monday; "next Friday" is 2026-11-27
FIXED_CLOCK = lambda: NOW  # noqa: E731


# -- helpers ------------------------------------------------------------------------------------------
@pytest.fixture(autouse=True)
def ledger(tmp_path, monkeypatch) -> Path:
    """Every test writes its submissions to its own ledger."""
    monkeypatch.setenv("GENIE_DATA_DIR", str(tmp_path / "var"))
    return tmp_path / "var" / "submissions.sqlite3"


@pytest.fixture(scope="module")
def course_spec() -> AgentSpec:
    return load_agent(COURSE_AGENT)


@pytest.fixture(scope="module")
def restaurant_spec() -> AgentSpec:
    return load_agent(RESTAURANT_AGENT)


@pytest.fixture(scope="module")
def restaurant_rows() -> list[dict[str, str]]:
    with (RESTAURANT_AGENT / "data" / "restaurants.csv").open(newline="", encoding="utf-8") as fh:
        return list(csv.DictReader(fh))


def restaurant(rows: list[dict[str, str]], name: str) -> dict[str, str]:
    (row,) = [r for r in rows if r["name"] == name]
    return row


class Conversation:
    """A dialogue driven by parser statements; ``turn`` returns the formal strings of the acts."""

    def __init__(self, spec: AgentSpec, knowledge: list[dict] | None = None):
        self.spec = spec
        self.executor = LocalApiExecutor(spec, knowledge=RecordedKnowledge(knowledge) if knowledge is not None else None)
        self.runtime = Runtime(spec, executor=self.executor, clock=FIXED_CLOCK)
        self.state = self.runtime.new_state()
        self.result = None

    def turn(self, statements: str = "", errors_ok: bool = False) -> list[str]:
        self.result = self.runtime.run_turn(self.state, statements)
        self.state = self.result.state
        if not errors_ok:
            assert not self.result.errors, self.result.errors
        return [act.formal() for act in self.result.acts]

    @property
    def acts(self) -> list:
        return self.result.acts

    def values(self, instance: str) -> dict:
        return self.state.instances[instance].values

    def ask(self, instance: str, field: str, reason: str | None = None) -> str:
        """The formal AskField act for ``instance.field`` (its description comes from the spec)."""
        ws = self.spec.tasks[self.state.instances[instance].worksheet]
        description = ws.fields[field].description
        return str(AskField(instance, field, description, reason))

    def api_calls(self, function: str) -> int:
        return sum(1 for call in self.executor.calls if call.function == function)


def validation_message(spec: AgentSpec, worksheet: str, field: str) -> str:
    message = spec.tasks[worksheet].fields[field].validation.message
    assert message
    return message


# -- course enrollment: the spec ------------------------------------------------------------------------
def test_course_enrollment_validates(course_spec):
    spec, errors = check_agent(COURSE_AGENT)
    assert errors == []
    assert spec.summary().startswith("course_enrollment: 4 task worksheets, 3 knowledge worksheets")
    assert course_spec.start == "Main"


def test_course_enrollment_uses_the_original_genie_names(course_spec):
    def fields(ws: str) -> dict[str, str]:
        return {f.name: str(f.type) for f in course_spec.tasks[ws].input_fields()}

    assert fields("Main") == {"courses_to_take": "CoursesToTake", "student_info_details": "StudentInfo",
                              "confirm_submission": "confirm"}
    assert fields("StudentInfo") == {"student_name": "str", "student_id": "str", "student_email_address": "str",
                                     "is_international_student": "bool"}
    assert fields("CoursesToTake") == {
        "course_0_details": "Course", "course_1_details": "Course", "more_courses_2": "bool",
        "course_2_details": "Course", "more_courses_3": "bool", "course_3_details": "Course", "confirm": "confirm"}
    assert fields("Course") == {"course_name": "str", "grade_type": "enum", "course_num_units": "int"}
    assert course_spec.tasks["Course"].fields["grade_type"].values == ("Credit/No Credit", "Letter")

    ctt = course_spec.tasks["CoursesToTake"].fields
    assert ctt["course_2_details"].predicate.source == "not self.more_courses_2 == False"
    assert ctt["more_courses_3"].predicate.source == "not self.more_courses_2 == False"
    assert "more_courses_2" in ctt["course_3_details"].predicate.source
    assert "more_courses_3" in ctt["course_3_details"].predicate.source

    main = course_spec.tasks["Main"]
    assert main.api.function == "submit_enrollment" and main.api.side_effects and main.needs_confirmation
    assert main.examples
    assert not course_spec.tasks["CoursesToTake"].needs_confirmation  # its `confirm` is a plain check
    assert course_spec.apis["submit_enrollment"].side_effects


def test_course_knowledge_worksheets_describe_every_column(course_spec):
    expected = {
        "courses": ("courses.csv", ["course_id", "title", "description", "min_units", "max_units", "grading",
                                    "prerequisites", "level"]),
        "offerings": ("offerings.csv", ["course_id", "quarter", "days", "start_time", "end_time", "instructor",
                                        "location", "capacity", "enrolled"]),
        "ratings": ("ratings.csv", ["course_id", "quarter_taken", "rating", "workload_hours", "review"]),
    }
    assert set(course_spec.knowledge) == set(expected)
    for name, (csv_name, columns) in expected.items():
        kb = course_spec.knowledge[name]
        assert kb.description and kb.csv.name == csv_name
        assert list(kb.columns) == columns
        assert all(c.description for c in kb.columns.values()), name
    assert course_spec.knowledge["courses"].primary_key == "course_id"
    assert course_spec.knowledge["ratings"].columns["review"].free_text
    assert course_spec.knowledge["courses"].columns["description"].free_text


# -- course enrollment: conversations -------------------------------------------------------------------
def test_full_enrollment_conversation(course_spec):
    c = Conversation(course_spec)
    assert c.turn() == [c.ask("course_0", "course_name")]

    assert c.turn("main_0.courses_to_take.course_0_details = "
                  "Course(course_name='CS 224V', grade_type='Letter', course_num_units=3)") == \
        [c.ask("course_1", "course_name")]
    assert c.state.instances["course_0"].status == "completed"

    # a bad number of units is refused and asked again, with the validation message
    units_message = validation_message(course_spec, "Course", "course_num_units")
    assert c.turn("main_0.courses_to_take.course_1_details = "
                  "Course(course_name='CS 229', grade_type='Letter', course_num_units=9)") == \
        [c.ask("course_1", "course_num_units", reason=units_message)]
    assert "course_num_units" not in c.values("course_1")
    assert c.values("course_1") == {"course_name": "CS 229", "grade_type": "Letter"}

    assert c.turn("main_0.courses_to_take.course_1_details.course_num_units = 4") == \
        [c.ask("courses_to_take_0", "more_courses_2")]
    assert c.turn("main_0.courses_to_take.more_courses_2 = True") == [c.ask("course_2", "course_name")]
    assert c.turn("main_0.courses_to_take.course_2_details = Course(course_name='CS 103')") == \
        [c.ask("course_2", "grade_type")]
    assert c.turn("main_0.courses_to_take.course_2_details.grade_type = 'credit/no credit'\n"
                  "main_0.courses_to_take.course_2_details.course_num_units = '3'") == \
        [c.ask("courses_to_take_0", "more_courses_3")]
    assert c.values("course_2") == {"course_name": "CS 103", "grade_type": "Credit/No Credit", "course_num_units": 3}

    assert c.turn("main_0.courses_to_take.more_courses_3 = False") == [c.ask("courses_to_take_0", "confirm")]
    assert c.turn("main_0.courses_to_take.confirm = True") == [c.ask("student_info_0", "student_name")]
    assert c.state.instances["courses_to_take_0"].status == "completed"

    id_message = validation_message(course_spec, "StudentInfo", "student_id")
    assert c.turn("main_0.student_info_details = StudentInfo(student_name='Jane Doe', student_id='1234', "
                  "student_email_address='jdoe@stanford.edu')") == \
        [c.ask("student_info_0", "student_id", reason=id_message)]
    assert c.turn("main_0.student_info_details.student_id = '06123456'") == \
        [c.ask("student_info_0", "is_international_student")]

    # everything is filled: the side-effecting API waits for the confirmation
    acts = c.turn("main_0.student_info_details.is_international_student = False")
    assert acts == ["AskForConfirmation(main_0)"]
    (confirmation,) = c.acts
    assert isinstance(confirmation, AskForConfirmation) and confirmation.api == "submit_enrollment"
    assert confirmation.values["courses_to_take"]["course_1_details"] == \
        {"course_name": "CS 229", "grade_type": "Letter", "course_num_units": 4}
    assert confirmation.values["student_info_details"]["student_id"] == "06123456"
    assert submissions() == [] and c.api_calls("submit_enrollment") == 0

    # the confirmation runs it, once
    acts = c.turn("main_0.confirmed = True")
    assert [type(a) for a in c.acts] == [Report, Say]
    assert acts[0].startswith("Report(main_0, {'enrollment_id': 'ENR-00001'")
    assert acts[1] == ("Say(\"You're enrolled! Your enrollment id is ENR-00001; a confirmation will be sent to "
                       "jdoe@stanford.edu.\")")
    result = c.acts[0].result
    assert [(x["course_id"], x["grade_type"], x["course_num_units"]) for x in result["courses"]] == \
        [("CS224V", "Letter", 3), ("CS229", "Letter", 4), ("CS103", "Credit/No Credit", 3)]
    assert result["total_units"] == 10
    assert c.values("main_0")["enrollment_id"] == "ENR-00001"
    assert c.state.instances["main_0"].status == "completed"

    (row,) = submissions("enrollment")
    assert row["id"] == "ENR-00001"
    assert row["payload"]["student_id"] == "06123456"
    assert row["payload"]["student_email_address"] == "jdoe@stanford.edu"
    assert row["payload"]["is_international_student"] is False
    assert [x["course_name"] for x in row["payload"]["courses"]] == ["CS 224V", "CS 229", "CS 103"]

    # later turns, even a repeated confirmation, do not submit again
    assert c.turn() == []
    c.turn("main_0.confirmed = True")
    assert not any(isinstance(a, Report) for a in c.acts)
    assert len(submissions()) == 1 and c.api_calls("submit_enrollment") == 1


def _two_courses(c: Conversation) -> None:
    c.turn()
    c.turn("main_0.courses_to_take.course_0_details = "
           "Course(course_name='CS 224V', grade_type='Letter', course_num_units=3)\n"
           "main_0.courses_to_take.course_1_details = "
           "Course(course_name='CS 229', grade_type='Credit/No Credit', course_num_units=4)")


def _finish(c: Conversation) -> dict:
    acts = c.turn("main_0.student_info_details = StudentInfo(student_name='Ana Li', student_id='05551234', "
                  "student_email_address='ana@stanford.edu', is_international_student=True)")
    assert acts == [str(Say("Note: international students must stay enrolled in at least 12 units each quarter.")),
                    "AskForConfirmation(main_0)"]
    assert c.turn("main_0.confirmed = True")[0].startswith("Report(main_0, ")
    (row,) = submissions("enrollment")
    return row["payload"]


def test_no_third_course_skips_courses_2_and_3(course_spec):
    c = Conversation(course_spec)
    _two_courses(c)
    assert c.turn() == [c.ask("courses_to_take_0", "more_courses_2")]
    # more_courses_2 == False: neither course_2_details, more_courses_3 nor course_3_details applies
    assert c.turn("main_0.courses_to_take.more_courses_2 = False") == [c.ask("courses_to_take_0", "confirm")]
    assert c.turn("main_0.courses_to_take.confirm = True") == [c.ask("student_info_0", "student_name")]
    assert set(c.values("courses_to_take_0")) == {"course_0_details", "course_1_details", "more_courses_2", "confirm"}
    assert [x["course_name"] for x in _finish(c)["courses"]] == ["CS 224V", "CS 229"]


def test_third_but_no_fourth_course(course_spec):
    c = Conversation(course_spec)
    _two_courses(c)
    assert c.turn("main_0.courses_to_take.more_courses_2 = True") == [c.ask("course_2", "course_name")]
    assert c.turn("main_0.courses_to_take.course_2_details = "
                  "Course(course_name='CS 161', grade_type='Letter', course_num_units=4)") == \
        [c.ask("courses_to_take_0", "more_courses_3")]
    # more_courses_3 == False: course_3_details is not asked
    assert c.turn("main_0.courses_to_take.more_courses_3 = False") == [c.ask("courses_to_take_0", "confirm")]
    c.turn("main_0.courses_to_take.confirm = True")
    payload = _finish(c)
    assert [x["course_name"] for x in payload["courses"]] == ["CS 224V", "CS 229", "CS 161"]
    assert payload["total_units"] == 11


def test_four_courses(course_spec):
    c = Conversation(course_spec)
    _two_courses(c)
    c.turn("main_0.courses_to_take.more_courses_2 = True\n"
           "main_0.courses_to_take.course_2_details = Course(course_name='CS 161', grade_type='Letter', "
           "course_num_units=4)")
    assert c.turn("main_0.courses_to_take.more_courses_3 = True") == [c.ask("course_3", "course_name")]
    assert c.turn("main_0.courses_to_take.course_3_details = "
                  "Course(course_name='CS 107', grade_type='Letter', course_num_units=5)") == \
        [c.ask("courses_to_take_0", "confirm")]
    c.turn("main_0.courses_to_take.confirm = True")
    payload = _finish(c)
    assert [x["course_id"] for x in payload["courses"]] == ["CS224V", "CS229", "CS161", "CS107"]
    assert payload["total_units"] == 16


def test_zero_units_in_a_course_is_a_placeholder_and_zero_set_alone_a_mistake(course_spec):
    c = Conversation(course_spec)
    c.turn()
    assert c.turn("main_0.courses_to_take.course_0_details = "
                  "Course(course_name='CS 224V', grade_type='Letter', course_num_units=0)") == \
        [c.ask("course_0", "course_num_units")]  # nothing to tell the user: they did not say 0
    assert c.turn("main_0.courses_to_take.course_0_details.course_num_units = 0") == \
        [c.ask("course_0", "course_num_units", reason=validation_message(course_spec, "Course", "course_num_units"))]


@pytest.mark.parametrize("units", [9, -1, "6"])
def test_units_outside_1_to_5_are_asked_again(course_spec, units):
    c = Conversation(course_spec)
    c.turn()
    assert c.turn(f"main_0.courses_to_take.course_0_details = "
                  f"Course(course_name='CS 224V', grade_type='Letter', course_num_units={units!r})") == \
        [c.ask("course_0", "course_num_units", reason=validation_message(course_spec, "Course", "course_num_units"))]
    assert "course_num_units" not in c.values("course_0")
    assert c.turn("main_0.courses_to_take.course_0_details.course_num_units = 5") == [c.ask("course_1", "course_name")]


def test_bad_email_is_asked_again(course_spec):
    c = Conversation(course_spec)
    _two_courses(c)
    c.turn("main_0.courses_to_take.more_courses_2 = False")
    c.turn("main_0.courses_to_take.confirm = True")
    message = validation_message(course_spec, "StudentInfo", "student_email_address")
    assert c.turn("main_0.student_info_details = StudentInfo(student_name='Ana Li', student_id='05551234', "
                  "student_email_address='ana at stanford')") == \
        [c.ask("student_info_0", "student_email_address", reason=message)]
    assert c.turn("main_0.student_info_details.student_email_address = 'ana@stanford.edu'") == \
        [c.ask("student_info_0", "is_international_student")]


def test_saying_the_course_list_is_wrong_asks_again(course_spec):
    c = Conversation(course_spec)
    _two_courses(c)
    c.turn("main_0.courses_to_take.more_courses_2 = False")
    acts = c.turn("main_0.courses_to_take.confirm = False")
    assert [type(a) for a in c.acts] == [Say, AskField]
    assert acts[1] == c.ask("courses_to_take_0", "confirm")
    assert "confirm" not in c.values("courses_to_take_0")
    # replacing a course keeps the list unconfirmed until the user says it is right
    assert c.turn("main_0.courses_to_take.course_1_details = "
                  "Course(course_name='CS 221', grade_type='Letter', course_num_units=3)") == \
        [c.ask("courses_to_take_0", "confirm")]
    assert c.turn("main_0.courses_to_take.confirm = True") == [c.ask("student_info_0", "student_name")]
    assert [x["course_name"] for x in _finish(c)["courses"]] == ["CS 224V", "CS 221"]


def test_declining_the_enrollment_submits_nothing(course_spec):
    c = Conversation(course_spec)
    _two_courses(c)
    c.turn("main_0.courses_to_take.more_courses_2 = False")
    c.turn("main_0.courses_to_take.confirm = True")
    assert c.turn("main_0.student_info_details = StudentInfo(student_name='Ana Li', student_id='05551234', "
                  "student_email_address='ana@stanford.edu', is_international_student=False)") == \
        ["AskForConfirmation(main_0)"]
    assert c.turn("main_0.confirmed = False") == [str(Say(DECLINED_TEXT))]
    assert submissions() == [] and c.api_calls("submit_enrollment") == 0
    # a changed detail asks for the confirmation again
    assert c.turn("main_0.student_info_details = StudentInfo(student_name='Ana Li', student_id='05551234', "
                  "student_email_address='ana.li@stanford.edu', is_international_student=False)") == \
        ["AskForConfirmation(main_0)"]
    assert submissions() == []
    assert c.turn("main_0.confirmed = True")[0].startswith("Report(main_0, {'enrollment_id': 'ENR-00001'")
    (row,) = submissions("enrollment")
    assert row["payload"]["student_email_address"] == "ana.li@stanford.edu"


def test_a_course_question_mid_task_keeps_the_task_going(course_spec):
    cs224v = {"course_id": "CS224V", "title": "Conversational Virtual Assistants with Deep Learning"}
    c = Conversation(course_spec, knowledge=[cs224v])
    c.turn()
    acts = c.turn("answer('what is CS 224V about?', table='courses')")
    assert acts == [f"Report(answer('what is CS 224V about?'), [{cs224v!r}])", c.ask("course_0", "course_name")]


def test_submit_enrollment_is_idempotent(course_spec):
    api = course_spec.apis["submit_enrollment"].fn
    courses = {"course_0_details": {"course_name": "cs224v", "grade_type": "Letter", "course_num_units": 3},
               "course_1_details": {"course_name": "Machine Learning", "grade_type": "Letter", "course_num_units": 4},
               "more_courses_2": False,
               "course_2_details": {"course_name": "CS 999", "grade_type": "Letter", "course_num_units": 3}}
    student = {"student_name": "Ana Li", "student_id": "05551234", "student_email_address": "ana@stanford.edu",
               "is_international_student": False}
    first = api(courses, student, idempotency_key="pending-1")
    again = api(courses, student, idempotency_key="pending-1")
    assert first["enrollment_id"] == again["enrollment_id"] == "ENR-00001"
    assert [x.get("course_id") for x in first["courses"]] == ["CS224V", "CS229"]  # course_2 was not wanted
    assert len(submissions("enrollment")) == 1
    assert api(courses, student, idempotency_key="pending-2")["enrollment_id"] == "ENR-00002"


def test_changing_one_field_of_a_completed_course_keeps_its_other_values(course_spec):
    c = Conversation(course_spec)
    _two_courses(c)
    c.turn("main_0.courses_to_take.more_courses_2 = False")
    c.turn("main_0.courses_to_take.confirm = False")
    assert c.turn("main_0.courses_to_take.course_1_details.course_num_units = 3") == \
        [c.ask("courses_to_take_0", "confirm")]
    course = c.state.resolve(c.values("courses_to_take_0")["course_1_details"])
    assert course.values == {"course_name": "CS 229", "grade_type": "Credit/No Credit", "course_num_units": 3}


# -- restaurant reservation: the spec ---------------------------------------------------------------------
def test_restaurant_reservation_validates(restaurant_spec):
    spec, errors = check_agent(RESTAURANT_AGENT)
    assert errors == []
    assert spec.summary().startswith("restaurant_reservation: 1 task worksheets, 1 knowledge worksheets")
    assert restaurant_spec.start is None

    book = restaurant_spec.tasks["BookRestaurant"]
    assert {f.name: str(f.type) for f in book.input_fields()} == {
        "restaurant": "restaurants", "date": "date", "time": "time", "num_people": "int", "special_request": "str",
        "confirm": "confirm"}
    assert book.fields["special_request"].dont_ask and not book.fields["special_request"].required
    assert book.fields["num_people"].validation.minimum == 1 and book.fields["num_people"].validation.maximum == 20
    assert book.fields["date"].validation.minimum == "today"  # a booking cannot be in the past
    assert book.api.function == "book_restaurant" and book.api.side_effects and book.needs_confirmation
    assert "book a table" in book.examples
    assert "I want to reserve a restaurant for Friday" in book.examples

    kb = restaurant_spec.knowledge["restaurants"]
    assert kb.primary_key == "id" and kb.csv.name == "restaurants.csv"
    assert list(kb.columns) == ["id", "name", "city", "cuisine", "price", "rating", "opening_time", "closing_time",
                                "address", "phone", "review"]
    assert all(c.description for c in kb.columns.values())
    assert [c.name for c in kb.columns.values() if c.free_text] == ["review"]


# -- restaurant reservation: conversations -----------------------------------------------------------------
def test_full_booking_conversation(restaurant_spec, restaurant_rows):
    palo_alto_italian = [r for r in restaurant_rows if r["city"] == "Palo Alto" and r["cuisine"] == "Italian"][:3]
    enoteca = restaurant(restaurant_rows, "Enoteca Vigna")  # open 17:00-23:00
    assert enoteca in palo_alto_italian
    c = Conversation(restaurant_spec, knowledge=palo_alto_italian)

    assert c.turn() == []  # no start worksheet: the agent waits for the user
    assert c.turn("book_restaurant_0 = BookRestaurant(num_people=4)") == [c.ask("book_restaurant_0", "restaurant")]

    acts = c.turn("answer('Italian restaurants in Palo Alto', table='restaurants')")
    assert acts == [f"Report(answer('Italian restaurants in Palo Alto'), {palo_alto_italian!r})",
                    c.ask("book_restaurant_0", "restaurant")]

    # the record named by the parser is completed from the answer's rows
    assert c.turn("book_restaurant_0.restaurant = restaurants(name='Enoteca Vigna')") == \
        [c.ask("book_restaurant_0", "date")]
    assert c.values("book_restaurant_0")["restaurant"] == enoteca

    past = validation_message(restaurant_spec, "BookRestaurant", "date")
    assert c.turn("book_restaurant_0.date = '2026-11-20'") == [c.ask("book_restaurant_0", "date", reason=past)]
    assert c.turn("book_restaurant_0.date = 'next Friday'") == [c.ask("book_restaurant_0", "time")]
    assert c.values("book_restaurant_0")["date"] == dt.date(2026, 11, 27)

    closed = validation_message(restaurant_spec, "BookRestaurant", "time")
    assert c.turn("book_restaurant_0.time = '09:00'") == [c.ask("book_restaurant_0", "time", reason=closed)]

    # special_request is dont_ask: the booking is complete without it
    assert c.turn("book_restaurant_0.time = '7:30pm'") == ["AskForConfirmation(book_restaurant_0)"]
    (confirmation,) = c.acts
    assert confirmation.api == "book_restaurant"
    assert confirmation.values["time"] == dt.time(19, 30) and confirmation.values["num_people"] == 4
    assert "special_request" not in confirmation.values
    assert submissions() == [] and c.api_calls("book_restaurant") == 0

    # a special request mentioned before confirming is kept, and confirmation is asked again
    assert c.turn("book_restaurant_0.special_request = 'a quiet table by the window'") == \
        ["AskForConfirmation(book_restaurant_0)"]
    assert submissions() == []

    acts = c.turn("book_restaurant_0.confirmed = True")
    assert [type(a) for a in c.acts] == [Report, Say]
    assert acts[0].startswith("Report(book_restaurant_0, {'confirmation_code': 'RES-00001'")
    assert acts[1] == "Say(\"You're booked! Your confirmation code is RES-00001.\")"
    assert c.values("book_restaurant_0")["confirmation_code"] == "RES-00001"

    (row,) = submissions("restaurant_booking")
    assert row["id"] == "RES-00001"
    assert row["payload"] == {
        "restaurant_id": enoteca["id"], "restaurant_name": "Enoteca Vigna", "address": enoteca["address"],
        "phone": enoteca["phone"], "date": "2026-11-27", "time": "19:30", "num_people": 4,
        "special_request": "a quiet table by the window"}

    # nothing books twice, and a submitted booking is frozen: a change is a new booking, confirmed first
    assert c.turn() == []
    c.turn("book_restaurant_0.confirmed = True")
    assert not any(isinstance(a, Report) for a in c.acts)
    assert c.turn("book_restaurant_0.num_people = 5") == [str(Say(FOLLOW_UP_TEXT)), "AskForConfirmation(book_restaurant_1)"]
    assert (c.values("book_restaurant_0")["num_people"], c.values("book_restaurant_1")["num_people"]) == (4, 5)
    assert len(submissions()) == 1 and c.api_calls("book_restaurant") == 1


@pytest.mark.parametrize("party", [25, 21])  # a 0 in a constructor is a placeholder: asked, no reason
def test_party_size_outside_1_to_20_is_rejected(restaurant_spec, party):
    c = Conversation(restaurant_spec)
    message = validation_message(restaurant_spec, "BookRestaurant", "num_people")
    acts = c.turn(f"book_restaurant_0 = BookRestaurant(num_people={party})")
    assert acts == [c.ask("book_restaurant_0", "num_people", reason=message)]
    assert "num_people" not in c.values("book_restaurant_0")
    assert "20" in message


def test_party_of_25_after_a_valid_size_keeps_the_old_one(restaurant_spec, restaurant_rows):
    osteria = restaurant(restaurant_rows, "Osteria Rosso")
    c = Conversation(restaurant_spec, knowledge=[osteria])
    c.turn("book_restaurant_0 = BookRestaurant(date='2026-11-27', time='19:00', num_people=4)\n"
           "book_restaurant_0.restaurant = answer('Osteria Rosso in Palo Alto', table='restaurants')")
    assert c.acts[-1].formal() == "AskForConfirmation(book_restaurant_0)"
    message = validation_message(restaurant_spec, "BookRestaurant", "num_people")
    assert c.turn("book_restaurant_0.num_people = 25") == [c.ask("book_restaurant_0", "num_people", reason=message)]
    assert c.values("book_restaurant_0")["num_people"] == 4
    assert submissions() == []


def test_a_single_search_result_fills_the_restaurant(restaurant_spec, restaurant_rows):
    osteria = restaurant(restaurant_rows, "Osteria Rosso")  # open 17:30-21:00
    c = Conversation(restaurant_spec, knowledge=[osteria])
    c.turn("book_restaurant_0 = BookRestaurant(date='2026-11-27', num_people=2)")
    acts = c.turn("book_restaurant_0.restaurant = answer('Osteria Rosso in Palo Alto', table='restaurants')")
    assert acts == [f"Report(answer('Osteria Rosso in Palo Alto'), {[osteria]!r})", c.ask("book_restaurant_0", "time")]
    assert c.values("book_restaurant_0")["restaurant"] == osteria


def test_a_time_given_before_the_restaurant_is_checked_against_its_hours(restaurant_spec, restaurant_rows):
    osteria = restaurant(restaurant_rows, "Osteria Rosso")  # open 17:30-21:00
    c = Conversation(restaurant_spec, knowledge=[osteria])
    c.turn("book_restaurant_0 = BookRestaurant(date='2026-11-27', time='22:00', num_people=2)")
    acts = c.turn("book_restaurant_0.restaurant = answer('Osteria Rosso', table='restaurants')")
    assert acts[1:] == [str(Say("Osteria Rosso is open from 17:30 to 21:00, so I can't book a table at 22:00.")),
                        c.ask("book_restaurant_0", "time")]
    assert "time" not in c.values("book_restaurant_0")
    assert c.turn("book_restaurant_0.time = '20:00'") == ["AskForConfirmation(book_restaurant_0)"]


def test_a_restaurant_open_past_midnight(restaurant_spec, restaurant_rows):
    golden = restaurant(restaurant_rows, "Golden Kitchen")  # open 11:00-01:00
    assert (golden["opening_time"], golden["closing_time"]) == ("11:00", "01:00")
    c = Conversation(restaurant_spec, knowledge=[golden])
    c.turn("book_restaurant_0 = BookRestaurant(date='2026-11-28', num_people=2)\n"
           "book_restaurant_0.restaurant = answer('Golden Kitchen', table='restaurants')")
    closed = validation_message(restaurant_spec, "BookRestaurant", "time")
    assert c.turn("book_restaurant_0.time = '02:00'") == [c.ask("book_restaurant_0", "time", reason=closed)]
    assert c.turn("book_restaurant_0.time = '10:30'") == [c.ask("book_restaurant_0", "time", reason=closed)]
    assert c.turn("book_restaurant_0.time = '00:30'") == ["AskForConfirmation(book_restaurant_0)"]
    assert c.turn("book_restaurant_0.time = '23:15'") == ["AskForConfirmation(book_restaurant_0)"]


def test_declining_a_booking_then_changing_it(restaurant_spec, restaurant_rows):
    osteria = restaurant(restaurant_rows, "Osteria Rosso")
    c = Conversation(restaurant_spec, knowledge=[osteria])
    c.turn("book_restaurant_0 = BookRestaurant(date='2026-11-27', time='19:00', num_people=2)\n"
           "book_restaurant_0.restaurant = answer('Osteria Rosso', table='restaurants')")
    assert c.turn("book_restaurant_0.confirmed = False") == [str(Say(DECLINED_TEXT))]
    assert submissions() == []
    assert c.turn("book_restaurant_0.num_people = 3") == ["AskForConfirmation(book_restaurant_0)"]
    assert submissions() == []
    assert c.turn("book_restaurant_0.confirmed = True")[0].startswith("Report(book_restaurant_0, ")
    (row,) = submissions("restaurant_booking")
    assert row["payload"]["num_people"] == 3


def test_cancelling_a_booking(restaurant_spec):
    c = Conversation(restaurant_spec)
    c.turn("book_restaurant_0 = BookRestaurant(num_people=2)")
    assert c.turn("exitws()") == ["AskToCancel(book_restaurant_0)"]  # it holds the party size: asked first
    assert c.state.instances["book_restaurant_0"].status == "active"
    assert c.turn("exitws(book_restaurant_0, confirmed=True)") == ["Cancelled(book_restaurant_0)"]
    assert c.state.instances["book_restaurant_0"].status == "abandoned"
    assert submissions() == []


def test_book_restaurant_is_idempotent(restaurant_spec, restaurant_rows):
    api = restaurant_spec.apis["book_restaurant"].fn
    record = restaurant(restaurant_rows, "Enoteca Vigna")
    first = api(record, dt.date(2026, 11, 27), dt.time(19, 30), 4, None, idempotency_key="pending-1")
    again = api(record, dt.date(2026, 11, 27), dt.time(19, 30), 4, None, idempotency_key="pending-1")
    assert first["confirmation_code"] == again["confirmation_code"] == "RES-00001"
    assert first["restaurant_name"] == "Enoteca Vigna" and first["date"] == "2026-11-27" and first["time"] == "19:30"
    assert len(submissions("restaurant_booking")) == 1
