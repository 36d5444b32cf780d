"""The worksheet language as plain data: what an agent declares, already validated.

These objects know nothing of LLMs, databases or chat platforms. Code snippets (predicates,
actions, validation expressions, API arguments) are kept as :class:`Code`: the source, where
it came from, and its checked syntax tree, parsed once at load time.
"""

from __future__ import annotations

import ast
import datetime as dt
from collections.abc import Callable
from dataclasses import dataclass, field
from functools import cached_property
from pathlib import Path
from typing import Any

from ..language.words import Lexicon
from .diagnostics import Loc
from .types import FieldType

FIELD_KINDS = ("input", "output", "internal")
RESERVED_ATTRIBUTES = ("confirmed", "result")
"""Attribute names the runtime gives every instance and field; no field may use them."""


@dataclass(frozen=True)
class Code:
    """A snippet of worksheet code with its source position and checked syntax tree."""

    source: str
    tree: ast.Module = field(repr=False, compare=False)
    loc: Loc | None = None

    @cached_property
    def names(self) -> frozenset[str]:
        """The names the code reads: bare names and fields of ``self`` (``self.kind`` -> "kind")."""
        found = set()
        for node in ast.walk(self.tree):
            if isinstance(node, ast.Name):
                found.add(node.id)
            elif isinstance(node, ast.Attribute) and isinstance(node.value, ast.Name) and node.value.id == "self":
                found.add(node.attr)
        return frozenset(found)


@dataclass(frozen=True)
class Validation:
    minimum: float | dt.date | str | None = None
    """The least value; for a date, a date or "today" (the day of the conversation)."""
    maximum: float | dt.date | str | None = None
    pattern: str | None = None
    expression: Code | None = None
    message: str | None = None


@dataclass(frozen=True)
class Field:
    """One field of a task worksheet, as declared in agent.yaml.

    ``kind`` is ``input`` (asked of the user), ``output`` (set from the worksheet's API result)
    or ``internal`` (set by worksheet code, never shown to the parser). ``predicate`` decides
    whether it applies; ``actions`` run once it is set; ``confirm`` asks the user to confirm the
    value; an optional (``required: false``) field may be declined with ``NA``. Values are
    coerced to ``type`` and checked against ``validation`` when assigned.
    """

    name: str
    type: FieldType
    kind: str = "input"
    description: str = ""
    ask: str | None = None
    """How the agent asks for the field; without it, a question is built from the description."""
    label: str | None = None
    """The field's name in summaries ("Full name"); without it, the head of the description."""
    values_from: str | None = None
    """A knowledge table whose records the value names (a course code): the parser finds them in messages."""
    predicate: Code | None = None
    required: bool = True
    dont_ask: bool = False
    confirm: bool = False
    actions: Code | None = None
    on_decline: Code | None = None
    """Run when the user declines the field ("NA"), e.g. to end a flow that cannot go on."""
    validation: Validation | None = None
    default: Any = None
    values: tuple[str, ...] = ()
    value_descriptions: dict[str, str] = field(default_factory=dict)
    value_synonyms: dict[str, tuple[str, ...]] = field(default_factory=dict)
    """Other ways users say an enum member ("pass/fail" for Credit/No Credit)."""
    synonyms: tuple[str, ...] = ()
    """Other names users give the field ("party size" for the number of people)."""
    counts: tuple[str, ...] = ()
    """For a number: the nouns it counts ("people", "guests", "kids"); without it, read from the
    field's name and description ("the number of attendees" counts attendees)."""
    value_labels: dict[str, str] = field(default_factory=dict)
    """How the bot writes an enum member, where the builder said (``label:``); else as the member is written."""
    loc: Loc | None = None

    @property
    def askable(self) -> bool:
        """Whether the agent may ask the user for this field (predicate aside)."""
        return self.kind == "input" and not self.dont_ask


@dataclass(frozen=True)
class ApiSpec:
    """The API a task worksheet calls once it is complete; its result is reported."""

    function: str
    args: dict[str, Code]
    side_effects: bool = False
    when: Code | None = None
    """Call the API only if this holds when the worksheet completes (else it completes without it)."""
    loc: Loc | None = None


@dataclass(frozen=True)
class TaskWorksheet:
    name: str
    description: str = ""
    fields: dict[str, Field] = field(default_factory=dict)
    predicate: Code | None = None
    actions: Code | None = None
    api: ApiSpec | None = None
    examples: tuple[str, ...] = ()
    phrase: str | None = None
    """The task in the bot's sentences ("Shall I go ahead and <phrase>?"); without it, from the description."""
    needs_confirmation: bool = False
    """True when completing it may run a side-effecting API (declared or called in actions)."""
    actions_have_side_effects: bool = False
    """Its actions call a side-effecting API function (so they always need a confirmation)."""
    loc: Loc | None = None

    def input_fields(self) -> list[Field]:
        return [f for f in self.fields.values() if f.kind == "input"]


@dataclass(frozen=True)
class Column:
    name: str
    type: str | None = None
    """Declared SQL-ish type (int, float, str); None lets the store infer it from the data."""
    description: str = ""
    required: bool = False
    """A query over the table must constrain this column (asked for when missing)."""
    free_text: bool = False
    """Long text the knowledge parser queries with ``answer(column, question)``."""


@dataclass(frozen=True)
class KnowledgeWorksheet:
    """A knowledge source: an SQL table (optionally loaded from CSV) or documents."""

    name: str
    description: str = ""
    source: str = "table"  # table | documents
    table: str | None = None
    csv: Path | None = None
    csv_sha256: str | None = None
    """The hash of the CSV's bytes when the spec was loaded: the importer imports those bytes or none."""
    database: str | None = None
    """The URL of the database where ``table`` already lives (``${VAR}`` read from the environment), instead
    of a CSV imported into the knowledge database."""
    documents: tuple[Path, ...] = ()
    primary_key: str | None = None
    columns: dict[str, Column] = field(default_factory=dict)
    noun: str | None = None
    """What one record is called in replies ("I found 6 laptops"); None: "item"."""
    plural: str | None = None
    """The noun's plural where adding -s or -es is wrong; None: made from the noun."""
    loc: Loc | None = None

    def required_columns(self) -> list[str]:
        return [c.name for c in self.columns.values() if c.required]


@dataclass(frozen=True)
class ApiFunction:
    """A Python function of the agent's module, callable from worksheet code by name."""

    name: str
    fn: Callable[..., Any]
    side_effects: bool = False


@dataclass(frozen=True)
class Vocabulary:
    """What words of the agent's domain mean (``vocabulary:`` in agent.yaml): the offline parser and
    the wording read them, so that a new agent needs no rules of its own. English that is about no
    domain is the product's (``genie_bot.language``)."""

    synonyms: dict[str, str] = field(default_factory=dict)
    """A word users say -> the word the worksheets use for it ("class": "course", "qtr": "quarter")."""
    times_of_day: dict[str, str] = field(default_factory=dict)
    """A word -> the part of the day it implies (morning, afternoon or evening): "dinner": "evening"
    makes "dinner at 8" 20:00."""
    users: tuple[str, ...] = ()
    """Nouns the descriptions use for the user ("the student's email" is asked as "your email")."""

    PARTS_OF_DAY = ("morning", "afternoon", "evening")

    def lexicon(self) -> Lexicon:
        """These words, to put in effect while the agent's messages are read or phrased."""
        return Lexicon(self.synonyms, self.times_of_day, self.users)


@dataclass(frozen=True)
class PolicySettings:
    """Choices of the agent policy where genie-bot and the reference Genie differ.

    The defaults are genie-bot's behaviour; an agent imported with ``genie-bot import-csv``
    gets the reference's. Each choice and its reason: docs/genie-compatibility.md.
    """

    nested_worksheet_question: str = "first_field"
    """An empty field holding a worksheet: ``first_field`` opens the nested worksheet and asks
    its first field; ``parent_field`` asks the field itself until the user gives part of it."""
    start_task: str = "at_greeting"
    """When the ``start`` worksheet opens: ``at_greeting``, asking its first question with the
    greeting; ``when_nothing_asked``, at the end of the first turn that asks nothing else and
    whose knowledge question (if any) could be answered."""

    CHOICES = {"nested_worksheet_question": ("first_field", "parent_field"),
               "start_task": ("at_greeting", "when_nothing_asked")}


@dataclass
class AgentSpec:
    """A loaded, validated agent: its task and knowledge worksheets and its API functions.

    Plain data made by :func:`~genie_bot.spec.load_agent` (or :func:`~genie_bot.spec.check_agent`,
    which returns every problem as ``file:line:col: message`` instead of raising) from an agent
    directory: ``agent.yaml``, an optional ``api.py`` and data files. It knows nothing of LLMs,
    databases or chat platforms. ``version`` changes whenever one of those files does, which is
    how the engine tells a reloaded agent from the one a session started with.
    """

    name: str
    directory: Path
    description: str = ""
    start: str | None = None
    greeting: str | None = None
    tasks: dict[str, TaskWorksheet] = field(default_factory=dict)
    knowledge: dict[str, KnowledgeWorksheet] = field(default_factory=dict)
    apis: dict[str, ApiFunction] = field(default_factory=dict)
    policy: PolicySettings = field(default_factory=PolicySettings)
    vocabulary: Vocabulary = field(default_factory=Vocabulary)
    version: str = ""
    """Content hash of the files the spec was loaded from: agent.yaml, the API module, the data files."""
    data: dict[str, str] = field(default_factory=dict)
    """Each data file (CSV, document), by its path in the agent's directory -> the hash of its bytes."""

    def worksheet_names(self) -> list[str]:
        return [*self.tasks, *self.knowledge]

    def summary(self) -> str:
        fields = sum(len(t.fields) for t in self.tasks.values())
        predicates = sum((t.predicate is not None) + sum(f.predicate is not None for f in t.fields.values())
                         for t in self.tasks.values())
        actions = sum((t.actions is not None) + (t.api is not None) + sum(f.actions is not None for f in t.fields.values())
                      for t in self.tasks.values())
        return (f"{self.name}: {len(self.tasks)} task worksheets, {len(self.knowledge)} knowledge worksheets, "
                f"{fields} fields, {predicates} predicates, {actions} actions, {len(self.apis)} API functions")

WORKSHEET_CODE_FUNCTIONS = ("say", "propose", "exitws", "today", "now")
"""Functions the runtime offers to predicates and actions, besides the interpreter's built-ins."""
