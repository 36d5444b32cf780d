"""The importer of original Genie Worksheets spreadsheets (CSV) into our agent.yaml.

The fixture is the course enrollment agent of the paper written in the original column
layout; the imported YAML must load without errors and keep every declared detail.
"""

from __future__ import annotations

import csv
from pathlib import Path

import pytest
import yaml

from genie_bot.csv_import import ImportedAgent, import_genie_csv, write_agent
from genie_bot.spec import AgentSpec, check_agent

FIXTURE = Path(__file__).parent / "data" / "course_enrollment_genie.csv"
HEADER = ["Form Predicate", "Form Name", "Predicate", "Kind", "Type", "Name", "Enum Values", "Description",
          "Don't Ask", "Required", "Confirm", "Actions", "Form Actions"]
COURSE_API = '''
def submit_course_enrollment(courses_to_take, student_info_details):
    """Pretend to file the enrollment request."""
    return {"request_id": "ENR-00001"}
'''


def load(directory: Path, agent_yaml: str, api: str) -> AgentSpec:
    """Write an agent directory and load it, failing with the loader's errors if any."""
    directory.mkdir()
    (directory / "agent.yaml").write_text(agent_yaml, encoding="utf-8")
    (directory / "api.py").write_text(api, encoding="utf-8")
    spec, errors = check_agent(directory)
    assert [str(e) for e in errors] == []
    assert spec is not None
    return spec


def write_csv(path: Path, rows: list[dict[str, str]]) -> Path:
    """Write spreadsheet rows given as {column title: cell}; the header is row 1."""
    with path.open("w", newline="", encoding="utf-8") as handle:
        writer = csv.DictWriter(handle, HEADER)
        writer.writeheader()
        writer.writerows(rows)
    return path


@pytest.fixture
def imported() -> ImportedAgent:
    return import_genie_csv(FIXTURE)


@pytest.fixture
def spec(tmp_path: Path, imported: ImportedAgent) -> AgentSpec:
    return load(tmp_path / "course_enrollment", imported.yaml, COURSE_API)


def test_fixture_imports_into_a_valid_agent(spec: AgentSpec) -> None:
    assert spec.name == "course_enrollment_genie"
    assert spec.start == "Main"
    assert list(spec.tasks) == ["Main", "StudentInfo", "CoursesToTake", "Course"]
    assert list(spec.knowledge) == ["courses"]
    assert "submit_course_enrollment" in spec.apis


def test_fixture_warns_only_about_the_api_called_from_form_actions(imported: ImportedAgent) -> None:
    warnings = imported.warnings
    assert len(warnings) == 1
    assert warnings[0].startswith(f"{FIXTURE}:2: Form Actions of Main: submit_course_enrollment() is called directly")


def test_yaml_names_its_source_and_is_readable(imported: ImportedAgent) -> None:
    text = imported.yaml
    assert text.startswith("# Imported from course_enrollment_genie.csv")
    assert "    actions: |" in text  # code as a block, not an escaped one-line string
    assert "\n  - name: StudentInfo" in text
    assert yaml.safe_load(text)["tasks"][0]["name"] == "Main"


def test_fields_and_types_come_through(spec: AgentSpec) -> None:
    def types(ws: str) -> list[tuple[str, str]]:
        return [(f.name, str(f.type)) for f in spec.tasks[ws].fields.values()]

    assert types("Main") == [("courses_to_take", "CoursesToTake"), ("student_info_details", "StudentInfo"),
                             ("confirm_submission", "confirm")]
    assert types("StudentInfo") == [("student_name", "str"), ("student_id", "str"), ("student_email_address", "str"),
                                    ("is_international_student", "bool"), ("has_advisor_approval", "bool")]
    assert types("CoursesToTake") == [
        ("course_0_details", "Course"), ("course_1_details", "Course"), ("more_courses_2", "bool"),
        ("course_2_details", "Course"), ("more_courses_3", "bool"), ("course_3_details", "Course"),
        ("confirm", "confirm"),
    ]
    assert types("Course") == [("course_name", "str"), ("grade_type", "enum"), ("course_num_units", "int")]
    assert all(f.kind == "input" for ws in spec.tasks.values() for f in ws.fields.values())
    student = spec.tasks["StudentInfo"].fields
    assert student["student_name"].description == "The name of the student filling the form"


def test_predicates_and_enum_values_are_exact(spec: AgentSpec) -> None:
    courses = spec.tasks["CoursesToTake"].fields
    predicates = {name: f.predicate.source for name, f in courses.items() if f.predicate}
    assert predicates == {
        "course_2_details": "not self.more_courses_2 == False",
        "more_courses_3": "not self.more_courses_2 == False",
        "course_3_details": "not self.more_courses_2 == False and not self.more_courses_3 == False",
    }
    assert spec.tasks["Course"].fields["grade_type"].values == ("Credit/No Credit", "Letter")


def test_flags_follow_the_original_semantics(spec: AgentSpec) -> None:
    """Required is TRUE or optional (a blank cell is optional in the original); Don't Ask and Confirm are TRUE."""
    fields = {(ws.name, f.name): f for ws in spec.tasks.values() for f in ws.fields.values()}
    optional = {key for key, f in fields.items() if not f.required}
    assert optional == {("StudentInfo", "has_advisor_approval"), ("CoursesToTake", "course_2_details"),
                        ("CoursesToTake", "more_courses_3"), ("CoursesToTake", "course_3_details")}
    assert {key for key, f in fields.items() if f.dont_ask} == {("StudentInfo", "has_advisor_approval")}
    assert {key for key, f in fields.items() if f.confirm} == {("StudentInfo", "student_id")}


def test_legacy_action_prefixes_are_converted(spec: AgentSpec) -> None:
    assert spec.tasks["Main"].actions.source == (
        "if self.confirm_submission:\n"
        "    submit_course_enrollment(courses_to_take=self.courses_to_take, "
        "student_info_details=self.student_info_details)\n"
        '    say("Your enrollment request has been submitted.")\n'
        "else:\n"
        '    say("No problem, I did not submit your enrollment request.")'
    )
    assert spec.tasks["StudentInfo"].fields["is_international_student"].actions.source == (
        "if self.is_international_student:\n"
        '    say("International students must stay enrolled in at least 12 units.")'
    )


def test_db_worksheet_becomes_knowledge(spec: AgentSpec) -> None:
    courses = spec.knowledge["courses"]
    assert courses.description == "The course catalogue"
    assert courses.table == "courses"
    assert courses.primary_key == "course_id"
    assert [(c.name, c.type) for c in courses.columns.values()] == [
        ("course_id", "str"), ("title", "str"), ("description", "str"), ("min_units", "int"), ("max_units", "int"),
        ("grading", "str"), ("instructor_names", "list[str]"),
    ]
    assert courses.columns["grading"].description == \
        "Grading bases offered (one of: Letter or Credit/No Credit, Letter, Credit/No Credit)"


def test_backend_api_and_its_guessed_side_effects(tmp_path: Path) -> None:
    csv_path = write_csv(tmp_path / "tickets.csv", [
        {"Form Name": "Ticket", "Type": "worksheet", "Name": "file_ticket"},
        {"Kind": "input", "Type": "str", "Name": "subject", "Required": "TRUE"},
        {"Kind": "input", "Type": "confirm", "Name": "confirm_ticket", "Required": "TRUE"},
        {"Kind": "output", "Type": "str", "Name": "ticket_id"},
        {"Kind": "output", "Type": "str"},
        {"Form Name": "Status", "Type": "worksheet", "Name": "ticket_status"},
        {"Kind": "input", "Type": "str", "Name": "ticket_id", "Required": "TRUE"},
    ])
    imported = import_genie_csv(csv_path)
    text, warnings = imported.yaml, imported.warnings
    assert warnings == [f"{csv_path}:6: output row without a Name (the original's result type of the worksheet) "
                        "skipped: genie-bot stores API results in named output fields"]
    assert "side_effects: true  # check: guessed from the worksheet's confirm field" in text
    assert "side_effects: false  # check: guessed (no confirm field)" in text
    spec = load(tmp_path / "tickets", text, "def file_ticket(subject):\n    return {'ticket_id': 'T-1'}\n\n"
                                            "def ticket_status(ticket_id):\n    return {'status': 'open'}\n")
    ticket = spec.tasks["Ticket"]
    assert (ticket.api.function, ticket.api.side_effects, ticket.needs_confirmation) == ("file_ticket", True, True)
    assert ticket.fields["ticket_id"].kind == "output"
    assert (spec.tasks["Status"].api.function, spec.tasks["Status"].api.side_effects) == ("ticket_status", False)


def test_broken_csv_warns_with_row_numbers_and_still_loads(tmp_path: Path) -> None:
    csv_path = write_csv(tmp_path / "broken.csv", [
        {"Kind": "input", "Type": "str", "Name": "orphan"},                          # row 2
        {"Form Name": "Order", "Type": "worksheet"},                                 # row 3
        {"Kind": "input", "Type": "Pizza", "Name": "pizza", "Required": "TRUE"},     # row 4
        {"Kind": "input", "Type": "Enum", "Name": "size", "Required": "TRUE"},       # row 5
        {"Kind": "input", "Type": "Ordr", "Name": "again", "Required": "yes"},       # row 6
        {"Kind": "input", "Type": "List[Enum]", "Name": "toppings"},                 # row 7
        {"Enum Values": "cheese"},                                                    # row 8
        {"Enum Values": "olives"},                                                    # row 9
        {"Form Name": "Other", "Type": "worksheet"},                                 # row 10
        {"Enum Values": "stray"},                                                     # row 11
    ])
    imported = import_genie_csv(csv_path)
    text, warnings = imported.yaml, imported.warnings
    assert warnings == [
        f"{csv_path}:2: field row before any worksheet row (a row with a Form Name); skipped",
        f"{csv_path}:4: unknown type 'Pizza'; imported as str",
        f"{csv_path}:5: Enum field 'size' has no values (list them in the Enum Values column of the rows below it); "
        "imported as str",
        f"{csv_path}:6: unknown type 'Ordr' (did you mean 'Order'?); imported as str",
        f"{csv_path}:6: Required should be TRUE or FALSE, not 'yes'; read as FALSE",
        f"{csv_path}:11: enum value 'stray' is not below a field; skipped",
    ]
    order = load(tmp_path / "broken", text, "").tasks["Order"]
    assert [(f.name, str(f.type)) for f in order.fields.values()] == [
        ("pizza", "str"), ("size", "str"), ("again", "str"), ("toppings", "list[enum]")]
    assert order.fields["toppings"].values == ("cheese", "olives")


def test_unconvertible_prefix_and_misplaced_cells_are_reported(tmp_path: Path) -> None:
    csv_path = write_csv(tmp_path / "prefixes.csv", [
        {"Form Name": "Greet", "Type": "worksheet", "Predicate": "True"},                          # row 2
        {"Kind": "input", "Type": "str", "Name": "who", "Required": "TRUE",
         "Actions": '>say "hello"', "Form Actions": 'say("x")'},                                  # row 3
        {"Enum Values": "stray"},                                                                  # row 4
        {"Kind": "input", "Type": "int", "Name": "n", "Actions": "self.n = self.n >abs(-1)"},     # row 5
    ])
    imported = import_genie_csv(csv_path)
    text, warnings = imported.yaml, imported.warnings
    assert warnings == [
        f"{csv_path}:2: Predicate ignored on a worksheet row",
        f"{csv_path}:3: Form Actions ignored on a field row",
        f"{csv_path}:3: field 'who' is not an Enum; the Enum Values below it were ignored",
        f"{csv_path}:3: Actions of Greet.who: cannot convert the legacy prefix '>' on line 1: it must be followed "
        "by a call, as in >function(...)",
        f"{csv_path}:3: Actions of Greet.who: line 1: syntax error: invalid syntax",
    ]
    fields = yaml.safe_load(text)["tasks"][0]["fields"]
    assert fields[1]["actions"] == "self.n = self.n >abs(-1)"  # a comparison, not a legacy prefix


def test_missing_header_assumes_the_standard_columns(tmp_path: Path) -> None:
    csv_path = tmp_path / "noheader.csv"
    csv_path.write_text(",Hello,,,worksheet,,,,,,,,\n,,,input,str,name,,Your name,,TRUE,,,\n", encoding="utf-8")
    imported = import_genie_csv(csv_path)
    text, warnings = imported.yaml, imported.warnings
    assert len(warnings) == 1 and warnings[0].startswith(f"{csv_path}:1: no header row; assuming the standard columns")
    assert yaml.safe_load(text)["tasks"] == [
        {"name": "Hello", "fields": [{"name": "name", "type": "str", "description": "Your name"}]}]


def test_write_agent_writes_the_yaml_and_an_api_skeleton_but_never_over_an_api_module(tmp_path: Path) -> None:
    imported = import_genie_csv(FIXTURE)
    out = tmp_path / "agent" / "agent.yaml"
    assert write_agent(imported, out) == imported.warnings
    assert out.read_text(encoding="utf-8") == imported.yaml
    assert (out.parent / "api.py").read_text(encoding="utf-8") == imported.api
    (out.parent / "api.py").write_text(COURSE_API, encoding="utf-8")
    assert write_agent(imported, out)[-1] == f"{out.parent / 'api.py'} exists: left as it is, no skeleton written"
    assert (out.parent / "api.py").read_text(encoding="utf-8") == COURSE_API
