"""The statements a parse may write, generated from the spec and the state, in each server's own form.

A small model asked for statements writes prose, comments or Python the interpreter refuses.
Servers can constrain decoding: llama.cpp to a GBNF grammar (``grammar``), vLLM to a grammar
(``guided_grammar``), OpenAI to a JSON schema (structured outputs), Ollama to a JSON schema
(``format``; its OpenAI-compatible endpoint reads ``response_format``, so both are sent). The
language is one description (:class:`Grammar`) rendered as GBNF or, for the JSON forms, as
the regular expression each statement of ``{"statements": [...]}`` must match:

- ``instance.field = value`` for the fields of the open tasks, the value of the field's type
  (an enum field takes one of its values, a nested task a constructor);
- ``worksheet_N = Worksheet(field=value, ...)`` to start a task; ``answer('...')`` to ask the
  knowledge base; ``exitws()`` to drop the current task;
- when the user gave a value (the rule-based parser read one), at least one statement: no
  comment, no ``pass``; else ``pass`` too.
"""

from __future__ import annotations

import json
import re
from dataclasses import dataclass
from typing import Any

from ..names import snake_case
from ..spec import AgentSpec
from ..spec.model import Field
from ..state import DialogueState

JSON_MODES = ("json_schema", "ollama")
JSON_INSTRUCTION = ('Answer with JSON only: {"statements": ["...", "..."]}, one statement per item, '
                    'written as you would write it in the code block.')


@dataclass(frozen=True)
class Lit:
    text: str


@dataclass(frozen=True)
class Chars:
    """A character class, e.g. ``[0-9]``, the same in GBNF and in regular expressions."""

    cls: str


@dataclass(frozen=True)
class Ref:
    name: str


@dataclass(frozen=True)
class Alt:
    items: tuple["Expr", ...]


@dataclass(frozen=True)
class Seq:
    items: tuple["Expr", ...]


@dataclass(frozen=True)
class Opt:
    item: "Expr"


@dataclass(frozen=True)
class Rep:
    """Zero or more (``at_least_one``: one or more)."""

    item: "Expr"
    at_least_one: bool = False


Expr = Lit | Chars | Ref | Alt | Seq | Opt | Rep

_COMMON: dict[str, Expr] = {
    "string": Seq((Lit("'"), Rep(Chars(r"[^'\\\n]")), Lit("'"))),
    "int": Seq((Opt(Lit("-")), Rep(Chars("[0-9]"), True))),
    "number": Seq((Ref("int"), Opt(Seq((Lit("."), Rep(Chars("[0-9]"), True)))))),
    "bool": Alt((Lit("True"), Lit("False"))),
    "name": Seq((Chars("[a-z]"), Rep(Chars("[a-z0-9_]")))),
    "scalar": Alt((Ref("string"), Ref("number"), Ref("bool"), Lit("None"))),
}


class Grammar:
    """Named rules; ``root`` is a whole parse. Rules refer to each other without cycles."""

    def __init__(self, rules: dict[str, Expr]):
        self.rules = rules
        self._regex: dict[str, str] = {}

    def gbnf(self) -> str:
        return "\n".join(f"{name} ::= {_gbnf(expr)}" for name, expr in self.rules.items()) + "\n"

    def regex(self, name: str) -> str:
        """The rule as a regular expression (rules inlined), anchored by the caller if needed."""
        if name not in self._regex:
            self._regex[name] = self._re(self.rules[name])
        return self._regex[name]

    def _re(self, expr: Expr) -> str:
        if isinstance(expr, Lit):
            return re.escape(expr.text)
        if isinstance(expr, Chars):
            return expr.cls
        if isinstance(expr, Ref):
            return f"(?:{self.regex(expr.name)})"
        if isinstance(expr, Alt):
            return "(?:" + "|".join(self._re(i) for i in expr.items) + ")"
        if isinstance(expr, Seq):
            return "".join(self._re(i) for i in expr.items)
        if isinstance(expr, Opt):
            return f"(?:{self._re(expr.item)})?"
        return f"(?:{self._re(expr.item)})" + ("+" if expr.at_least_one else "*")


def statement_grammar(spec: AgentSpec, state: DialogueState, value_given: bool) -> Grammar:
    """The language of one parse in ``state`` (see the module's docstring)."""
    rules: dict[str, Expr] = {}
    kinds: list[Expr] = []
    for worksheet in spec.tasks:
        ctor = f"new-{_rule_name(worksheet)}"
        rules[ctor] = _constructor(spec, worksheet, rules)
        kinds.append(Seq((Lit(f"{snake_case(worksheet)}_"), Rep(Chars("[0-9]"), True), Lit(" = "), Ref(ctor))))
    for instance in (i for i in state.instances.values() if i.open):
        ws = spec.tasks[instance.worksheet]
        for f in ws.fields.values():
            if f.kind == "input":
                kinds.append(Seq((Lit(f"{instance.name}.{f.name} = "), _value(spec, f))))
        if ws.needs_confirmation:
            kinds.append(Seq((Lit(f"{instance.name}.confirmed = "), Ref("bool"))))
    if spec.knowledge:
        kinds.append(Seq((Lit("answer("), Ref("string"), Lit(")"))))
    kinds.append(Lit("exitws()"))
    rules = {"statement": Alt(tuple(kinds)), **rules, **_COMMON}
    statements = Seq((Ref("statement"), Rep(Seq((Lit("\n"), Ref("statement"))))))
    return Grammar({"root": statements if value_given else Alt((statements, Lit("pass"))), **rules})


def json_schema(grammar: Grammar, value_given: bool) -> dict[str, Any]:
    """``{"statements": [...]}``, each statement matching the grammar's ``statement`` rule."""
    return {
        "type": "object",
        "properties": {"statements": {"type": "array", "minItems": 1 if value_given else 0,
                                      "items": {"type": "string", "pattern": f"^{grammar.regex('statement')}$"}}},
        "required": ["statements"],
        "additionalProperties": False,
    }


def request_arguments(mode: str, spec: AgentSpec, state: DialogueState, value_given: bool) -> dict[str, Any]:
    """The chat completion arguments that constrain a parse in ``mode`` (none: nothing)."""
    if mode == "none":
        return {}
    grammar = statement_grammar(spec, state, value_given)
    if mode == "llama_cpp":
        return {"extra_body": {"grammar": grammar.gbnf()}}
    if mode == "vllm":
        return {"extra_body": {"guided_grammar": grammar.gbnf()}}
    schema = json_schema(grammar, value_given)
    response_format = {"type": "json_schema", "json_schema": {"name": "statements", "strict": True, "schema": schema}}
    if mode == "ollama":
        return {"response_format": response_format, "extra_body": {"format": schema}}
    return {"response_format": response_format}


def statements_from_json(text: str) -> str | None:
    """The statements of a ``{"statements": [...]}`` completion, one a line; None if it is not one."""
    try:
        data = json.loads(text)
    except ValueError:
        return None
    items = data.get("statements") if isinstance(data, dict) else None
    if not isinstance(items, list):
        return None
    return "\n".join(item.strip() for item in items if isinstance(item, str) and item.strip())


def _constructor(spec: AgentSpec, worksheet: str, rules: dict[str, Expr]) -> Expr:
    fields = [f for f in spec.tasks[worksheet].fields.values() if f.kind == "input"]
    call = Lit(f"{worksheet}()")
    if not fields:
        return call
    name = f"arg-{_rule_name(worksheet)}"
    rules[name] = Alt(tuple(Seq((Lit(f"{f.name}="), _value(spec, f))) for f in fields))
    argument = Ref(name)
    arguments = Seq((argument, Rep(Seq((Lit(", "), argument)))))
    return Alt((call, Seq((Lit(f"{worksheet}("), arguments, Lit(")")))))


def _value(spec: AgentSpec, f: Field) -> Expr:
    kind = f.type.kind
    if f.values:
        options = tuple(Lit(repr(v)) for v in f.values)
        return Alt(options + (() if f.required else (Lit("'NA'"),)))
    if kind == "list" and f.type.item is not None:
        item = _value(spec, Field(f.name, f.type.item))
        return Seq((Lit("["), Opt(Seq((item, Rep(Seq((Lit(", "), item)))))), Lit("]")))
    referenced = f.type.referenced()
    if referenced in spec.tasks:
        return Ref(f"new-{_rule_name(referenced)}")
    if referenced in spec.knowledge:
        pair = Seq((Ref("name"), Lit("="), Ref("scalar")))
        return Seq((Lit(f"{referenced}("), pair, Rep(Seq((Lit(", "), pair))), Lit(")")))
    if f.type.is_boolean:
        return Ref("bool")
    if kind in ("int", "float"):
        return Alt((Ref("number"), Ref("string")))  # "four" is coerced by the runtime
    return Ref("string") if f.required else Alt((Ref("string"), Lit("None")))


def _rule_name(name: str) -> str:
    return re.sub(r"[^A-Za-z0-9-]", "-", name).lower()


def _gbnf(expr: Expr) -> str:
    if isinstance(expr, Lit):
        return json.dumps(expr.text)  # GBNF literals escape as JSON strings do
    if isinstance(expr, Chars):
        return expr.cls
    if isinstance(expr, Ref):
        return expr.name
    if isinstance(expr, Alt):
        return "(" + " | ".join(_gbnf(i) for i in expr.items) + ")"
    if isinstance(expr, Seq):
        return "(" + " ".join(_gbnf(i) for i in expr.items) + ")"
    if isinstance(expr, Opt):
        return f"({_gbnf(expr.item)})?"
    return f"({_gbnf(expr.item)})" + ("+" if expr.at_least_one else "*")
