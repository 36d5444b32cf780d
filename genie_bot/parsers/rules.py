"""The rule-based parser: offline mode, and the fast path in front of the LLM parser.

It emits the same statements an LLM parser would. It reads the last turn's question (the
agent's last acts) and the worksheet types, and understands:

- a typed answer to the question just asked (enum, yes/no, numbers, dates and times, text,
  text of a declared format); a clause that gives or declines another field is not part of
  it ("My PIN is 7402" answers no question about a birthday);
- "skip" / "I don't know" / "I forgot my PIN" -> "NA" for the field it is about;
- a short typed answer to another open question than the one asked ("walk" when asked where),
  and a short bare value that fits no typed question as the answer to the free-text question
  the flow asks next ("Cooper" when asked a date of birth: the mother's maiden name);
- a remark that answers nothing, to an enum question with a member described as ``otherwise``;
- a value of a format of capitalised words written without them ("tyler jones");
- thanks alone as "no" to "is there anything else...?" (unless it thanks for a result just given);
- values for other fields volunteered in the same message when the type, a declared format,
  a "my X is Y" statement or a preposition of the field's description makes them
  unambiguous, and corrections ("actually make it 4 people");
- starting a task whose description or ``examples`` match the message, or, for an agent with
  a single task, any first message that is more than a greeting or a plea for help;
- farewells ("thanks, bye": no to a pending confirmation, else the end of the tasks), "cancel" /
  "start over", and questions for the knowledge base.

When it understands nothing it says so (``understood=False``) rather than guessing, so no
action ever runs on a guess; a message that neither asks nor requests anything is a remark
("this is so frustrating"), understood as nothing to do.
"""

from __future__ import annotations

import datetime as dt
import re
from dataclasses import dataclass
from typing import Any

from rapidfuzz import fuzz

from ..acts import Act, AskField, AskForConfirmation, AskForFieldConfirmation, ProposeWorksheet, Report, formal_value
from ..parse import Parse
from ..runtime.policy import field_applies
from ..spec import NA, AgentSpec, Field, TaskWorksheet
from ..state import DialogueState, InstanceStatus, WorksheetInstance
from . import extract

CANCEL = re.compile(r"^(cancel|cancel (it|that|this|the \w+)|stop|abort|never ?mind|forget it|quit|exit)[.!]*$", re.I)
START_OVER = re.compile(r"^(start over|restart|reset|start again|begin again|let'?s start over)[.!]*$", re.I)
CHITCHAT = re.compile(r"^((hi|hello|hey|hiya|howdy|greetings|good (morning|afternoon|evening)|please|"
                      r"thanks?( you)?( so much)?|thank you|ok(ay)?|cool|great|bye|goodbye|see you)( there)?[ ,.!]*)+"
                      r"(how are you( doing)?( today)?[ ?.!]*)?$", re.I)
CORRECTION = re.compile(r"\b(actually|instead|change|make it|i meant|correction|sorry|wait|not\b.*\bbut)\b", re.I)
QUESTION = re.compile(r"(\?\s*$)|^(what|which|who|where|when|how|is|are|does|do|can|could|tell me|show me|list|find|"
                      r"search|recommend|any)\b", re.I)
ASKS_THE_AGENT = re.compile(r"^(why|who|how|what)\b.*\?|^.*\b(you|your)\b.*\?\s*$", re.I)
"""A question to the agent ("Who are you?", "Why do you need that?"), not an answer; "Is it a snail?" is one."""
REQUEST = re.compile(r"\b(can|could|would|will) you\b|\b(i want|i'?d like|i would like|i need|help me|please|let'?s)\b",
                     re.I)
"""A request; a message with none and no question is a remark ("this is so frustrating"), understood as such."""
SENTENCE = re.compile(r"\b(i|i'?m|me|you|we|they|he|she|is|are|was|were|am|be|do|does|did|can|could|will|would|"
                      r"should|have|has|had|sounds?|looks?|think|know|want|need|go|going|get|got|see|like|love|make|"
                      r"take|tell|give|let'?s|please|excuse|sorry|what|why|how)\b", re.I)
"""Words of a sentence said to someone ("sounds right", "I love eggs"), not of a bare value ("Cooper")."""
FILLER = re.compile(r"(h+m+|u+m+|u+h+|a+h+|o+h+|w+o+w+|l+o+l+|(ha)+h?|(he)+h?|hm+|er+m*|geez|oops|ok+)[.!?]*", re.I)
"""Sounds and interjections ("hmm", "lol"): no value for any field."""
TASK_THRESHOLD = 0.5
MAX_SMALL_TALK_WORDS = 6
"""A short message of thanks or yes/no ("ok great, thank you!", "yes please") is no name or report."""
MAX_OTHER_ANSWER_WORDS = 4
"""Only a short reply ("walk", "7pm", "3") is read as the answer to a question the agent did not ask."""


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
        if extract.is_farewell(self.text):
            return Parse(self._farewell())  # "got it, thanks, bye" closes the conversation whatever was asked
        answered = self.answer_question()
        self.statements.extend(answered)
        if not answered:
            self.statements.extend(self._answers_another_field())
        started = self._start_task(answered_already=bool(answered))
        self.statements.extend(self._volunteered())
        if not self.statements:
            self.statements.extend(self._answers_a_later_question())
        if not self.statements:
            self.statements.extend(self._otherwise())
        if not self.statements and self.spec.knowledge and QUESTION.search(self.text):
            self.statements.append(f"answer({self.text!r})")
        if not self.statements and self._opens_the_only_task():
            started = True
        if not self.statements and self._restates_open_task():
            return Parse("# the request is already being handled")
        if not self.statements:
            if CHITCHAT.match(self.text) or extract.is_thanks(self.text) or _plea_for_help(self.text):
                return Parse("# chit-chat")
            if not (QUESTION.search(self.text) or REQUEST.search(self.text)):
                return Parse("# a remark, not a request")
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
            free_text = _is_free_text(f)
            if free_text and self._declines(f) and extract.role_phrase(self.text, f) is None:
                return [self._assign(instance, f, "NA")]  # "I don't know, but near the University" gives one
            text = self.text if _has_pattern(f) else self._text_about(f)  # a format is its own evidence
            if free_text:  # "poem. Another one please!" answers "poem"; "thanks" or "who are you?" nothing
                text = "" if _addresses_the_agent(self.text) else ". ".join(
                    c for c in extract.clauses(text) if not _small_talk(c))
                if self._task_match()[1] >= 0.8:
                    return []  # "I want to check my ticket" is not a name
            value = self._typed(f, text, whole_answer=True) if text else None
            if value is None and _has_pattern(f) and self._uncapitalised_answer(f):
                value = self._typed(f, _capitalised(self.text), whole_answer=True)  # "tyler jones"
            if f.type.is_boolean and _closing_question(f) and _thanks_only(self.text) and not self._reported():
                value = False  # "is there anything else?" - "ok, thanks!": nothing else
            if value is None and self._declines(f):
                value = False if f.type.is_boolean else "NA"  # "that's all" answers "anything else?" with no
            if value is not None:
                return [self._assign(instance, f, value)]
        return []

    def _uncapitalised_answer(self, f: Field) -> bool:
        """A short reply that may be the asked value written without capitals ("tyler jones" for a
        format of capitalised words); not a decline, a question or small talk."""
        return ("[A-Z]" in f.validation.pattern and self.text != _capitalised(self.text)
                and len(self.text.split()) <= MAX_OTHER_ANSWER_WORDS and not self._declines(f)
                and not extract.says_unknown(self.text) and not QUESTION.search(self.text)
                and not _small_talk(self.text) and not _addresses_the_agent(self.text))

    def _otherwise(self) -> list[str]:
        """A remark that answers nothing, to a question whose enum marks a member for that ("otherwise")."""
        act = self.question.act
        instance = self.state.instances.get(self.question.instance or "")
        if not isinstance(act, AskField) or instance is None or not _remark(self.text) \
                or CHITCHAT.match(self.text) or FILLER.fullmatch(self.text.strip()):
            return []
        f = self.spec.tasks[instance.worksheet].fields.get(act.field)
        if f is None or f.type.kind != "enum" or self._declines(f):
            return []
        value = extract.otherwise_value(f)  # "I'm so nervous" to "go on, or more detail?": go on
        return [] if value is None else [self._assign(instance, f, value)]

    def _reported(self) -> bool:
        """The agent's last turn reported a result (a report filed) with its question: thanks
        then is for the result, not an answer to the question."""
        return any(isinstance(a, Report) for a in self.state.last_acts)

    def _answers_another_field(self) -> list[str]:
        """A short reply that is a typed answer to another open field than the one asked.

        The user answered a question the agent did not ask ("walk" when asked where to go,
        "3" when asked whether to go on): it counts when exactly one unfilled field of a
        distinctive type (not free text, not yes/no) reads it as a whole answer.
        """
        if len(self.text.split()) > MAX_OTHER_ANSWER_WORDS:
            return []
        asked = (self.question.instance, getattr(self.question.act, "field", None))
        found = [(instance, f, value) for instance in self._open()
                 for f in self.spec.tasks[instance.worksheet].fields.values()
                 if f.kind == "input" and not _is_free_text(f) and not f.type.is_boolean and not f.type.referenced()
                 and (instance.name, f.name) != asked and instance.values.get(f.name) in (None, NA)
                 for value in [self._typed(f, self.text, whole_answer=True)] if value is not None]
        return [self._assign(*found[0])] if len(found) == 1 else []

    def _answers_a_later_question(self) -> list[str]:
        """A short reply that fits no typed question answers the free-text question the flow asks next.

        Asked for a date of birth, "Cooper" is no date: the user is answering a question the
        agent has not asked yet (the mother's maiden name), as happens when the person on the
        other side skips a question or the user is ahead. The reply goes to the first unfilled
        free-text input field of the asked instance whose predicate holds (a field the agent does
        not ask, ``dont_ask``, included: it is one the user may give unasked); questions to the
        agent, small talk, yes, no and long messages are not answers.
        """
        act = self.question.act
        instance = self.state.instances.get(self.question.instance or "")
        if not isinstance(act, AskField) or instance is None or instance.status != InstanceStatus.ACTIVE:
            return []
        ws = self.spec.tasks[instance.worksheet]
        asked = ws.fields.get(act.field)
        if asked is None or _is_free_text(asked) or self._declines(asked):
            return []
        text = self.text.strip().rstrip("?.! ")  # "Wong?" is an unsure answer, not a question
        if (not text or len(text.split()) > MAX_OTHER_ANSWER_WORDS or FILLER.fullmatch(text)
                or SENTENCE.search(extract.free_text(text)) or re.fullmatch(r"[\d\s.,:/#-]+", text)
                or _addresses_the_agent(self.text) or _small_talk(self.text) or extract.says_unknown(self.text)
                or extract.yes_no(self.text) is not None):
            return []
        for f in ws.fields.values():
            if (f.kind == "input" and _is_free_text(f) and f is not asked and instance.values.get(f.name) is None
                    and field_applies(self.spec, self.state, instance, f, self.today)):
                value = extract.role_phrase(text, f) or extract.free_text(text)
                return [self._assign(instance, f, value)]
        return []

    def _declines(self, f: Field) -> bool:
        """The user cannot or will not give the field asked: "skip", "I forgot it", "no idea, sorry".

        A clause saying the user does not know refers to the asked field unless it names
        another field ("I forgot my PIN" declines the PIN, whatever was asked), or says it late
        in a long clause ("someone took $500 and I don't know who").
        """
        if extract.declines(self.text):
            return True
        others = [g for g in self._open_fields() if g is not f]
        return any(extract.says_unknown(clause) and (extract.mentions(clause, f) or (
            extract.unknown_near_start(clause) and not any(extract.mentions(clause, g) for g in others)))
            for clause in extract.clauses(self.text))

    def _text_about(self, f: Field) -> str:
        """The message without the clauses that give or decline another field.

        "My PIN is 7402" answers no question about a date of birth, and "I forgot my account
        number" no question about a name: a clause that names another field and carries a
        value of its format, or says the user does not know it, belongs to that field.
        """
        others = [g for g in self._open_fields() if g is not f and not g.type.referenced()]
        stated = self._stated_values()

        def claimed_by(clause: str, g: Field) -> bool:
            if extract.mentions(clause, g):  # "my PIN is 5380", "I forgot my PIN", "I remembered my PIN. It is 5380"
                return extract.says_unknown(clause) or g.name in stated or _has_pattern_value(self.text, g)
            if _is_free_text(f) and g.type.kind == "enum" and len(clause.split()) <= MAX_OTHER_ANSWER_WORDS:
                return extract.mentioned_enum_value(clause, g) is not None  # "Drive, please" names no place
            return extract.mentions(self.text, g) and _has_pattern_value(clause, g)

        parts = extract.clauses(self.text)
        kept = [c for c in parts if extract.mentions(c, f) or not any(claimed_by(c, g) for g in others)]
        return self.text if kept == parts else ". ".join(kept)  # untouched, "?" and all

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
        if kind == "str" and _has_pattern(f):
            found = extract.pattern_values(text, f.validation.pattern)
            return found[0] if found else None
        if kind == "str":
            return (extract.role_phrase(text, f) or extract.free_text(text)) if whole_answer else None
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
        if ws is None or score < TASK_THRESHOLD or (answered_already and score < 0.8) or _thanks_only(self.text):
            return False  # "I'll find my way, thanks" closes a conversation rather than opening one
        open_same = [i for i in self.state.of_worksheet(ws.name) if i.status == InstanceStatus.ACTIVE]
        if open_same:
            return False
        self._start(ws)
        return True

    def _restates_open_task(self) -> bool:
        """"I want to file a fraud report" while that report is being filled: the agent carries on."""
        ws, score = self._task_match()
        return ws is not None and score >= TASK_THRESHOLD and any(
            self.state.root_of(i).worksheet == ws.name for i in self._open())

    def _opens_the_only_task(self) -> bool:
        """Start the agent's one task on the first message that is more than a greeting.

        An agent with a single task and no start worksheet exists for that task: whatever the
        user opens with ("I lost my card and money is gone") is a request for it.
        """
        tasks = _top_level_tasks(self.spec)
        if self.state.instances or len(tasks) != 1 or CHITCHAT.match(self.text) or _plea_for_help(self.text):
            return False
        self._start(tasks[0])
        return True

    def _start(self, ws: TaskWorksheet) -> None:
        name = self.state.new_instance_name(ws.name)
        self.statements.append(f"{name} = {self._constructor(ws, name)}")

    def _constructor(self, ws: TaskWorksheet, name: str) -> str:
        """``Worksheet(field=value, nested=Nested(field=value))`` with what the opening message gives."""
        values = {f.name: v for f, v in self._volunteer_values(ws, name)}
        values.update(self._described_problem(ws, values))
        args = {k: formal_value(v) for k, v in values.items()}
        for f in ws.fields.values():  # a nested worksheet behind a predicate is the agent's to open, not the user's
            opens = f.kind == "input" and f.predicate is None and f.name not in args
            nested = self.spec.tasks.get(f.type.ref or "") if opens else None
            inner = self._constructor(nested, "") if nested is not None else None
            if inner is not None and inner != f"{nested.name}()":
                args[f.name] = inner
        self.assigned.update((name, k) for k in args)
        return f"{ws.name}({', '.join(f'{k}={v}' for k, v in args.items())})"

    # -- volunteered values and corrections ----------------------------------------------------------
    def _volunteered(self) -> list[str]:
        out = []
        asked = (self.question.instance, getattr(self.question.act, "field", None))
        for instance in self._open():
            ws = self.spec.tasks[instance.worksheet]
            for f, value in self._volunteer_values(ws, instance.name, instance):
                out.append(self._assign(instance, f, value))
            taken = {f.name for f in ws.fields.values() if instance.values.get(f.name) is not None
                     or (instance.name, f.name) in self.assigned or (instance.name, f.name) == asked}
            for name, value in self._described_problem(ws, taken).items():  # "someone took $500", later on
                out.append(self._assign(instance, ws.fields[name], value))
        return out

    def _volunteer_values(self, ws: TaskWorksheet, name: str, instance: WorksheetInstance | None = None):
        correcting = bool(CORRECTION.search(self.text))
        asked = (self.question.instance, getattr(self.question.act, "field", None))
        starting = [ws] if instance is None else []
        same_kind = _fields_by_kind([self.spec.tasks[i.worksheet] for i in self._open()] + starting)
        for f in ws.fields.values():
            if f.kind != "input" or (name, f.name) in self.assigned or (name, f.name) == asked:
                continue
            current = instance.values.get(f.name) if instance is not None else None
            filled = current is not None and current != NA  # a declined field may still be given later
            restated = _is_free_text(f) and extract.role_phrase(self.text, f) is not None  # "I need to get to X" again
            if filled and not (correcting or restated):
                continue
            value = self._volunteered_value(f, same_kind)
            if value is None and current is None and self._declines_unasked(f):
                value = NA
            if value is not None and value != current:
                yield f, value

    def _described_problem(self, ws: TaskWorksheet, taken: dict[str, Any]) -> dict[str, str]:
        """Free-text fields the message already answers, when it opens a task or later on.

        A request like "somebody took $500 from my account" states the user's problem: it fills
        the free-text field whose description shares a word with it that is distinctive of that
        field, in neither its name nor the other fields (a field described as "what happened:
        unauthorised transfers, a stolen card...").
        """
        words = extract.content_words(self.text)
        overlaps = {}
        for f in ws.fields.values():
            if f.kind != "input" or f.name in taken or not _is_free_text(f):
                continue
            others = " ".join(f"{g.name.replace('_', ' ')} {g.description}" for g in ws.fields.values() if g is not f)
            described = extract.content_words(f.description) - extract.content_words(
                f"{f.name.replace('_', ' ')} {others}")
            overlaps[f.name] = len(words & described)
        best = max(overlaps, key=overlaps.get, default=None)
        return {best: self.text} if best and overlaps[best] else {}

    def _declines_unasked(self, f: Field) -> bool:
        """The message says the user does not know a field it names ("I can't remember my PIN")."""
        return any(extract.says_unknown(c) and extract.mentions(c, f) for c in extract.clauses(self.text))

    def _volunteered_value(self, f: Field, same_kind: dict[str, int]) -> Any:
        kind = f.type.kind
        if kind == "enum":
            return extract.mentioned_enum_value(self.text, f)
        if kind in ("int", "float"):
            number = extract.number_with_noun(self.text, f)
            return None if number is None else (int(number) if kind == "int" else number)
        if kind in ("date", "time", "datetime"):
            mentioned = extract.content_words(f.name.replace("_", " ")) & extract.content_words(self.text)
            calendar_date = kind != "date" or extract.mentions_date(self.text)  # "9503" is a PIN, not a year
            if (same_kind.get(kind, 0) == 1 and calendar_date) or mentioned:
                return extract.date_time(self.text, self.today, kind)
        if kind == "str" and _has_pattern(f):
            return self._volunteered_pattern_value(f)
        if kind == "str":
            return self._stated_values().get(f.name) or extract.role_phrase(self.text, f)
        return None

    def _stated_values(self) -> dict[str, str]:
        """Free-text values stated as "my mother's maiden name is Cooper", "the pet was Poppy".

        The subject names the field by the words of its name; when it names several fields
        ("my name is" and full_name, maiden_name...), the ones sharing the most words with it
        win, then the ones with the fewest words in their name.
        """
        fields = [f for f in self._open_fields() if _is_free_text(f)]
        out: dict[str, str] = {}
        for subject, value in extract.statements_of_value(self.text):
            scored = [(len(extract.shared_name_words(subject, f)), -len(f.name.split("_")), f) for f in fields]
            scored = [s for s in scored if s[0]]
            best = max(((n, size) for n, size, _ in scored), default=None)
            out.update({f.name: value for n, size, f in scored if (n, size) == best and f.name not in out})
        return out

    def _volunteered_pattern_value(self, f: Field) -> str | None:
        """A value of the field's distinctive format (TKT-00001, a PIN) the user gave unasked.

        Taken when its clause names the field ("my PIN is 7402"), or when no other open
        field's format fits it and the clause is not about a date (1930 is a year there).
        """
        others = [g for g in self._open_fields() if g is not f and _has_pattern(g)]
        for clause in extract.clauses(self.text):
            for value in extract.pattern_values(clause, f.validation.pattern):
                if extract.mentions(clause, f):
                    return value
                fits_other = any(re.fullmatch(g.validation.pattern, value) for g in others)
                if not fits_other and not extract.mentions_date(clause):
                    return value
        return None

    # -- helpers ---------------------------------------------------------------------------------
    def _open_fields(self) -> list[Field]:
        """The input fields of the open task instances (what a message may refer to)."""
        return [f for i in self._open() for f in self.spec.tasks[i.worksheet].fields.values() if f.kind == "input"]

    def _assign(self, instance: WorksheetInstance, f: Field, value: Any) -> str:
        self.assigned.add((instance.name, f.name))
        return f"{instance.name}.{f.name} = {formal_value(value)}"

    def _open(self) -> list[WorksheetInstance]:
        active = (i for i in self.state.instances.values() if i.status == InstanceStatus.ACTIVE)
        return sorted(active, key=lambda i: -i.touched)

    def _farewell(self) -> str:
        """"Thanks, bye": no to a pending confirmation, else the end of every open task."""
        act = self.question.act
        if isinstance(act, (AskForConfirmation, ProposeWorksheet)):
            return f"{act.instance}.confirmed = False"
        roots = sorted({self.state.root_of(i).name for i in self._open()})
        return "\n".join(f"exitws({name})" for name in roots) or "# farewell"

    def _start_over(self) -> str:
        roots = {self.state.root_of(i).name for i in self._open()}
        lines = [f"exitws({name})" for name in sorted(roots)]
        if self.spec.start:
            lines.append(f"{self.state.new_instance_name(self.spec.start)} = {self.spec.start}()")
        return "\n".join(lines) or "# nothing to start over"


def _addresses_the_agent(text: str) -> bool:
    """Greetings, farewells and questions to the agent: the message answers no free-text question."""
    return bool(CHITCHAT.match(text) or extract.is_farewell(text) or ASKS_THE_AGENT.search(text))


CLOSING = re.compile(r"\banything else\b", re.I)


def _closing_question(f: Field) -> bool:
    """"Is there anything else I can do for you?": the question that closes a conversation."""
    return bool(CLOSING.search(f"{f.ask or ''} {f.description}"))


def _thanks_only(text: str) -> bool:
    """Thanks, maybe with an ok or a remark, and no request or question ("ok great, thanks for your help")."""
    return extract.is_thanks(text) and not QUESTION.search(text) and not re.search(
        r"\b(can|could|would|will) you\b|\b(i want|i'?d like|i would like|i need|help me with|let'?s)\b", text, re.I)


PLEA = re.compile(r"^(?:(?:hi|hello|hey|please|i|i'?m|am|me|my|a|an|in|some|real|really|can|could|would|you|"
                  r"need|needs|your|help|out|urgent|urgently|quick|quickly|hurry|desperate|situation|now)"
                  r"\b[\s,.!?]*)+$", re.I)


def _plea_for_help(text: str) -> bool:
    """A plea for help that says nothing of what is wanted ("Help me please!", "Hi, I'm in a
    desperate situation"): the answer is "how can I help?", not a task."""
    return bool(PLEA.match(text.strip())) and bool(re.search(r"\b(help|situation|hurry|urgent)", text, re.I))


def _remark(text: str) -> bool:
    """Neither a question nor a request nor a farewell: "this is so frustrating", "I see the park"."""
    return not (QUESTION.search(text) or REQUEST.search(text) or extract.is_farewell(text))


def _small_talk(clause: str) -> bool:
    """A short clause of thanks, or of yes or no ("ok great", "yes please"), which is no value."""
    return len(clause.split()) <= MAX_SMALL_TALK_WORDS and (
        bool(CHITCHAT.match(clause)) or extract.is_thanks(clause) or extract.yes_no(clause) is not None)


def _capitalised(text: str) -> str:
    return re.sub(r"\b[a-z]", lambda m: m.group(0).upper(), text)


def _has_pattern(f: Field) -> bool:
    return bool(f.validation and f.validation.pattern)


def _has_pattern_value(text: str, f: Field) -> bool:
    return _has_pattern(f) and bool(extract.pattern_values(text, f.validation.pattern))


def _is_free_text(f: Field) -> bool:
    """A text field without a distinctive format: any message could be its value."""
    return f.type.kind == "str" and not _has_pattern(f)


def _top_level_tasks(spec: AgentSpec) -> list[TaskWorksheet]:
    nested = {f.type.referenced() for ws in spec.tasks.values() for f in ws.fields.values()}
    return [ws for ws in spec.tasks.values() if ws.name not in nested or ws.name == spec.start]


def _fields_by_kind(worksheets: list[TaskWorksheet]) -> dict[str, int]:
    counts: dict[str, int] = {}
    for ws in worksheets:
        for f in ws.fields.values():
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


