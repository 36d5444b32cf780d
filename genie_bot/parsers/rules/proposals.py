"""A proposed reading of a message: what a matcher says part of it means, and how sure it is.

Every matcher of the rule parser proposes readings; none decides. A :class:`Proposal` names the
words of the message it explains (``claims``, token indexes), the fields it gives values
(``slots``), the statements it means, and a score summed from evidence (the weights below).
The resolver (``resolver.py``) then picks the best set of proposals that explain different
words and give different fields; ties are broken by how much of the message is explained, never
by which matcher ran first.
"""

from __future__ import annotations

from dataclasses import dataclass, field

# -- evidence weights: what makes a reading likely ------------------------------------------------------------
WHOLE_MESSAGE_COMMAND = 20.0
"""The whole message is a command (cancel, start over, goodbye) or a question about the agent itself."""
QUESTION_WORD = 12.0
"""The message asks with a question word ("who teaches it?"): a question, never a value."""
DECISIVE = QUESTION_WORD
"""A reading of the whole message at least this strong is taken without reading values in it: no
sum of values would outweigh it (and reading them costs most of a parse)."""
QUESTION_MARK = 2.5
"""Only a question mark says it asks ("8pm?"): an unsure answer outweighs it."""
ASKED = 3.0
"""The value answers the question the agent just asked."""
CONFIRMATION = 4.0
"""Yes or no to a summary, a proposal or a question to check a value."""
FORMAT = 2.0
"""The value has the field's declared format (an email, a ticket id)."""
NAMED_FIELD = 2.0
"""The message names the field the value is for ("my email is", "3 units", "the date is wrong")."""
TYPED = 1.0
"""A value of the field's type said plainly: a date, a time, a number, an option by its name, a record."""
DESCRIBED = 0.5
"""A value read from what the message describes (an option by the words of its description, free text)."""
CORRECTION = 2.5
"""The message corrects a value given before, and says the new one."""
TASK = 3.0
"""A task asked for, times how well the message matches its description or examples."""
SEARCH = 2.0
"""A description of records the agent can look up ("quiet places in Seattle")."""
PER_WORD = 0.05
"""Each word a reading explains: of two readings, the one that explains more of the message wins."""
LATER_QUESTION = 0.6
"""A bare value that fits no typed question answers the free-text question asked next."""
OTHERWISE = 0.4
"""A remark to a question whose options mark one for "anything else"."""
ONLY_TASK = 0.3
"""The first message to an agent with one task asks for it."""
NOTHING = 0.01
"""Small talk, a remark, or a message not understood: chosen only when nothing else is."""
PHRASING_PENALTY = 2.0
"""Taken off a free-text reading of a message that reads as something else (a correction, a request)."""


@dataclass(frozen=True)
class Proposal:
    """A reading of (part of) a message, proposed by one matcher."""

    matcher: str
    statements: tuple[str, ...]
    score: float
    claims: frozenset[int] = frozenset()
    """Indexes of the tokens this reading explains; two chosen readings never share one."""
    slots: frozenset[str] = frozenset()
    """``instance.field`` (or ``new:Worksheet.field``) of each value given; two chosen readings never share one."""
    exclusive: bool = False
    """A reading of the whole message (a command, a question): chosen alone or not at all."""
    evidence: tuple[str, ...] = ()
    """Why it scored as it did, for ``genie-bot chat --debug`` and the tests."""
    answers: bool = False
    """Its statements answer exactly the question the agent asked."""
    corrects: tuple[str, ...] = ()
    """``instance.field`` of values it changes (a correction)."""
    starts: bool = False
    """It starts a task."""
    reason: str | None = None
    """What to tell the user if it is chosen (a question about the agent, a value that could not be taken)."""
    understood: bool = True
    phase: int = 5
    """Where its statements go in the parse (values of existing instances before new tasks), not a priority."""
    describes: bool = False
    """A description in the user's own words (a problem, a request): its words may also give values of
    other fields ("the dishwasher won't drain" is the description and the appliance)."""
    volunteers: bool = False
    """A value read from the words of a message without being asked for."""
    says: frozenset[int] = frozenset()
    """Tokens its values are said by, also those it does not own (a detail of a nested worksheet, an
    option implied by the rest: see ``evidence``)."""
    free_text: bool = False
    """Its values are text in the user's words (no description): they take no word another value is said by."""
    details: dict = field(default_factory=dict, compare=False, hash=False)

    def conflicts(self, other: "Proposal") -> bool:
        """Whether the two cannot both be chosen: either reads the whole message, they share a word or
        a field, or one takes as free text a word the other's values are said by ("A-Level" is the
        kind of test, not also a note)."""
        if self.exclusive or other.exclusive or self.slots & other.slots:
            return True
        if (self.free_text and self.claims & other.says) or (other.free_text and other.claims & self.says):
            return True
        shared = (self.describes and other.volunteers) or (self.volunteers and other.describes)
        return not shared and bool(self.claims & other.claims)
