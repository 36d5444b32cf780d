"""What a message is read against: the spec, the state, the question asked, and where values may go.

A :class:`Context` is made once per message, with its :class:`~.analysis.Analysis`; matchers
only read it. A :class:`Target` is one field a value may go to: of an open task instance, of a
task the message may start ("new:BookAppointment"), or of a worksheet nested in an open one that
is not made yet ("courses_to_take_0.course_1_details").
"""

from __future__ import annotations

import datetime as dt
from dataclasses import dataclass, field
from functools import cached_property
from typing import Any

from ...acts import Act, AskField, AskForConfirmation, AskForFieldConfirmation
from ...runtime.checks import value_problem
from ...runtime.policy import field_applies
from ...spec import NA, AgentSpec, Field, InstanceRef
from ...state import DialogueState, InstanceStatus, WorksheetInstance
from .analysis import Analysis
from .predicates import needs
from .spec_index import SpecIndex

NEW = "new:"
Ways = tuple[tuple[tuple[str, str, Any], ...], ...]
"""Owners of targets in a task not started yet are written ``new:<Task>``."""
MAX_NESTING = 3


@dataclass(frozen=True)
class Target:
    """One field a value may go to (see the module docstring)."""

    owner: str
    """An instance's name, ``new:<Task>``, or ``<instance>.<field>[.<field>...]`` of a nested worksheet not made yet."""
    worksheet: str
    field: Field
    needs: tuple[tuple[tuple[str, str, Any], ...], ...] = ()
    """Ways the field comes to apply (when it does not yet): each, values of other fields ((owner, field,
    value), ...) that a value given to this field says too ("sent it by email": the form was submitted)."""

    @property
    def key(self) -> str:
        return f"{self.owner}.{self.field.name}"

    @property
    def exists(self) -> bool:
        """The instance the field belongs to is in the state."""
        return not self.owner.startswith(NEW) and "." not in self.owner

    @property
    def new_task(self) -> str | None:
        """The task not open yet that the target is a field of, or of a form nested in ("new:Conversation.trip":
        Conversation)."""
        return self.owner[len(NEW):].split(".")[0] if self.owner.startswith(NEW) else None


@dataclass
class Context:
    spec: AgentSpec
    state: DialogueState
    today: dt.date
    knowledge: Any
    index: SpecIndex
    analysis: Analysis
    memo: dict[Any, Any] = field(default_factory=dict, repr=False)
    """What lower layers derive from the message once for every matcher (its parts, the tasks it asks for)."""

    @property
    def text(self) -> str:
        return self.analysis.text

    @cached_property
    def question(self) -> Act | None:
        """The agent's last question (the act the user is most likely answering)."""
        return next((a for a in reversed(self.state.last_acts) if a.is_question), None)

    @cached_property
    def asked(self) -> Target | None:
        """The field the agent just asked for, if it asked for one."""
        act = self.question
        if not isinstance(act, (AskField, AskForFieldConfirmation)):
            return None
        instance = self.state.instances.get(act.instance)
        if instance is None:
            return None
        f = self.spec.tasks[instance.worksheet].fields.get(act.field) if instance.worksheet in self.spec.tasks else None
        if f is not None and f.type.referenced() in self.spec.tasks and f.type.kind != "list":
            # a parent field asked ("what are the courses you want to take?"): its first question is asked
            path = f"{instance.name}.{f.name}"
            return next((t for t in self.targets if t.owner.startswith(path)), None)
        return Target(instance.name, instance.worksheet, f) if f is not None else None

    @property
    def at_summary(self) -> bool:
        """The agent shows what it has and asks whether to go ahead (or whether a list is right)."""
        return isinstance(self.question, AskForConfirmation) or (
            self.asked is not None and self.asked.field.type.kind == "confirm")

    @cached_property
    def open_instances(self) -> list[WorksheetInstance]:
        """Active task instances, most recently touched first."""
        return sorted((i for i in self.state.instances.values() if i.status == InstanceStatus.ACTIVE),
                      key=lambda i: -i.touched)

    @cached_property
    def in_progress(self) -> list[WorksheetInstance]:
        """Open tasks and everything nested in them (a part already finished included), most recent first."""
        roots = [i for i in self.state.instances.values() if i.open and not i.parent]
        family = {i.name: i for root in roots for i in (root, *self.state.descendants(root))}
        return sorted(family.values(), key=lambda i: -i.touched)

    @cached_property
    def targets(self) -> list[Target]:
        """Every field a value may go to: those of the tasks in progress that apply, of worksheets nested
        in them not made yet, and of the top-level tasks not open."""
        out: list[Target] = []
        for instance in self.in_progress:
            ws = self.spec.tasks.get(instance.worksheet)
            if ws is None:
                continue
            for f in ws.fields.values():
                if f.kind != "input":
                    continue
                nested = f.type.referenced()
                value = instance.values.get(f.name)
                applies = self.applies(instance, f)
                ways = () if applies else _ways(instance.name, f)
                if nested in self.spec.tasks and f.type.kind != "list":
                    if value is None and (applies or ways):
                        out += self._virtual(f"{instance.name}.{f.name}", nested, 1, ways)
                    continue
                if applies or value not in (None, NA) or ways:
                    out.append(Target(instance.name, instance.worksheet, f, ways))
        open_tasks = {self.state.root_of(i).worksheet for i in self.open_instances}
        for ws in self.index.top_level_tasks:
            if ws.name not in open_tasks:
                out += self._virtual(f"{NEW}{ws.name}", ws.name, 1)
        return out

    def _virtual(self, owner: str, worksheet: str, depth: int,
                 ways: tuple[tuple[tuple[str, str, Any], ...], ...] = ()) -> list[Target]:
        """The fields of a worksheet not made yet (a task to start, a part of an open one), each with what
        makes it apply: what makes its part apply, and its own predicate's needs."""
        out = []
        for f in self.spec.tasks[worksheet].fields.values():
            if f.kind != "input":
                continue
            own = _ways(owner, f) if f.predicate is not None else ()
            if f.predicate is not None and not own:
                continue  # a predicate not read here: the runtime asks the field when it applies
            combined = _combined(ways, own)
            nested = f.type.referenced()
            if nested in self.spec.tasks and f.type.kind != "list":
                if depth < MAX_NESTING:
                    out += self._virtual(f"{owner}.{f.name}", nested, depth + 1, combined)
                continue
            out.append(Target(owner, worksheet, f, combined))
        return out

    def values_named(self, table: str, text: str | None = None) -> dict[str, str]:
        """The categorical values of ``table`` that the text (the message, by default) names: looked up once
        per message, however many readers ask."""
        text = self.text if text is None else text
        key = ("values named", table, text)
        if key not in self.memo:
            self.memo[key] = self.knowledge.column_values(table).find(text)
        return self.memo[key]

    def tokens_in(self, spans: tuple[tuple[int, int], ...] | list[tuple[int, int]]) -> frozenset[int]:
        """Indexes of the tokens the spans cover."""
        return frozenset(i for i, t in enumerate(self.analysis.tokens)
                         if any(t.start < end and start < t.end for start, end in spans))

    @property
    def every_token(self) -> frozenset[int]:
        return frozenset(range(len(self.analysis.tokens)))

    def instance(self, target: Target) -> WorksheetInstance:
        """The target's instance, or a stand-in for one not made yet (for checking values)."""
        found = self.state.instances.get(target.owner)
        return found if found is not None else WorksheetInstance("", target.worksheet)

    def value_of(self, target: Target) -> Any:
        found = self.state.instances.get(target.owner)
        value = found.values.get(target.field.name) if found is not None else None
        return self.state.resolve(value) if isinstance(value, InstanceRef) else value

    def applies(self, instance: WorksheetInstance, f: Field) -> bool:
        return field_applies(self.spec, self.state, instance, f, self.today)

    def problem(self, target: Target, value: Any) -> str | None:
        """Why the field would refuse the value (its type or validation), or None."""
        if target.field.type.is_ref or isinstance(value, (dict, list)):
            return None
        return value_problem(self.spec, self.state, self.instance(target), target.field, value, self.today)

    def first_accepted(self, target: Target, readings: tuple[Any, ...]) -> tuple[Any, bool]:
        """The first reading the field accepts (and True), else the first reading (and False). When the first
        reading is within a month of today, a day much farther is no reading of it: "nov 2" said on Nov 24 is the
        Nov 2 just past (refused where the day must be ahead), not next year's; "jan 5" said in November for a day
        that must be past is last January's."""
        for reading in readings:
            if readings and not self._near_as_the_first(readings[0], reading):
                continue
            if self.problem(target, reading) is None:
                return reading, True
        return (readings[0] if readings else None), False

    def _near_as_the_first(self, first: Any, reading: Any) -> bool:
        if not isinstance(first, dt.date) or not isinstance(reading, dt.date) or reading is first:
            return True
        near = abs((first - self.today).days)
        return near > FAR_DAYS or abs((reading - self.today).days) <= 2 * near + FAR_DAYS


FAR_DAYS = 31
"""Days beyond twice the first reading's distance from today at which another reading of a day is too far."""


def _ways(owner: str, f: Field) -> Ways:
    """The ways ``f`` of ``owner`` comes to apply, as (owner, field, value) needs; () when none can be read."""
    found = needs(f)
    return tuple(tuple((owner, name, value) for name, value in way) for way in found) if found else ()


def _combined(outer: Ways, inner: Ways) -> Ways:
    """Every way both hold."""
    if not outer:
        return inner
    if not inner:
        return outer
    return tuple(a + b for a in outer for b in inner)
