"""What names mean to code that changes the state: worksheet actions and parser statements.

Both extend the read-only scopes of :mod:`.reading`. Worksheet actions additionally see
``say``/``propose``/``exitws`` and the agent's API functions, and writing ``x.field`` goes
through :func:`~genie_bot.runtime.assign.assign_field`. Parser statements see worksheet
constructors, ``answer`` and ``exitws``, with misspelt names snapped.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from typing import Any

from ..acts import ProposeWorksheet, Say
from ..interpreter import InterpreterError, SafeFunction
from ..names import closest, snake_case
from ..spec import InstanceRef
from ..state import InstanceStatus, WorksheetInstance
from .assign import abandon, assign_field, fill_instance
from .executor import ApiRequest, api_arguments
from .reading import StateScope, WorksheetReader, constructor, snap_field_name
from .turn import Turn


def set_field(scope: StateScope, obj: Any, attr: str, value: Any) -> None:
    """``obj.attr = value`` (or ``obj.attr.append(item)``) through the typed assignment."""
    if not isinstance(obj, InstanceRef):
        raise InterpreterError(f"cannot set '{attr}' on a {type(obj).__name__} value")
    instance = scope.instance(obj)
    ws = scope.turn.worksheet(instance)
    assign_field(scope.turn, instance, ws.fields[snap_field_name(ws.fields, attr, ws.name)], value)


class WorksheetScope(WorksheetReader):
    """The scope of a worksheet's actions: its read-only scope plus the runtime's built-ins."""

    def own_lookup(self, name: str) -> Any:
        if name == "say":
            return SafeFunction("say", self._say)
        if name == "propose":
            return SafeFunction("propose", self._propose)
        if name == "exitws":
            return SafeFunction("exitws", lambda: abandon(self.turn, self.this))
        if name in self.turn.spec.apis:
            return SafeFunction(name, lambda **kw: self._call_api(name, kw))
        return super().own_lookup(name)

    def set_attr(self, obj: Any, attr: str, value: Any) -> None:
        set_field(self, obj, attr, value)

    def _say(self, text: Any) -> None:
        self.turn.acts.append(Say(str(text)))

    def _propose(self, worksheet: Any, params: dict[str, Any] | None = None) -> None:
        name = worksheet.name if isinstance(worksheet, SafeFunction) else str(worksheet)
        if name not in self.turn.spec.tasks:
            raise InterpreterError(f"cannot propose '{name}': not a task worksheet")
        proposed = self.turn.new_instance(name, status=InstanceStatus.PROPOSED)
        fill_instance(self.turn, proposed, dict(params or {}))
        proposed.status = InstanceStatus.PROPOSED  # filling is not acceptance; the user answers the proposal
        self.turn.acts.append(ProposeWorksheet(name, dict(params or {}), proposed.name))

    def _call_api(self, name: str, kwargs: dict[str, Any]) -> Any:
        api = self.turn.spec.apis[name]
        request = ApiRequest(self.this.name, self.this.worksheet, name, api_arguments(self.turn.state, kwargs),
                             api.side_effects)
        try:
            return self.turn.executor.call_api(request)
        except Exception as exc:  # noqa: BLE001 - developer code failing is reported, never a crashed turn
            raise InterpreterError(f"{name}() failed: {type(exc).__name__}: {exc}") from None


class ParserScope(StateScope):
    """The scope of parser statements: constructors, ``answer`` and ``exitws``; names are snapped."""

    def __init__(self, turn: Turn, answer: SafeFunction, exitws: SafeFunction,
                 writable: Callable[[WorksheetInstance], WorksheetInstance]):
        super().__init__(turn)
        self.writable = writable  # the instance a change is made to (a submitted one's copy in a new request)
        self.functions.update({"answer": answer, "exitws": exitws})
        for name in [*turn.spec.tasks, *turn.spec.knowledge]:
            self.functions[name] = constructor(name)
        self.functions.setdefault("Answer", answer)  # the reference Genie's spelling

    def set_attr(self, obj: Any, attr: str, value: Any) -> None:
        """Only reached through ``x.items.append(item)``: the statement applier assigns ``x.a = v`` itself."""
        if isinstance(obj, InstanceRef):
            obj = InstanceRef(self.writable(self.instance(obj)).name)
        set_field(self, obj, attr, value)

    def missing_name(self, name: str) -> Any:
        """Snap a misspelt worksheet or instance name, or say which names exist."""
        worksheets = [*self.turn.spec.tasks, *self.turn.spec.knowledge]
        instance = self.instance_named(name) if name in map(snake_case, self.turn.spec.tasks) else None
        if instance is not None:  # ``main``: the start task, not the worksheet Main
            return InstanceRef(instance.name)
        match = closest(name, worksheets)
        if match:
            return self.functions[match]
        instance = self.instance_named(name)
        if instance is not None:
            return InstanceRef(instance.name)
        known = [*self.turn.state.instances] or ["(no instances yet)"]
        raise InterpreterError(f"unknown name '{name}'; worksheets are {', '.join(worksheets)}; "
                               f"instances are {', '.join(known)}")

    def bound_instance(self, name: str) -> WorksheetInstance | None:
        """The instance ``name`` denotes; a name of an instance that was dropped denotes the one
        that took its place, and one with none is refused with the reason (never applied to it)."""
        instance = self.turn.state.denoted(name)
        if instance is not None and instance.status == InstanceStatus.DROPPED:
            known = ", ".join(i.name for i in self.turn.state.instances.values() if i.open) or "none"
            raise InterpreterError(f"'{name}' is no longer part of any task ({self._why_dropped(instance)}); "
                                   f"open instances: {known}")
        return instance

    def _why_dropped(self, instance: WorksheetInstance) -> str:
        """``courses_to_take, which held it, was replaced by courses_to_take_1``."""
        state = self.turn.state
        current: WorksheetInstance | None = instance
        for _ in range(len(state.instances)):
            if current is None or current.status != InstanceStatus.DROPPED:
                break
            if current.replaced_by is not None and current is instance:
                return f"it was replaced by {current.replaced_by}"
            if current.replaced_by is not None:
                return f"{current.name}, which held it, was replaced by {current.replaced_by}{self._empty_place(instance)}"
            current = state.instances.get(current.parent[0]) if current.parent else None
        if instance.parent:
            return f"it was taken out of {instance.parent[0]}.{instance.parent[1]}"
        return "it was proposed and not taken up"

    def _empty_place(self, instance: WorksheetInstance) -> str:
        """``, and courses_to_take_1.course_1_details holds no Course``: where the replacement would
        hold the instance in ``instance``'s place (:meth:`~genie_bot.state.DialogueState.successor`)."""
        place = self.turn.state.place_in_replacement(instance)
        if place is None:
            return ""
        where = place[0].name + "".join(f".{name}" if index is None else f".{name}[{index}]" for name, index in place[1])
        return f", and {where} holds no {instance.worksheet}"

    def instance_named(self, name: str) -> WorksheetInstance | None:
        """An instance or alias of that name; ``main`` means the one open ``Main`` instance (or,
        with none open, the latest one: ``main.confirm_submission = True`` after it was submitted);
        otherwise an unambiguous close name."""
        state = self.turn.state
        named = self.bound_instance(name)
        if named is not None:
            return named
        for ws in self.turn.spec.tasks:
            if snake_case(ws) == name or ws == name:
                candidates = state.of_worksheet(ws) or state.of_worksheet(ws, open_only=False)[-1:]
                if len(candidates) == 1:
                    return candidates[0]
        numbered = re.fullmatch(r"(.*?)_?(\d+)", name)
        names = [i.name for i in state.instances.values() if i.open]
        if numbered:  # a typo in the name may be snapped, a different number never: order_1 is not order_0
            names = [c for c in names if re.fullmatch(rf".*?_?{numbered.group(2)}", c)]
        match = closest(name, names)
        return state.instances[match] if match else None
