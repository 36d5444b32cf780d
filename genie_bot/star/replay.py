"""Replaying one STAR dialogue against an agent and predicting a label at every labelled wizard turn.

The agent only ever receives the user's messages, one ``Agent.respond`` per message, in
order; it never sees the wizard's text or labels. A user message is answered when the next
wizard turn comes up, so API results the wizard obtained in between are available to the
agent (and nothing recorded later is). The agent's state evolves from its own turns alone.
"""

from __future__ import annotations

from dataclasses import dataclass

from ..agent import Agent
from .dialogues import ApiResult, Dialogue, UserTurn, WizardTurn
from .labels import LabelMap
from .recorded import RecordedApiExecutor


@dataclass(frozen=True)
class Prediction:
    dialogue: str
    task: str
    turn: int
    """Index of the wizard turn in the dialogue (0-based, counting unlabelled ones)."""
    user: str
    gold: str
    predicted: str
    acts: tuple[str, ...]
    parse: str

    def to_dict(self) -> dict:
        return {"dialogue": self.dialogue, "task": self.task, "turn": self.turn, "user": self.user,
                "gold": self.gold, "predicted": self.predicted, "acts": list(self.acts), "parse": self.parse}


@dataclass(frozen=True)
class _Answer:
    """The agent's answer to the latest user message, as the next wizard turn is scored against it."""

    user: str
    acts: tuple[str, ...]
    parse: str
    label: str


def replay_dialogue(agent: Agent, labels: LabelMap, dialogue: Dialogue, recorded_api: str) -> list[Prediction]:
    executor = RecordedApiExecutor(agent.spec, recorded_api)
    state = agent.new_state()
    unanswered: list[str] = []
    predictions = []
    for event in dialogue.events:
        if isinstance(event, ApiResult):
            executor.reveal(event)
        elif isinstance(event, UserTurn):
            unanswered.append(event.text)
        elif isinstance(event, WizardTurn):
            answer = _Answer("", (), "", labels.label([], state, understood=True))  # no new message: nothing new
            for text in unanswered:
                reply = agent.respond(state, text, executor=executor)
                state = reply.state
                answer = _Answer(text, tuple(a.formal() for a in reply.acts), reply.parse.statements,
                                 labels.label(reply.acts, state, reply.parse.understood))
            unanswered = []
            if event.label is not None:
                predictions.append(Prediction(dialogue.id, dialogue.task, event.index, answer.user, event.label,
                                              answer.label, answer.acts, answer.parse))
    return predictions
