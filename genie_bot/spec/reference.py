"""Every key of ``agent.yaml``, once: its type, meaning, default and an example.

This table is the worksheet language's one source of truth. The loader accepts exactly these
keys (:func:`keys_of`; a misspelt key is an error with a suggestion), ``genie-bot schema``
prints the JSON Schema made from them (:func:`json_schema`, also shipped beside this module as
``agent.schema.json`` for editors' YAML language servers), and the documentation's worksheet
reference is written from them (:func:`markdown`). Adding a key to the language is one
:class:`Key` in its :class:`Section` below, and reading it in :mod:`.loader`;
``tests/core/test_reference.py`` fails until the shipped schema and the docs are regenerated:
``genie-bot schema > genie_bot/spec/agent.schema.json && genie-bot schema --markdown > docs/reference.md``.
"""

from __future__ import annotations

import datetime as dt
import json
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from ..interpreter.allowed import BUILTINS, DATA_ATTRIBUTES, METHODS
from ..interpreter.whitelist import ALLOWED, EXPRESSION, FORBIDDEN_NAMES, NOT_ALLOWED, OPERATOR, STATEMENT
from .model import FIELD_KINDS, WORKSHEET_CODE_FUNCTIONS, PolicySettings
from .types import BASE_TYPES

SCHEMA_FILE = Path(__file__).with_name("agent.schema.json")

Schema = dict[str, Any]

TEXT: Schema = {"type": "string"}
FLAG: Schema = {"type": "boolean"}
CODE: Schema = {"type": ["string", "boolean", "number"],
                "description": "worksheet code: a small, safe subset of Python"}
NAME: Schema = {"type": "string", "pattern": "^[A-Za-z][A-Za-z0-9_]*$"}
MEMBER: Schema = {"type": ["string", "number", "boolean"]}


def ref(section: str) -> Schema:
    return {"$ref": f"#/$defs/{section}"}


def list_of(item: Schema) -> Schema:
    return {"type": "array", "items": item}


@dataclass(frozen=True)
class Key:
    """One key of a section: the JSON Schema of its value and what a bot builder reads about it."""

    name: str
    schema: Schema
    meaning: str
    default: str = ""
    """What leaving the key out means, in words ("" when it is required or has nothing to say)."""
    example: Any = None
    required: bool = False


@dataclass(frozen=True)
class Section:
    """A mapping of agent.yaml (the top level, a task, a field...) and the keys it accepts."""

    name: str
    where: str
    """Where the mapping stands, as a path (``tasks[].fields[]``)."""
    meaning: str
    keys: tuple[Key, ...]

    def names(self) -> tuple[str, ...]:
        return tuple(k.name for k in self.keys)


SECTIONS: tuple[Section, ...] = (
    Section("agent", "agent.yaml", "An agent: its tasks, its knowledge and how it greets users.", (
        Key("name", NAME, "The agent's name (an identifier); genie.yaml and the logs call it by this.",
            "the directory's name", "ticket_submission"),
        Key("description", TEXT, "What the agent is for. The LLM prompts show it, and the default greeting is "
            "\"Hi! \" and this description.", "", "Student services assistant: files tickets and answers questions."),
        Key("greeting", TEXT, "The opening message of every conversation.", "\"Hi! \" and the description",
            "Hi! I can book you a table."),
        Key("start", NAME, "A task worksheet open from the first turn: the greeting asks its first question, and a "
            "free-text first field takes the opening message. Without it the bot waits for the user to ask for a "
            "task and picks it by the tasks' descriptions and examples.", "none", "Main"),
        Key("api_module", TEXT, "The Python file of the agent's API functions, relative to the agent directory.",
            "api.py (if it exists)", "api.py"),
        Key("policy", ref("policy"), "Choices where the reference Genie behaves differently "
            "(see Genie compatibility).", "genie-bot's choices"),
        Key("vocabulary", ref("vocabulary"), "What words of the agent's domain mean, for the offline parser and the "
            "wording (English that is about no domain is genie-bot's own).", "none",
            {"synonyms": {"class": "course"}, "users": ["student"]}),
        Key("tasks", list_of(ref("task")), "The task worksheets: what the agent does for users.", "none"),
        Key("knowledge", list_of(ref("knowledge")), "Knowledge worksheets: tables and documents the agent answers "
            "questions from.", "none"),
    )),
    Section("policy", "policy", "The policy's choices where genie-bot and the reference Genie differ.", (
        Key("nested_worksheet_question", {"enum": list(PolicySettings.CHOICES["nested_worksheet_question"])},
            "An empty field holding a worksheet: `first_field` opens the nested worksheet and asks its first field; "
            "`parent_field` asks for the field itself until the user gives part of it.", "first_field",
            "parent_field"),
        Key("start_task", {"enum": list(PolicySettings.CHOICES["start_task"])},
            "When the `start` worksheet opens: `at_greeting` asks its first question with the greeting; "
            "`when_nothing_asked` opens it at the end of the first turn that asks nothing else.", "at_greeting",
            "when_nothing_asked"),
    )),
    Section("vocabulary", "vocabulary", "What words of the agent's domain mean: the offline parser reads a "
            "message through them, and the bot's wording uses them.", (
        Key("synonyms", {"type": "object", "additionalProperties": TEXT}, "A word users say: the word the worksheets "
            "use for it. Matching is by stem, so one form of a word covers the others.", "none",
            {"class": "course", "qtr": "quarter"}),
        Key("times_of_day", {"type": "object", "additionalProperties": {"enum": ["morning", "afternoon", "evening"]}},
            "A word: the part of the day it implies, so a time without am/pm is read in it (“dinner at 8” is 20:00).",
            "none (English ones: morning, afternoon, evening, tonight)", {"dinner": "evening", "brunch": "morning"}),
        Key("users", list_of(TEXT), "Nouns the descriptions use for the person talking to the bot: “the student's "
            "email” is asked as “your email”, and “the student's name” is a person's name.",
            "none (English ones: user, customer, client...)", ["student"]),
    )),
    Section("task", "tasks[]", "A task worksheet: the fields to fill, when it applies, and the API it calls.", (
        Key("name", NAME, "The worksheet's name, also its type when a field holds one (`type: Course`).",
            example="BookRestaurant", required=True),
        Key("description", TEXT, "What the task does, as a verb phrase (\"Book a table at a restaurant\"). It picks "
            "the task from a user's message, and the bot's sentences use it: \"Shall I go ahead and book a table at "
            "a restaurant?\" (see `phrase`).", "", "Book a table at a restaurant"),
        Key("phrase", TEXT, "The task in the bot's sentences (\"Shall I go ahead and …?\", \"Would you like me to "
            "…?\", \"drop your request to …\").", "the description, spoken to the user, without its parenthesised "
            "explanation", "report an IT incident"),
        Key("examples", list_of(TEXT), "Messages that ask for this task; they help pick it.", "none",
            ["book a table", "can you get me a table for 4 at 7pm tomorrow"]),
        Key("predicate", CODE, "When the worksheet applies (an expression); it is not offered otherwise.",
            "always", "self.kind == 'Group'"),
        Key("fields", list_of(ref("field")), "The task's fields, asked in this order.", "none"),
        Key("api", {"anyOf": [TEXT, ref("api")]}, "The API function called once every required field is filled; "
            "a function name, or a mapping.", "none", {"function": "book_restaurant", "side_effects": True}),
        Key("actions", CODE, "Code run once the worksheet is complete (after its API call): `say(...)`, "
            "`propose(...)`, calls of API functions.", "none", "say(f\"Booked: {self.confirmation_code}\")"),
    )),
    Section("api", "tasks[].api", "The API function a task calls, and how its arguments are made.", (
        Key("function", NAME, "A function of the API module.", example="submit_ticket", required=True),
        Key("side_effects", FLAG, "The call changes something (a booking, a ticket): the user sees a summary and "
            "confirms first, and it runs exactly once.", "false", True),
        Key("args", {"type": "object", "additionalProperties": CODE}, "Parameter: expression, for parameters whose "
            "value is not the field of the same name. A nested task is passed as a dict of its values, a record as "
            "a dict of its columns, a declined optional field as None.", "each parameter from the field of its name",
            {"details": "self.extra or 'none'"}),
        Key("when", CODE, "Call the API only if this holds when the worksheet completes.", "always",
            "self.amount > 0"),
    )),
    Section("field", "tasks[].fields[]", "A field of a task worksheet: a value the bot asks for, or that an API "
            "or code sets.", (
        Key("name", NAME, "The field's name in code (`self.num_people`) and in an API call's parameters.",
            example="num_people", required=True),
        Key("type", {"type": "string", "examples": [*BASE_TYPES, "list[str]"]},
            f"{', '.join(BASE_TYPES)}, `list[T]`, a task worksheet's name (a nested worksheet) or a knowledge "
            "table's name (a record of it).", example="int", required=True),
        Key("kind", {"enum": list(FIELD_KINDS)}, "`input` is asked of the user, `output` is set from the task's "
            "API result (a returned dict fills the fields of its keys), `internal` is set by code and never shown "
            "to the parser.", "input", "output"),
        Key("description", TEXT, "What the value is, in a few words (\"the number of people in the party\"). "
            "Without `ask` and `label`, the question and the summary label are made from it.", "", "the date of "
            "the reservation"),
        Key("ask", TEXT, "The question that asks for the field.", "made from the description", "How many people?"),
        Key("label", TEXT, "The field's name in summaries and confirmations (\"Party size\").",
            "the head of the description", "Party size"),
        Key("values", {"anyOf": [list_of({"anyOf": [MEMBER, {"type": "object", "minProperties": 1, "maxProperties": 1,
                                                          "additionalProperties": {"anyOf": [TEXT, ref("member")]}}]}),
                                 {"type": "object", "additionalProperties": {"anyOf": [TEXT, ref("member")]}}]},
            "The members of an `enum` field, shown as written: a list of names, or `name: description` (the "
            "description lets users name a member in their own words), or `name: {description, label, synonyms}`.",
            example=["Letter", {"Credit/No Credit": "graded pass/fail"}]),
        Key("values_from", NAME, "A knowledge table whose records the value names (a course code): the parser "
            "finds them in messages.", "none", "courses"),
        Key("predicate", CODE, "When the field applies (an expression over the worksheet's fields).", "always",
            "self.kind == 'Group'"),
        Key("required", FLAG, "An input the task cannot do without. Optional fields are still asked, and may be "
            "declined (\"skip\"): a declined field is `NA` in worksheet code and in the conversation's state, and "
            "None in the arguments of an API function.", "true for inputs", False),
        Key("dont_ask", FLAG, "Never asked; set when the user volunteers it.", "false", True),
        Key("confirm", FLAG, "Ask the user to confirm the value once it is set.", "false", True),
        Key("actions", CODE, "Code run when the field is set.", "none", "say('Got it')"),
        Key("on_decline", CODE, "Code run when the user declines an optional field.", "none", "exitws()"),
        Key("validation", ref("validation"), "Checks a value must pass; a value that fails is asked again with "
            "the message.", "none"),
        Key("default", {}, "The value the field starts with.", "none", 2),
        Key("synonyms", list_of(TEXT), "Other names users give the field (“the party size”): a correction or a "
            "value naming it by one of them is for this field.", "none", ["party size", "headcount"]),
        Key("counts", list_of(TEXT), "For a number: the nouns it counts (“4 guests”, “2 adults and 3 kids”); "
            "when one is a word for people, a party is counted from who comes (“me and my wife” is 2).",
            "the nouns of its name and after “number of” or “how many” in its description",
            ["people", "guests", "kids"]),
    )),
    Section("member", "tasks[].fields[].values", "An enum member's description, display name and synonyms.", (
        Key("description", TEXT, "What the member means; lets users name it in their own words.", "",
            "graded pass/fail"),
        Key("label", TEXT, "How the bot writes the member.", "the member as written", "Pass/fail"),
        Key("synonyms", list_of(TEXT), "Other ways users say the member.", "none", ["pass/fail", "cr/nc"]),
    )),
    Section("validation", "tasks[].fields[].validation", "Checks a field's value must pass.", (
        Key("min", {"anyOf": [{"type": "number"}, {"type": "string", "format": "date"}, {"const": "today"}]},
            "The least value; for a date, a date or `today` (the day of the conversation).", "none", "today"),
        Key("max", {"anyOf": [{"type": "number"}, {"type": "string", "format": "date"}, {"const": "today"}]},
            "The greatest value; for a date, a date or `today`.", "none", 20),
        Key("pattern", TEXT, "A regular expression the whole text must match (an email, an id). It is also how the "
            "offline parser finds the value: any word or number of a message that matches it is taken for the "
            "field, asked or not, so keep it as tight as the values are (a loose `\\d{4}` takes a house number as a "
            "gate code); check a format that other values share with `expression` instead "
            "(`len(value) == 4 and value.isdigit()`).", "none",
            "^[^@\\s]+@[^@\\s]+$"),
        Key("expression", CODE, "An expression that must hold; `value` is the new value, `self` the worksheet. "
            "It waits while a field it reads is empty (or declined, unless it names `NA`), and runs again whenever "
            "one of them changes: then this field is asked again ([worksheet code](#code)).", "none",
            "value.max_guests >= self.guests"),
        Key("message", TEXT, "What the bot says when a value fails.", "a message naming the rule",
            "Between 1 and 20 people, please."),
    )),
    Section("knowledge", "knowledge[]", "A knowledge worksheet: a table (loaded from a CSV file) or a collection "
            "of documents.", (
        Key("name", NAME, "The worksheet's name; a field of this type holds one of its records.",
            example="restaurants", required=True),
        Key("description", TEXT, "What the table or documents hold (shown to the LLM).", "",
            "restaurants in four cities"),
        Key("noun", TEXT, "What one record is called (\"laptop\"): \"I found 6 laptops\".", "item", "restaurant"),
        Key("plural", TEXT, "The noun's plural, when adding -s or -es is wrong.", "made from the noun", "people"),
        Key("csv", TEXT, "A CSV file (relative to the agent directory), imported once into the knowledge "
            "database (docs/knowledge-scale.md).", "none", "data/restaurants.csv"),
        Key("database", TEXT, "The URL of another database that holds the table already (read there, read-only; "
            "${VARIABLE} is taken from the environment). Not with csv.", "none", "${SHOP_DATABASE_URL}"),
        Key("table", TEXT, "The SQL table's name.", "the worksheet's name, lower case", "restaurants"),
        Key("documents", TEXT, "A glob of text or markdown files, searched by paragraph.", "none", "docs/*.md"),
        Key("primary_key", TEXT, "The column that identifies a record (a course code).", "none", "id"),
        Key("columns", {"type": "object", "additionalProperties": {"anyOf": [TEXT, ref("column")]}},
            "Column: description, or column: settings.", "the CSV header's columns",
            {"name": "the restaurant's name", "review": {"description": "a review", "free_text": True}}),
    )),
    Section("column", "knowledge[].columns.*", "A column of a knowledge table.", (
        Key("description", TEXT, "What the column holds.", "", "the price in US dollars"),
        Key("type", {"enum": ["int", "float", "str"]}, "The column's type.", "inferred from the data", "float"),
        Key("required", FLAG, "A query must constrain this column; the bot asks for it first.", "false", True),
        Key("free_text", FLAG, "Long text (reviews) that questions are answered from, not matched as values.",
            "false", True),
    )),
)

_BY_NAME = {section.name: section for section in SECTIONS}


def keys_of(section: str) -> tuple[str, ...]:
    """The keys a section accepts, in the reference's order."""
    return _BY_NAME[section].names()


def json_schema() -> Schema:
    """The JSON Schema (draft 2020-12) of agent.yaml, one definition per section."""
    definitions = {}
    for section in SECTIONS:
        properties = {}
        for key in section.keys:
            described = {**key.schema, "description": key.meaning + (f" Default: {key.default}." if key.default else "")}
            if "$ref" in key.schema:  # a reference's siblings are ignored by older validators: wrap it
                described = {"allOf": [key.schema], "description": described["description"]}
            properties[key.name] = described
        definitions[section.name] = {"type": "object", "description": section.meaning, "properties": properties,
                                     "required": [k.name for k in section.keys if k.required],
                                     "additionalProperties": False}
    agent = definitions.pop("agent")
    return {"$schema": "https://json-schema.org/draft/2020-12/schema", "title": "genie-bot agent.yaml", **agent,
            "$defs": definitions}


def schema_text() -> str:
    return json.dumps(json_schema(), indent=2, ensure_ascii=False) + "\n"


def markdown() -> str:
    """The worksheet reference page: every section and key, with its type, default and an example."""
    out = ["# Worksheet reference", "",
           "<!-- Generated from genie_bot/spec/reference.py by `genie-bot schema --markdown > docs/reference.md`: "
           "edit that file, not this one. -->", "",
           "Every key `agent.yaml` accepts. The loader rejects any other key (with a suggestion for a misspelt one), "
           "and the same table gives the JSON Schema that `genie-bot schema` prints (see "
           "[editor set-up](#editor-set-up)).", ""]
    for section in SECTIONS:
        out += [f"## {section.where} {{#{section.name}}}", "", section.meaning, "", "| key | type | meaning | default | example |",
                "|---|---|---|---|---|"]
        for key in section.keys:
            example = "" if key.example is None else f"`{_inline(key.example)}`"
            default = "**required**" if key.required else key.default
            out.append(f"| `{key.name}` | {_type_words(key.schema)} | {key.meaning} | {default} | {example} |")
        out.append("")
    out += code_markdown()
    out += ["## Editor set-up", "",
            "`genie-bot schema` prints the JSON Schema of `agent.yaml` (the same file ships in the package as "
            "`genie_bot/spec/agent.schema.json`). Editors with the YAML language server (VS Code's YAML "
            "extension, Neovim's yamlls, JetBrains IDEs) complete keys, show these meanings on hover and "
            "underline unknown keys as you type:", "",
            "```sh", "genie-bot schema > agent.schema.json", "```", "",
            "then either put this first line in `agent.yaml`:", "",
            "```yaml", "# yaml-language-server: $schema=agent.schema.json", "```", "",
            "or map every agent file to it in VS Code's `settings.json`:", "",
            "```json", '{"yaml.schemas": {"./agent.schema.json": "**/agent.yaml"}}', "```", "",
            "The schema checks keys and the shapes of values; `genie-bot validate` checks everything else "
            "(names, types, code, files) with `file:line:col` for each problem.", ""]
    return "\n".join(out)


_VALUE_WORDS = {str: "text", list: "lists", dict: "records (a knowledge record, a dict)", dt.datetime: "date-times",
                dt.date: "dates", dt.time: "times", dt.timedelta: "durations (`value - self.first_day`)"}
_RUNTIME_WORDS = {
    "say": "`say(text)` adds a message to the reply (actions)",
    "propose": "`propose(Task, {field: value})` offers another task (actions)",
    "exitws": "`exitws()` drops the task (actions)",
    "today": "`today()` the day of the conversation",
    "now": "`now()` its date and time",
}


def code_markdown() -> list[str]:
    """The section on worksheet code: what of Python it may use, written from the interpreter's own
    allow-lists (:mod:`genie_bot.interpreter.whitelist`, :mod:`genie_bot.interpreter.allowed`), so that
    what the page says is what the loader and the interpreter accept."""
    def words(kind: str) -> list[str]:
        return [text for category, text in ALLOWED.values() if category == kind]

    methods = "; ".join(f"{_VALUE_WORDS[kind]}: {', '.join(f'`{m}`' for m in names)}" for kind, names in METHODS.items())
    attributes = "; ".join(f"{_VALUE_WORDS[kind]}: {', '.join(f'`{a}`' for a in sorted(names))}"
                           for kind, names in DATA_ATTRIBUTES.items())
    refused = sorted({reason.replace(" is not allowed", "").replace(" are not allowed", "")
                      for reason in NOT_ALLOWED.values()})
    return [
        "## Worksheet code {#code}", "",
        "Predicates, actions, validation expressions and API arguments are a small subset of Python, checked when "
        "the agent loads (`genie-bot validate` names the line and column of what is not allowed) and run by "
        "genie-bot's own interpreter, never by `eval`. A `predicate`, a validation `expression`, `api.args` and "
        "`api.when` are one expression; `actions` and `on_decline` may be several statements. Loops and calls "
        "are bounded: code that would run too long or make too large a value stops with a reason.", "",
        f"- **Statements:** {'; '.join(words(STATEMENT))}.",
        f"- **Expressions:** {'; '.join(words(EXPRESSION))}.",
        f"- **Operators:** {' '.join(f'`{o}`' for o in words(OPERATOR))}.",
        "- **Names:** `self` (the task), its fields (`self.guests`, or `guests` alone), `value` in a validation "
        "(the value being checked), `NA` (an optional field the user declined), the task and table names "
        "(`Guest(name='Ann')` makes a nested task), and in actions the agent's API functions by name, called "
        "with keyword arguments (a declined field is passed as None).",
        f"- **Functions of the runtime:** {'; '.join(_RUNTIME_WORDS[name] for name in WORKSHEET_CODE_FUNCTIONS)}.",
        f"- **Built-in functions:** {', '.join(f'`{name}`' for name in sorted(BUILTINS))}.",
        f"- **Methods:** {methods}.",
        f"- **Attributes:** {attributes}; a record's columns (`self.room.seats`).",
        f"- **Not allowed:** {'; '.join(refused)}; names and attributes that start with `_`; "
        f"{', '.join(f'`{name}`' for name in sorted(FORBIDDEN_NAMES))}.", "",
        "A validation `expression` waits while a field it reads (`self.guests`) is empty, or declined unless the "
        "check names `NA` (`self.budget == NA or value.price <= self.budget`), and runs again whenever one of "
        "them changes: a room chosen for 2 is asked again when the party grows to 4, with the check's "
        "`message`. The value just given is kept, and the field the check is declared on is the one asked "
        "again, so declare a check on the field the user should change.", "",
    ]


def _type_words(schema: Schema) -> str:
    if "$ref" in schema:
        name = schema['$ref'].rsplit('/', 1)[1]
        return f"mapping ([{name}](#{name}))"
    if "enum" in schema:
        return " \\| ".join(f"`{v}`" for v in schema["enum"])
    if "anyOf" in schema:
        return " or ".join(dict.fromkeys(_type_words(s) for s in schema["anyOf"]))
    if schema is CODE:
        return "[code](#code)"
    kind = schema.get("type")
    if kind == "array":
        return f"list of {_type_words(schema['items'])}"
    if kind == "object":
        return "mapping"
    if isinstance(kind, list):
        return " or ".join(kind)
    if "const" in schema:
        return f"`{schema['const']}`"
    return {"string": "text", "boolean": "true/false", "number": "number", None: "any"}.get(kind, str(kind))


def _inline(value: Any) -> str:
    text = value if isinstance(value, str) else json.dumps(value, ensure_ascii=False)
    return text.replace("|", "\\|").replace("\n", " ")
