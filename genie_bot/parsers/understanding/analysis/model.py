"""What the analysis of a message holds: typed entities, field and task mentions, dialogue-act cues.

An :class:`Analysis` is made once per message, before any matcher runs, and nothing changes it
afterwards: every matcher reads the same frozen facts. Offsets are characters of the message.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from ....language.tokens import Token

# -- entity kinds, most specific first: of two entities over the same words, the earlier kind is kept -----
CODE = "code"
"""A value of a format a field declares (a pattern): "DC-10482", "PRJ-3000"."""
EMAIL = "email"
PHONE = "phone"
AMOUNT = "amount"
"""An amount of money with its currency, or said as money ("$1,250", "twelve hundred euros")."""
ADDRESS = "address"
RECORD = "record"
"""A record of a knowledge table named by its name."""
OPTION = "option"
"""An option of an enum field named by its name, a synonym or a phrase its description lists."""
DATE = "date"
TIME = "time"
DURATION = "duration"
NAME = "name"
"""A proper name: a person's ("Jenna Ortiz"), or another named thing's ("Biscuit")."""
IDENTIFIER = "identifier"
"""Letters and digits, or a long run of digits, that no field declares: a reference of some kind ("hh 204518")."""
ORDINAL = "ordinal"
NUMBER = "number"

SPECIFICITY = (CODE, EMAIL, PHONE, AMOUNT, ADDRESS, RECORD, OPTION, DATE, TIME, DURATION, NAME, IDENTIFIER, ORDINAL,
               NUMBER)
"""Kinds in the order an overlap is settled in when two spans are as long."""


@dataclass(frozen=True)
class Entity:
    """A typed value said in the message: its kind, where, its value and what else was read of it.

    ``value`` by kind: a float (number, ordinal), :class:`Amount`, a tuple of readings nearest
    first (date, time), minutes (duration), the text as written (code, email, phone, address,
    identifier, name), a tuple of :class:`~genie_bot.knowledge.mentions.Mention` (record: every
    record the words name), a tuple of :class:`OptionHit` (option: every field the words are an
    option of).
    """

    kind: str
    start: int
    end: int
    value: Any
    text: str
    vague: bool = False
    """A period rather than a day ("next week"), a rough amount ("a couple"), a bare hour ("at 4")."""
    retracted: bool = False
    """Taken back by the message itself ("tuesday, no wait, wednesday": tuesday)."""
    negated: bool = False
    """Denied ("wednesday not tuesday": tuesday): the value is not meant, it may say what is replaced."""
    in_question: bool = False
    """Said inside a question ("what rooms do you have for 5 people?"): asked about, not given."""
    owner: str = ""
    """For a name: the word for whose name it is ("my dog rex": dog), when the message says."""

    @property
    def span(self) -> tuple[int, int]:
        return self.start, self.end

    @property
    def usable(self) -> bool:
        """A value the message gives: not taken back, denied or asked about."""
        return not (self.retracted or self.negated or self.in_question)


@dataclass(frozen=True)
class Amount:
    value: float
    currency: str | None
    """An ISO code ("USD"), or None when the amount says no currency."""
    currency_text: str = ""
    """The sign or word the message wrote the currency with ("$", "bucks")."""


@dataclass(frozen=True)
class OptionHit:
    """One option a stretch of words names: the field (worksheet, field name), the member, and how."""

    worksheet: str
    field: str
    member: str
    how: str
    """``name`` (as written or in another form), ``synonym``, ``listed`` (a phrase its description
    lists), ``typo`` (a long word of its name misspelt), or ``other`` (the member for everything else)."""


@dataclass(frozen=True)
class FieldMention:
    """A field named by the message ("the date", "my email", "party size", "no gate code")."""

    worksheet: str
    field: str
    start: int
    end: int
    how: str
    """``label``, ``name``, ``synonym`` or ``noun`` (the thing a number counts: "3 units")."""


@dataclass(frozen=True)
class Cue:
    """Words that say what the message does with its parts: ``act`` is one of :data:`ACTS`."""

    act: str
    start: int
    end: int


AFFIRM, DENY, DECLINE, UNKNOWN, CANCEL, START_OVER, SELF_CORRECTION, CHANGE, NEGATION, QUESTION, PROPOSAL, \
    REQUEST, THANKS, GOODBYE, GREETING, NOTHING_MORE, ABOUT_AGENT = (
        "affirm", "deny", "decline", "unknown", "cancel", "start_over", "self_correction", "change", "negation",
        "question", "proposal", "request", "thanks", "goodbye", "greeting", "nothing_more", "about_agent")
ACTS = (AFFIRM, DENY, DECLINE, UNKNOWN, CANCEL, START_OVER, SELF_CORRECTION, CHANGE, NEGATION, QUESTION, PROPOSAL,
        REQUEST, THANKS, GOODBYE, GREETING, NOTHING_MORE, ABOUT_AGENT)


@dataclass(frozen=True)
class Analysis:
    """The analysis of one message (see the module docstring)."""

    text: str
    tokens: tuple[Token, ...]
    entities: tuple[Entity, ...]
    """Non-overlapping typed values in text order; words of several kinds over the same span are
    alternatives (listed each), anything overlapping otherwise was settled."""
    clauses: tuple[tuple[int, int], ...]
    cues: tuple[Cue, ...]
    fields: tuple[FieldMention, ...]
    whole: dict[str, bool] = field(default_factory=dict, compare=False)
    """Acts that the whole message is ("cancel", "decline", "affirm"...): nothing else is said."""

    def of(self, *kinds: str) -> list[Entity]:
        return [e for e in self.entities if e.kind in kinds]

    def has(self, act: str) -> bool:
        return any(c.act == act for c in self.cues)

    def cues_of(self, act: str) -> list[Cue]:
        return [c for c in self.cues if c.act == act]

    def clause_of(self, start: int) -> tuple[int, int]:
        """The clause the character at ``start`` is in."""
        return next(((s, e) for s, e in self.clauses if s <= start < e), (0, len(self.text)))

    def words_between(self, start: int, end: int) -> list[Token]:
        return [t for t in self.tokens if start <= t.start and t.end <= end]

    def covered(self, start: int, end: int) -> bool:
        """Whether an entity covers any of these characters."""
        return any(e.start < end and start < e.end for e in self.entities)

    def free_tokens(self) -> list[Token]:
        """Tokens no entity covers."""
        return [t for t in self.tokens if not self.covered(t.start, t.end)]
