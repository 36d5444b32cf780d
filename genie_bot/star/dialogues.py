"""Reading STAR dialogues into the few events a replay needs.

A STAR dialogue file holds every event of a Wizard-of-Oz session; a replay needs only the
user's messages, the wizard's API calls with their results, and the wizard's turns with
their system-action labels. Everything else (the user's instructions, the wizard's
suggestion requests, the label options offered to the wizard) is dropped here, so no later
stage can see it by accident.
"""

from __future__ import annotations

import json
from collections.abc import Iterable
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Union


@dataclass(frozen=True)
class UserTurn:
    text: str


@dataclass(frozen=True)
class ApiResult:
    """What the knowledge base returned to one of the wizard's API calls (``None``: nothing)."""

    api: str
    item: dict[str, Any] | None


@dataclass(frozen=True)
class WizardTurn:
    """A wizard message; ``label`` is its system action, ``None`` for free text (not scored)."""

    label: str | None
    index: int
    """Its position among the dialogue's wizard turns (0-based, free-text ones included)."""


Event = Union[UserTurn, ApiResult, WizardTurn]


@dataclass(frozen=True)
class Dialogue:
    id: str
    task: str
    events: tuple[Event, ...]


def dialogue_task(data: dict[str, Any]) -> str | None:
    """The wizard's task, or ``None`` for multi-task dialogues (not part of this benchmark)."""
    capabilities = data.get("Scenario", {}).get("WizardCapabilities", [])
    return capabilities[0]["Task"] if len(capabilities) == 1 else None


def read_dialogue(path: Path) -> Dialogue | None:
    data = json.loads(path.read_text(encoding="utf-8"))
    task = dialogue_task(data)
    if task is None:
        return None
    return Dialogue(str(data["DialogueID"]), task, tuple(_events(data["Events"])))


def _events(raw: Iterable[dict[str, Any]]) -> Iterable[Event]:
    wizard_turns = 0
    for event in raw:
        agent, action = event.get("Agent"), event.get("Action")
        if agent == "User" and action == "utter":
            yield UserTurn(event["Text"])
        elif agent == "KnowledgeBase" and action == "return_item":
            yield ApiResult(event["APIName"], event.get("Item"))
        elif agent == "Wizard" and action in ("pick_suggestion", "utter"):
            yield WizardTurn(event.get("ActionLabel"), wizard_turns)
            wizard_turns += 1


def load_dialogues(data_dir: Path, tasks: Iterable[str] | None = None,
                   ids: set[tuple[str | None, str]] | None = None) -> list[Dialogue]:
    """Single-task dialogues of ``data_dir/dialogues``, by numeric id, optionally filtered."""
    wanted_tasks = set(tasks) if tasks else None
    wanted_ids = {dialogue_id for _, dialogue_id in ids} if ids is not None else None
    out = []
    for path in sorted((data_dir / "dialogues").glob("*.json"), key=_numeric_stem):
        if wanted_ids is not None and path.stem not in wanted_ids:
            continue  # cheap pre-filter: the file name is the dialogue id
        dialogue = read_dialogue(path)
        if dialogue is None or (wanted_tasks is not None and dialogue.task not in wanted_tasks):
            continue
        if ids is not None and (None, dialogue.id) not in ids and (dialogue.task, dialogue.id) not in ids:
            continue
        out.append(dialogue)
    return out


def read_ids(path: Path) -> set[tuple[str | None, str]]:
    """Dialogue ids, one a line: ``1042`` or ``trivia<TAB>1042``; blank lines and ``#`` comments skipped."""
    ids: set[tuple[str | None, str]] = set()
    for line in path.read_text(encoding="utf-8").splitlines():
        line = line.split("#", 1)[0].strip()
        if not line:
            continue
        task, _, dialogue_id = line.rpartition("\t")
        ids.add((task.strip() or None, dialogue_id.strip()))
    return ids


def _numeric_stem(path: Path) -> tuple[int, str]:
    return (int(path.stem), "") if path.stem.isdigit() else (1 << 62, path.stem)
