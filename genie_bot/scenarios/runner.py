"""Running a conversation test through an agent, turn by turn, as a user's messages would."""

from __future__ import annotations

import datetime as dt
import os
import tempfile
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path

from ..agent import Agent
from ..submissions import DATA_DIR_ENV
from .checks import check_turn
from .format import ScenarioInvalid, is_scenario_file, load_scenario
from .stubs import StubbedApis

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
    invalid: list[str] = field(default_factory=list)
    """Problems of the scenario file itself (``file:line:col: message``); it did not run."""

    @property
    def passed(self) -> bool:
        return not self.failures and not self.invalid


def scenario_files(agent_dir: Path) -> list[Path]:
    """The agent's scenario files: YAML files under ``tests/`` with a ``turns`` list."""
    return [path for path in sorted((agent_dir / SCENARIO_DIR).glob("*.yaml")) if is_scenario_file(path)]


def run_scenario(make_agent: Callable[[Callable[[], dt.datetime]], Agent], path: Path,
                 real_apis: bool = False) -> ScenarioResult:
    """Run one scenario file; ``make_agent(clock)`` builds a fresh agent for it.

    API functions answer from the scenario's ``apis:`` stubs; a side-effecting one without a
    stub runs only with ``real_apis`` (into a ledger private to the scenario).
    """
    try:
        scenario = load_scenario(path)
    except ScenarioInvalid as exc:
        return ScenarioResult(path.stem, path, invalid=[str(e) for e in exc.errors])
    today = scenario.today or dt.date.today()
    agent = make_agent(lambda: dt.datetime.combine(today, dt.time(12, 0)))
    apis = StubbedApis(agent.runtime.executor, scenario.apis, real_side_effects=real_apis)
    result = ScenarioResult(scenario.name, path)
    with private_ledger("genie-scenario-"):
        state = agent.new_state()
        for number, turn in enumerate(scenario.turns, 1):
            made_before, missing_before = len(apis.calls), len(apis.missing)
            reply = agent.respond(state, turn.user, executor=apis)
            state = reply.state
            result.transcript.append((turn.user, reply.text))
            problems = check_turn(turn.expect, reply.acts, reply.text, state, len(reply.errors),
                                  apis.calls[made_before:], apis.side_effect_count)
            problems.extend(f"{name} has side effects and the scenario gives no result for it: add "
                            f"`apis: {{{name}: ...}}` (or run with real APIs)" for name in apis.missing[missing_before:])
            if problems:
                problems.append(f"parse was: {reply.parse.statements!r}")
                result.failures.append(TurnFailure(number, turn.user, problems))
    return result


@contextmanager
def private_ledger(prefix: str) -> Iterator[None]:
    """Side effects of example agents that do run (``--real-apis``, lookups) go to a ledger of the
    run's own, a temporary directory named ``prefix...``, never ./var."""
    previous = os.environ.get(DATA_DIR_ENV)
    with tempfile.TemporaryDirectory(prefix=prefix) as directory:
        os.environ[DATA_DIR_ENV] = directory
        try:
            yield
        finally:
            if previous is None:
                os.environ.pop(DATA_DIR_ENV, None)
            else:
                os.environ[DATA_DIR_ENV] = previous
