"""The worksheet loader: every attribute is read, every problem is reported with file:line:col."""

from __future__ import annotations

import datetime as dt

import pytest

from genie_bot.spec import NA, FieldType, SpecInvalid, check_agent, load_agent

FULL_AGENT = """
name: full
description: An agent using every attribute.
start: Main
greeting: Hello!
tasks:
  - name: Main
    description: Book something
    examples: [book a thing, reserve it]
    predicate: "True"
    fields:
      - name: kind
        type: enum
        description: the kind of booking
        ask: Which kind?
        values:
          Group: several people
          Single: ""
        default: Single
      - name: people
        type: int
        predicate: self.kind == 'Group'
        validation: {min: 1, max: 20, message: Between 1 and 20 please.}
      - name: when
        type: date
        confirm: true
        validation:
          expression: value >= today()
          message: Pick a future date.
      - name: at
        type: time
        required: false
      - name: stamp
        type: datetime
        kind: internal
      - name: tags
        type: list[str]
        dont_ask: true
        required: false
      - name: code
        type: str
        validation: {pattern: '[A-Z]{3}'}
        actions: say("thanks")
      - name: ratio
        type: float
        required: false
      - name: vip
        type: bool
        required: false
      - name: item
        type: Item
      - name: place
        type: places
        required: false
      - name: ok
        type: confirm
      - name: booking_id
        type: str
        kind: output
    api:
      function: book
      side_effects: true
      args: {who: self.code}
    actions: say(f"booked {self.booking_id}")
  - name: Item
    fields:
      - {name: label, type: str}
knowledge:
  - name: places
    description: Places to go
    csv: data/places.csv
    primary_key: id
    columns:
      id: the id
      name: {description: the name, required: true}
      review: {description: a review, free_text: true}
  - name: guides
    documents: "docs/*.md"
"""

FULL_API = """
def book(who, people=None, idempotency_key=None):
    return {"booking_id": "B1"}
"""


def full_agent(make_agent):
    return make_agent(FULL_AGENT, FULL_API, {"data/places.csv": "id,name,review\n1,Zazie,nice\n", "docs/a.md": "# A\n"})


def test_every_attribute_is_loaded(make_agent):
    spec = load_agent(full_agent(make_agent))
    assert (spec.name, spec.start, spec.greeting) == ("full", "Main", "Hello!")
    main = spec.tasks["Main"]
    assert main.examples == ("book a thing", "reserve it")
    assert main.predicate.source == "True"
    kind = main.fields["kind"]
    assert kind.values == ("Group", "Single") and kind.value_descriptions == {"Group": "several people"}
    assert kind.default == "Single" and kind.ask == "Which kind?"
    people = main.fields["people"]
    assert people.predicate.source == "self.kind == 'Group'"
    assert (people.validation.minimum, people.validation.maximum, people.validation.message) == (1, 20, "Between 1 and 20 please.")
    assert main.fields["when"].confirm and main.fields["when"].validation.expression.source == "value >= today()"
    assert main.fields["at"].type == FieldType("time") and not main.fields["at"].required
    assert main.fields["stamp"].kind == "internal" and main.fields["stamp"].type.kind == "datetime"
    assert main.fields["tags"].type == FieldType("list", item=FieldType("str")) and main.fields["tags"].dont_ask
    assert main.fields["code"].validation.pattern == "[A-Z]{3}" and main.fields["code"].actions.source == 'say("thanks")'
    assert main.fields["item"].type.ref == "Item" and main.fields["place"].type.ref == "places"
    assert main.fields["ok"].type.kind == "confirm" and main.fields["booking_id"].kind == "output"
    assert main.api.function == "book" and main.api.side_effects and set(main.api.args) == {"who", "people"}
    assert main.needs_confirmation and not spec.tasks["Item"].needs_confirmation
    assert main.actions.source == 'say(f"booked {self.booking_id}")'
    places = spec.knowledge["places"]
    assert places.primary_key == "id" and places.columns["name"].required and places.columns["review"].free_text
    assert places.csv.name == "places.csv" and places.source == "table"
    assert spec.knowledge["guides"].source == "documents" and len(spec.knowledge["guides"].documents) == 1
    assert spec.apis["book"].side_effects
    assert spec.summary() == "full: 2 task worksheets, 2 knowledge worksheets, 14 fields, 2 predicates, 3 actions, 1 API functions"


def errors_of(make_agent, agent_yaml: str, api: str | None = None) -> list[str]:
    directory = make_agent(agent_yaml, api)
    _, errors = check_agent(directory)
    return [f"{e.loc.line}:{e.loc.col}: {e.message}" for e in errors]


def test_yaml_syntax_error_names_the_position(make_agent):
    errors = errors_of(make_agent, "name: x\ntasks:\n  - name: A\n    fields: [{name: c, type: list[C]}]\n")
    assert errors == ["4:34: YAML syntax error: expected ',' or '}', but got '['"]


def test_all_problems_are_reported_at_once_with_positions(make_agent):
    errors = errors_of(make_agent, """
        name: broken
        tasks:
          - name: A
            fields:
              - {name: n, type: integer}
              - {name: n, type: str}
              - name: colour
                type: enum
                values: [red, green]
                default: blue
              - name: p
                type: str
                predicate: self.nme == 'x'
              - name: q
                type: str
                actions: sey("hi")
            api: missing_function
          - name: A
            fields: []
        """)
    text = "\n".join(errors)
    assert "5:25: unknown type 'integer'; types are str, int" in text
    assert "6:16: duplicate field 'n' in A (first declared at line 5)" in text
    assert "10:18: enum default outside the enum for field 'colour' of A: 'blue' is not one of: red, green" in text
    assert "13:22: predicate of field A.p: unknown field of A 'nme'" in text
    assert "16:20: actions of field A.q: unknown name 'sey' (did you mean 'say'?)" in text
    assert "17:10: unknown API function 'missing_function'" in text
    assert "18:11: duplicate worksheet name 'A' (first declared at line 3)" in text
    assert len(errors) == 7


def test_block_scalar_code_errors_point_into_the_block(make_agent):
    errors = errors_of(make_agent, """
        name: x
        tasks:
          - name: A
            fields: [{name: a, type: str}]
            actions: |
              say("one")
              import os
        """)
    assert errors == ["7:7: actions of A: imports are not allowed"]


def test_reference_cycles_are_rejected(make_agent):
    errors = errors_of(make_agent, """
        name: x
        tasks:
          - name: A
            fields: [{name: b, type: B}]
          - name: B
            fields: [{name: a, type: A}]
          - name: C
            fields: [{name: c, type: "list[C]"}]
        """)
    assert any("reference cycle: A -> B -> A" in e or "reference cycle: B -> A -> B" in e for e in errors)
    assert any("reference cycle: C -> C" in e for e in errors)


def test_api_parameters_must_match(make_agent):
    api = "def submit(name, email, idempotency_key=None):\n    return 1\n"
    errors = errors_of(make_agent, """
        name: x
        tasks:
          - name: A
            fields: [{name: name, type: str}]
            api:
              function: submit
              args: {nickname: self.name}
            actions: submit(name='a', bogus=1)
        """, api)
    text = "\n".join(errors)
    assert "submit() has no parameter 'nickname' (parameters: name, email, idempotency_key)" in text
    assert "parameter 'email' of submit() matches no field of A; map it under api.args" in text
    assert "call to submit(): missing a required argument: 'email'" in text


def test_side_effecting_api_cannot_run_from_a_field_action(make_agent):
    api = "def book(x):\n    return 1\n"
    errors = errors_of(make_agent, """
        name: x
        tasks:
          - name: A
            fields: [{name: x, type: str, actions: "book(x=self.x)"}]
            api: {function: book, side_effects: true}
        """, api)
    assert any("book() has side effects" in e for e in errors)


def test_misc_problems(make_agent):
    errors = errors_of(make_agent, """
        name: x
        start: Mian
        colour: blue
        tasks:
          - name: A
            fields:
              - {name: confirmed, type: str}
              - {name: e, type: enum}
              - {name: v, type: str, values: [a]}
              - {name: k, type: str, kind: secret}
              - {name: r, type: str, required: maybe}
              - {name: d, type: date, default: not a date}
        knowledge:
          - name: t
            csv: data/none.csv
        """)
    text = "\n".join(errors)
    for expected in ["unknown start worksheet 'Mian'", "unknown agent key 'colour'", "'confirmed' is reserved",
                     "an enum field needs 'values'", "'values' is only allowed on enum fields", "unknown kind 'secret'",
                     "'required' must be true or false", "bad default for field 'd' of A",
                     "file 'data/none.csv' does not exist"]:
        assert expected in text, expected


def test_defaults_are_coerced(make_agent):
    spec = load_agent(make_agent("""
        name: x
        tasks:
          - name: A
            fields:
              - {name: d, type: date, default: "2026-01-02"}
              - {name: n, type: int, default: "3"}
              - {name: o, type: str, required: false, default: NA}
        """))
    fields = spec.tasks["A"].fields
    assert fields["d"].default == dt.date(2026, 1, 2) and fields["n"].default == 3 and fields["o"].default == NA


def test_load_agent_raises_with_every_error(make_agent):
    directory = make_agent("name: x\ntasks:\n  - name: A\n    fields: [{name: a, type: nope}, {name: b, type: zilch}]\n")
    with pytest.raises(SpecInvalid) as info:
        load_agent(directory)
    assert len(info.value.errors) == 2 and str(info.value).count("agent.yaml:4:") == 2


def test_example_agents_validate():
    from tests.conftest import WORKSHEETS

    for directory in sorted(p for p in WORKSHEETS.iterdir() if (p / "agent.yaml").exists()):
        _, errors = check_agent(directory)
        assert errors == [], f"{directory.name}: {errors}"
