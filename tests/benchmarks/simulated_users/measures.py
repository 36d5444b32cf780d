"""Two measures of a conversation besides its outcome (issue 26): near-wrong summaries and silent turns.

**Near-wrong summary.** A *summary* is an act that shows the user values of a task and asks them
to check them: ``AskForConfirmation`` (its ``values``, nested instances as nested records),
``AskForFieldConfirmation`` (the one value), or ``AskField`` of a ``confirm`` field (the values of
that field's instance, as the user sees them listed). A summary is *near-wrong* when it shows at
least one value (set, not "NA") that the user never said: a value that differs from the user's
goal for that field (by the checker's comparison: dates as dates, rows by key, lists as sets)
and is not one of the wrong values the user did type and later corrected (their "slips"). A
field the goal does not have (a detail of a choice the user did not make, like a washer when
the problem is plumbing) counts when it holds a value; so does any value in a summary of a task
the user did not ask for. Each summary shown is counted once, however many wrong values it
holds, and whether or not the user then corrects it: a user who reads carelessly would have
confirmed it.

**Silent turn.** A user message *during an open task* (a task's root instance was active or
proposed before the message) is *silent* when, after it, (1) the dialogue state is unchanged:
every instance's values, status, confirmations and confirmed fields, and the knowledge answer,
are as before (the engine's turn counter and logical clock are left out); (2) every act of the
reply is a question the previous reply also asked, identically (a question re-asked with a
reason, like "This one is required, so I can't skip it", is a different act); and (3) every
paragraph of the reply's text already appeared in the previous reply. That is, the message
changed nothing and the reply says nothing about it: it repeats the previous reply, or the same
question or summary, without a word ("Sorry, I didn't catch that" is a word, the first time).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from genie_bot.acts import Act, AskField, AskForConfirmation, AskForFieldConfirmation
from genie_bot.spec import AgentSpec
from genie_bot.state import DialogueState, InstanceStatus

from .checker import goal_path, instance_tree, normalise
from .goals import Goal

NA = "NA"


# -- near-wrong summaries ------------------------------------------------------------------------
@dataclass(frozen=True)
class UnsaidValue:
    """A value a summary showed that the user never said for that field."""

    path: tuple[str, ...]
    wanted: Any
    shown: Any

    def __str__(self) -> str:
        return f"{'.'.join(self.path)}: shown {self.shown!r}, wanted {self.wanted!r}"


def summaries(spec: AgentSpec, acts: list[Act], state: DialogueState) -> list[tuple[str, dict[str, Any]]]:
    """The summaries a reply shows: (instance name, values shown), per the module docstring."""
    out: list[tuple[str, dict[str, Any]]] = []
    for act in acts:
        if isinstance(act, AskForConfirmation):
            out.append((act.instance, dict(act.values)))
        elif isinstance(act, AskForFieldConfirmation):
            out.append((act.instance, {act.field: act.value}))
        elif isinstance(act, AskField):
            instance = state.named(act.instance)
            task = spec.tasks.get(instance.worksheet) if instance is not None else None
            if instance is not None and task is not None and act.field in task.fields \
                    and task.fields[act.field].type.kind == "confirm":
                out.append((act.instance, _shown(spec, task.name, instance_tree(state, instance))))
    return out


def _shown(spec: AgentSpec, worksheet: str, tree: dict[str, Any]) -> dict[str, Any]:
    """An instance's input values as a summary lists them: set ones only, nested ones nested."""
    fields = spec.tasks[worksheet].fields
    out: dict[str, Any] = {}
    for name, value in tree.items():
        f = fields.get(name)
        if f is None or f.kind != "input" or f.type.kind == "confirm" or value is None or value == NA:
            continue
        nested = f.type.referenced()
        out[name] = _shown(spec, nested, value) if nested in spec.tasks and isinstance(value, dict) else value
    return out


def unsaid_values(spec: AgentSpec, goal: Goal | None, worksheet: str, shown: dict[str, Any],
                  slips: dict[tuple[str, ...], list[Any]], where: tuple[str, ...] = ()) -> list[UnsaidValue]:
    """The values of a summary of a ``worksheet`` instance at field path ``where`` that the user never
    said. ``goal`` is the goal's node for that instance (None when the task is not the user's)."""
    fields = spec.tasks[worksheet].fields
    out: list[UnsaidValue] = []
    for name, value in shown.items():
        f = fields.get(name)
        if f is None or value is None or value == NA:
            continue
        path = where + (name,)
        wanted = goal.values.get(name) if goal is not None else None
        nested = f.type.referenced()
        if nested in spec.tasks and isinstance(value, dict):
            out += unsaid_values(spec, wanted if isinstance(wanted, Goal) else None, nested, value, slips, path)
            continue
        said = [normalise(spec, f, v) for v in slips.get(path, [])]
        got = normalise(spec, f, value)
        if got is not None and got != normalise(spec, f, wanted) and got not in said:
            out.append(UnsaidValue(path, wanted, value))
    return out


def near_wrong_summaries(spec: AgentSpec, goal: Goal, acts: list[Act], state: DialogueState,
                         slips: dict[tuple[str, ...], list[Any]]) -> list[list[UnsaidValue]]:
    """For each near-wrong summary the reply shows, the values in it the user never said."""
    found = []
    for instance_name, shown in summaries(spec, acts, state):
        instance = state.named(instance_name)
        if instance is None or instance.worksheet not in spec.tasks:
            continue
        where = goal_path(state, instance_name, goal.worksheet)
        node = goal.node(where) if where is not None else None
        unsaid = unsaid_values(spec, node, instance.worksheet, shown, slips, where or ())
        if unsaid:
            found.append(unsaid)
    return found


# -- silent turns --------------------------------------------------------------------------------
@dataclass(frozen=True)
class Exchange:
    """What a silent-turn check needs of a turn: the state before and after, the reply and its acts."""

    task_open: bool
    """A task's root instance was active or proposed before the user's message."""
    before: Any
    after: Any
    """``snapshot`` of the state before and after the turn."""
    acts: tuple[str, ...]
    """The reply's acts, ``Act.formal()``."""
    questions: tuple[str, ...]
    """Those of the acts that are questions."""
    reply: str


def snapshot(state: DialogueState) -> Any:
    """What the user's message can change in a state: instances (without their logical clock) and the
    knowledge answer."""
    data = state.to_dict()
    instances = [{k: v for k, v in i.items() if k != "touched"} for i in data["instances"]]
    return repr((instances, data["answer"]))


def task_open(spec: AgentSpec, state: DialogueState) -> bool:
    return any(i.parent is None and i.worksheet in spec.tasks
               and i.status in (InstanceStatus.ACTIVE, InstanceStatus.PROPOSED) for i in state.instances.values())


def is_silent(turn: Exchange, previous_acts: tuple[str, ...], previous_reply: str) -> bool:
    """Whether a turn is silent (module docstring), given the previous reply and its acts."""
    if not turn.task_open or turn.before != turn.after:
        return False
    if any(act not in turn.questions or act not in previous_acts for act in turn.acts):
        return False
    said_before = set(_paragraphs(previous_reply))
    return all(paragraph in said_before for paragraph in _paragraphs(turn.reply))


def _paragraphs(text: str) -> list[str]:
    return [" ".join(p.split()) for p in text.split("\n\n") if p.strip()]
