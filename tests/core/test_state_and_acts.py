"""Dialogue state JSON round trip and the formal strings of agent acts."""

from __future__ import annotations

import datetime as dt
import json

from hypothesis import given, settings
from hypothesis import strategies as st

from genie_bot.acts import (
    AskField, AskForConfirmation, AskForFieldConfirmation, ProposeWorksheet, Report, Say, act_from_dict,
)
from genie_bot.spec import InstanceRef
from genie_bot.state import DialogueState, KnowledgeAnswer
from genie_bot.values import decode_value, encode_value

scalars = st.one_of(
    st.none(), st.booleans(), st.integers(), st.floats(allow_nan=False), st.text(max_size=20),
    st.dates(), st.times(), st.datetimes(), st.builds(InstanceRef, st.from_regex(r"[a-z_]{1,8}_[0-9]", fullmatch=True)),
)
values = st.recursive(
    scalars,
    lambda inner: st.one_of(st.lists(inner, max_size=4), st.tuples(inner, inner),
                            st.dictionaries(st.one_of(st.text(max_size=8), st.sampled_from(["$date", "$ref", "$dict"])),
                                            inner, max_size=4)),
    max_leaves=12,
)


@settings(max_examples=500)
@given(values)
def test_values_round_trip_through_json_exactly(value):
    decoded = decode_value(json.loads(json.dumps(encode_value(value))))
    assert decoded == value and type(decoded) is type(value)


def _state() -> DialogueState:
    state = DialogueState()
    main = state.add_instance("Main")
    child = state.add_instance("Course", parent=(main.name, "course"))
    main.values.update({"course": InstanceRef(child.name), "when": dt.date(2026, 11, 27), "at": dt.time(19, 30),
                        "stamp": dt.datetime(2026, 1, 2, 3, 4, 5), "tags": ["a", "b"], "n": 3, "ok": True,
                        "record": {"name": "Zazie", "$date": "not a tag"}})
    main.confirmed_fields.append("when")
    main.confirmed = False
    child.status = "completed"
    child.result = {"id": 7, "items": [1, 2.5, None]}
    state.answer = KnowledgeAnswer("cheap places?", {"city": "Rome"}, "places", "SELECT 1", [{"a": dt.date(2026, 1, 1)}],
                                   "done", ("main_0", "record"))
    state.last_acts = [AskField("main_0", "n", "a number", reason="too big"), Say("hi"),
                       AskForConfirmation("main_0", "Main", "submit", {"when": dt.date(2026, 11, 27)}),
                       ProposeWorksheet("Course", {"name": "CS"}, "course_1"), Report("main_0", {"id": 1}),
                       AskForFieldConfirmation("main_0", "when", dt.date(2026, 11, 27))]
    state.turn = 4
    return state


def test_state_round_trips_through_json_exactly():
    state = _state()
    text = state.to_json()
    again = DialogueState.from_json(text)
    assert again == state
    assert again.to_json() == text
    assert again.instances["main_0"].values["when"] == dt.date(2026, 11, 27)
    assert again.instances["main_0"].values["course"] == InstanceRef("course_0")


def test_instance_names_are_snake_case_numbered():
    state = DialogueState()
    assert [state.add_instance("BookRestaurant").name for _ in range(3)] == [
        "book_restaurant_0", "book_restaurant_1", "book_restaurant_2"]
    assert state.add_instance("Main", name="main").name == "main"


def test_acts_formal_strings():
    assert AskField("main_0", "full_name", 'the "full" name').formal() == 'AskField(main_0, full_name, "the \\"full\\" name")'
    assert AskField("b_0", "n", "people", reason="1 to 20").formal() == 'AskField(b_0, n, "people", reason="1 to 20")'
    assert AskForFieldConfirmation("b_0", "date", dt.date(2026, 11, 27)).formal() == "AskForFieldConfirmation(b_0, date, '2026-11-27')"
    assert AskForConfirmation("b_0", "Book", "book", {"n": 2}).formal() == "AskForConfirmation(b_0)"
    assert Report("answer('cheap?')", [{"name": "Zazie"}]).formal() == "Report(answer('cheap?'), [{'name': 'Zazie'}])"
    assert Report("main_0", {"course": InstanceRef("course_0")}).formal() == "Report(main_0, {'course': course_0})"
    assert Say("hello").formal() == 'Say("hello")'
    assert ProposeWorksheet("Order", {"dish": "Pasta"}, "order_0").formal() == "ProposeWorksheet(Order, {'dish': 'Pasta'})"
    assert AskField.is_question and not Report.is_question and not Say.is_question and ProposeWorksheet.is_question


def test_acts_round_trip_through_dicts():
    for act in _state().last_acts:
        assert act_from_dict(json.loads(json.dumps(act.to_dict()))) == act
