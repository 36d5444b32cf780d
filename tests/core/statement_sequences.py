"""Parser outputs written from an agent's spec, the way an LLM gets them right and wrong.

A conversation needs progress to reach the states where parses go wrong (a finished course, a
submitted enrollment), so most outputs answer the agent's last act with valid values. The rest
are the forms of the LLM parses the runtime must survive (issue 27), over the names of the
conversation so far (instances, aliases, names of instances since dropped, fresh names in the
``<worksheet>_<n>`` scheme the parser prompt asks for, the start worksheet's ``main``):

* a new instance put into a field without rebinding the old name, then the old name used;
* a name bound on a finished instance and the next automatic name bound in the same output;
* a second start task bound to ``main``;
* plain helper variables used in constructors;
* placeholders (``None``, ``''``, ``'None'``) and ``x.f = None``;
* cancellations, confirmations and statements with wrong names, fields and values;
* list items as targets (``x.f[0].g = v``, also past the end and from the end) (issue 39); changes
  to submitted tasks come from the forms above, whose names include those of submitted instances.
"""

from __future__ import annotations

import ast
import datetime as dt
from collections.abc import Callable, Sequence
from typing import Any, TypeVar

from genie_bot.acts import AskField, AskForConfirmation, AskForFieldConfirmation, AskToCancel, ProposeWorksheet
from genie_bot.names import snake_case
from genie_bot.runtime.checks import value_problem
from genie_bot.spec import AgentSpec, Field, FieldType, InstanceRef, TaskWorksheet
from genie_bot.state import DialogueState, WorksheetInstance

T = TypeVar("T")
Choose = Callable[[Sequence[T]], T]
"""Picks one of the options (a Hypothesis draw, so that failures shrink)."""

_EXAMPLES = {"str": ["'Ann Lee'", "'CS 1'", "'12345678'", "'ann@stanford.edu'"], "int": ["3", "4", "0"],
             "float": ["2.5"], "bool": ["True", "False"], "confirm": ["True", "False"],
             "date": ["'2026-11-01'", "'2026-12-01'"], "time": ["'19:00'"], "datetime": ["'2026-12-01 19:00'"]}
PLACEHOLDERS = ("None", "''", "'None'")
TODAY = dt.date(2026, 11, 21)
"""The conversations' day (the tests' clock)."""


class StatementWriter:
    """Writes parser outputs for ``spec`` against a conversation's state."""

    def __init__(self, spec: AgentSpec, choose: Choose):
        self.spec = spec
        self.choose = choose
        self.start = snake_case(spec.start) if spec.start else None

    def output(self, state: DialogueState) -> str:
        """Mostly the answer to the agent's last act, with one of the other forms beside it or instead."""
        lines = self._answer(state) if self.choose([True, True, True, False]) else []
        if not lines or self.choose([True, False]):
            form = self.choose(["replace", "collide", "second_start", "helpers", "placeholders", "clear", "rebind",
                                "cancel", "items", "anything", "anything"])
            lines += getattr(self, f"_{form}")(state)
        return "\n".join(lines)

    # -- answering the agent --------------------------------------------------------------------------
    def _answer(self, state: DialogueState) -> list[str]:
        for act in reversed(state.last_acts):
            if isinstance(act, AskField) and act.instance in state.instances:
                instance = state.instances[act.instance]
                f = self.spec.tasks[instance.worksheet].fields.get(act.field)
                if f is not None:
                    return [f"{act.instance}.{f.name} = {self.accepted(state, instance, f)}"]
            if isinstance(act, AskForFieldConfirmation):
                return [f"{act.instance}.{act.field}.confirmed = {self.choose(['True', 'True', 'False'])}"]
            if isinstance(act, (AskForConfirmation, ProposeWorksheet)):
                return [f"{act.instance}.confirmed = {self.choose(['True', 'True', 'False'])}"]
            if isinstance(act, AskToCancel):
                return [self.choose([f"exitws({act.instance}, confirmed=True)", "# no, keep it"])]
        return []

    # -- the parses of issue 27 -----------------------------------------------------------------------
    def _replace(self, state: DialogueState) -> list[str]:
        """``x_1 = W(...)``, ``p.f = x_1``; the old name ``x`` used after."""
        held = [(owner, f, value) for owner in state.instances.values() for f, value in owner.values.items()
                if isinstance(value, InstanceRef) and value.name in state.instances]
        if not held:
            return self._anything(state)
        owner, field_name, old = self.choose(held)
        ws = self.spec.tasks[state.instances[old.name].worksheet]
        new = self.fresh(ws)
        later = self.choose([f"{old.name}.{f.name} = {self.value(state, f)}" for f in self.inputs(ws)] +
                            [f"{owner.name}.{field_name} = {old.name}"])
        return [f"{new} = {self.constructor(state, ws)}", f"{owner.name}.{field_name} = {new}", later]

    def _collide(self, state: DialogueState) -> list[str]:
        """``course_4 = Course(A)`` on a finished ``course_4``, then ``course_5 = Course(B)``."""
        done = [i for i in state.instances.values() if not i.open]
        ws = self.spec.tasks[self.choose(done).worksheet] if done else self.worksheet()
        first = self.choose([i.name for i in done if i.worksheet == ws.name]) if done else self.fresh(ws)
        second = state.new_instance_name(ws.name)
        lines = [f"{first} = {self.constructor(state, ws)}", f"{second} = {self.constructor(state, ws)}"]
        holders = [(owner.name, f.name) for owner in state.instances.values() if owner.open
                   for f in self.spec.tasks[owner.worksheet].fields.values() if f.type.ref == ws.name]
        for name in (first, second):
            if holders:
                owner, field_name = self.choose(holders)
                lines.append(f"{owner}.{field_name} = {name}")
        return lines

    def _items(self, state: DialogueState) -> list[str]:
        """``p.f[i].g = v``: an item of a field holding instances (one instance is a list of it)."""
        held = [(owner, f, first) for owner in state.instances.values() for f, value in owner.values.items()
                for first in (value[:1] if isinstance(value, list) else [value])
                if isinstance(first, InstanceRef) and first.name in state.instances]
        if not held:
            return self._anything(state)
        owner, field_name, first = self.choose(held)
        ws = self.spec.tasks[state.instances[first.name].worksheet]
        if not self.inputs(ws):
            return self._anything(state)
        f = self.choose(self.inputs(ws))
        index = self.choose([0, 0, 1, -1])
        return [f"{self.choose([owner.name, *self.names_of(state, owner)])}.{field_name}[{index}].{f.name} = "
                f"{self.value(state, f)}"]

    def names_of(self, state: DialogueState, instance: WorksheetInstance) -> list[str]:
        return [alias for alias, name in state.aliases.items() if name == instance.name]

    def _second_start(self, state: DialogueState) -> list[str]:
        if self.spec.start is None or self.start is None:
            return self._anything(state)
        ws = self.spec.tasks[self.spec.start]
        new = self.fresh(ws)
        return [f"{new} = {self.constructor(state, ws)}", f"{self.start} = {new}"]

    def _helpers(self, state: DialogueState) -> list[str]:
        ws = self.worksheet()
        numbers = [f for f in self.inputs(ws) if f.type.kind == "int"]
        texts = [f for f in self.inputs(ws) if f.type.kind == "str"]
        args = [f"{f.name}=r" for f in numbers[:1]] + [f"{f.name}=name" for f in texts[:1]]
        return ["u = 3", "r = 7 - u", "name = 'Ann' + ' Lee'", f"{self.fresh(ws)} = {ws.name}({', '.join(args)})"]

    def _placeholders(self, state: DialogueState) -> list[str]:
        ws = self.worksheet()
        args = ", ".join(f"{f.name}={self.choose(PLACEHOLDERS)}" for f in self.inputs(ws))
        line = f"{self.name(state)} = {ws.name}({args})"
        target = self.name(state)
        f = self.field_of(state, target)
        return [line] + ([f"{target}.{f.name} = {self.choose(PLACEHOLDERS)}"] if f else [])

    def _clear(self, state: DialogueState) -> list[str]:
        target = self.name(state)
        f = self.field_of(state, target)
        return [f"{target}.{f.name} = None" if f else f"{target} = None"]

    def _rebind(self, state: DialogueState) -> list[str]:
        return [f"{self.name(state)} = {self.name(state)}"]

    def _cancel(self, state: DialogueState) -> list[str]:
        return [self.choose(["exitws()", f"exitws({self.name(state)})", f"exitws({self.name(state)}, confirmed=True)"])]

    def _anything(self, state: DialogueState) -> list[str]:
        lines = []
        for _ in range(self.choose([1, 2, 3])):
            target = self.name(state)
            f = self.field_of(state, target)
            lines.append(self.choose([
                f"{target} = {self.constructor(state, self.worksheet())}",
                f"{target}.{f.name} = {self.value(state, f)}" if f else f"{target}.confirmed = True",
                f"{target}.confirmed = {self.choose(['True', 'False'])}",
            ]))
        return lines

    # -- names and values -----------------------------------------------------------------------------
    def name(self, state: DialogueState) -> str:
        live = sorted({*(n for n, i in state.instances.items() if not i.discarded), *state.aliases})
        gone = sorted(n for n, i in state.instances.items() if i.discarded)
        fresh = [self.fresh(self.worksheet())]
        pools = [pool for pool in (live, live, live, gone, fresh, [self.start] if self.start else []) if pool]
        return self.choose(self.choose(pools))

    def fresh(self, ws: TaskWorksheet) -> str:
        return f"{snake_case(ws.name)}_{self.choose(range(6))}"

    def worksheet(self) -> TaskWorksheet:
        return self.choose(list(self.spec.tasks.values()))

    @staticmethod
    def inputs(ws: TaskWorksheet) -> list[Field]:
        return [f for f in ws.fields.values() if f.kind == "input"]

    def field_of(self, state: DialogueState, name: str) -> Field | None:
        """A field of the worksheet ``name`` denotes (of any worksheet for a name of none)."""
        instance: WorksheetInstance | None = state.denoted(name)
        worksheet = instance.worksheet if instance else self.spec.start if name == self.start else None
        worksheets = [self.spec.tasks[worksheet]] if worksheet else list(self.spec.tasks.values())
        fields = [f for ws in worksheets for f in self.inputs(ws)]
        return self.choose(fields) if fields else None

    def accepted(self, state: DialogueState, instance: WorksheetInstance, f: Field) -> str:
        """A value the field takes (an example its validation accepts, if there is one)."""
        if f.type.is_ref or f.type.kind == "list":
            return self.typed(state, f.type, f, depth=0, complete=True)
        options = [repr(v) for v in f.values] if f.type.kind == "enum" else _EXAMPLES.get(f.type.kind, ["'x'"])
        fitting = [o for o in options
                   if value_problem(self.spec, state, instance, f, ast.literal_eval(o), TODAY) is None]
        return self.choose(fitting or options)

    def constructor(self, state: DialogueState, ws: TaskWorksheet, depth: int = 0, complete: bool = False) -> str:
        """``Worksheet(...)`` with some of its fields (all of them, valid, when ``complete``)."""
        chosen = [f for f in self.inputs(ws)
                  if f.type.kind != "confirm" and (complete or self.choose([True, True, False]))]
        values = [self.typed(state, f.type, f, depth, complete) if complete else self.value(state, f, depth=depth)
                  for f in chosen]
        return f"{ws.name}(" + ", ".join(f"{f.name}={value}" for f, value in zip(chosen, values)) + ")"

    def value(self, state: DialogueState, f: Field, depth: int = 0) -> str:
        return self.choose([self.typed(state, f.type, f, depth)] * 5 + [*PLACEHOLDERS, "'not a value'"])

    def typed(self, state: DialogueState, ftype: FieldType, f: Field, depth: int, complete: bool = False) -> str:
        """A value of the field's type; a worksheet's is a constructor or a name of an instance."""
        if ftype.kind == "list" and ftype.item is not None:
            items = [self.typed(state, ftype.item, f, depth, complete) for _ in range(self.choose([1, 2]))]
            return "[" + ", ".join(items) + "]"
        if ftype.ref in self.spec.tasks:
            nested = self.spec.tasks[ftype.ref]
            if complete or (depth < 2 and self.choose([True, False])):
                return self.constructor(state, nested, depth + 1, complete and depth < 3)
            return self.name(state)
        if ftype.ref in self.spec.knowledge:
            return "'NA'" if not f.required else f"{ftype.ref}()"
        options: list[Any] = [repr(v) for v in f.values] if ftype.kind == "enum" else _EXAMPLES.get(ftype.kind, ["'x'"])
        return self.choose(options + (["'NA'"] if not f.required and not complete else []))
