"""Replaying a reference Genie conversation log through a genie-bot agent and comparing.

Each turn applies the parse the reference executed (``user_target``) and answers knowledge
queries with the results the reference logged, so the only thing that differs is what
happens in between: the interpreter and the policy. Per turn it compares the question asked
(ask or confirm, worksheet, field), whether a knowledge answer and an API call were
reported, and refused statements; per session, the final API call. API functions are never
called: calls are recorded and answered with the reference's logged result.

Questions are compared by worksheet and field, never by instance name (the reference names
instances ``main``, ``course_1``; genie-bot ``main_0``, ``course_1``). A question about a
nested worksheet's field also counts as "same up to nesting" when the reference asked the
parent's field that holds that worksheet (``AskField(main, courses_to_take)`` against
genie-bot's ``AskField(course_0, course_name)``), so both figures can be read.
"""

from __future__ import annotations

import datetime as dt
import unicodedata
from collections.abc import Callable, Iterable
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Any

from ..acts import Act, AskField, AskForConfirmation, AskForFieldConfirmation, Report
from ..runtime import KnowledgeResult, KnowledgeUnavailable, Runtime
from ..runtime.executor import ApiRequest
from ..spec import AgentSpec, InstanceRef
from ..state import DialogueState, KnowledgeAnswer
from .log import ReferenceApiCall, ReferenceTurn, read_log


@dataclass(frozen=True)
class Question:
    """A question as compared: ``kind`` is ask or confirm (or another act's type)."""

    kind: str
    worksheet: str | None
    field: str | None

    def __str__(self) -> str:
        return f"{self.kind} {self.worksheet}.{self.field}"


@dataclass
class TurnComparison:
    index: int
    user: str
    reference: Question | None
    ours: Question | None
    same_question: bool
    same_up_to_nesting: bool
    reference_answered: bool
    ours_answered: bool
    reference_api: bool
    ours_api: bool
    errors: list[str]
    acts: list[str]

    @property
    def same_reports(self) -> bool:
        return self.reference_answered == self.ours_answered and self.reference_api == self.ours_api


@dataclass
class SessionComparison:
    log: str
    turns: list[TurnComparison]
    reference_call: dict[str, Any] | None
    """The reference's last API call: function and arguments (None: it called none)."""
    our_call: dict[str, Any] | None
    call_differences: list[str] = field(default_factory=list)
    """Argument paths whose values differ (compared fields only)."""

    @property
    def same_call(self) -> bool:
        if (self.reference_call is None) != (self.our_call is None):
            return False
        return not self.call_differences


@dataclass
class Totals:
    sessions: int = 0
    turns: int = 0
    refused_statements: int = 0
    turns_with_refusals: int = 0
    same_question: int = 0
    same_up_to_nesting: int = 0
    same_reports: int = 0
    reference_calls: int = 0
    """Sessions in which the reference called its API (the user confirmed)."""
    same_call_where_reference_called: int = 0
    our_calls_without_reference: int = 0

    def percent(self, part: int, whole: int) -> float:
        return round(100.0 * part / whole, 1) if whole else 0.0

    def lines(self) -> list[str]:
        return [
            f"sessions: {self.sessions}, turns: {self.turns}",
            f"refused statements: {self.refused_statements} (in {self.turns_with_refusals} turns)",
            f"same question: {self.same_question}/{self.turns} ({self.percent(self.same_question, self.turns)}%)",
            f"same question up to nesting: {self.same_up_to_nesting}/{self.turns} "
            f"({self.percent(self.same_up_to_nesting, self.turns)}%)",
            f"same reports (knowledge answer, API call): {self.same_reports}/{self.turns} "
            f"({self.percent(self.same_reports, self.turns)}%)",
            f"same final API call where the reference called its API: {self.same_call_where_reference_called}/"
            f"{self.reference_calls} ({self.percent(self.same_call_where_reference_called, self.reference_calls)}%)",
            f"sessions where only genie-bot called the API: {self.our_calls_without_reference}",
        ]


def totals(sessions: Iterable[SessionComparison]) -> Totals:
    out = Totals()
    for session in sessions:
        out.sessions += 1
        for turn in session.turns:
            out.turns += 1
            out.refused_statements += len(turn.errors)
            out.turns_with_refusals += bool(turn.errors)
            out.same_question += turn.same_question
            out.same_up_to_nesting += turn.same_up_to_nesting
            out.same_reports += turn.same_reports
        if session.reference_call is not None:
            out.reference_calls += 1
            out.same_call_where_reference_called += session.same_call
        elif session.our_call is not None:
            out.our_calls_without_reference += 1
    return out


def log_files(paths: Iterable[Path]) -> list[Path]:
    """The ``conversation.json`` files named, or found under the directories named."""
    found: list[Path] = []
    for path in paths:
        path = Path(path)
        found.extend(sorted(path.rglob("conversation.json")) if path.is_dir() else [path])
    return found


@dataclass
class _LoggedKnowledge:
    """Answers a turn's queries with the reference's logged results, by question, else in order."""

    answers: list[tuple[str, Any]]

    def query(self, answer: KnowledgeAnswer) -> KnowledgeResult:
        if not self.answers:
            raise KnowledgeUnavailable("the reference made no knowledge query in this turn")
        index = next((i for i, (q, _) in enumerate(self.answers) if _same_text(q, answer.question)), 0)
        _, result = self.answers.pop(index)
        if result is None:
            raise KnowledgeUnavailable("the reference could not run this query")
        return KnowledgeResult(None, result)


@dataclass
class _RecordingExecutor:
    """Records API calls without making them; answers with the reference's logged result."""

    knowledge: _LoggedKnowledge
    result: Any
    calls: list[ApiRequest] = field(default_factory=list)

    def call_api(self, request: ApiRequest) -> Any:
        self.calls.append(request)
        return self.result

    def query_knowledge(self, answer: KnowledgeAnswer) -> KnowledgeResult:
        return self.knowledge.query(answer)


def compare_log(spec: AgentSpec, path: Path, clock: Callable[[], dt.datetime] = dt.datetime.now,
                match_fields: set[str] | None = None) -> SessionComparison:
    """Replay one reference log through ``spec``'s agent and compare turn by turn."""
    reference_turns = read_log(path)
    runtime = Runtime(spec, clock=clock)
    logged_result: Any = next((c.result for t in reference_turns for c in t.api_calls), {})
    state = runtime.new_state()
    turns: list[TurnComparison] = []
    our_call: ApiRequest | None = None
    reference_call: ReferenceApiCall | None = None
    for ref in reference_turns:
        executor = _RecordingExecutor(_LoggedKnowledge(list(ref.answers)), logged_result)
        before = state
        result = runtime.run_turn(state, ref.statements, executor=executor)
        state = result.state
        turns.append(_compare_turn(spec, ref, before, state, result.acts, executor.calls, result.errors))
        our_call = executor.calls[-1] if executor.calls else our_call
        reference_call = ref.api_calls[-1] if ref.api_calls else reference_call
    ours = {"function": our_call.function, "arguments": our_call.args} if our_call else None
    theirs = {"function": reference_call.function, "arguments": reference_call.arguments} if reference_call else None
    differences = _argument_differences(spec, theirs, ours, match_fields) if ours and theirs else []
    return SessionComparison(str(path), turns, theirs, ours, differences)


def _compare_turn(spec: AgentSpec, ref: ReferenceTurn, before: DialogueState, state: DialogueState,
                  acts: list[Act], calls: list[ApiRequest], errors: list[str]) -> TurnComparison:
    theirs = _reference_question(spec, ref)
    asked = next((a for a in acts if a.is_question), None)
    ours = _our_question(spec, state, asked) if asked else None
    same = theirs == ours
    nested = same or (theirs is not None and ours is not None and theirs.kind == ours.kind == "ask"
                      and isinstance(asked, AskField) and _nested_in(spec, state, asked.instance, theirs))
    answered = any(isinstance(a, Report) and a.query_or_instance.startswith("answer(") and _is_result(a.result)
                   for a in acts)
    return TurnComparison(
        index=ref.index, user=ref.user, reference=theirs, ours=ours, same_question=same, same_up_to_nesting=nested,
        reference_answered=any(r is not None for _, r in ref.answers), ours_answered=answered,
        reference_api=bool(ref.api_calls), ours_api=bool(calls), errors=list(errors), acts=[a.formal() for a in acts])


def _reference_question(spec: AgentSpec, ref: ReferenceTurn) -> Question | None:
    act = ref.question
    if act is None:
        return None
    worksheet = ref.worksheet_of(act.instance or "", spec.start)
    kind = "confirm" if act.kind == "AskForFieldConfirmation" or _is_confirm_field(spec, worksheet, act.field) \
        else "ask"
    return Question(kind, worksheet, act.field)


def _our_question(spec: AgentSpec, state: DialogueState, act: Act) -> Question:
    instance = state.instances.get(getattr(act, "instance", ""))
    worksheet = instance.worksheet if instance else None
    if isinstance(act, AskForConfirmation):
        confirm = next((f.name for f in spec.tasks[act.worksheet].fields.values()
                        if f.type.kind == "confirm" and f.kind == "input"), None)
        return Question("confirm", act.worksheet, confirm)
    if isinstance(act, AskForFieldConfirmation):
        return Question("confirm", worksheet, act.field)
    if isinstance(act, AskField):
        if instance is None:  # a knowledge query's missing parameter
            return Question("ask", act.instance, act.field)
        return Question("confirm" if _is_confirm_field(spec, worksheet, act.field) else "ask", worksheet, act.field)
    return Question(act.kind, worksheet, None)


def _is_confirm_field(spec: AgentSpec, worksheet: str | None, field_name: str | None) -> bool:
    task = spec.tasks.get(worksheet or "")
    f = task.fields.get(field_name or "") if task else None
    return f is not None and f.type.kind == "confirm"


def _nested_in(spec: AgentSpec, state: DialogueState, name: str, question: Question) -> bool:
    """Whether instance ``name`` sits (at any depth) in the field ``question`` names."""
    instance = state.instances.get(name)
    while instance is not None and instance.parent:
        parent = state.instances.get(instance.parent[0])
        if parent is not None and (parent.worksheet, instance.parent[1]) == (question.worksheet, question.field):
            return True
        instance = parent
    return False


def _is_result(value: Any) -> bool:
    return value is not None and not (isinstance(value, dict) and set(value) == {"error"})


def _argument_differences(spec: AgentSpec, theirs: dict[str, Any], ours: dict[str, Any],
                          match_fields: set[str] | None) -> list[str]:
    """Paths whose values differ, over the arguments both calls have; confirm fields left out."""
    confirm_names = {f.name for ws in spec.tasks.values() for f in ws.fields.values() if f.type.kind == "confirm"}

    def compared(path: str) -> bool:
        last = path.rsplit(".", 1)[-1]
        return last not in confirm_names and (match_fields is None or last in match_fields)

    out = []
    if theirs["function"] != ours["function"] and theirs["function"] in spec.apis:
        out.append(f"function: {theirs['function']} != {ours['function']}")
    for name in sorted(set(theirs["arguments"]) & set(ours["arguments"])):
        out.extend(_differences(theirs["arguments"][name], ours["arguments"][name], name, compared))
    return out


def _differences(theirs: Any, ours: Any, path: str, compared: Callable[[str], bool]) -> list[str]:
    """Differences between two values at ``path``, leaf by leaf.

    A list against a single value is no difference of shape: the reference's context turns a
    name rebound to another instance into a list of both, and that list is what its API got.
    The single value is compared with each item, and the closest item counts.
    """
    if isinstance(theirs, list) and theirs and ours is not None and not isinstance(ours, list):
        return min((_differences(item, ours, path, compared) for item in theirs), key=len)
    if isinstance(ours, list) and ours and theirs is not None and not isinstance(theirs, list):
        return min((_differences(theirs, item, path, compared) for item in ours), key=len)
    if isinstance(theirs, dict) and isinstance(ours, dict):
        return [d for key in sorted(set(theirs) | set(ours), key=str)
                for d in _differences(theirs.get(key), ours.get(key), f"{path}.{key}", compared)]
    if isinstance(theirs, list) and isinstance(ours, list):
        return [d for i in range(max(len(theirs), len(ours)))
                for d in _differences(theirs[i] if i < len(theirs) else None, ours[i] if i < len(ours) else None,
                                      f"{path}.{i}", compared)]
    left, right = _leaves(theirs, f"{path}."), _leaves(ours, f"{path}.")
    return [f"{leaf}: {left.get(leaf)!r} != {right.get(leaf)!r}" for leaf in sorted(set(left) | set(right))
            if compared(leaf) and _normal(left.get(leaf)) != _normal(right.get(leaf))]


def _leaves(value: Any, prefix: str = "") -> dict[str, Any]:
    if isinstance(value, dict):
        out: dict[str, Any] = {}
        for k, v in value.items():
            out.update(_leaves(v, f"{prefix}{k}."))
        return out
    if isinstance(value, list):
        out = {}
        for i, v in enumerate(value):
            out.update(_leaves(v, f"{prefix}{i}."))
        return out
    if value is None or isinstance(value, InstanceRef):
        return {}
    return {prefix.rstrip("."): value}


def _normal(value: Any) -> Any:
    if value is None:
        return None
    text = unicodedata.normalize("NFKC", str(value)).strip().casefold()
    return text


def _same_text(a: str, b: str) -> bool:
    return " ".join(a.split()).casefold() == " ".join(b.split()).casefold()


def to_json_dict(session: SessionComparison) -> dict[str, Any]:
    """A session's comparison as plain JSON data."""
    data = asdict(session)
    data["same_call"] = session.same_call
    for turn, raw in zip(session.turns, data["turns"]):
        raw["reference"] = str(turn.reference) if turn.reference else None
        raw["ours"] = str(turn.ours) if turn.ours else None
        raw["same_reports"] = turn.same_reports
    return data
