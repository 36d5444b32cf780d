"""A proposed reading of (part of) a message: what a matcher says it means, and the evidence.

A matcher never scores its own proposal: it names the evidence (``features``), and the resolver
weighs them all with one fitted table (:mod:`.weights`). A proposal says which words of the
message it explains (``claims``, token indexes) and which fields it gives values (``slots``), so
that the resolver can choose readings that fit together.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from .context import Target

# what a proposal does, for the writer
VALUE = "value"
"""Gives ``target`` the value ``value``."""
START = "start"
"""Starts the task ``worksheet`` (with the values other proposals give its fields)."""
LINES = "lines"
"""Statements as they are: a command, a question for the knowledge base, a confirmation, a remark."""
PROBLEM = "problem"
"""Nothing is taken; ``reason`` says why (a value that cannot be taken, a choice to make)."""


@dataclass(frozen=True, eq=False)
class Proposal:
    does: str
    features: frozenset[str]
    claims: frozenset[int] = frozenset()
    slots: frozenset[str] = frozenset()
    exclusive: bool = False
    """A reading of the whole message (a command, a question): chosen alone or not at all."""
    target: Target | None = None
    value: Any = None
    worksheet: str | None = None
    lines: tuple[str, ...] = ()
    reason: str | None = None
    """What to tell the user when it is chosen (why a value cannot be taken, the answer to a question about the agent)."""
    understood: bool = True
    answers: bool = False
    """It answers exactly the question the agent asked."""
    shares_words: bool = False
    """A text in the user's own words that other values may be said inside ("the dishwasher won't drain")."""
    phase: int = 5
    """Where its statements go in the parse (not a priority): changes first, questions last."""
    naming: frozenset[int] = frozenset()
    """The words naming the field it gives a value ("my email is"): every value of that field may be said with
    them, no other reading may take them ("email" is then no option)."""
    extra: dict = field(default_factory=dict, compare=False, hash=False)

    @property
    def key(self) -> tuple:
        """What the proposal means, for ordering and comparing proposals: never which matcher made it."""
        value = repr(self.value) if self.does == VALUE else ""
        return (self.does, tuple(sorted(self.slots)), value, self.worksheet or "", self.lines, self.reason or "")

    def conflicts(self, other: "Proposal") -> bool:
        """Whether the two cannot both be chosen: either reads the whole message, they give one field
        two values, or they explain the same words (unless one is a text other values are said in), or one
        takes as its value the words naming the other's field."""
        if self.exclusive or other.exclusive or self.slots & other.slots or self.denies(other) or other.denies(self) \
                or self.needs_another_choice(other):
            return True
        mine, theirs = self.new_task, other.new_task
        if mine is not None and theirs is not None and mine != theirs:
            return True  # one message starts one task: values of two tasks not open yet do not go together
        if self.shares_words or other.shares_words or self.implies(other) or other.implies(self):
            return False
        return bool(self.claims & other.claims or self.naming & other.claims or other.naming & self.claims)

    @property
    def new_task(self) -> str | None:
        """The task not open yet that this reading starts or gives a value to."""
        if self.target is not None:
            return self.target.new_task
        return self.worksheet if self.does == START else None

    def denies(self, other: "Proposal") -> bool:
        """Whether this value's field cannot apply once the other's value is given: every way it comes to apply
        needs another value of that field (a leave's start quarter once the student said it is a waitlist)."""
        if self.target is None or other.target is None or other.does != VALUE or not self.target.needs:
            return False
        slot = (other.target.owner, other.target.field.name)
        return all(any((owner, name) == slot and value != other.value for owner, name, value in way)
                   for way in self.target.needs)

    def needs_another_choice(self, other: "Proposal") -> bool:
        """Whether the two values apply under different values of one field, whichever way each comes to apply
        ("the issue is Wrong Credits" needs external test credits, "Change Course" a course problem)."""
        if self.target is None or other.target is None or not self.target.needs or not other.target.needs:
            return False
        return all(any((o1, f1) == (o2, f2) and v1 != v2 for o1, f1, v1 in mine for o2, f2, v2 in theirs)
                   for mine in self.target.needs for theirs in other.target.needs)

    def implies(self, other: "Proposal") -> bool:
        """Whether this value says the other's too: its field applies only when the other's field holds the
        other's value ("join a waitlist" is a trouble with enrollment)."""
        if self.target is None or other.target is None or other.does != VALUE or len(self.target.needs) != 1:
            return False
        return (other.target.owner, other.target.field.name, other.value) in self.target.needs[0]
