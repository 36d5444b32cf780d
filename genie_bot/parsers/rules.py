"""The rule-based parser: offline mode, and the fast path in front of the LLM parser.

It emits the same statements an LLM parser would. It reads the last turn's question (the
agent's last acts) and the worksheet types, and understands:

- a typed answer to the question just asked (enum, yes/no, numbers, dates and times, text);
- "skip" / "I don't know" -> "NA";
- values for other fields volunteered in the same message when the type makes them
  unambiguous, and corrections ("actually make it 4 people");
- starting a task whose description or ``examples`` match the message;
- "cancel" / "start over", and questions for the knowledge base.

When it understands nothing it says so (``understood=False``) rather than guessing, so no
action ever runs on a guess.
"""

from __future__ import annotations

import datetime as dt
import re
from dataclasses import dataclass
from typing import Any

from rapidfuzz import fuzz

from ..acts import Act, AskField, AskForConfirmation, AskForFieldConfirmation, ProposeWorksheet, formal_value
from ..spec import AgentSpec, Field, TaskWorksheet
from ..state import ACTIVE, DialogueState, WorksheetInstance
from . import extract
from .base import Parse

CANCEL = re.compile(r"^(cancel|cancel (it|that|this|the \w+)|stop|abort|never ?mind|forget it|quit|exit)[.!]*$", re.I)
START_OVER = re.compile(r"^(start over|restart|reset|start again|begin again|let'?s start over)[.!]*$", re.I)
CHITCHAT = re.compile(r"^(hi|hello|hey|good (morning|afternoon|evening)|thanks?( you)?( so much)?|thank you|ok(ay)?|"
                      r"cool|great|bye|goodbye|see you)[ .!]*$", re.I)
CORRECTION = re.compile(r"\b(actually|instead|change|make it|i meant|correction|sorry|wait|not\b.*\bbut)\b", re.I)
QUESTION = re.compile(r"(\?\s*$)|^(what|which|who|where|when|how|is|are|does|do|can|could|tell me|show me|list|find|"
                      r"search|recommend|any)\b", re.I)
TASK_THRESHOLD = 0.5


@dataclass
class _Question:
    act: Act | None

    @property
    def instance(self) -> str | None:
        return getattr(self.act, "instance", None)


class RuleParser:
    """Deterministic parser; ``knowledge`` (a KnowledgeStore) lets it name records offline."""

    def __init__(self, knowledge: Any = None):
        self.knowledge = knowledge

    def parse(self, spec: AgentSpec, state: DialogueState, text: str, today: dt.date) -> Parse:
        return _Parsing(spec, state, text, today, self.knowledge).run()

    def answer_for(self, spec: AgentSpec, state: DialogueState, text: str, today: dt.date) -> str | None:
        """Statements answering exactly the question just asked, or None (used for omission repair)."""
        parsing = _Parsing(spec, state, text, today, self.knowledge)
        return "\n".join(parsing.answer_question()) or None


class _Parsing:
    def __init__(self, spec: AgentSpec, state: DialogueState, text: str, today: dt.date, knowledge: Any):
        self.spec = spec
        self.state = state
        self.text = text.strip()
        self.today = today
        self.knowledge = knowledge
        self.question = _Question(next((a for a in reversed(state.last_acts) if a.is_question), None))
        self.statements: list[str] = []
        self.assigned: set[tuple[str, str]] = set()

    def run(self) -> Parse:
        if not self.text:
            return Parse("", understood=False)
        if CANCEL.match(self.text):
            return Parse("exitws()" if self._open() else "# nothing to cancel")
        if START_OVER.match(self.text):
            return Parse(self._start_over())
        answered = self.answer_question()
        self.statements.extend(answered)
        started = self._start_task(answered_already=bool(answered))
        self.statements.extend(self._volunteered())
        if not self.statements and self.spec.knowledge and QUESTION.search(self.text):
            self.statements.append(f"answer({self.text!r})")
        if not self.statements:
            if CHITCHAT.match(self.text):
                return Parse("# chit-chat")
            return Parse("", understood=False)
        return Parse("\n".join(self.statements), answers_question=bool(answered) and not started
                     and len(self.statements) == len(answered))

    # -- the question just asked -----------------------------------------------------------------
    def answer_question(self) -> list[str]:
        act = self.question.act
        if isinstance(act, (AskForConfirmation, ProposeWorksheet)):
            yes = extract.yes_no(self.text)
            return [] if yes is None else [f"{act.instance}.confirmed = {yes}"]
        if isinstance(act, AskForFieldConfirmation):
            yes = extract.yes_no(self.text)
            return [] if yes is None else [f"{act.instance}.{act.field}.confirmed = {yes}"]
        if isinstance(act, AskField):
            if act.instance == "answer":
                return [f"answer.{act.field} = {extract.free_text(self.text)!r}"]
            instance = self.state.instances.get(act.instance)
            if instance is None or act.field not in self.spec.tasks[instance.worksheet].fields:
                return []
            f = self.spec.tasks[instance.worksheet].fields[act.field]
            if extract.declines(self.text):
                return [self._assign(instance, f, "NA")]
            if f.type.kind == "str" and self._task_match()[1] >= 0.8:
                return []  # "I want to check my ticket" is not a name
            value = self._typed(f, self.text, whole_answer=True)
            if value is not None:
                return [self._assign(instance, f, value)]
        return []

    def _typed(self, f: Field, text: str, whole_answer: bool) -> Any:
        kind = f.type.kind
        if kind == "list" and f.type.item is not None:
            parts = [p for p in re.split(r",|\band\b", text) if p.strip()]
            item = Field(f.name, f.type.item, values=f.values, value_descriptions=f.value_descriptions)
            values = [self._typed(item, p, whole_answer) for p in parts]
            return values if values and all(v is not None for v in values) else None
        if kind == "enum":
            return extract.enum_value(text, f) if whole_answer else extract.mentioned_enum_value(text, f)
        if kind in ("bool", "confirm"):
            return extract.yes_no(text)
        if kind in ("int", "float"):
            number = extract.number_for(text, f) if whole_answer else extract.number_with_noun(text, f)
            if number is None:
                return None
            return int(number) if kind == "int" and float(number).is_integer() else number
        if kind in ("date", "time", "datetime"):
            return extract.date_time(text, self.today, kind)
        if kind == "str":
            return extract.free_text(text) if whole_answer else None
        if kind == "ref" and f.type.ref in self.spec.knowledge:
            return self._record(f.type.ref, text)
        return None

    def _record(self, table: str, text: str) -> Any:
        """A knowledge record the message names: an ordinal of the last results, or a name."""
        rows = self.state.answer.result if self.state.answer and isinstance(self.state.answer.result, list) else []
        ordinal = _ordinal(text)
        if ordinal is not None and -len(rows) <= ordinal < len(rows):
            return rows[ordinal]
        kb = self.spec.knowledge[table]
        key = kb.primary_key
        candidates = rows or (self.knowledge.rows(table, limit=10_000) if self.knowledge is not None else [])
        name_column = next((c for c in ("name", "title") if candidates and c in candidates[0]), key)
        if not candidates or name_column is None:
            return None
        best = max(candidates, key=lambda r: fuzz.partial_ratio(str(r.get(name_column, "")).lower(), text.lower()))
        if fuzz.partial_ratio(str(best.get(name_column, "")).lower(), text.lower()) >= 90:
            return best
        return None

    # -- starting a task -------------------------------------------------------------------------
    def _task_match(self) -> tuple[TaskWorksheet | None, float]:
        words = extract.content_words(self.text)
        if not words:
            return None, 0.0
        best, best_score = None, 0.0
        for ws in _top_level_tasks(self.spec):
            for phrase in (ws.description, *ws.examples):
                phrase_words = extract.content_words(phrase)
                if not phrase_words:
                    continue
                overlap = len(words & phrase_words)
                score = overlap / len(phrase_words) if overlap else 0.0
                if score > best_score:
                    best, best_score = ws, score
        return best, best_score

    def _start_task(self, answered_already: bool) -> bool:
        ws, score = self._task_match()
        if ws is None or score < TASK_THRESHOLD or (answered_already and score < 0.8):
            return False
        open_same = [i for i in self.state.of_worksheet(ws.name) if i.status == ACTIVE]
        if open_same:
            return False
        name = self.state.new_instance_name(ws.name)
        values = {f.name: v for f, v in self._volunteer_values(ws, name)}
        args = ", ".join(f"{k}={formal_value(v)}" for k, v in values.items())
        self.statements.append(f"{name} = {ws.name}({args})")
        self.assigned.update((name, k) for k in values)
        return True

    # -- volunteered values and corrections ----------------------------------------------------------
    def _volunteered(self) -> list[str]:
        out = []
        for instance in self._open():
            ws = self.spec.tasks[instance.worksheet]
            for f, value in self._volunteer_values(ws, instance.name, instance):
                out.append(self._assign(instance, f, value))
        return out

    def _volunteer_values(self, ws: TaskWorksheet, name: str, instance: WorksheetInstance | None = None):
        correcting = bool(CORRECTION.search(self.text))
        asked = (self.question.instance, getattr(self.question.act, "field", None))
        same_kind = _fields_by_kind(self.spec, self._open())
        for f in ws.fields.values():
            if f.kind != "input" or (name, f.name) in self.assigned or (name, f.name) == asked:
                continue
            filled = instance is not None and f.name in instance.values
            if filled and not correcting:
                continue
            value = self._volunteered_value(f, same_kind)
            if value is not None and (not filled or instance.values.get(f.name) != value):
                yield f, value

    def _volunteered_value(self, f: Field, same_kind: dict[str, int]) -> Any:
        kind = f.type.kind
        if kind == "enum":
            return extract.mentioned_enum_value(self.text, f)
        if kind in ("int", "float"):
            number = extract.number_with_noun(self.text, f)
            return None if number is None else (int(number) if kind == "int" else number)
        if kind in ("date", "time", "datetime"):
            mentioned = extract.content_words(f.name.replace("_", " ")) & extract.content_words(self.text)
            if same_kind.get(kind, 0) == 1 or mentioned:
                return extract.date_time(self.text, self.today, kind)
        if kind == "str" and f.validation and f.validation.pattern:
            match = re.search(f.validation.pattern, self.text)  # a value of a distinctive format, e.g. TKT-00001
            if match:
                return match.group(0)
        if kind == "str":
            words = "|".join(re.escape(w) for w in f.name.split("_") if len(w) > 2)
            match = re.search(rf"\bmy (?:\w+ )?(?:{words})\w* is (.+?)[.!]?$", self.text, re.I) if words else None
            return match.group(1).strip() if match else None
        return None

    # -- helpers ---------------------------------------------------------------------------------
    def _assign(self, instance: WorksheetInstance, f: Field, value: Any) -> str:
        self.assigned.add((instance.name, f.name))
        return f"{instance.name}.{f.name} = {formal_value(value)}"

    def _open(self) -> list[WorksheetInstance]:
        return sorted((i for i in self.state.instances.values() if i.status == ACTIVE), key=lambda i: -i.touched)

    def _start_over(self) -> str:
        roots = {self.state.root_of(i).name for i in self._open()}
        lines = [f"exitws({name})" for name in sorted(roots)]
        if self.spec.start:
            lines.append(f"{self.state.new_instance_name(self.spec.start)} = {self.spec.start}()")
        return "\n".join(lines) or "# nothing to start over"


def _top_level_tasks(spec: AgentSpec) -> list[TaskWorksheet]:
    nested = {f.type.referenced() for ws in spec.tasks.values() for f in ws.fields.values()}
    return [ws for ws in spec.tasks.values() if ws.name not in nested or ws.name == spec.start]


def _fields_by_kind(spec: AgentSpec, instances: list[WorksheetInstance]) -> dict[str, int]:
    counts: dict[str, int] = {}
    for instance in instances:
        for f in spec.tasks[instance.worksheet].fields.values():
            if f.kind == "input":
                counts[f.type.kind] = counts.get(f.type.kind, 0) + 1
    return counts


_ORDINALS = {"first": 0, "1st": 0, "second": 1, "2nd": 1, "third": 2, "3rd": 2, "fourth": 3, "4th": 3, "fifth": 4,
             "5th": 4, "last": -1}


def _ordinal(text: str) -> int | None:
    t = extract.normalise(text)
    for word, index in _ORDINALS.items():
        if re.search(rf"\b{word}\b", t):
            return index
    match = re.search(r"(?:number|#|option)\s*(\d+)", t)
    return int(match.group(1)) - 1 if match else None


