"""The formal dialogue state: worksheet instances, their values, and the latest knowledge answer.

Plain, JSON-serialisable data. Instances are kept flat, in creation order; a field whose
type is another worksheet holds an :class:`InstanceRef` to the nested instance, which is how
the state renders as the same statements a parser writes (``course_0 = Course(...)``,
``main_0.courses = course_0``). ``to_json``/``from_json`` round-trip exactly: dates, times,
references and records are tagged so they come back as the same Python values.
"""

from __future__ import annotations

import copy
import json
import re
from collections.abc import Collection
from dataclasses import dataclass, field
from enum import StrEnum
from typing import Any

from .acts import Act, act_from_dict
from .names import snake_case
from .spec.types import InstanceRef
from .values import decode_value, encode_value

Step = tuple[str, int | None]
"""A step from an instance to one nested in it: a field, and a position when the field holds a list."""


class InstanceStatus(StrEnum):
    """Where a worksheet instance is in its life."""

    ACTIVE = "active"
    """Being filled in."""
    PROPOSED = "proposed"
    """Offered by the agent (``propose``), not yet accepted by the user."""
    COMPLETED = "completed"
    """Its API and actions ran."""
    ABANDONED = "abandoned"
    """Cancelled by the user (``exitws``) or a declined proposal."""
    DROPPED = "dropped"
    """No longer part of the conversation though nobody cancelled it: replaced in the field that
    held it (``replaced_by``), nested in one that was, or a proposal the user let pass. Never
    reported to the user as cancelled."""


@dataclass
class WorksheetInstance:
    """One filled-in (or partly filled-in) task worksheet."""

    name: str
    worksheet: str
    values: dict[str, Any] = field(default_factory=dict)
    confirmed_fields: list[str] = field(default_factory=list)
    status: InstanceStatus = InstanceStatus.ACTIVE
    confirmed: bool | None = None
    """Whole-worksheet confirmation before a side-effecting API (or acceptance of a proposal)."""
    actions_done: bool = False
    result: Any = None
    parent: tuple[str, str] | None = None
    """(instance, field) that holds a reference to this nested instance."""
    touched: int = 0
    """Logical clock of the last change; the policy asks in the most recently touched instance."""
    replaced_by: str | None = None
    """The instance that took this one's place (a dropped instance): a parser's name of this one
    denotes that one (:meth:`DialogueState.denoted`)."""
    changed: list[str] = field(default_factory=list)
    """Its input fields in the order they were last given a value, the latest last: "sorry, the 18th"
    just after the last day was given changes the last day."""

    @property
    def open(self) -> bool:
        return self.status in (InstanceStatus.ACTIVE, InstanceStatus.PROPOSED)

    @property
    def discarded(self) -> bool:
        """Cancelled or dropped: nothing of it is asked, run or submitted any more."""
        return self.status in (InstanceStatus.ABANDONED, InstanceStatus.DROPPED)


class AnswerStatus(StrEnum):
    """Where a knowledge query is."""

    PENDING = "pending"
    """Asked (or its parameters changed) this turn; the policy runs it."""
    NEEDS_PARAM = "needs_param"
    """A required parameter is missing and was asked for (``missing``)."""
    DONE = "done"
    ERROR = "error"


@dataclass(frozen=True)
class Searched:
    """What a knowledge query looked for, read once from the query where it was made (the reply
    says it: "I couldn't find any restaurants with cuisine Ethiopian and city Boston")."""

    tables: tuple[str, ...] = ()
    """The tables it read, by their declared names."""
    conditions: tuple[tuple[str, str], ...] = ()
    """(column, value) of its equality and LIKE conditions, in the order written."""

    def to_dict(self) -> dict[str, Any]:
        return {"tables": list(self.tables), "conditions": [list(c) for c in self.conditions]}

    @classmethod
    def from_dict(cls, data: dict[str, Any] | None) -> "Searched | None":
        if data is None:
            return None
        return cls(tuple(data.get("tables", ())), tuple((str(c), str(v)) for c, v in data.get("conditions", ())))


@dataclass
class KnowledgeAnswer:
    """The latest knowledge query: ``answer(question)`` with its parameters, query and result."""

    question: str
    params: dict[str, Any] = field(default_factory=dict)
    table: str | None = None
    query: str | None = None
    result: Any = None
    status: AnswerStatus = AnswerStatus.PENDING
    target: tuple[str, str] | None = None
    """(instance, field) to receive the record when the answer is a single record."""
    missing: str | None = None
    searched: Searched | None = None
    """What ``query`` looked for, when the back-end that ran it said so."""
    records: dict[str, list[dict[str, Any]]] = field(default_factory=dict)
    """worksheet -> the whole rows of the records ``result`` shows with only some of their columns."""


@dataclass
class DialogueState:
    """The formal state of one conversation: what the user and the agent have established so far.

    ``instances`` holds every worksheet instance by name (``main_0``, ``course_0``), in creation
    order, each with its field values and status; ``answer`` is the latest knowledge query;
    ``last_acts`` are the agent's acts of the previous turn (the question just asked is what a
    short answer refers to); ``aliases`` are further names the parser bound to instances. Turns
    never change a state in place: the runtime works on a :meth:`copy`. It round-trips through
    :meth:`to_json` / :meth:`from_json` exactly, which is how the engine stores sessions.
    """

    instances: dict[str, WorksheetInstance] = field(default_factory=dict)
    answer: KnowledgeAnswer | None = None
    last_acts: list[Act] = field(default_factory=list)
    clock: int = 0
    turn: int = 0
    aliases: dict[str, str] = field(default_factory=dict)
    """Other names the parser gave instances (``course_0 = course``): name -> instance name."""

    # -- instances -----------------------------------------------------------------------------
    def tick(self) -> int:
        self.clock += 1
        return self.clock

    def new_instance_name(self, worksheet: str, avoid: Collection[str] = ()) -> str:
        """``<worksheet>_<n>`` with ``n`` above every number in use, by instances, aliases and the
        names in ``avoid`` (those a parser's output binds: an automatic name never takes one)."""
        base = snake_case(worksheet)
        pattern = re.compile(rf"{re.escape(base)}_(\d+)\Z")
        used = [int(m.group(1)) for m in map(pattern.match, [*self.instances, *self.aliases, *avoid]) if m]
        return f"{base}_{max(used, default=-1) + 1}"

    def add_instance(self, worksheet: str, name: str | None = None, parent: tuple[str, str] | None = None,
                     status: InstanceStatus = InstanceStatus.ACTIVE, avoid: Collection[str] = ()) -> WorksheetInstance:
        instance = WorksheetInstance(name=name or self.new_instance_name(worksheet, avoid), worksheet=worksheet,
                                     parent=parent, status=status, touched=self.tick())
        self.instances[instance.name] = instance
        return instance

    def named(self, name: str) -> WorksheetInstance | None:
        """The instance bound to a parser's name: an alias first (a rebound name), then an instance name."""
        return self.instances.get(self.aliases.get(name, name))

    def denoted(self, name: str) -> WorksheetInstance | None:
        """The instance a parser's name means when it is used: the one bound to it, or, when that
        one was dropped, the one in its place (:meth:`successor`)."""
        instance = self.named(name)
        for _ in range(len(self.instances)):  # a chain of replacements is no longer than the instances
            successor = self.successor(instance) if instance is not None and \
                instance.status == InstanceStatus.DROPPED else None
            if successor is None:
                break
            instance = successor
        return instance

    def successor(self, dropped: WorksheetInstance) -> WorksheetInstance | None:
        """The instance in a dropped one's place: the one put into its field (``replaced_by``), or, for
        one nested in a replaced instance, the one at the same place in the replacement (the same
        field, the same position of a list): ``course_1`` of a replaced list of courses is the
        second course of the new list. None when that place is empty or holds another worksheet."""
        place = self.place_in_replacement(dropped)
        if place is None:
            return None
        instance: WorksheetInstance | None = place[0]
        for field_name, index in place[1]:
            held = instance.values.get(field_name) if instance is not None else None
            if index is not None:
                held = held[index] if isinstance(held, list) and index < len(held) else None
            instance = self.resolve(held) if isinstance(held, InstanceRef) else None
        return instance if instance is not None and instance.worksheet == dropped.worksheet else None

    def place_in_replacement(self, dropped: WorksheetInstance) -> tuple[WorksheetInstance, list[Step]] | None:
        """(the instance that replaced ``dropped`` or the one it was nested in, the fields and list
        positions from there to ``dropped``'s place); None when nothing replaced it or them."""
        path: list[Step] = []
        current = dropped
        for _ in range(len(self.instances)):
            if current.replaced_by is not None:
                replacement = self.instances.get(current.replaced_by)
                return (replacement, path[::-1]) if replacement is not None else None
            if current.parent is None:
                return None
            owner_name, field_name = current.parent
            owner = self.instances.get(owner_name)
            if owner is None or owner.status != InstanceStatus.DROPPED:
                return None  # taken out of a field that is still live: nothing is in its place
            held = owner.values.get(field_name)
            ref = InstanceRef(current.name)
            if isinstance(held, list) and ref in held:
                path.append((field_name, held.index(ref)))
            elif held == ref:
                path.append((field_name, None))
            else:
                return None
            current = owner
        return None

    def of_worksheet(self, worksheet: str, open_only: bool = True) -> list[WorksheetInstance]:
        return [i for i in self.instances.values() if i.worksheet == worksheet and (i.open or not open_only)]

    def resolve(self, value: Any) -> Any:
        """Follow an :class:`InstanceRef` to its instance; other values are returned as they are."""
        return self.instances.get(value.name) if isinstance(value, InstanceRef) else value

    def root_of(self, instance: WorksheetInstance) -> WorksheetInstance:
        while instance.parent and instance.parent[0] in self.instances:
            instance = self.instances[instance.parent[0]]
        return instance

    def descendants(self, instance: WorksheetInstance) -> list[WorksheetInstance]:
        out, frontier = [], [instance.name]
        while frontier:
            parent = frontier.pop()
            children = [i for i in self.instances.values() if i.parent and i.parent[0] == parent]
            out.extend(children)
            frontier.extend(c.name for c in children)
        return out

    def copy(self) -> "DialogueState":
        return copy.deepcopy(self)

    # -- JSON ------------------------------------------------------------------------------------
    def to_dict(self) -> dict[str, Any]:
        return {
            "instances": [_instance_to_dict(i) for i in self.instances.values()],
            "answer": None if self.answer is None else {
                "question": self.answer.question, "params": encode_value(self.answer.params), "table": self.answer.table,
                "query": self.answer.query, "result": encode_value(self.answer.result), "status": self.answer.status,
                "target": list(self.answer.target) if self.answer.target else None, "missing": self.answer.missing,
                "searched": self.answer.searched.to_dict() if self.answer.searched else None,
                **({"records": encode_value(self.answer.records)} if self.answer.records else {}),
            },
            "last_acts": [a.to_dict() for a in self.last_acts],
            "clock": self.clock,
            "turn": self.turn,
            "aliases": dict(self.aliases),
        }

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> "DialogueState":
        answer = data.get("answer")
        return cls(
            instances={i["name"]: _instance_from_dict(i) for i in data.get("instances", [])},
            answer=None if answer is None else KnowledgeAnswer(
                question=answer["question"], params=decode_value(answer["params"]), table=answer["table"],
                query=answer["query"], result=decode_value(answer["result"]), status=AnswerStatus(answer["status"]),
                target=tuple(answer["target"]) if answer["target"] else None, missing=answer["missing"],
                searched=Searched.from_dict(answer.get("searched")), records=decode_value(answer.get("records", {})),
            ),
            last_acts=[act_from_dict(a) for a in data.get("last_acts", [])],
            clock=data.get("clock", 0),
            turn=data.get("turn", 0),
            aliases=dict(data.get("aliases", {})),
        )

    def to_json(self) -> str:
        return json.dumps(self.to_dict(), ensure_ascii=False, sort_keys=True)

    @classmethod
    def from_json(cls, text: str) -> "DialogueState":
        return cls.from_dict(json.loads(text))


def _instance_to_dict(i: WorksheetInstance) -> dict[str, Any]:
    return {
        "name": i.name, "worksheet": i.worksheet, "values": encode_value(i.values),
        "confirmed_fields": list(i.confirmed_fields), "status": i.status, "confirmed": i.confirmed,
        "actions_done": i.actions_done, "result": encode_value(i.result),
        "parent": list(i.parent) if i.parent else None, "touched": i.touched,
        **({"replaced_by": i.replaced_by} if i.replaced_by else {}),
        **({"changed": list(i.changed)} if i.changed else {}),
    }


def _instance_from_dict(d: dict[str, Any]) -> WorksheetInstance:
    return WorksheetInstance(
        name=d["name"], worksheet=d["worksheet"], values=decode_value(d["values"]),
        confirmed_fields=list(d["confirmed_fields"]), status=InstanceStatus(d["status"]), confirmed=d["confirmed"],
        actions_done=d["actions_done"], result=decode_value(d["result"]),
        parent=tuple(d["parent"]) if d["parent"] else None, touched=d["touched"], replaced_by=d.get("replaced_by"),
        changed=list(d.get("changed", [])),
    )
