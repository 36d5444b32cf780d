"""What names mean to code that only reads the state: predicates, validations, API arguments.

It sees worksheet instances through :class:`~genie_bot.spec.InstanceRef` values (reading
``x.field`` gives the field's value), ``today()``, ``now()`` and ``NA``; a worksheet's own code
also sees ``self``, its fields by bare name and worksheet constructors. Nothing here changes
the state: code that writes (worksheet actions, parser statements) uses :mod:`.scopes`, whose
scopes extend these.
"""

from __future__ import annotations

import logging
from dataclasses import dataclass, field
from typing import Any

from ..interpreter import Evaluator, InterpreterError, SafeFunction, Scope
from ..names import closest
from ..spec import NA, Code, Field, InstanceRef
from ..state import WorksheetInstance
from .turn import Turn

log = logging.getLogger(__name__)


class FieldList(list):
    """A list read from a field: a copy, which remembers where it came from so that
    ``order_0.toppings.append('Pineapple')`` assigns the longer list to the field, with the
    field's type and enum checks, instead of changing the stored list behind their back."""

    def __init__(self, items: list, owner: InstanceRef, field_name: str):
        super().__init__(items)
        self.owner = owner
        self.field_name = field_name


@dataclass(frozen=True)
class NewInstance:
    """The value of a constructor call such as ``Course(course_name='CS 224V')``."""

    worksheet: str
    kwargs: dict[str, Any] = field(default_factory=dict)


def constructor(worksheet: str) -> SafeFunction:
    """``Course(course_name=...)``: a value that becomes an instance (or record) when assigned."""
    return SafeFunction(worksheet, lambda **kwargs: NewInstance(worksheet, kwargs))


def field_value(turn: Turn, instance: WorksheetInstance, name: str) -> Any:
    """The value of ``instance.<name>`` as code sees it: a list field as a :class:`FieldList`
    copy (empty while unset, so that ``append`` starts it)."""
    value = instance.values.get(name)
    if isinstance(value, list) or (value is None and turn.worksheet(instance).fields[name].type.kind == "list"):
        return FieldList(value or [], InstanceRef(instance.name), name)
    return value


def snap_field_name(fields: dict[str, Field], name: str, owner: str) -> str:
    """The declared field ``name`` means, or an error listing the valid ones."""
    if name in fields:
        return name
    match = closest(name, fields)
    if match is None:
        raise InterpreterError(f"{owner} has no field '{name}'; its fields are: {', '.join(fields)}")
    return match


class StateScope(Scope):
    """Instances by name, and attribute reads on them."""

    def __init__(self, turn: Turn):
        super().__init__(functions={"today": SafeFunction("today", lambda: turn.today),
                                    "now": SafeFunction("now", lambda: turn.now)})
        self.turn = turn
        self.names["NA"] = NA

    def lookup(self, name: str) -> Any:
        if name in self.names or name in self.functions:
            return super().lookup(name)
        instance = self.bound_instance(name)
        if instance is not None:
            return InstanceRef(instance.name)
        return self.missing_name(name)

    def bound_instance(self, name: str) -> WorksheetInstance | None:
        """The instance ``name`` denotes (following replacements), if any."""
        return self.turn.state.denoted(name)

    def missing_name(self, name: str) -> Any:
        raise InterpreterError(f"unknown name '{name}'")

    def instance(self, ref: InstanceRef) -> WorksheetInstance:
        instance = self.turn.state.instances.get(ref.name)
        if instance is None:
            raise InterpreterError(f"unknown worksheet instance '{ref.name}'")
        return instance

    def get_attr(self, obj: Any, attr: str) -> Any:
        if isinstance(obj, FieldList) and attr == "append":
            return SafeFunction("list.append", lambda item: self.set_attr(obj.owner, obj.field_name, [*obj, item]))
        if not isinstance(obj, InstanceRef):
            return super().get_attr(obj, attr)
        instance = self.instance(obj)
        if attr in ("confirmed", "result"):
            return getattr(instance, attr)
        ws = self.turn.worksheet(instance)
        name = snap_field_name(ws.fields, attr, ws.name)
        return field_value(self.turn, instance, name)

    def set_attr(self, obj: Any, attr: str, value: Any) -> None:
        raise InterpreterError("predicates and validations cannot change values")


class WorksheetReader(StateScope):
    """The scope of a worksheet's read-only code (predicates, validations, API arguments):
    ``self``, its fields, worksheet constructors.

    Names resolve lazily: predicates are evaluated many times per turn, and most of them
    touch two or three names.
    """

    def __init__(self, turn: Turn, instance: WorksheetInstance):
        super().__init__(turn)
        self.this = instance
        self.fields = turn.worksheet(instance).fields

    def lookup(self, name: str) -> Any:
        if name == "self":
            return InstanceRef(self.this.name)
        if name in self.fields and name not in self.names:
            return field_value(self.turn, self.this, name)
        if name in self.turn.spec.tasks or name in self.turn.spec.knowledge:
            return constructor(name)
        return self.own_lookup(name)

    def own_lookup(self, name: str) -> Any:
        """Names a subclass adds (built-ins that change the state), before the state's own names."""
        return super().lookup(name)

    def instance(self, ref: InstanceRef) -> WorksheetInstance:
        """``self`` is the instance the code runs for, also one not in the state yet (a parser's
        "what if": would this field apply once these values are in?)."""
        return self.this if ref.name == self.this.name else super().instance(ref)


def holds(turn: Turn, instance: WorksheetInstance, predicate: Code | None) -> bool:
    """Whether a predicate of ``instance`` (a worksheet's, a field's, an API's ``when``) holds; one
    that cannot be evaluated does not."""
    if predicate is None:
        return True
    try:
        return bool(Evaluator(WorksheetReader(turn, instance)).evaluate(predicate.tree))
    except InterpreterError as exc:
        log.debug("predicate %r of %s is false: %s", predicate.source, instance.name, exc)
        return False
