"""Replaying recorded conversations turn by turn (regression tests, debugging, benchmarks).

A trace is JSON lines: ``{"user": "...", "parse": "<statements>", "kb_result": [...]}``. With
the recorded parser each turn applies its ``parse``; a knowledge query in it is answered
with ``kb_result`` instead of a live lookup. Each output line adds the acts (formal
strings), the state after the turn and the errors of the turn. Run in a sandbox (as
``genie-bot replay`` does), a turn the bot would park leaves the state as it was, its error saying why.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from .runtime import LocalApiExecutor, RecordedKnowledge, Runtime
from .runtime.isolation import EvaluationAbandoned, SandboxBusy
from .state import DialogueState
from .values import decode_value

Parser = Callable[[DialogueState, dict[str, Any]], str]
"""Turns (state before the turn, trace line) into statements."""


def recorded_parser(state: DialogueState, line: dict[str, Any]) -> str:
    return line.get("parse", "")


@dataclass
class ReplayedTurn:
    user: str
    parse: str
    acts: list[str]
    state: dict[str, Any]
    errors: list[str]

    def to_json(self) -> str:
        return json.dumps({"user": self.user, "parse": self.parse, "acts": self.acts, "state": self.state,
                           "errors": self.errors}, ensure_ascii=False)


def read_trace(path: Path) -> list[dict[str, Any]]:
    lines = []
    for number, text in enumerate(path.read_text(encoding="utf-8").splitlines(), 1):
        if not text.strip():
            continue
        try:
            line = json.loads(text)
        except json.JSONDecodeError as exc:
            raise ValueError(f"{path}:{number}: not JSON: {exc.msg}") from None
        if not isinstance(line, dict) or "user" not in line:
            raise ValueError(f"{path}:{number}: each line needs at least a \"user\" key")
        lines.append(line)
    return lines


def replay(runtime: Runtime, lines: Iterable[dict[str, Any]], parser: Parser = recorded_parser) -> Iterator[ReplayedTurn]:
    """Run each trace line as a turn, carrying the state from one to the next."""
    state = runtime.new_state()
    for line in lines:
        parse = parser(state, line)
        executor = runtime.executor
        if "kb_result" in line:
            executor = LocalApiExecutor(runtime.spec, knowledge=RecordedKnowledge(decode_value(line["kb_result"])))
        try:
            result = runtime.run_turn(state, parse, executor=executor)
        except (EvaluationAbandoned, SandboxBusy) as exc:
            yield ReplayedTurn(line.get("user", ""), parse, [], state.to_dict(), [f"not applied: {exc}"])
            continue
        state = result.state
        yield ReplayedTurn(line.get("user", ""), parse, [a.formal() for a in result.acts], state.to_dict(),
                           list(result.errors))
