"""Reading a conversation test: its YAML checked against the scenario schema, with positions.

A scenario is data (Rasa's end-to-end tests are the model); a misspelt key such as ``say:``
for ``says:`` must fail loudly, as a worksheet error does, with ``file:line:col``.
"""

from __future__ import annotations

import datetime as dt
from dataclasses import dataclass, field
from functools import cache
from importlib import resources
from pathlib import Path
from typing import Any

import jsonschema
import yaml
from rapidfuzz import fuzz, process

from ..errors import GenieError
from ..spec.diagnostics import Loc, SpecError
from ..spec.yaml_source import LocatedList, LocatedMap, load_located_yaml


class ScenarioInvalid(GenieError):
    """A scenario file that cannot run; carries every problem found, each with its position."""

    def __init__(self, errors: list[SpecError]):
        self.errors = sorted(errors, key=lambda e: (e.loc, e.message))
        super().__init__("\n".join(str(e) for e in self.errors))


@dataclass
class ScenarioTurn:
    user: str
    expect: dict[str, Any]


@dataclass
class Scenario:
    name: str
    path: Path
    today: dt.date | None
    turns: list[ScenarioTurn]
    apis: dict[str, Any] = field(default_factory=dict)
    """Stubbed results of API functions, by function name."""


@cache
def _schema() -> dict[str, Any]:
    text = resources.files(__package__).joinpath("schema.yaml").read_text(encoding="utf-8")
    return yaml.safe_load(text)


def is_scenario_file(path: Path) -> bool:
    """A YAML file whose top level has ``turns`` (other YAML files under tests/ are not scenarios)."""
    try:
        node = yaml.compose(path.read_text(encoding="utf-8"), Loader=yaml.SafeLoader)
    except yaml.YAMLError:
        return True  # a broken scenario is still a scenario: loading it reports where it breaks
    return isinstance(node, yaml.MappingNode) and any(
        isinstance(key, yaml.ScalarNode) and key.value == "turns" for key, _ in node.value)


def load_scenario(path: Path) -> Scenario:
    """Parse and check ``path``; raise :class:`ScenarioInvalid` with every problem found."""
    data, errors = load_located_yaml(path.read_text(encoding="utf-8"), str(path))
    if data is None or errors:
        raise ScenarioInvalid(errors)
    validator = jsonschema.Draft202012Validator(_schema(), format_checker=jsonschema.FormatChecker())
    problems = [problem for error in validator.iter_errors(_plain(data)) for problem in _located(error, data)]
    if problems:
        raise ScenarioInvalid(problems)
    today = data.get("today")
    return Scenario(
        name=str(data["name"]),
        path=path,
        today=dt.date.fromisoformat(str(today)) if today is not None else None,
        turns=[ScenarioTurn(str(turn["user"]), dict(turn.get("expect") or {})) for turn in data["turns"]],
        apis=dict(data.get("apis") or {}),
    )


def _plain(value: Any) -> Any:
    """Located YAML as plain JSON-like data (dates as ISO strings) for the schema validator."""
    if isinstance(value, dict):
        return {str(k): _plain(v) for k, v in value.items()}
    if isinstance(value, list):
        return [_plain(v) for v in value]
    if isinstance(value, (dt.date, dt.datetime)):
        return value.isoformat()
    return str(value) if isinstance(value, str) else value


def _located(error: jsonschema.ValidationError, data: Any) -> list[SpecError]:
    """One error per problem, at the position of the offending key or value, in plain words."""
    node, loc = data, getattr(data, "loc", Loc("?", 1, 1))
    for step in error.absolute_path:
        if isinstance(node, LocatedMap):
            loc, node = node.loc_of(step), node[step]
        elif isinstance(node, LocatedList) and isinstance(step, int):
            loc, node = node.item_locs[step], node[step]
    where = "/".join(str(step) for step in error.absolute_path) or "the scenario"
    if error.absolute_path and error.absolute_path[-1] == "user" and error.validator == "type":
        return [SpecError(loc, f"{where}: {error.instance!r} is not text; write the message in quotes "
                               "(YAML reads unquoted yes/no as true/false and digits as a number)")]
    if error.validator == "additionalProperties" and isinstance(node, LocatedMap):
        allowed = sorted(error.schema.get("properties", {}) if isinstance(error.schema, dict) else {})
        return [SpecError(node.key_locs.get(key, loc), _unknown_key(str(key), allowed))
                for key in node if key not in allowed]
    return [SpecError(loc, f"{where}: {error.message}")]


def _unknown_key(key: str, allowed: list[str]) -> str:
    close = process.extractOne(key, allowed, scorer=fuzz.ratio, score_cutoff=60)
    hint = f" (did you mean '{close[0]}'?)" if close else ""
    return f"unknown key '{key}'{hint}; expected one of: {', '.join(allowed)}"
