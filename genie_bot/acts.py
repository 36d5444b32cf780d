"""Agent acts: what the policy decides the agent does this turn, as typed objects.

Each act has a formal string (``AskField(book_restaurant_0, date, "Date of the booking")``)
used in LLM prompts, logs and replay traces, and a dict form for storage. Acts describe
intent only; phrasing them is the response generator's job.
"""

from __future__ import annotations

import datetime as dt
from dataclasses import asdict, dataclass, field
from typing import Any, ClassVar

from .spec.types import InstanceRef
from .values import decode_value, encode_value


def formal_value(value: Any) -> str:
    """Render a value the way a parser statement would write it."""
    if isinstance(value, InstanceRef):
        return value.name
    if isinstance(value, (dt.date, dt.time)):
        return repr(value.isoformat())
    if isinstance(value, list):
        return "[" + ", ".join(formal_value(v) for v in value) + "]"
    if isinstance(value, tuple):
        return "(" + ", ".join(formal_value(v) for v in value) + ")"
    if isinstance(value, dict):
        return "{" + ", ".join(f"{formal_value(k)}: {formal_value(v)}" for k, v in value.items()) + "}"
    return repr(value)


def _quoted(text: str) -> str:
    return '"' + text.replace("\\", "\\\\").replace('"', '\\"') + '"'


@dataclass(frozen=True)
class Act:
    """One thing the agent does in a turn, decided by the policy: ask a field, ask to confirm,
    report a result, say something, propose a task.

    Acts are what the responder phrases (the LLM is told to perform every act and invent
    nothing), what conversation tests assert on, and what the engine records. Each has a formal
    rendering (``AskField(main_0, email, "your email")``), used in prompts, traces and tests.
    """

    kind: ClassVar[str] = "Act"
    is_question: ClassVar[bool] = False
    """Whether the act waits for the user's answer; the policy emits at most one per turn."""

    def formal(self) -> str:
        raise NotImplementedError

    def to_dict(self) -> dict[str, Any]:
        return {"act": self.kind, **{k: encode_value(v) for k, v in asdict(self).items()}}

    def __str__(self) -> str:
        return self.formal()


@dataclass(frozen=True)
class AskField(Act):
    instance: str
    field: str
    description: str
    reason: str | None = None
    """Why the field is asked again (the previous value was rejected), if it is."""
    kind: ClassVar[str] = "AskField"
    is_question: ClassVar[bool] = True

    def formal(self) -> str:
        reason = f", reason={_quoted(self.reason)}" if self.reason else ""
        return f"AskField({self.instance}, {self.field}, {_quoted(self.description)}{reason})"


@dataclass(frozen=True)
class AskForFieldConfirmation(Act):
    instance: str
    field: str
    value: Any
    kind: ClassVar[str] = "AskForFieldConfirmation"
    is_question: ClassVar[bool] = True

    def formal(self) -> str:
        return f"AskForFieldConfirmation({self.instance}, {self.field}, {formal_value(self.value)})"


@dataclass(frozen=True)
class AskForConfirmation(Act):
    """Confirm a whole worksheet before its side-effecting API runs."""

    instance: str
    worksheet: str
    api: str | None
    values: dict[str, Any] = field(default_factory=dict)
    kind: ClassVar[str] = "AskForConfirmation"
    is_question: ClassVar[bool] = True

    def formal(self) -> str:
        return f"AskForConfirmation({self.instance})"


@dataclass(frozen=True)
class Report(Act):
    """The result of a knowledge query (``query`` is ``answer("...")``) or of an instance's API."""

    query_or_instance: str
    result: Any
    kind: ClassVar[str] = "Report"

    def formal(self) -> str:
        return f"Report({self.query_or_instance}, {formal_value(self.result)})"


@dataclass(frozen=True)
class Say(Act):
    text: str
    kind: ClassVar[str] = "Say"

    def formal(self) -> str:
        return f"Say({_quoted(self.text)})"


@dataclass(frozen=True)
class ProposeWorksheet(Act):
    worksheet: str
    params: dict[str, Any]
    instance: str
    kind: ClassVar[str] = "ProposeWorksheet"
    is_question: ClassVar[bool] = True

    def formal(self) -> str:
        return f"ProposeWorksheet({self.worksheet}, {formal_value(self.params)})"


@dataclass(frozen=True)
class AskToCancel(Act):
    """Ask before dropping a task the user has already given details for; yes is ``exitws(instance)``."""

    instance: str
    worksheet: str
    kind: ClassVar[str] = "AskToCancel"
    is_question: ClassVar[bool] = True

    def formal(self) -> str:
        return f"AskToCancel({self.instance})"


@dataclass(frozen=True)
class Cancelled(Act):
    """A task the user asked to drop was dropped; nothing of it was submitted."""

    instance: str
    worksheet: str
    kind: ClassVar[str] = "Cancelled"

    def formal(self) -> str:
        return f"Cancelled({self.instance})"


@dataclass(frozen=True)
class Submitted(Act):
    """What the user's last submission sent (``values`` as confirmed), said again after it: the user
    can tell what went through, and that a change or another request starts a new one."""

    instance: str
    worksheet: str
    values: dict[str, Any] = field(default_factory=dict)
    kind: ClassVar[str] = "Submitted"

    def formal(self) -> str:
        return f"Submitted({self.instance})"


ACT_TYPES: dict[str, type[Act]] = {cls.kind: cls for cls in (AskField, AskForFieldConfirmation, AskForConfirmation,
                                                               Report, Say, ProposeWorksheet, AskToCancel, Cancelled,
                                                               Submitted)}


def act_from_dict(data: dict[str, Any]) -> Act:
    cls = ACT_TYPES[data["act"]]
    return cls(**{k: decode_value(v) for k, v in data.items() if k != "act"})
