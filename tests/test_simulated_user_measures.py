"""The two measures of issue 26 on hand-made turns: a near-wrong summary shows a value the user never
said; a silent turn changes nothing and gets a reply that says nothing about the message."""

from __future__ import annotations

import datetime as dt
from pathlib import Path

import pytest

from genie_bot.acts import AskField, AskForConfirmation, AskForFieldConfirmation, Report
from genie_bot.spec import InstanceRef, load_agent
from genie_bot.state import DialogueState, InstanceStatus, WorksheetInstance
from tests.benchmarks.simulated_users.goals import Goal, TableRow, table_rows
from tests.benchmarks.simulated_users.measures import (Exchange, is_silent, near_wrong_summaries, snapshot,
                                                       summaries, task_open)

WORKSHEETS = Path(__file__).resolve().parents[1] / "worksheets"
DOMAINS = Path(__file__).resolve().parent / "domains"

ASK_TIME = AskField("book_restaurant_0", "time", "the time of the reservation")
ASK_TIME_AGAIN = AskField("book_restaurant_0", "time", "the time of the reservation", reason="It must be a time.")
QUESTION = "At what time?"


# -- silent turns --------------------------------------------------------------------------------
def _turn(reply: str, acts: list = [ASK_TIME], before: str = "s1", after: str = "s1", task_open: bool = True) -> Exchange:
    formal = tuple(a.formal() for a in acts)
    return Exchange(task_open, before, after, formal, tuple(a.formal() for a in acts if a.is_question), reply)


PREVIOUS = ((ASK_TIME.formal(),), QUESTION)


def test_the_same_question_again_with_nothing_changed_is_silent() -> None:
    assert is_silent(_turn(QUESTION), *PREVIOUS)
    assert is_silent(_turn("At what  time?\n"), *PREVIOUS)  # spacing is no word about the message


def test_saying_it_was_not_understood_is_not_silent_the_first_time() -> None:
    reply = "Sorry, I didn't catch that.\n\n" + QUESTION
    assert not is_silent(_turn(reply), *PREVIOUS)
    assert is_silent(_turn(reply), (ASK_TIME.formal(),), reply)  # the very same reply again


def test_a_changed_state_a_reason_or_another_act_is_not_silent() -> None:
    assert not is_silent(_turn(QUESTION, after="s2"), *PREVIOUS)
    assert not is_silent(_turn("It must be a time. " + QUESTION, acts=[ASK_TIME_AGAIN]), *PREVIOUS)
    report = Report("answer('when do they close?')", [{"closing_time": "22:00"}])
    assert not is_silent(_turn(QUESTION, acts=[report, ASK_TIME]), *PREVIOUS)


def test_no_turn_is_silent_outside_a_task() -> None:
    assert not is_silent(_turn(QUESTION, task_open=False), *PREVIOUS)


def test_snapshot_ignores_the_logical_clock_and_sees_values_and_status() -> None:
    spec = load_agent(WORKSHEETS / "restaurant_reservation")
    state = DialogueState(instances={"book_restaurant_0": WorksheetInstance("book_restaurant_0", "BookRestaurant")})
    assert task_open(spec, state)
    later = state.copy()
    later.instances["book_restaurant_0"].touched += 5
    assert snapshot(later) == snapshot(state)
    later.instances["book_restaurant_0"].values["num_people"] = 2
    assert snapshot(later) != snapshot(state)
    done = state.copy()
    done.instances["book_restaurant_0"].status = InstanceStatus.COMPLETED
    assert snapshot(done) != snapshot(state) and not task_open(spec, done)


# -- near-wrong summaries ------------------------------------------------------------------------
@pytest.fixture(scope="module")
def restaurant():
    spec = load_agent(WORKSHEETS / "restaurant_reservation")
    row = table_rows(spec, "restaurants")[0]
    goal = Goal("BookRestaurant", {"restaurant": row, "date": dt.date(2026, 11, 27), "time": dt.time(19, 30),
                                   "num_people": 1, "special_request": None})
    state = DialogueState(instances={"book_restaurant_0": WorksheetInstance("book_restaurant_0", "BookRestaurant")})
    return spec, row, goal, state


def _summary(row: TableRow, **values: object) -> AskForConfirmation:
    shown = {"restaurant": dict(row.row), "date": dt.date(2026, 11, 27), "time": dt.time(19, 30), "num_people": 1}
    return AskForConfirmation("book_restaurant_0", "BookRestaurant", "book_restaurant", {**shown, **values})


def test_a_summary_of_the_goal_is_not_near_wrong(restaurant) -> None:
    spec, row, goal, state = restaurant
    assert near_wrong_summaries(spec, goal, [_summary(row)], state, {}) == []


def test_a_value_the_user_never_said_makes_the_summary_near_wrong(restaurant) -> None:
    spec, row, goal, state = restaurant
    (found,) = near_wrong_summaries(spec, goal, [_summary(row, num_people=2)], state, {})
    assert [(u.path, u.wanted, u.shown) for u in found] == [(("num_people",), 1, 2)]
    (found,) = near_wrong_summaries(spec, goal, [_summary(row, special_request="oops the time should be 8")],
                                    state, {})
    assert [u.path for u in found] == [("special_request",)]  # an optional field the user declined


def test_a_wrong_value_the_user_typed_is_not_near_wrong(restaurant) -> None:
    spec, row, goal, state = restaurant
    assert near_wrong_summaries(spec, goal, [_summary(row, num_people=2)], state, {("num_people",): [2]}) == []


def test_each_summary_counts_once_and_a_field_confirmation_is_a_summary(restaurant) -> None:
    spec, row, goal, state = restaurant
    acts = [_summary(row, num_people=2, time=dt.time(20, 30)),
            AskForFieldConfirmation("book_restaurant_0", "num_people", 3)]
    found = near_wrong_summaries(spec, goal, acts, state, {})
    assert [len(f) for f in found] == [2, 1]


def test_details_of_a_choice_the_user_did_not_make_are_near_wrong() -> None:
    """A maintenance request switched from an appliance to plumbing still showing the washer."""
    spec = load_agent(DOMAINS / "tuned" / "apartment_maintenance")
    goal = Goal("MaintenanceRequest", {"resident_name": "Sam Lee", "unit": "4B", "category": "Plumbing"})
    state = DialogueState(instances={"maintenance_request_0": WorksheetInstance("maintenance_request_0",
                                                                                "MaintenanceRequest")})
    act = AskForConfirmation("maintenance_request_0", "MaintenanceRequest", "submit_work_order",
                             {"resident_name": "Sam Lee", "unit": "4B", "category": "Plumbing", "appliance": "Washer"})
    (found,) = near_wrong_summaries(spec, goal, [act], state, {})
    assert [(u.path, u.wanted, u.shown) for u in found] == [(("appliance",), None, "Washer")]


def test_a_list_in_another_order_is_the_same_list() -> None:
    spec = load_agent(DOMAINS / "tuned" / "car_rental")
    goal = Goal("RentCar", {"extras": ["GPS", "Child Seat"]})
    state = DialogueState(instances={"rent_car_0": WorksheetInstance("rent_car_0", "RentCar")})
    same = AskForFieldConfirmation("rent_car_0", "extras", ["Child Seat", "GPS"])
    more = AskForFieldConfirmation("rent_car_0", "extras", ["Child Seat", "GPS", "Ski Rack"])
    assert near_wrong_summaries(spec, goal, [same], state, {}) == []
    assert len(near_wrong_summaries(spec, goal, [more], state, {})) == 1


def test_the_list_shown_at_a_confirm_field_is_a_summary_with_nested_values() -> None:
    """The course list ("Is this list of courses ... correct?") shows the nested courses' values."""
    spec = load_agent(WORKSHEETS / "course_enrollment")
    row = next(r for r in table_rows(spec, "courses") if r.key == "CS224V")
    goal = Goal("Main", {"courses_to_take": Goal("CoursesToTake", {
        "course_0_details": Goal("Course", {"course_name": row, "grade_type": "Letter", "course_num_units": 3})})})
    state = DialogueState(instances={
        "main_0": WorksheetInstance("main_0", "Main", {"courses_to_take": InstanceRef("courses_to_take_0")}),
        "courses_to_take_0": WorksheetInstance("courses_to_take_0", "CoursesToTake",
                                               {"course_0_details": InstanceRef("course_0")},
                                               parent=("main_0", "courses_to_take")),
        "course_0": WorksheetInstance("course_0", "Course", {"course_name": "CS 224V", "grade_type": "Letter",
                                                             "course_num_units": 4},
                                      parent=("courses_to_take_0", "course_0_details")),
    })
    ask = AskField("courses_to_take_0", "confirm", "whether the list of courses is correct")
    assert summaries(spec, [ask], state) == [("courses_to_take_0", {"course_0_details": {
        "course_name": "CS 224V", "grade_type": "Letter", "course_num_units": 4}})]
    (found,) = near_wrong_summaries(spec, goal, [ask], state, {})
    assert [(u.path, u.shown) for u in found] == [(("courses_to_take", "course_0_details", "course_num_units"), 4)]
