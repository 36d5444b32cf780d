"""Evaluating the STAR agents on a directory of STAR dialogues, task by task."""

from __future__ import annotations

import datetime as dt
import json
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from pathlib import Path

from ..agent import Agent
from ..parsers import Parser, RuleParser
from ..spec import AgentSpec, load_agent
from . import AGENTS_DIR
from .dialogues import load_dialogues
from .labels import LABELS_FILE, load_label_map
from .metrics import Score, score
from .replay import Prediction, replay_dialogue

NOW = dt.datetime(2020, 6, 1, 12, 0)
"""A fixed clock (STAR was collected in 2020), so relative dates parse the same on every run."""

ParserFactory = Callable[[AgentSpec], Parser]


@dataclass(frozen=True)
class TaskResult:
    task: str
    dialogues: int
    score: Score


@dataclass(frozen=True)
class Evaluation:
    results: tuple[TaskResult, ...]
    predictions: tuple[Prediction, ...]


def star_tasks(agents_dir: Path) -> list[str]:
    """The tasks with an agent: subdirectories of ``agents_dir`` that declare labels."""
    return sorted(p.parent.name for p in agents_dir.glob(f"*/{LABELS_FILE}"))


def recorded_api_name(data_dir: Path, task: str) -> str:
    """The task's API function (``apis/<task>.json``), which the agent's API module must define."""
    schema = json.loads((data_dir / "apis" / f"{task}.json").read_text(encoding="utf-8"))
    return str(schema["function"])


def evaluate(data_dir: Path, tasks: Iterable[str], make_parser: ParserFactory = lambda spec: RuleParser(),
             ids: set[tuple[str | None, str]] | None = None, agents_dir: Path = AGENTS_DIR) -> Evaluation:
    tasks = list(tasks)
    dialogues = load_dialogues(data_dir, tasks, ids)
    results, predictions = [], []
    for task in tasks:
        spec = load_agent(agents_dir / task)
        agent = Agent(spec, make_parser(spec), clock=lambda: NOW)
        labels = load_label_map(agents_dir / task)
        api = recorded_api_name(data_dir, task)
        mine = [d for d in dialogues if d.task == task]
        task_predictions = [p for d in mine for p in replay_dialogue(agent, labels, d, api)]
        results.append(TaskResult(task, len(mine), score((p.gold, p.predicted) for p in task_predictions)))
        predictions.extend(task_predictions)
    return Evaluation(tuple(results), tuple(predictions))
