"""One message being read: what it is read against, and what a matcher took from it so far.

Every matcher of the rule parser works on a :class:`Reading` of its own (:meth:`Reading.fresh`):
the message and its tokens, the spec, the state, the question the agent asked last, and what the
matcher itself took so far (the fields it assigned, the words it used), so that one matcher never
gives a field two values or reads a word twice. Between matchers, the resolver decides.
"""

from __future__ import annotations

import datetime as dt
import re
from dataclasses import dataclass, field
from typing import Any

from ...acts import Act, formal_value
from ...language.tokens import Token, tokenize
from ...knowledge.mentions import Mention
from .. import extract
from ...spec import AgentSpec, Field
from ...state import DialogueState, InstanceStatus, WorksheetInstance


@dataclass(frozen=True)
class Taken:
    """A value a reading gave: for which instance (a name, or "" for one being made) and field, and
    the spans of the text it was read from, when the reader marked them."""

    instance: str
    field: Field
    value: Any
    spans: list[tuple[int, int]]
    implied: bool = False
    """The value is implied by others the message gives ("sent it by email" has been Submitted), not said."""


@dataclass
class Reading:
    spec: AgentSpec
    state: DialogueState
    text: str
    today: dt.date
    knowledge: Any = None
    """A KnowledgeStore, to name table records offline (a restaurant by its name)."""
    statements: list[str] = field(default_factory=list)
    assigned: set[tuple[str, str]] = field(default_factory=set)
    """(instance, field) pairs given a value by this reading."""
    given: dict[tuple[str, str], Any] = field(default_factory=dict)
    """The values this reading gave, by (instance, field): later strategies see the state as it will be."""
    used: list[tuple[int, int]] = field(default_factory=list)
    """Spans of the text a value was taken from ("Enoteca Vigna", "next Friday"): not read again."""
    corrected: set[str] = field(default_factory=set)
    """Names of fields this message corrects: no other instance takes the value as new."""
    problem: str | None = None
    """What to tell the user if nothing else is read: why a value could not be taken ("in august" is no day)."""
    chose_by: set[str] = field(default_factory=set)
    """Content words that chose an enum value ("waitlist" chose Join Waitlist): no evidence of anything else."""
    implied: set[tuple[str, str]] = field(default_factory=set)
    """(field name, option) of options read from what else the message says rather than from words of their own."""
    taken: list["Taken"] = field(default_factory=list)
    """Every value this reading gave, with where the message says it, in order."""
    listed: list[str] = field(default_factory=list)
    """``answer(...)`` statements that show the records a name left to choose from (a class held
    on several days, none of which the message picked): they go with whatever this reading proposes."""
    _mark: int = 0
    whole_text: str | None = None
    """The whole message, when this reading is of a part of it (``offset``: where the part starts)."""
    offset: int = 0
    _mentions: dict[str, list[Mention]] = field(default_factory=dict, repr=False)

    @property
    def tokens(self) -> tuple[Token, ...]:
        return tokenize(self.text)

    @property
    def whole_tokens(self) -> tuple[Token, ...]:
        """The tokens of the whole message (claims are indexes into these)."""
        return tokenize(self.whole_text if self.whole_text is not None else self.text)

    def fresh(self) -> "Reading":
        """A reading of the same text for another matcher: what this one carried over from earlier
        parts of the message (fields given, corrections) is copied, nothing it took is shared."""
        return Reading(self.spec, self.state, self.text, self.today, self.knowledge, assigned=set(self.assigned),
                       given=dict(self.given), corrected=set(self.corrected), chose_by=set(self.chose_by),
                       whole_text=self.whole_text, offset=self.offset, _mentions=self._mentions)

    @property
    def question(self) -> Act | None:
        """The agent's last question (the act the user is most likely answering)."""
        return next((a for a in reversed(self.state.last_acts) if a.is_question), None)

    @property
    def asked(self) -> tuple[str | None, str | None]:
        """(instance, field) the agent asked for, or (instance, None) / (None, None)."""
        act = self.question
        return getattr(act, "instance", None), getattr(act, "field", None)

    def open_instances(self) -> list[WorksheetInstance]:
        """Active task instances, most recently touched first."""
        return sorted((i for i in self.state.instances.values() if i.status == InstanceStatus.ACTIVE), key=lambda i: -i.touched)

    def open_fields(self) -> list[Field]:
        """The input fields of the open task instances (what a message may refer to)."""
        return [f for i in self.open_instances() for f in self.spec.tasks[i.worksheet].fields.values()
                if f.kind == "input"]

    def assign(self, instance: WorksheetInstance, f: Field, value: Any) -> str:
        """The statement giving ``instance.<f>`` ``value``; the field counts as taken from now on."""
        self.assigned.add((instance.name, f.name))
        self.given[(instance.name, f.name)] = value
        self.note_choice(f, value)
        self.took(instance.name, f, value)
        return f"{instance.name}.{f.name} = {formal_value(value)}"

    def took(self, instance: str, f: Field, value: Any) -> None:
        """Note that ``value`` of ``f`` was read, said where the words used since the last value are."""
        self.taken.append(Taken(instance, f, value, list(self.used[self._mark:]), isinstance(value, str) and (f.name, value) in self.implied))
        self._mark = len(self.used)

    def note_choice(self, f: Field, value: Any) -> None:
        """Remember the words of the message that chose an enum member."""
        if f.type.kind == "enum" and isinstance(value, str) and value in f.values:
            member = extract.content_words(f"{value} {f.value_descriptions.get(value, '')}")
            self.chose_by |= member & extract.content_words(self.text)

    def value_of(self, instance: WorksheetInstance, name: str) -> Any:
        """The field's value once this reading applies: what it gave, else what the state holds."""
        return self.given.get((instance.name, name), instance.values.get(name))

    def mentions(self, table: str) -> list[Mention]:
        """Records of ``table`` the message names, in order (none without the knowledge store)."""
        if table not in self._mentions:
            found = self.knowledge.record_names(table).find(self.text) if self.knowledge is not None else []
            self._mentions[table] = found
        return self._mentions[table]

    def unused(self, start: int, end: int) -> bool:
        return all(end <= s or start >= e for s, e in self.used)

    def part(self, start: int, end: int) -> "Reading":
        """A reading of ``text[start:end]`` alone that shares what this one took (the fields
        assigned, their values, the corrections), for reading a message one part at a time. What
        an earlier part gave a nested worksheet it only tried out (named "") is free again."""
        self.assigned.difference_update({taken for taken in self.assigned if not taken[0]})
        piece = self.text[start:end]
        return Reading(self.spec, self.state, piece.strip(), self.today, self.knowledge,
                       assigned=self.assigned, given=self.given, corrected=self.corrected, chose_by=self.chose_by,
                       listed=self.listed, whole_text=self.whole_text if self.whole_text is not None else self.text,
                       offset=self.offset + start + len(piece) - len(piece.lstrip()))

    def take_number(self, number: float) -> None:
        """The number is a value now ("a table for 4"): no other field reads it."""
        self.used.extend(m.span() for m in re.finditer(rf"(?<![\w.]){number:g}(?![\w])", self.text))

    def masked(self) -> str:
        """The text with the spans already taken blanked out (offsets unchanged)."""
        text = self.text
        for start, end in self.used:
            text = text[:start] + " " * (end - start) + text[end:]
        return text
