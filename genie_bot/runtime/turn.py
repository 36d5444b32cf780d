"""What one turn works on: the spec, the state being changed, and what changed so far."""

from __future__ import annotations

import datetime as dt
from dataclasses import dataclass, field

from ..acts import Act
from ..interpreter import Evaluator, measure
from ..interpreter.costs import Size
from ..spec import AgentSpec, TaskWorksheet
from ..state import DialogueState, InstanceStatus, WorksheetInstance
from .executor import ApiExecutor


@dataclass(frozen=True)
class Rejection:
    """A value the runtime refused for a field; the policy re-asks the field with ``reason``."""

    instance: str
    field: str
    value: object
    reason: str


@dataclass
class Update:
    """The effect of the parser's statements (and of worksheet code) on the state this turn."""

    assigned: list[tuple[str, str]] = field(default_factory=list)
    """(instance, field) newly assigned or changed, in order; worksheet code may append."""
    field_confirmations: list[tuple[str, str, bool]] = field(default_factory=list)
    declined: list[str] = field(default_factory=list)
    """Instances whose confirmation the user declined this turn."""
    rejected: list[Rejection] = field(default_factory=list)
    cancel_requests: list[str] = field(default_factory=list)
    """Tasks the user asked to drop that hold details the user gave: the policy asks first."""
    cancelled: list[str] = field(default_factory=list)
    """Tasks the user dropped this turn."""
    errors: list[str] = field(default_factory=list)
    """Statements that could not be applied (unknown names...); the caller may re-ask the parser."""
    new_query: bool = False
    follow_ups: list[tuple[str, str]] = field(default_factory=list)
    """(submitted task, new request) made from it this turn by a change to it (:mod:`.follow_up`)."""
    set_aside: list[tuple[str, str, object]] = field(default_factory=list)
    """(instance, field, value) of values taken out because the choice they depended on changed
    (waitlist details once the ticket is about a leave of absence): never submitted under the new choice."""


@dataclass
class Turn:
    spec: AgentSpec
    state: DialogueState
    executor: ApiExecutor
    today: dt.date
    now: dt.datetime
    update: Update = field(default_factory=Update)
    acts: list[Act] = field(default_factory=list)
    start_clock: int = 0
    bound_names: frozenset[str] = frozenset()
    """The names the parser's output of this turn uses: instances the runtime names itself never
    take one of them, so ``course_5 = Course(...)`` after an automatic ``course_5`` is no collision."""
    meter: Evaluator | None = None
    """The evaluator of the parser output being applied, if any: measuring a value it gives is
    work of that run, charged to its budget (:meth:`measure`)."""

    def measure(self, value: object) -> Size:
        """The size of ``value`` (:func:`~genie_bot.interpreter.measure`), charged to :attr:`meter`'s run."""
        return self.meter.measure(value) if self.meter is not None else measure(value)

    def worksheet(self, instance: WorksheetInstance) -> TaskWorksheet:
        return self.spec.tasks[instance.worksheet]

    def new_instance(self, worksheet: str, parent: tuple[str, str] | None = None,
                     status: InstanceStatus = InstanceStatus.ACTIVE) -> WorksheetInstance:
        """An instance with an automatic name, never one of :attr:`bound_names`."""
        return self.state.add_instance(worksheet, parent=parent, status=status, avoid=self.bound_names)

    def has_question(self) -> bool:
        return any(a.is_question for a in self.acts)
