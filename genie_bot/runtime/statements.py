"""Applying a parser's statements to the dialogue state.

Parser output is untrusted text (an LLM wrote it, from a user's message). It is parsed by
the safe interpreter's whitelist and then interpreted *structurally*, statement by
statement: ``x = Worksheet(...)`` creates or updates an instance, ``x = y`` gives instance
``y`` another name, ``x = 3`` names a plain value for the rest of the output, ``x.field =
value`` sets a field (through nested instances), ``x.confirmed = True`` and
``x.field.confirmed = True`` answer confirmations, ``answer(...)`` asks the knowledge base and
``exitws()`` abandons a task. Anything else is rejected with a reason. A failing statement does
not stop the others.

Names resolve as the LLM means them: the name of an instance that another took the place of
denotes that one (:meth:`~genie_bot.state.DialogueState.denoted`), the instances the runtime
names itself never take a name the output uses (``Turn.bound_names``), and rebinding ``main``
to a second start instance fills the open one.

What parsers written for the reference Genie emit is understood as well
(docs/genie-compatibility.md): ``Answer(sql, params, tables, question)``, its rewriter's
aliases and self-assignments (``course_0 = course``, ``student_info = student_info``),
``main`` for the start worksheet's instance, and constructor placeholders (:mod:`.given`).
"""

from __future__ import annotations

import ast
import io
from collections.abc import Iterable
from dataclasses import dataclass
from typing import Any

from ..interpreter import Evaluator, InterpreterError, SafeFunction, parse_checked
from ..acts import AskToCancel
from ..names import snake_case
from ..spec import InstanceRef, TaskWorksheet
from ..spec.types import to_bool
from ..state import AnswerStatus, DialogueState, InstanceStatus, KnowledgeAnswer, WorksheetInstance
from .after_submission import follow_up
from .assign import abandon, assign_field, confirm_fields, fill_instance, in_submitted
from .given import confirmation_asked, given, given_value, is_confirmation_field, is_placeholder
from .isolation import active_sandbox
from .reading import NewInstance, snap_field_name
from .scopes import ParserScope
from .turn import Turn
from .updates import ConfirmInstance


def _holds_user_details(state: DialogueState, instance: WorksheetInstance) -> bool:
    """Whether the task (or a worksheet nested in it) has a value the user gave."""
    return instance.open and any(v is not None and not isinstance(v, InstanceRef)
                                 for item in (instance, *state.descendants(instance)) for v in item.values.values())


def _asked_to_cancel(state: DialogueState, instance: WorksheetInstance) -> bool:
    """The agent's last question was whether to drop this task: ``exitws`` now is the user's yes."""
    return any(isinstance(a, AskToCancel) and a.instance == instance.name for a in state.last_acts)


class _Query:
    """The value of ``answer(...)``: assigning it to a field makes that field its target."""


ANSWER_NAME = "answer"
_REFERENCE_ANSWER = ("query", "required_params", "tables", "query_nl")
"""The parameters of the reference Genie's ``Answer(sql, unfilled params, tables, question)``."""


def _query_arguments(args: tuple[Any, ...], kwargs: dict[str, Any]) -> tuple[Any, Any, dict[str, Any], bool]:
    """(question, table, params, whether in the reference's form) of ``answer(question, table,
    **params)`` or ``Answer(sql, params, tables, question)``, whose SQL genie-bot does not run:
    its own knowledge parser answers the question."""
    if len(args) == 4 or "query_nl" in kwargs:
        bound = dict(zip(_REFERENCE_ANSWER, args))
        bound.update((k, kwargs[k]) for k in _REFERENCE_ANSWER if k in kwargs)
        tables = bound.get("tables")
        table = tables[0] if isinstance(tables, (list, tuple)) and len(tables) == 1 else None
        return bound.get("query_nl"), table, {}, True
    if len(args) > 2:
        raise InterpreterError("answer() takes a question and optionally a knowledge source, "
                               "e.g. answer('which ones are open on Sundays?')")
    params = dict(kwargs)
    question = args[0] if args else params.pop("question", None)
    table = args[1] if len(args) > 1 else params.pop("table", None)
    return question, table, params, False


def apply_updates(turn: Turn, updates: Iterable[ConfirmInstance]) -> None:
    """Apply typed updates (a click's answer) as the statements they render to would be applied."""
    applier = _Applier(turn)
    for update in updates:
        instance = turn.state.instances.get(update.instance)
        if instance is None:
            turn.update.errors.append(f"{update.statement()}: unknown instance '{update.instance}'")
        else:
            applier.confirm(instance, None, update.yes)


MAX_FAILED_STATEMENTS = 50
"""Statements that may fail in one parser output before the rest is skipped: each failure costs
an error message (names suggested, source quoted), and output this broken is not worth reading."""


def apply_statements(turn: Turn, source: str) -> None:
    """Apply parser output ``source`` to ``turn.state``; problems go to ``turn.update.errors``."""
    if not source or not source.strip():
        return
    sandbox = active_sandbox()
    if sandbox is not None:  # the engine's turn: in a worker process with hard limits
        sandbox.apply_statements(turn, source)
        return
    try:
        tree = parse_checked(source)
    except InterpreterError as exc:
        turn.update.errors.append(str(exc))
        return
    turn.bound_names = frozenset(node.id for node in ast.walk(tree) if isinstance(node, ast.Name))
    applier = _Applier(turn)
    turn.meter = applier.evaluator  # values measured while applying them are work of this run
    try:
        _apply_each(turn, applier, tree, io.StringIO(source, newline="").readlines())
    finally:
        turn.meter = None


def _apply_each(turn: Turn, applier: _Applier, tree: ast.Module, lines: list[str]) -> None:
    """Apply the statements of ``tree`` in order, until :data:`MAX_FAILED_STATEMENTS` failed: raised
    an error, or had a value refused (a refusal costs a message too, and measuring the value work)."""
    failed = 0
    for stmt in tree.body:
        if failed == MAX_FAILED_STATEMENTS:
            turn.update.errors.append(f"more than {MAX_FAILED_STATEMENTS} statements failed; the rest were not applied")
            return
        refused = len(turn.update.rejected)
        try:
            applier.statement(stmt)
        except InterpreterError as exc:
            failed += 1
            if exc.lineno is None:
                exc.lineno = stmt.lineno
            turn.update.errors.append(f"{_segment(lines, stmt)}: {exc}".lstrip(": "))
        else:
            failed += len(turn.update.rejected) > refused


def _segment(lines: list[str], node: ast.stmt) -> str:
    """The source text of ``node`` (as :func:`ast.get_source_segment`, whose offsets are UTF-8 bytes)."""
    end_lineno, end_col = node.end_lineno or node.lineno, node.end_col_offset
    if end_col is None:
        return ""
    selected = [line.encode() for line in lines[node.lineno - 1:end_lineno]]
    if not selected:
        return ""
    if len(selected) == 1:
        return selected[0][node.col_offset:end_col].decode()
    return b"".join([selected[0][node.col_offset:], *selected[1:-1], selected[-1][:end_col]]).decode()


@dataclass(frozen=True)
class _Before:
    """The state's names and the turn's counts before a statement made a new request from a submitted task."""

    instances: set[str]
    aliases: dict[str, str]
    follow_ups: int
    assigned: int
    rejected: int


class _Applier:
    def __init__(self, turn: Turn):
        self.turn = turn
        self.before_follow_up: _Before | None = None
        self.scope = ParserScope(turn, SafeFunction("answer", self._answer), SafeFunction("exitws", self._exitws),
                                 self._writable)
        self.evaluator = Evaluator(self.scope)

    def statement(self, stmt: ast.stmt) -> None:
        self.evaluator._tick(stmt)
        try:
            self._apply(stmt)
        finally:
            if self.before_follow_up is not None:
                self._unless_changed(self.before_follow_up)
                self.before_follow_up = None

    def _writable(self, instance: WorksheetInstance) -> WorksheetInstance:
        """The instance a change is made to: in a submitted task, its copy in a new request (:mod:`.after_submission`)."""
        if not in_submitted(self.turn, instance):
            return instance
        if self.before_follow_up is None:
            state, update = self.turn.state, self.turn.update
            self.before_follow_up = _Before(set(state.instances), dict(state.aliases), len(update.follow_ups),
                                            len(update.assigned), len(update.rejected))
        return follow_up(self.turn, instance)

    def _unless_changed(self, before: _Before) -> None:
        """Take back the new requests the statement made from submitted tasks when it changed nothing
        in them (the same value again): a submitted task is only followed up by a change."""
        state, update = self.turn.state, self.turn.update
        if len(update.assigned) > before.assigned or len(update.rejected) > before.rejected:
            return
        for name in [name for name in state.instances if name not in before.instances]:
            del state.instances[name]
        state.aliases = before.aliases
        del update.follow_ups[before.follow_ups:]

    def _apply(self, stmt: ast.stmt) -> None:
        if isinstance(stmt, ast.Expr):
            value = self.evaluator.eval(stmt.value)
            if isinstance(value, NewInstance):
                self._create(None, value)
        elif isinstance(stmt, ast.Assign) and isinstance(stmt.targets[0], ast.Name):
            self._assign_name(stmt.targets[0].id, self.evaluator.eval(stmt.value))
        elif isinstance(stmt, ast.Assign) and isinstance(stmt.targets[0], ast.Attribute):
            self._assign_attribute(stmt.targets[0], stmt.value)
        elif not isinstance(stmt, ast.Pass):
            raise InterpreterError("parser output may only contain assignments, answer(...) and exitws(...)")

    # -- x = ... ---------------------------------------------------------------------------------
    def _assign_name(self, name: str, value: Any) -> None:
        if isinstance(value, _Query):
            return
        if isinstance(value, InstanceRef):  # ``course_0 = course``; ``x = x`` changes nothing
            self._rebind(name, self.turn.state.instances[value.name])
        elif isinstance(value, NewInstance):
            self._create(name, value)
        else:
            self._bind_helper(name, value)

    def _rebind(self, name: str, target: WorksheetInstance) -> None:
        """``name = other``: the name now denotes ``other``. Rebinding the name of the open start
        task to another start instance (``main_1 = Main(...)``, ``main = main_1``) gives that
        instance's values to the start task, as ``main = Main(...)`` does: one start task stays open."""
        self.scope.names.pop(name, None)
        start = self._open_start_task_named(name)
        if start is not None and start is not target and target.worksheet == start.worksheet \
                and target.parent is None and target.open:
            for field_name, value in list(target.values.items()):
                assign_field(self.turn, start, self.turn.worksheet(start).fields[field_name], value)
            target.status, target.replaced_by = InstanceStatus.DROPPED, start.name
            start.touched = self.turn.state.tick()
            target = start
        if name != target.name:
            self.turn.state.aliases[name] = target.name

    def _open_start_task_named(self, name: str) -> WorksheetInstance | None:
        """The open start task ``name`` denotes (``main`` while two are open: the older one)."""
        start, state = self.turn.spec.start, self.turn.state
        instance = state.denoted(name)
        if instance is None and start is not None and name == snake_case(start):
            instance = next((i for i in state.of_worksheet(start) if i.parent is None), None)
        if instance is None or instance.worksheet != start or instance.parent is not None or not instance.open:
            return None
        return instance

    def _bind_helper(self, name: str, value: Any) -> None:
        """``u = 3``: a plain value under a name, for the rest of this parser output only."""
        if isinstance(value, SafeFunction):
            raise InterpreterError(f"{value.name} is called with its fields: {name} = {value.name}(field=value)")
        if name in self.scope.functions or name in (ANSWER_NAME, "NA", "self"):
            raise InterpreterError(f"'{name}' cannot be rebound; name values with names of your own")
        instance = self.turn.state.denoted(name) or self._open_start_task_named(name)
        if instance is not None and not instance.discarded:
            raise InterpreterError(f"'{name}' is {instance.worksheet} {instance.name}: set its fields with "
                                   f"{name}.field = value, or take it out of a field with owner.field = None")
        self.evaluator.measure(value)
        self.scope.names[name] = value

    def _create(self, name: str | None, value: NewInstance) -> None:
        spec = self.turn.spec
        if value.worksheet not in spec.tasks:
            raise InterpreterError(f"{value.worksheet} is a knowledge source; ask it with answer('...')")
        state = self.turn.state
        existing = state.named(name) if name else None
        if existing is None and (name is None or (value.worksheet == spec.start and name == snake_case(spec.start))):
            # ``Worksheet(...)`` alone updates the single open instance of it, if there is one,
            # and so does ``main = Main(...)`` the start task
            open_ones = [i for i in state.of_worksheet(value.worksheet) if name is None or i.parent is None]
            existing = open_ones[0] if len(open_ones) == 1 else None
        if existing is not None and existing.open and existing.worksheet != value.worksheet:
            raise InterpreterError(f"'{name}' is already a {existing.worksheet}, not a {value.worksheet}")
        if existing is None or not existing.open:
            # a name whose instance was dropped or done now names the new one, as in Python
            existing = state.add_instance(value.worksheet, name=name) if existing is None and name else \
                self.turn.new_instance(value.worksheet)
            if name is not None and existing.name != name:
                state.aliases[name] = existing.name
        elif existing.status == InstanceStatus.PROPOSED:
            existing.status = InstanceStatus.ACTIVE
        if name is not None:
            self.scope.names.pop(name, None)
        existing.touched = state.tick()
        fill_instance(self.turn, existing, given(self.turn, value).kwargs)

    # -- x.a.b = ... -----------------------------------------------------------------------------
    def _assign_attribute(self, target: ast.Attribute, value_node: ast.expr) -> None:
        owner, field_name = self._resolve(target.value)
        if target.attr == "confirmed":
            self.confirm(owner, field_name, self.evaluator.eval(value_node))
            return
        if field_name is not None:
            assert isinstance(owner, WorksheetInstance), "only an instance has fields"
            owner = self._child(owner, field_name)
        if isinstance(owner, KnowledgeAnswer):
            value = self.evaluator.eval(value_node)
            self.evaluator.measure(value)  # before it is stored, sent to the knowledge parser and persisted
            owner.params[target.attr] = value
            owner.status, owner.missing = AnswerStatus.PENDING, None
            self.turn.update.new_query = True
            return
        ws = self.turn.worksheet(owner)
        f = ws.fields[snap_field_name(ws.fields, target.attr, ws.name)]
        value = self.evaluator.eval(value_node)
        if isinstance(value, _Query):
            assert self.turn.state.answer is not None, "evaluating answer(...) made the query"
            self.turn.state.answer.target = (owner.name, f.name)
            return
        if (value is not None and is_placeholder(value)) or (
                is_confirmation_field(f) and not confirmation_asked(self.turn, ws.name, f)):
            return  # not given: an empty string, or a confirmation nobody asked for
        value = given_value(self.turn, value)
        owner = self._writable(owner)
        if owner.status == InstanceStatus.PROPOSED:
            owner.status = InstanceStatus.ACTIVE
        assign_field(self.turn, owner, f, value)

    def _resolve(self, node: ast.expr) -> tuple[WorksheetInstance | KnowledgeAnswer, str | None]:
        """``main.courses.course_0`` -> (the CoursesToTake instance, 'course_0')."""
        if isinstance(node, ast.Name):
            if node.id == ANSWER_NAME:
                if self.turn.state.answer is None:
                    raise InterpreterError("there is no knowledge query to update")
                return self.turn.state.answer, None
            instance = self.scope.instance_named(node.id) or self._start_task(node.id)
            if instance is None:
                known = ", ".join(i.name for i in self.turn.state.instances.values() if i.open) or "none yet"
                raise InterpreterError(f"unknown instance '{node.id}'; open instances: {known}")
            return instance, None
        if isinstance(node, ast.Attribute):
            owner, field_name = self._resolve(node.value)
            if field_name is not None:
                assert isinstance(owner, WorksheetInstance), "only an instance has fields"
                owner = self._child(owner, field_name)
            if isinstance(owner, KnowledgeAnswer):
                raise InterpreterError("knowledge query parameters are set as answer.param = value")
            ws = self.turn.worksheet(owner)
            return owner, snap_field_name(ws.fields, node.attr, ws.name)
        if isinstance(node, ast.Subscript):
            return self._item(node), None
        raise InterpreterError("assignment targets must be names, attributes and items (x.items[0].field)")

    def _item(self, node: ast.Subscript) -> WorksheetInstance:
        """``x.items[i]``: the ``i``-th instance of a list field, counted from 0. A field or name holding
        one instance is read as a list of it (``main.courses_to_take[0]``: the LLM was shown a list there)."""
        owner, field_name = self._resolve(node.value)
        if isinstance(owner, KnowledgeAnswer):
            raise InterpreterError("knowledge query parameters are set as answer.param = value")
        where = ast.unparse(node.value)
        index = self.evaluator.eval(node.slice)
        if isinstance(index, bool) or not isinstance(index, int):
            raise InterpreterError(f"an item is chosen by its position from 0: {where}[0] is the first")
        if field_name is None or self.turn.worksheet(owner).fields[field_name].type.kind != "list":
            if index != 0:
                raise InterpreterError(f"{where} holds one instance, not a list: write {where}.field = value")
            return owner if field_name is None else self._child(owner, field_name)
        items = list(owner.values.get(field_name) or [])
        count = f"{len(items)} item{'' if len(items) == 1 else 's'}"
        if index < 0:
            raise InterpreterError(f"items are counted from 0, not from the end: {where}[0] is the first of its {count}")
        if index >= len(items):
            last = f"{where}[{len(items) - 1}] is the last" if items else "it is empty"
            raise InterpreterError(f"{where} has {count} ({last}); add one with {where}.append(...)")
        item = self.turn.state.resolve(items[index])
        if not isinstance(item, WorksheetInstance):
            raise InterpreterError(f"{where}[{index}] is a value, not a worksheet: set {where} = [...] to change it")
        return item

    def _start_task(self, name: str) -> WorksheetInstance | None:
        """``main.x = ...`` before the start worksheet was opened (``policy.start_task``) opens it."""
        start = self.turn.spec.start
        if start is None or name != snake_case(start) or self.turn.state.of_worksheet(start, open_only=False):
            return None
        return self.turn.new_instance(start)

    def _child(self, owner: WorksheetInstance, field_name: str) -> WorksheetInstance:
        """The instance nested in ``owner.<field_name>``, created if the field is still empty."""
        ws: TaskWorksheet = self.turn.worksheet(owner)
        child_ws = ws.fields[field_name].type.ref
        if child_ws not in self.turn.spec.tasks:
            raise InterpreterError(f"{owner.name}.{field_name} is not a worksheet")
        current = self.turn.state.resolve(owner.values.get(field_name))
        if isinstance(current, WorksheetInstance) and current.status != InstanceStatus.ABANDONED:
            return current  # a completed one is reopened by the change made through it
        owner = self._writable(owner)
        assign_field(self.turn, owner, ws.fields[field_name], NewInstance(child_ws, {}))
        child = self.turn.state.resolve(owner.values.get(field_name))
        if not isinstance(child, WorksheetInstance):
            raise InterpreterError(f"cannot create {child_ws} in {owner.name}.{field_name}")
        return child

    def confirm(self, owner: Any, field_name: str | None, value: Any) -> None:
        """``owner.confirmed = value`` (or ``owner.<field_name>.confirmed = value``)."""
        if not isinstance(owner, WorksheetInstance):
            raise InterpreterError("only worksheet instances and their fields can be confirmed")
        yes = to_bool(value)
        if field_name is not None:
            self.turn.update.field_confirmations.append((owner.name, field_name, yes))
        elif owner.status == InstanceStatus.PROPOSED:
            owner.status = InstanceStatus.ACTIVE if yes else InstanceStatus.ABANDONED
            owner.touched = self.turn.state.tick()
        else:
            ws = self.turn.worksheet(owner)
            if ws.needs_confirmation:  # the worksheet's own confirm field records the same answer
                for f in confirm_fields(ws):
                    assign_field(self.turn, owner, f, yes)
            owner.confirmed = yes
            if not yes:
                self.turn.update.declined.append(owner.name)

    # -- built-ins of parser output --------------------------------------------------------------------
    def _answer(self, *args: Any, **kwargs: Any) -> _Query:
        question, table, params, reference_form = _query_arguments(args, kwargs)
        if not isinstance(question, str) or not question.strip():
            raise InterpreterError("answer() needs a question, e.g. answer('which ones are open on Sundays?')")
        if reference_form and table not in self.turn.spec.knowledge:
            table = None  # the reference's SQL tables need not be genie-bot's knowledge sources
        if table is not None and table not in self.turn.spec.knowledge:
            raise InterpreterError(f"unknown knowledge source '{table}'; sources are {', '.join(self.turn.spec.knowledge)}")
        self.turn.state.answer = KnowledgeAnswer(question=question.strip(), params=params, table=table)
        self.turn.update.new_query = True
        return _Query()

    def _exitws(self, target: Any = None, confirmed: bool = False) -> None:
        """Drop a task (the most recent one by default). One holding details the user gave is only
        dropped when ``confirmed`` (the user said goodbye, or yes to AskToCancel); else the agent asks."""
        state = self.turn.state
        if target is None:
            open_ones = sorted((i for i in state.instances.values() if i.open), key=lambda i: i.touched)
            if not open_ones:
                raise InterpreterError("there is no task to cancel")
            instance = state.root_of(open_ones[-1])
        else:
            instance = state.resolve(target)
            if not isinstance(instance, WorksheetInstance):
                raise InterpreterError("exitws() takes a worksheet instance")
            if instance.status == InstanceStatus.ABANDONED:
                return  # cancelled already
            if in_submitted(self.turn, instance):
                raise InterpreterError(f"{instance.name} was submitted already; there is nothing to cancel")
            instance = state.root_of(instance) if instance.open else instance
        if not confirmed and _holds_user_details(state, instance) and not _asked_to_cancel(state, instance):
            self.turn.update.cancel_requests.append(instance.name)  # the policy asks before anything is lost
            return
        abandon(self.turn, instance)
        self.turn.update.cancelled.append(instance.name)
