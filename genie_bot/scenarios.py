"""Conversation tests: scripted conversations written as data, checked turn by turn.

One YAML file per scenario::

    name: join a waitlist
    today: 2026-11-21                 # optional, the date the conversation happens on
    turns:
      - user: I need help joining a waitlist
        expect:
          acts: [AskField trouble_shoot_0.issue_type]   # every act, in order
          says: [waitlist]                              # substrings of the reply (any case)
          not_says: [submitted]
          state: {main_0.student_task: TroubleShoot}    # instance.field (through nested instances)
          submissions: 0                                # side effects recorded so far
          errors: 0                                     # statements the runtime rejected

An act pattern is the act's type, optionally followed by ``field``, ``instance``, or
``instance.field`` (``Report main_0``, ``AskForConfirmation main_0``, ``Say``). Each turn
runs through the agent as a user's message would (parser, runtime, responder); side effects
go to a ledger private to the scenario.
"""

from __future__ import annotations

import datetime as dt
import os
import tempfile
from collections.abc import Callable
from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Iterator

import yaml

from .acts import Act
from .agent import Agent
from .spec import InstanceRef
from .state import DialogueState
from .submissions import DATA_DIR_ENV, submissions

SCENARIO_DIR = "tests"


@dataclass
class TurnFailure:
    turn: int
    user: str
    problems: list[str]

    def __str__(self) -> str:
        return f"turn {self.turn} ({self.user!r}):\n" + "\n".join(f"    {p}" for p in self.problems)


@dataclass
class ScenarioResult:
    name: str
    path: Path
    failures: list[TurnFailure] = field(default_factory=list)
    transcript: list[tuple[str, str]] = field(default_factory=list)

    @property
    def passed(self) -> bool:
        return not self.failures


def scenario_files(agent_dir: Path) -> list[Path]:
    """The agent's scenario files: YAML files under ``tests/`` with a ``turns`` list."""
    out = []
    for path in sorted((agent_dir / SCENARIO_DIR).glob("*.yaml")):
        data = yaml.safe_load(path.read_text(encoding="utf-8"))
        if isinstance(data, dict) and isinstance(data.get("turns"), list):
            out.append(path)
    return out


def run_scenario(make_agent: Callable[[Callable[[], dt.datetime]], Agent], path: Path) -> ScenarioResult:
    """Run one scenario file; ``make_agent(clock)`` builds a fresh agent for it."""
    data = yaml.safe_load(path.read_text(encoding="utf-8"))
    today = data.get("today") or dt.date.today()
    today = dt.date.fromisoformat(today) if isinstance(today, str) else today
    agent = make_agent(lambda: dt.datetime.combine(today, dt.time(12, 0)))
    result = ScenarioResult(str(data.get("name", path.stem)), path)
    with _private_ledger():
        state = agent.new_state()
        for number, turn in enumerate(data["turns"], 1):
            user = str(turn["user"])
            reply = agent.respond(state, user)
            state = reply.state
            result.transcript.append((user, reply.text))
            problems = check_turn(turn.get("expect") or {}, reply.acts, reply.text, state, len(reply.errors))
            if problems:
                problems.append(f"parse was: {reply.parse.statements!r}")
                result.failures.append(TurnFailure(number, user, problems))
    return result


@contextmanager
def _private_ledger() -> Iterator[None]:
    previous = os.environ.get(DATA_DIR_ENV)
    with tempfile.TemporaryDirectory(prefix="genie-scenario-") as directory:
        os.environ[DATA_DIR_ENV] = directory
        try:
            yield
        finally:
            if previous is None:
                os.environ.pop(DATA_DIR_ENV, None)
            else:
                os.environ[DATA_DIR_ENV] = previous


def check_turn(expect: dict[str, Any], acts: list[Act], reply: str, state: DialogueState, errors: int) -> list[str]:
    problems = []
    if "acts" in expect:
        wanted = list(expect["acts"])
        got = [a.formal() for a in acts]
        if len(wanted) != len(acts) or not all(act_matches(p, a) for p, a in zip(wanted, acts)):
            problems.append(f"acts: expected {wanted}, got {got}")
    for text in _as_list(expect.get("says")):
        if str(text).lower() not in reply.lower():
            problems.append(f"reply should contain {text!r}; reply was {reply!r}")
    for text in _as_list(expect.get("not_says")):
        if str(text).lower() in reply.lower():
            problems.append(f"reply should not contain {text!r}; reply was {reply!r}")
    for path, wanted in (expect.get("state") or {}).items():
        actual = state_value(state, str(path))
        if not _same(actual, wanted):
            problems.append(f"state {path}: expected {wanted!r}, got {actual!r}")
    if "submissions" in expect and len(submissions()) != expect["submissions"]:
        problems.append(f"submissions: expected {expect['submissions']}, got {len(submissions())}")
    if "errors" in expect and errors != expect["errors"]:
        problems.append(f"errors: expected {expect['errors']}, got {errors}")
    return problems


def act_matches(pattern: str, act: Act) -> bool:
    kind, _, target = str(pattern).partition(" ")
    if kind != act.kind:
        return False
    if not target:
        return True
    instance = getattr(act, "instance", None) or getattr(act, "query_or_instance", None)
    field_name = getattr(act, "field", None)
    if "." in target:
        return f"{instance}.{field_name}" == target
    return target in (instance, field_name, getattr(act, "worksheet", None))


_MISSING = object()


def state_value(state: DialogueState, path: str) -> Any:
    """``main_0.courses.course_0.course_name``: a value, following nested instances."""
    name, *attributes = path.split(".")
    current: Any = state.instances.get(name, _MISSING)
    for attribute in attributes:
        if isinstance(current, InstanceRef):
            current = state.instances.get(current.name, _MISSING)
        if current is _MISSING or current is None:
            return None
        if hasattr(current, "values") and isinstance(current.values, dict):
            if attribute in ("status", "confirmed", "result", "worksheet"):
                current = getattr(current, attribute)
            else:
                current = current.values.get(attribute)
        elif isinstance(current, dict):
            current = current.get(attribute)
        else:
            return None
    return None if current is _MISSING else current


def _same(actual: Any, wanted: Any) -> bool:
    if isinstance(actual, (dt.date, dt.time)) and isinstance(wanted, str):
        return actual.isoformat() == wanted
    if isinstance(actual, (dt.date, dt.time)) and isinstance(wanted, (dt.date, dt.time)):
        return actual == wanted
    return actual == wanted


def _as_list(value: Any) -> list:
    if value is None:
        return []
    return value if isinstance(value, list) else [value]
