"""The worksheet reference (genie_bot/spec/reference.py) is the loader's, the schema's and the docs' one source.

A key the loader reads but the reference lacks, a shipped schema or docs page not regenerated,
or an example agent the schema rejects fails here.
"""

from __future__ import annotations

import ast
import io
import json
from contextlib import redirect_stdout
from pathlib import Path

import jsonschema
import pytest
import yaml

from genie_bot.cli import main
from genie_bot.spec import check_agent, loader, reference

REPO = Path(__file__).resolve().parents[2]
EXAMPLE_AGENTS = sorted(p.parent for p in (REPO / "worksheets").glob("**/agent.yaml"))
REGENERATE = ("regenerate: genie-bot schema > genie_bot/spec/agent.schema.json && "
              "genie-bot schema --markdown > docs/reference.md")
ALL_KEYS = {key for section in reference.SECTIONS for key in section.names()}
KEY_READERS = {"get": 0, "loc_of": 0, "_bool": 1, "_code": 3, "_list": 1, "_identifier": 1, "_data_path": 1}
"""The loader's ways of reading a key of a YAML mapping, and where the key stands among their arguments:
``raw.get("kind")``, ``self._bool(raw, "confirm", False)``."""


class _Yaml(yaml.SafeLoader):
    """YAML as an editor's language server reads it: dates stay text."""


_Yaml.yaml_implicit_resolvers = {k: [r for r in v if r[0] != "tag:yaml.org,2002:timestamp"]
                                 for k, v in yaml.SafeLoader.yaml_implicit_resolvers.items()}


def validator() -> jsonschema.Draft202012Validator:
    return jsonschema.Draft202012Validator(json.loads(reference.SCHEMA_FILE.read_text(encoding="utf-8")),
                                           format_checker=jsonschema.FormatChecker())


def keys_the_loader_reads() -> set[str]:
    """Every string the loader passes to a key reader, or subscripts or tests a mapping with."""
    tree = ast.parse(Path(loader.__file__).read_text(encoding="utf-8"))
    found: set[str] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute) and node.func.attr in KEY_READERS:
            position = KEY_READERS[node.func.attr]
            key = node.args[position] if len(node.args) > position else None
            if isinstance(key, ast.Constant) and isinstance(key.value, str):
                found.add(key.value)
        elif isinstance(node, ast.Subscript) and isinstance(node.slice, ast.Constant) and isinstance(node.slice.value, str):
            found.add(node.slice.value)
        elif isinstance(node, ast.Compare) and isinstance(node.left, ast.Constant) and isinstance(node.left.value, str) \
                and any(isinstance(op, ast.In) for op in node.ops):
            found.add(node.left.value)
    return found


def test_every_key_the_loader_reads_is_in_the_reference():
    missing = keys_the_loader_reads() - ALL_KEYS
    assert not missing, f"the loader reads keys the reference does not declare: {sorted(missing)}"


def test_the_loader_accepts_every_key_of_the_reference_and_no_other(tmp_path):
    for section in reference.SECTIONS:
        assert set(reference.keys_of(section.name)) == set(section.names())
    agent = tmp_path / "agent"
    agent.mkdir()
    (agent / "agent.yaml").write_text(
        "name: a\ntasks:\n  - name: T\n    colour: red\n    fields:\n      - {name: x, type: str, lable: X}\n"
        "knowledge:\n  - {name: k, columns: {c: {descripton: d}}}\n", encoding="utf-8")
    _, errors = check_agent(agent)
    messages = [e.message for e in errors]
    assert "unknown task worksheet key 'colour'" in messages
    assert "unknown field key 'lable' (did you mean 'label'?)" in messages
    assert "unknown column key 'descripton' (did you mean 'description'?)" in messages


def test_the_schema_has_every_key_of_the_reference_and_rejects_others():
    schema = reference.json_schema()
    sections = {"agent": schema, **schema["$defs"]}
    for section in reference.SECTIONS:
        assert list(sections[section.name]["properties"]) == list(section.names())
        assert sections[section.name]["additionalProperties"] is False
    jsonschema.Draft202012Validator.check_schema(schema)


def test_every_example_value_of_the_reference_fits_its_key():
    for section in reference.SECTIONS:
        for key in section.keys:
            if key.example is not None:
                jsonschema.Draft202012Validator({**key.schema, "$defs": reference.json_schema()["$defs"]}).validate(
                    key.example)


def test_the_shipped_schema_and_the_docs_page_are_generated_from_the_reference():
    assert reference.SCHEMA_FILE.read_text(encoding="utf-8") == reference.schema_text(), REGENERATE
    assert (REPO / "docs" / "reference.md").read_text(encoding="utf-8") == reference.markdown(), REGENERATE


@pytest.mark.parametrize("agent", EXAMPLE_AGENTS, ids=lambda p: str(p.relative_to(REPO)))
def test_every_example_agent_validates_against_the_schema(agent):
    data = yaml.load((agent / "agent.yaml").read_text(encoding="utf-8"), Loader=_Yaml)
    problems = [f"{'/'.join(map(str, e.absolute_path))}: {e.message}" for e in validator().iter_errors(data)]
    assert not problems


def test_the_schema_catches_what_an_editor_should_underline():
    data = yaml.load("name: a\ntasks:\n  - name: T\n    fields:\n      - {name: n, type: int, kind: inpt,"
                     " validation: {min: soon}}\n", Loader=_Yaml)
    errors = {"/".join(map(str, e.absolute_path)) for e in validator().iter_errors(data)}
    assert errors == {"tasks/0/fields/0/kind", "tasks/0/fields/0/validation/min"}


def test_genie_bot_schema_prints_the_shipped_schema_and_the_reference():
    for argv, expected in ((["schema"], reference.schema_text()), (["schema", "--markdown"], reference.markdown())):
        out = io.StringIO()
        with redirect_stdout(out):
            assert main(argv) == 0
        assert out.getvalue() == expected


def test_the_reference_says_what_python_worksheet_code_may_use_from_the_interpreters_own_lists():
    from genie_bot.interpreter.allowed import BUILTINS, METHODS
    from genie_bot.interpreter.whitelist import ALLOWED, FORBIDDEN_NAMES, PART, parse_checked

    section = reference.markdown().split("## Worksheet code")[1].split("## Editor set-up")[0]
    documented = [words for category, words in ALLOWED.values() if category != PART]
    assert documented and all(words in section for words in documented)
    assert all(f"`{name}`" in section for name in [*BUILTINS, *FORBIDDEN_NAMES, *(m for ms in METHODS.values() for m in ms)])
    parse_checked("for item in self.items:\n    if item > 2:\n        break\n    total += item")  # as documented
