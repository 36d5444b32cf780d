"""What names mean to worksheet code and to parser statements.

Both see worksheet instances through :class:`~genie_bot.spec.InstanceRef` values: reading
``x.field`` gives the field's value, writing it goes through :func:`assign_field`. Worksheet
code (predicates, actions, validation) additionally sees ``self``, its own fields by bare
name, ``say``/``propose``/``exitws`` and the agent's API functions. Parser statements see
worksheet constructors, ``answer`` and ``exitws``, with misspelt names snapped.
"""

from __future__ import annotations

import re
from typing import Any

from ..acts import ProposeWorksheet, Say
from ..interpreter import InterpreterError, SafeFunction, Scope
from ..names import closest, snake_case
from ..spec import NA, InstanceRef
from ..state import InstanceStatus, WorksheetInstance
from .assign import NewInstance, abandon, assign_field, fill_instance, snap_field_name
from .executor import ApiRequest
from .turn import Turn


def constructor(worksheet: str) -> SafeFunction:
    """``Course(course_name=...)``: a value that becomes an instance (or record) when assigned."""
    return SafeFunction(worksheet, lambda **kwargs: NewInstance(worksheet, kwargs))


class StateScope(Scope):
    """Instances by name, and attribute access on them."""

    def __init__(self, turn: Turn):
        super().__init__(functions={"today": SafeFunction("today", lambda: turn.today),
                                    "now": SafeFunction("now", lambda: turn.now)})
        self.turn = turn
        self.names["NA"] = NA

    def lookup(self, name: str) -> Any:
        if name in self.names or name in self.functions:
            return super().lookup(name)
        if name in self.turn.state.instances:
            return InstanceRef(name)
        return self.missing_name(name)

    def missing_name(self, name: str) -> Any:
        raise InterpreterError(f"unknown name '{name}'")

    def instance(self, ref: InstanceRef) -> WorksheetInstance:
        instance = self.turn.state.instances.get(ref.name)
        if instance is None:
            raise InterpreterError(f"unknown worksheet instance '{ref.name}'")
        return instance

    def get_attr(self, obj: Any, attr: str) -> Any:
        if not isinstance(obj, InstanceRef):
            return super().get_attr(obj, attr)
        instance = self.instance(obj)
        if attr in ("confirmed", "result"):
            return getattr(instance, attr)
        ws = self.turn.worksheet(instance)
        return instance.values.get(snap_field_name(ws.fields, attr, ws.name))

    def set_attr(self, obj: Any, attr: str, value: Any) -> None:
        if not isinstance(obj, InstanceRef):
            raise InterpreterError(f"cannot set '{attr}' on a {type(obj).__name__} value")
        instance = self.instance(obj)
        ws = self.turn.worksheet(instance)
        assign_field(self.turn, instance, ws.fields[snap_field_name(ws.fields, attr, ws.name)], value)


class WorksheetScope(StateScope):
    """The scope of a worksheet's own code: ``self``, its fields, and the runtime's built-ins.

    Names resolve lazily: predicates are evaluated many times per turn, and most of them
    touch two or three names.
    """

    def __init__(self, turn: Turn, instance: WorksheetInstance, read_only: bool = False):
        super().__init__(turn)
        self.this = instance
        self.read_only = read_only
        self.fields = turn.worksheet(instance).fields

    def lookup(self, name: str) -> Any:
        if name == "self":
            return InstanceRef(self.this.name)
        if name in self.fields and name not in self.names:
            return self.this.values.get(name)
        if name in self.turn.spec.tasks or name in self.turn.spec.knowledge:
            return constructor(name)
        if not self.read_only:
            if name == "say":
                return SafeFunction("say", self._say)
            if name == "propose":
                return SafeFunction("propose", self._propose)
            if name == "exitws":
                return SafeFunction("exitws", lambda: abandon(self.turn, self.this))
            if name in self.turn.spec.apis:
                return SafeFunction(name, lambda **kw: self._call_api(name, kw))
        return super().lookup(name)

    def set_attr(self, obj: Any, attr: str, value: Any) -> None:
        if self.read_only:
            raise InterpreterError("predicates and validations cannot change values")
        super().set_attr(obj, attr, value)

    def _say(self, text: Any) -> None:
        self.turn.acts.append(Say(str(text)))

    def _propose(self, worksheet: Any, params: dict[str, Any] | None = None) -> None:
        name = worksheet.name if isinstance(worksheet, SafeFunction) else str(worksheet)
        if name not in self.turn.spec.tasks:
            raise InterpreterError(f"cannot propose '{name}': not a task worksheet")
        proposed = self.turn.state.add_instance(name, status=InstanceStatus.PROPOSED)
        fill_instance(self.turn, proposed, dict(params or {}))
        proposed.status = InstanceStatus.PROPOSED  # filling is not acceptance; the user answers the proposal
        self.turn.acts.append(ProposeWorksheet(name, dict(params or {}), proposed.name))

    def _call_api(self, name: str, kwargs: dict[str, Any]) -> Any:
        api = self.turn.spec.apis[name]
        request = ApiRequest(self.this.name, self.this.worksheet, name, kwargs, api.side_effects)
        try:
            return self.turn.executor.call_api(request)
        except Exception as exc:  # noqa: BLE001 - developer code failing is reported, never a crashed turn
            raise InterpreterError(f"{name}() failed: {type(exc).__name__}: {exc}") from None


class ParserScope(StateScope):
    """The scope of parser statements: constructors, ``answer`` and ``exitws``; names are snapped."""

    def __init__(self, turn: Turn, answer: SafeFunction, exitws: SafeFunction):
        super().__init__(turn)
        self.functions.update({"answer": answer, "exitws": exitws})
        for name in [*turn.spec.tasks, *turn.spec.knowledge]:
            self.functions[name] = constructor(name)

    def missing_name(self, name: str) -> Any:
        """Snap a misspelt worksheet or instance name, or say which names exist."""
        worksheets = [*self.turn.spec.tasks, *self.turn.spec.knowledge]
        match = closest(name, worksheets)
        if match:
            return self.functions[match]
        instance = self.instance_named(name)
        if instance is not None:
            return InstanceRef(instance.name)
        known = [*self.turn.state.instances] or ["(no instances yet)"]
        raise InterpreterError(f"unknown name '{name}'; worksheets are {', '.join(worksheets)}; "
                               f"instances are {', '.join(known)}")

    def instance_named(self, name: str) -> WorksheetInstance | None:
        """``main`` means the one open ``Main`` instance; otherwise an unambiguous close name."""
        state = self.turn.state
        if name in state.instances:
            return state.instances[name]
        for ws in self.turn.spec.tasks:
            if snake_case(ws) == name or ws == name:
                candidates = state.of_worksheet(ws)
                if len(candidates) == 1:
                    return candidates[0]
        numbered = re.fullmatch(r"(.*?)_?(\d+)", name)
        candidates = [i.name for i in state.instances.values() if i.open]
        if numbered:  # a typo in the name may be snapped, a different number never: order_1 is not order_0
            candidates = [c for c in candidates if re.fullmatch(rf".*?_?{numbered.group(2)}", c)]
        match = closest(name, candidates)
        return state.instances[match] if match else None
