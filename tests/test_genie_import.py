"""Importing the reference Genie's specs: the API skeleton, its policy choices, the JSON layout.

An imported agent must validate and chat before its API functions are written, and the JSON
layout must mean exactly what the spreadsheet layout means.
"""

from __future__ import annotations

import csv
import datetime as dt
import json
from pathlib import Path

import yaml

from genie_bot.agent import Agent
from genie_bot.csv_import import import_genie_csv, write_agent
from genie_bot.json_import import import_genie_json
from genie_bot.runtime import Runtime
from genie_bot.spec import check_agent

HEADER = ["Form Predicate", "Form Name", "Predicate", "Kind", "Type", "Name", "Enum Values", "Description",
          "Don't Ask", "Required", "Confirm", "Actions", "Form Actions"]
ROWS = [
    {"Form Name": "Order", "Type": "worksheet", "Name": "place_order", "Description": "Order food"},
    {"Kind": "input", "Type": "Enum", "Name": "dish", "Description": "the dish", "Required": "TRUE"},
    {"Enum Values": "Pizza"},
    {"Enum Values": "Pasta"},
    {"Predicate": "self.dish == 'Pizza'", "Kind": "input", "Type": "bool", "Name": "extra_cheese"},
    {"Kind": "input", "Type": "str", "Name": "note", "Don't Ask": "TRUE",
     "Actions": ">say('Noted')\n@log_note(text=self.note)"},
    {"Kind": "input", "Type": "confirm", "Name": "confirm_order", "Required": "TRUE"},
    {"Kind": "output", "Type": "str", "Name": "order_id"},
    {"Form Name": "dishes", "Type": "db", "Name": "dishes"},
    {"Kind": "internal; primary", "Type": "str", "Name": "name", "Description": "dish name"},
    {"Kind": "internal", "Type": "Enum", "Name": "course", "Description": "the course"},
    {"Enum Values": "Main"},
    {"Enum Values": "Dessert"},
]
JSON_SPEC = [
    {"ws_predicate": None, "ws_name": "Order", "ws_type": "worksheet", "ws_backend_api": "place_order",
     "ws_actions": None, "fields": [
         {"field_name": "dish", "field_predicate": None, "field_kind": "input", "field_type": "str",
          "enum_values": [{"value": "Pizza", "description": "Pizza"}, {"value": "Pasta", "description": "Pasta"}],
          "field_description": "the dish", "field_dont_ask": False, "field_required": True, "field_confirm": None,
          "field_actions": None},
         {"field_name": "extra_cheese", "field_predicate": "self.dish == 'Pizza'", "field_kind": "input",
          "field_type": "bool", "enum_values": None, "field_description": None, "field_dont_ask": False,
          "field_required": False, "field_confirm": None, "field_actions": None},
         {"field_name": "note", "field_predicate": None, "field_kind": "input", "field_type": "str",
          "field_dont_ask": True, "field_required": False, "field_actions": ">say('Noted')\n@log_note(text=self.note)"},
         {"field_name": "confirm_order", "field_kind": "input", "field_type": "confirm", "field_required": "TRUE"},
         {"field_name": "order_id", "field_kind": "output", "field_type": "str"},
     ]},
    {"ws_name": "dishes", "ws_type": "db", "ws_backend_api": "dishes", "fields": [
        {"field_name": "name", "field_kind": "internal primary", "field_type": "str", "field_description": "dish name",
         "field_dont_ask": True},
        {"field_name": "course", "field_kind": "internal", "field_type": "str", "field_description": "the course",
         "enum_values": [{"value": "Main", "description": "Main"}, {"value": "Dessert", "description": "Dessert"}],
         "field_dont_ask": True},
    ]},
]
# the JSON layout has no worksheet descriptions
ROWS_WITHOUT_DESCRIPTIONS = [{k: v for k, v in row.items() if not (k == "Description" and "Form Name" in row)}
                             for row in ROWS]


def write_csv(path: Path, rows: list[dict[str, str]]) -> Path:
    with path.open("w", newline="", encoding="utf-8") as handle:
        writer = csv.DictWriter(handle, HEADER)
        writer.writeheader()
        writer.writerows(rows)
    return path


def _body(text: str) -> str:
    """The YAML without its first comment line, which names the source file and layout."""
    return text.split("\n", 1)[1]


def test_the_api_skeleton_has_each_function_the_spec_names_with_its_parameters(tmp_path):
    imported = import_genie_csv(write_csv(tmp_path / "orders.csv", ROWS))
    assert imported.warnings == [f"{tmp_path / 'orders.csv'}:7: Actions of Order.note: log_note() is called directly, "
                                 "so genie-bot will not treat it as having side effects (no confirmation step; re-run "
                                 "when values change); if it changes anything, name it in a worksheet's Name column "
                                 "instead"]
    assert "def place_order(dish, confirm_order, extra_cheese=None, note=None, **kwargs):" in imported.api
    assert "def log_note(text=None, **kwargs):" in imported.api
    assert "raise ApiNotImplemented('place_order')" in imported.api


def test_an_imported_agent_validates_and_reports_its_unwritten_api_as_a_failed_call(tmp_path):
    imported = import_genie_csv(write_csv(tmp_path / "orders.csv", ROWS))
    write_agent(imported, tmp_path / "orders" / "agent.yaml")
    spec, errors = check_agent(tmp_path / "orders")
    assert [str(e) for e in errors] == []
    runtime = Runtime(spec, clock=lambda: dt.datetime(2026, 11, 21, 12))
    state = runtime.new_state()
    assert state.instances == {}  # the reference's start_task: opened once the user's first turn asks nothing
    state = runtime.run_turn(state, "order = Order(dish='Pasta')").state
    assert [a.formal() for a in state.last_acts] == ["AskForConfirmation(order)"]
    acts = [a.formal() for a in runtime.run_turn(state, "order.confirmed = True").acts]
    assert acts == ["Report(order, {'error': \"place_order failed: place_order() is not implemented yet: write it in "
                    "the agent's api.py\"})"]


def test_an_imported_agent_chats_offline_although_its_tables_have_no_data(tmp_path):
    write_agent(import_genie_csv(Path(__file__).parent / "data" / "course_enrollment_genie.csv"),
                tmp_path / "courses" / "agent.yaml")
    spec, _ = check_agent(tmp_path / "courses")
    agent = Agent(spec, clock=lambda: dt.datetime(2026, 11, 21, 12))
    reply = agent.respond(agent.new_state(), "I want to enroll in courses")
    assert reply.text and reply.update.errors == []


def test_an_imported_agent_gets_the_reference_policy_choices(tmp_path):
    imported = import_genie_csv(write_csv(tmp_path / "orders.csv", ROWS))
    assert "policy:  # the reference Genie's choices (docs/genie-compatibility.md)" in imported.yaml
    assert yaml.safe_load(imported.yaml)["policy"] == {"nested_worksheet_question": "parent_field",
                                                      "start_task": "when_nothing_asked"}


def test_the_json_layout_means_what_the_spreadsheet_means(tmp_path):
    from_csv = import_genie_csv(write_csv(tmp_path / "orders.csv", ROWS_WITHOUT_DESCRIPTIONS))
    json_path = tmp_path / "orders.json"
    json_path.write_text(json.dumps(JSON_SPEC), encoding="utf-8")
    from_json = import_genie_json(json_path)
    assert _body(from_json.yaml) == _body(from_csv.yaml)
    assert from_json.yaml.startswith("# Imported from orders.json, a Genie Worksheets JSON spec, by `genie-bot "
                                     "import-json`.")
    assert from_json.api.replace("orders.json", "orders.csv") == from_csv.api
    assert [w.split(": ", 1)[0] for w in from_json.warnings] == [f"{json_path}:Order.note"]


def test_json_enum_descriptions_are_kept_and_problems_name_the_entry(tmp_path):
    json_path = tmp_path / "spec.json"
    json_path.write_text(json.dumps([{"ws_name": "Trip", "ws_type": "worksheet", "fields": [
        {"field_name": "mode", "field_kind": "input", "field_type": "str", "field_required": True,
         "enum_values": [{"value": "BS", "description": "Bachelor of Science"}, {"value": "MS"}]},
        {"field_name": "when", "field_kind": "input", "field_type": "Dat", "field_required": True},
    ]}]), encoding="utf-8")
    imported = import_genie_json(json_path)
    fields = yaml.safe_load(imported.yaml)["tasks"][0]["fields"]
    assert fields[0]["values"] == {"BS": "Bachelor of Science", "MS": ""}
    assert imported.warnings == [f"{json_path}:Trip.when: unknown type 'Dat' (did you mean 'date'?); imported as str"]


def test_import_json_command_writes_an_agent_that_validates(genie, tmp_path):
    json_path = tmp_path / "orders.json"
    json_path.write_text(json.dumps(JSON_SPEC), encoding="utf-8")
    result = genie("import-json", str(json_path), "-o", str(tmp_path / "orders" / "agent.yaml"))
    assert result.returncode == 0, result.stderr
    assert result.stdout.strip() == f"wrote {tmp_path / 'orders' / 'agent.yaml'} (1 warning(s))"
    assert genie("validate", str(tmp_path / "orders")).returncode == 0


def test_a_file_that_is_no_json_spec_is_refused(genie, tmp_path):
    json_path = tmp_path / "bad.json"
    json_path.write_text('{"ws_name": "x"}', encoding="utf-8")
    result = genie("import-json", str(json_path), "-o", str(tmp_path / "x" / "agent.yaml"))
    assert result.returncode == 1
    assert "expected a list of worksheets" in result.stderr
