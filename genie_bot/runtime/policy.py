"""The agent policy: the paper's Algorithm 1, turning a state update into agent acts.

Deterministic and free of I/O except through the turn's :class:`ApiExecutor`. Steps, in order:

1. a new knowledge query: ask for a missing required parameter, else run it and Report;
2. newly assigned fields: ask to confirm those marked ``confirm``, else run their actions;
3. worksheets whose fields are all filled and whose actions have not run: a side-effecting
   one is confirmed first (``AskForConfirmation``, and nothing else is asked this turn);
   the others run their API and actions and Report; a completed nested worksheet counts as
   the newly assigned value of its parent's field;
4. if nothing was asked yet, ask for the first unfilled askable field of the most recently
   active incomplete worksheet (descending into nested worksheets, or asking the field that
   holds one: ``policy.nested_worksheet_question``); when the user answered a later optional
   question than the one asked, the first one after that answer. A nested worksheet is asked
   only while the fields holding it apply and their worksheets are open. With
   ``policy.start_task: when_nothing_asked`` the start worksheet opens here, the first time.

A turn that changed a submitted task says first that a new request was made from it; one that
asks nothing, leaves no task open and came to nothing says what was submitted
(:mod:`.after_submission`). At most one question per turn; any number of Reports and Says.
"""

from __future__ import annotations

import datetime as dt
import logging
from collections.abc import Sequence
from typing import Any

from ..acts import AskField, AskForConfirmation, AskForFieldConfirmation, AskToCancel, Cancelled, Report, Say
from ..errors import GenieError
from ..interpreter import Evaluator, InterpreterError
from ..spec import NA, AgentSpec, Code, Field, InstanceRef
from ..state import AnswerStatus, DialogueState, InstanceStatus, WorksheetInstance
from .after_submission import FOLLOW_UP_TEXT, what_was_submitted
from .assign import assign_field, check_again_where_read, confirm_fields, release
from .plausible import implausible
from .executor import ApiRequest, KnowledgeUnavailable, LocalApiExecutor, api_arguments
from .reading import NewInstance, WorksheetReader, holds as _holds
from .scopes import WorksheetScope
from .turn import Rejection, Turn

log = logging.getLogger(__name__)

MAX_CASCADE = 200
"""Field actions may assign fields whose actions assign fields...; this bounds one turn's work."""


class CascadeLimitExceeded(GenieError):
    """Field actions kept assigning fields (more than :data:`MAX_CASCADE` in one turn): the
    worksheets' actions loop. The turn fails rather than stopping halfway through them."""

DECLINED_TEXT = "Okay, I haven't done that. What would you like to change? (Or say cancel to drop it.)"


def run_policy(turn: Turn) -> list:
    """Run Algorithm 1 on ``turn`` and return the acts (also left in ``turn.acts``)."""
    _expire_ignored_proposals(turn)
    if _cancellations(turn):
        return turn.acts
    _knowledge_query(turn)
    if turn.update.follow_ups:
        turn.acts.append(Say(FOLLOW_UP_TEXT))
    _rejections(turn, turn.update.rejected)
    _field_updates(turn)
    _checks_across_fields(turn)
    _set_aside_what_no_longer_applies(turn)
    if _complete_worksheets(turn) and not turn.has_question():
        _ask_next(turn)
        if not turn.has_question():
            _open_start_task(turn)
    submitted = what_was_submitted(turn, lambda instance: summary_values(turn, instance))
    if submitted is not None:
        turn.acts.append(submitted)
    return turn.acts


# -- dropping a task --------------------------------------------------------------------------------
def _cancellations(turn: Turn) -> bool:
    """Tasks the user dropped are said so; one the user asked to drop with details in it is
    asked about first (and nothing else this turn). True when the turn stops at that question."""
    for name in turn.update.cancelled:
        instance = turn.state.instances[name]
        turn.acts.append(Cancelled(name, instance.worksheet))
    for name in turn.update.cancel_requests:
        instance = turn.state.instances[name]
        turn.acts.append(AskToCancel(name, instance.worksheet))
        return True
    return False


# -- step 1 ---------------------------------------------------------------------------------------
def _knowledge_query(turn: Turn) -> None:
    answer = turn.state.answer
    if not turn.update.new_query or answer is None:
        return
    kb = turn.spec.knowledge.get(answer.table) if answer.table else (
        next(iter(turn.spec.knowledge.values())) if len(turn.spec.knowledge) == 1 else None)
    missing = [c for c in (kb.required_columns() if kb else []) if answer.params.get(c) in (None, "")]
    if kb is not None and missing:
        answer.status, answer.missing = AnswerStatus.NEEDS_PARAM, missing[0]
        column = kb.columns[missing[0]]
        turn.acts.append(AskField("answer", missing[0], column.description or missing[0].replace("_", " ")))
        return
    label = f"answer({answer.question!r})"
    try:
        outcome = turn.executor.query_knowledge(answer)
    except KnowledgeUnavailable as exc:
        answer.status, answer.result = AnswerStatus.ERROR, {"error": str(exc)}
        turn.acts.append(Report(label, answer.result))
        return
    answer.query, answer.result, answer.status = outcome.query, outcome.result, AnswerStatus.DONE
    answer.searched, answer.records = outcome.searched, outcome.records
    turn.acts.append(Report(label, outcome.result))
    rows = outcome.result if isinstance(outcome.result, list) else []
    if answer.target and len(rows) == 1:
        instance = turn.state.instances.get(answer.target[0])
        if instance is not None and instance.open:
            assign_field(turn, instance, turn.worksheet(instance).fields[answer.target[1]], rows[0])


# -- rejected values are asked again with the reason ---------------------------------------------------
def _rejections(turn: Turn, rejections: list[Rejection]) -> None:
    for rejection in rejections:
        instance = turn.state.instances.get(rejection.instance)
        if instance is None:
            continue
        f = turn.worksheet(instance).fields[rejection.field]
        askable = instance.open and f.kind == "input" and _in_live_slot(turn, instance)
        if askable and not turn.has_question():
            turn.acts.append(AskField(instance.name, f.name, _description(f), reason=rejection.reason))
        elif not askable and Say(rejection.reason) not in turn.acts:  # once, however many values it refused
            turn.acts.append(Say(rejection.reason))


# -- step 2 ------------------------------------------------------------------------------------------
def _field_updates(turn: Turn) -> None:
    done: set[tuple[str, str]] = set()
    for name, field_name, yes in turn.update.field_confirmations:
        instance = turn.state.instances.get(name)
        if instance is None or field_name not in instance.values:
            continue
        if yes:
            if field_name not in instance.confirmed_fields:
                instance.confirmed_fields.append(field_name)
            _run_field_actions(turn, instance, turn.worksheet(instance).fields[field_name], done)
        else:
            instance.values.pop(field_name)
            instance.touched = turn.state.tick()
    index = 0
    while index < len(turn.update.assigned):
        if index == MAX_CASCADE:
            log.error("field actions assigned more than %d fields in one turn: %s", MAX_CASCADE,
                      _cascade_summary(turn.update.assigned))
            raise CascadeLimitExceeded(f"field actions assigned more than {MAX_CASCADE} fields in one turn "
                                       f"({_cascade_summary(turn.update.assigned)}); do the actions loop?")
        name, field_name = turn.update.assigned[index]
        index += 1
        instance = turn.state.instances.get(name)
        if instance is None or not instance.open or (name, field_name) in done:
            continue
        f = turn.worksheet(instance).fields[field_name]
        value = instance.values.get(field_name)
        if value == NA and f.on_decline is not None:
            done.add((name, field_name))
            run_code(turn, instance, f.on_decline)
        if value is None or value == NA:
            continue
        if _to_confirm(turn, instance, f, value) and field_name not in instance.confirmed_fields:
            if not turn.has_question():
                turn.acts.append(AskForFieldConfirmation(name, field_name, value))
            continue
        if f in confirm_fields(turn.worksheet(instance)) and needs_confirmation(turn, instance):
            instance.confirmed = bool(value)
            if not value and f.actions is None:
                turn.update.declined.append(name)
        _run_field_actions(turn, instance, f, done)


def _checks_across_fields(turn: Turn) -> None:
    """Checks that read a field changed this turn hold again, after the field actions (which may
    settle it their own way); a field whose check fails is emptied and asked again with the reason."""
    start = len(turn.update.rejected)
    for name, field_name in dict.fromkeys(turn.update.assigned):
        instance = turn.state.instances.get(name)
        if instance is not None and instance.open:
            check_again_where_read(turn, instance, field_name)
    _rejections(turn, turn.update.rejected[start:])


def _set_aside_what_no_longer_applies(turn: Turn) -> None:
    """Values whose field applied only under a choice the user has just changed are taken out (and the
    instances they held dropped): a ticket switched from a waitlist problem to a leave of absence keeps
    no waitlist details, so none is asked for, shown or submitted under the new choice. Values given
    before their field applied are left alone; only a choice changed away sets them aside."""
    changed = list(dict.fromkeys(turn.update.assigned))
    for name, changed_field in changed:
        instance = turn.state.instances.get(name)
        if instance is None or not instance.open:
            continue
        for f in turn.worksheet(instance).fields.values():
            value = instance.values.get(f.name)
            if (f.predicate is None or changed_field not in f.predicate.names or value is None
                    or (name, f.name) in changed or _field_applies(turn, instance, f)):
                continue
            instance.values.pop(f.name)
            for ref in value if isinstance(value, list) else [value]:
                if isinstance(ref, InstanceRef):
                    release(turn, ref, None)
            turn.update.set_aside.append((name, f.name, value))


def _cascade_summary(assigned: list[tuple[str, str]]) -> str:
    """The most assigned fields, e.g. ``main_0.count x120, main_0.total x80``."""
    counts: dict[str, int] = {}
    for name, field_name in assigned:
        counts[f"{name}.{field_name}"] = counts.get(f"{name}.{field_name}", 0) + 1
    return ", ".join(f"{k} x{n}" for k, n in sorted(counts.items(), key=lambda kv: -kv[1])[:3])


def _run_field_actions(turn: Turn, instance: WorksheetInstance, f: Field, done: set[tuple[str, str]]) -> None:
    done.add((instance.name, f.name))
    if f.actions is not None and _is_filled(turn, instance, f):
        run_code(turn, instance, f.actions)


# -- step 3 ------------------------------------------------------------------------------------------
def _complete_worksheets(turn: Turn) -> bool:
    """Run the actions of complete worksheets; False when the turn must stop at a confirmation."""
    handled: set[str] = set()
    progress = True
    while progress:
        progress = False
        for instance in _open_instances(turn):
            if instance.name in handled or instance.actions_done or not _applies(turn, instance):
                continue
            if not is_complete(turn, instance):
                continue
            if needs_confirmation(turn, instance) and instance.confirmed is not True:
                if instance.name in turn.update.declined:
                    turn.acts.append(Say(DECLINED_TEXT))
                elif not turn.has_question():  # declined on an earlier turn and nothing changed: ask again
                    instance.confirmed = None
                    turn.acts.append(_ask_for_confirmation(turn, instance))
                    return False
                handled.add(instance.name)
                continue
            handled.add(instance.name)
            _run_worksheet(turn, instance)
            progress = True
            break  # completing one worksheet may complete its parent: rescan in recency order
    return True


def needs_confirmation(turn: Turn, instance: WorksheetInstance) -> bool:
    """Completing this instance now would run a side effect, so the user must confirm first."""
    ws = turn.worksheet(instance)
    return ws.actions_have_side_effects or bool(ws.api and ws.api.side_effects and _api_runs(turn, instance))


def _api_runs(turn: Turn, instance: WorksheetInstance) -> bool:
    api = turn.worksheet(instance).api
    return api is not None and _holds(turn, instance, api.when)


def _run_worksheet(turn: Turn, instance: WorksheetInstance) -> None:
    ws = turn.worksheet(instance)
    api = ws.api
    if api is not None and _api_runs(turn, instance):
        scope = WorksheetReader(turn, instance)
        try:
            args = {name: Evaluator(scope).evaluate(code.tree) for name, code in api.args.items()}
            result = turn.executor.call_api(ApiRequest(instance.name, ws.name, api.function,
                                                       api_arguments(turn.state, args), api.side_effects))
        except Exception as exc:  # noqa: BLE001 - an API failure is reported to the user, not raised
            # its message is the API's and may quote what users gave it: the user and the trace get it, the log not
            log.warning("API %s of %s failed: %s", api.function, instance.name, type(exc).__name__)
            instance.confirmed = None
            turn.acts.append(Report(instance.name, {"error": f"{api.function} failed: {exc}"}))
            return
        instance.result = result
        _store_outputs(turn, instance, result)
        turn.acts.append(Report(instance.name, result))
    instance.actions_done = True
    instance.status = InstanceStatus.COMPLETED
    if ws.actions is not None:
        run_code(turn, instance, ws.actions)
    if instance.parent and instance.parent[0] in turn.state.instances:
        parent = turn.state.instances[instance.parent[0]]
        parent.touched = turn.state.tick()
        turn.update.assigned.append(instance.parent)
        _field_updates_for(turn, parent, instance.parent[1])


def _field_updates_for(turn: Turn, instance: WorksheetInstance, field_name: str) -> None:
    f = turn.worksheet(instance).fields[field_name]
    if f.confirm and field_name not in instance.confirmed_fields:
        instance.confirmed_fields.append(field_name)  # confirming the nested worksheet confirmed it
    _run_field_actions(turn, instance, f, set())


def _store_outputs(turn: Turn, instance: WorksheetInstance, result: Any) -> None:
    outputs = [f for f in turn.worksheet(instance).fields.values() if f.kind == "output"]
    if isinstance(result, dict):
        for f in outputs:
            if f.name in result:
                assign_field(turn, instance, f, result[f.name])
    elif len(outputs) == 1 and result is not None:
        assign_field(turn, instance, outputs[0], result)


# -- step 4 --------------------------------------------------------------------------------------------
NOTHING, ASKED, BLOCKED = "nothing", "asked", "blocked"
"""What asking in an instance came to; BLOCKED: a nested worksheet waits (on its API or a
confirmation), and the fields after it wait too, as in the worksheet's order."""


def _ask_next(turn: Turn) -> None:
    ahead = _answered_ahead(turn)
    for instance in _open_instances(turn):
        if not (instance.status == InstanceStatus.ACTIVE and _applies(turn, instance) and _in_live_slot(turn, instance)):
            continue
        if instance.name == ahead[0] and _ask_in(turn, instance, after=ahead[1]) != NOTHING:
            return
        if _ask_in(turn, instance) != NOTHING:
            return


def _open_start_task(turn: Turn) -> None:
    """``start_task: when_nothing_asked``: the start worksheet opens once a turn asks nothing
    else, unless the user's question of that turn could not be answered or found nothing (the
    agent then waits for the user rather than change the subject), as the reference Genie does
    after a question it could not answer. Results it found are what the user picks from, so the
    start task's question follows them (docs/genie-compatibility.md)."""
    spec, state = turn.spec, turn.state
    if spec.start is None or spec.policy.start_task != "when_nothing_asked" \
            or state.of_worksheet(spec.start, open_only=False):
        return
    answer = state.answer
    if turn.update.new_query and answer is not None and (answer.status == AnswerStatus.ERROR or answer.result == []):
        return
    _ask_in(turn, state.add_instance(spec.start))


def _in_live_slot(turn: Turn, instance: WorksheetInstance) -> bool:
    """A nested instance is asked only while the fields holding it apply and their worksheets are open.

    A placeholder in a slot the user turned down (``course_2_details`` once ``more_courses_2``
    is False) or nested in a submitted worksheet has nobody left to ask it for.
    """
    while instance.parent:
        parent = turn.state.instances.get(instance.parent[0])
        if parent is None:
            return True
        f = turn.worksheet(parent).fields.get(instance.parent[1])
        if not parent.open or f is None or not _field_applies(turn, parent, f):
            return False
        instance = parent
    return True


def _answered_ahead(turn: Turn) -> tuple[str | None, str | None]:
    """(instance, field) when the user answered a later question of the instance than the one asked.

    Asked an optional field A, the user gave B, a field the worksheet asks after A, and left
    A open: the user is ahead of the agent (answering a question someone else asked, or the
    one they expect next), so the next question is the one after B; once that is answered the
    worksheet's order applies again and A is asked. A required question is asked again at
    once, and declining B moves nothing.
    """
    asked = next((a for a in reversed(turn.state.last_acts) if isinstance(a, AskField)), None)
    instance = turn.state.instances.get(asked.instance) if asked is not None else None
    if asked is None or instance is None or instance.values.get(asked.field) is not None:
        return None, None
    fields = turn.worksheet(instance).fields
    order = [f.name for f in fields.values() if f.askable]
    if asked.field not in order or fields[asked.field].required:
        return None, None  # a required question is asked again
    given = [name for i, name in turn.update.assigned if i == instance.name and name in order
             and order.index(name) > order.index(asked.field) and instance.values.get(name) not in (None, NA)]
    return (instance.name, max(given, key=order.index)) if given else (None, None)


def _ask_in(turn: Turn, instance: WorksheetInstance, after: str | None = None) -> str:
    """Ask the first field to ask in ``instance`` (only among those after ``after``, if given)."""
    ws = turn.worksheet(instance)
    confirmations = confirm_fields(ws) if needs_confirmation(turn, instance) else []
    fields = list(ws.fields.values())
    if after is not None:
        fields = fields[[f.name for f in fields].index(after) + 1:]
    for f in fields:
        if not f.askable or not _field_applies(turn, instance, f):
            continue
        value = instance.values.get(f.name)
        if value == NA:
            continue
        child_ws = f.type.ref if f.type.ref in turn.spec.tasks else None
        if child_ws and _discarded(turn, value):
            value = None  # left holding a cancelled or dropped instance (a state stored before issue 27)
        if value is None and child_ws:
            if turn.spec.policy.nested_worksheet_question == "parent_field":
                turn.acts.append(AskField(instance.name, f.name, _description(f)))
                return ASKED
            assign_field(turn, instance, f, NewInstance(child_ws, {}))
            value = instance.values.get(f.name)
        if value is None and f in confirmations:
            if is_complete(turn, instance, ignore=confirmations):
                turn.acts.append(_ask_for_confirmation(turn, instance))
                return ASKED
            continue
        if value is None:
            turn.acts.append(AskField(instance.name, f.name, _description(f)))
            return ASKED
        child = turn.state.resolve(value) if child_ws else None
        if isinstance(child, WorksheetInstance):
            if child.status == InstanceStatus.ACTIVE and not child.actions_done and _applies(turn, child):
                return ASKED if _ask_in(turn, child) == ASKED else BLOCKED
            continue
        if _to_confirm(turn, instance, f, value) and f.name not in instance.confirmed_fields:
            turn.acts.append(AskForFieldConfirmation(instance.name, f.name, value))
            return ASKED
    return NOTHING


# -- completeness --------------------------------------------------------------------------------------
def is_complete(turn: Turn, instance: WorksheetInstance, ignore: Sequence[Field] = ()) -> bool:
    """All applicable input fields are filled; optional askable ones are filled or declined."""
    for f in turn.worksheet(instance).fields.values():
        if f.kind != "input" or f in ignore or not _field_applies(turn, instance, f):
            continue
        if _is_filled(turn, instance, f):
            continue
        if f.dont_ask:
            continue
        value = instance.values.get(f.name)
        if f.required or value is None or _open_child(turn, value):
            return False
    return True


def _discarded(turn: Turn, value: object) -> bool:
    child = turn.state.resolve(value) if isinstance(value, InstanceRef) else None
    return isinstance(child, WorksheetInstance) and child.discarded


def _open_child(turn: Turn, value: object) -> bool:
    child = turn.state.resolve(value) if isinstance(value, InstanceRef) else None
    return isinstance(child, WorksheetInstance) and child.open


def _is_filled(turn: Turn, instance: WorksheetInstance, f: Field) -> bool:
    value = instance.values.get(f.name)
    if value is None or value == NA:
        return False
    if isinstance(value, InstanceRef):
        child = turn.state.instances.get(value.name)
        if child is None or child.status != InstanceStatus.COMPLETED:
            return False
    return not _to_confirm(turn, instance, f, value) or f.name in instance.confirmed_fields


def _to_confirm(turn: Turn, instance: WorksheetInstance, f: Field, value: object) -> bool:
    """Whether the value is asked back before it counts: the field says so (``confirm: true``), or
    the value is far from what the field expects (``plausible``)."""
    return f.confirm or implausible(f, value, turn.today)


def _applies(turn: Turn, instance: WorksheetInstance) -> bool:
    return _holds(turn, instance, turn.worksheet(instance).predicate)


def _field_applies(turn: Turn, instance: WorksheetInstance, f: Field) -> bool:
    return _holds(turn, instance, f.predicate)


def field_applies(spec: AgentSpec, state: DialogueState, instance: WorksheetInstance, f: Field,
                  today: dt.date) -> bool:
    """Whether ``f``'s predicate holds for ``instance`` in ``state`` (read-only; for parsers that
    need to know which questions the flow would ask)."""
    turn = Turn(spec, state, LocalApiExecutor(spec), today, dt.datetime.combine(today, dt.time(12, 0)))
    return _field_applies(turn, instance, f)


# -- helpers -------------------------------------------------------------------------------------------
def run_code(turn: Turn, instance: WorksheetInstance, code: Code) -> None:
    """Run worksheet actions; a failure becomes a Say so the user is told, never a crash."""
    try:
        Evaluator(WorksheetScope(turn, instance)).run(code.tree)
    except InterpreterError as exc:  # its reason may quote values (an API's error): the user and the trace get it
        log.warning("actions of %s failed at %s", instance.name, code.loc)
        turn.acts.append(Say(f"Something went wrong in {instance.worksheet}: {exc.reason}"))


def _open_instances(turn: Turn) -> list[WorksheetInstance]:
    """Open instances, most recently active first."""
    return sorted((i for i in turn.state.instances.values() if i.open), key=lambda i: -i.touched)


def _expire_ignored_proposals(turn: Turn) -> None:
    """A proposal the user neither accepted nor declined in their reply is dropped."""
    for instance in turn.state.instances.values():
        if instance.status == InstanceStatus.PROPOSED and instance.touched <= turn.start_clock:
            instance.status = InstanceStatus.DROPPED  # the user cancelled nothing


def _description(f: Field) -> str:
    return f.description or f.name.replace("_", " ")


def _ask_for_confirmation(turn: Turn, instance: WorksheetInstance) -> AskForConfirmation:
    ws = turn.worksheet(instance)
    return AskForConfirmation(instance.name, ws.name, ws.api.function if ws.api else None, summary_values(turn, instance))


def summary_values(turn: Turn, instance: WorksheetInstance) -> dict[str, Any]:
    """The values a user confirms: filled input fields, nested instances flattened."""
    out: dict[str, Any] = {}
    for f in turn.worksheet(instance).fields.values():
        value = instance.values.get(f.name)
        if f.kind != "input" or value is None or value == NA or f.type.kind == "confirm":
            continue
        child = turn.state.resolve(value) if isinstance(value, InstanceRef) else None
        out[f.name] = summary_values(turn, child) if isinstance(child, WorksheetInstance) else value
    return out
