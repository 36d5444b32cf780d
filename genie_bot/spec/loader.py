"""Loading an agent directory into an :class:`AgentSpec`, reporting every problem at once.

Errors are collected, never raised one by one, so a bot builder sees all of them with
``file:line:col`` in a single ``genie-bot validate`` run.
"""

from __future__ import annotations

import ast
import datetime as dt
import hashlib
import os
import re
from collections.abc import Set as AbstractSet
from dataclasses import replace
from pathlib import Path
from typing import Any

from ..interpreter import InterpreterError, parse_checked
from ..interpreter.allowed import BUILTINS, RECORD_METHODS
from ..names import closest
from .api_module import IDEMPOTENCY_PARAMETER, ApiModuleError, check_call, import_api_module, parameters
from .csv_file import CsvFacts, DataFileInvalid, file_sha256, read_csv_facts
from .diagnostics import Loc, SpecError, SpecInvalid
from .reference import keys_of
from .model import (
    FIELD_KINDS, RESERVED_ATTRIBUTES, WORKSHEET_CODE_FUNCTIONS, AgentSpec, ApiFunction, ApiSpec, Code, Column, Field,
    KnowledgeWorksheet, PolicySettings, TaskWorksheet, Validation, Vocabulary,
)
from .types import BASE_TYPES, CoercionError, FieldType, TypeSyntaxError, coerce, parse_type
from .yaml_source import LocatedList, LocatedMap, load_located_yaml

AGENT_FILE = "agent.yaml"
_IDENTIFIER = re.compile(r"[A-Za-z][A-Za-z0-9_]*\Z")


def load_agent(directory: str | Path) -> AgentSpec:
    """Load and validate the agent in ``directory``; raise :class:`SpecInvalid` listing all problems."""
    spec, errors = check_agent(directory)
    if errors:
        raise SpecInvalid(errors)
    assert spec is not None
    return spec


def check_agent(directory: str | Path) -> tuple[AgentSpec | None, list[SpecError]]:
    """Load ``directory``; return the spec (None if unusable) and every problem found."""
    directory = Path(directory)
    path = directory / AGENT_FILE
    if not path.is_file():
        return None, [SpecError(Loc(str(path), 1, 1), f"no {AGENT_FILE} in {directory}")]
    text = path.read_text(encoding="utf-8")
    data, errors = load_located_yaml(text, str(path), comments_after_one_space=False)
    if data is None:
        return None, errors
    builder = _Builder(directory, path, errors)
    spec = builder.build(data, text)
    return spec, builder.errors


class _Builder:
    def __init__(self, directory: Path, path: Path, errors: list[SpecError]):
        self.directory = directory
        self.path = path
        self.errors = errors

    def error(self, loc: Loc | None, message: str) -> None:
        """A problem at ``loc`` (else at the top of agent.yaml)."""
        self.errors.append(SpecError(loc or Loc(str(self.directory / "agent.yaml"), 1, 1), message))

    # -- top level ---------------------------------------------------------------------------
    def build(self, data: Any, text: str) -> AgentSpec | None:
        if not isinstance(data, LocatedMap):
            self.error(Loc(str(self.path), 1, 1), "the agent file must be a mapping with 'name' and 'tasks'")
            return None
        self._unknown_keys(data, keys_of("agent"), "agent")
        name = self._identifier(data, "name", "agent", default=self.directory.name)
        apis, module_text = self._api_module(data)
        spec = AgentSpec(
            name=name or self.directory.name, directory=self.directory, description=str(data.get("description", "")),
            start=data.get("start"), greeting=data.get("greeting"), policy=self._policy(data),
            vocabulary=self._vocabulary(data),
        )
        raw_tasks = self._list(data, "tasks")
        raw_knowledge = self._list(data, "knowledge")
        declared: dict[str, Loc] = {}
        for item, kind in [*((t, "task") for t in raw_tasks), *((k, "knowledge") for k in raw_knowledge)]:
            ws_name = item.get("name") if isinstance(item, LocatedMap) else None
            if isinstance(ws_name, str):
                if ws_name in declared:
                    self.error(item.loc_of("name"), f"duplicate worksheet name '{ws_name}' (first declared at line {declared[ws_name].line})")
                else:
                    declared[ws_name] = item.loc_of("name")
        for item in raw_knowledge:
            ws = self._knowledge(item)
            if ws and ws.name not in spec.knowledge and ws.name not in spec.tasks:
                spec.knowledge[ws.name] = ws
        side_effecting = self._side_effecting_functions(raw_tasks)
        spec.apis = {n: ApiFunction(n, fn, n in side_effecting) for n, fn in apis.items()}
        raw_fields: dict[str, LocatedMap] = {}
        for item in raw_tasks:
            task = self._task_shell(item, declared)
            if task and task.name not in spec.tasks and task.name not in spec.knowledge:
                spec.tasks[task.name] = task
                raw_fields[task.name] = item
        for ws_name, item in raw_fields.items():
            spec.tasks[ws_name] = self._task_code(spec, spec.tasks[ws_name], item)
        self._check_cycles(spec, raw_fields)
        if spec.start is not None and spec.start not in spec.tasks:
            self.error(data.loc_of("start"), self._unknown("start worksheet", spec.start, spec.tasks))
        spec.data = self._data_hashes(spec)
        files = "".join(f"\n{path} {digest}" for path, digest in sorted(spec.data.items()))
        spec.version = hashlib.sha256((text + module_text + files).encode()).hexdigest()[:16]
        return spec

    def _data_hashes(self, spec: AgentSpec) -> dict[str, str]:
        """Each data file's hash: a CSV's as its check read it, a document's read now."""
        hashes: dict[str, str] = {}
        for kb in spec.knowledge.values():
            if kb.csv is not None and kb.csv_sha256 is not None:
                hashes[os.path.relpath(kb.csv, self.directory)] = kb.csv_sha256
            for document in kb.documents:
                hashes[os.path.relpath(document, self.directory)] = file_sha256(document)
        return hashes

    def _policy(self, data: LocatedMap) -> PolicySettings:
        raw = data.get("policy")
        if raw is None:
            return PolicySettings()
        if not isinstance(raw, LocatedMap):
            self.error(data.loc_of("policy"), "policy must be a mapping of setting: choice")
            return PolicySettings()
        self._unknown_keys(raw, keys_of("policy"), "policy")
        chosen = {}
        for key, value in raw.items():
            choices = PolicySettings.CHOICES.get(key)
            if choices is None:
                continue
            if value not in choices:
                self.error(raw.loc_of(key), f"policy '{key}' must be one of: {', '.join(choices)}")
            else:
                chosen[key] = value
        return PolicySettings(**chosen)

    def _vocabulary(self, data: LocatedMap) -> Vocabulary:
        raw = data.get("vocabulary")
        if raw is None:
            return Vocabulary()
        if not isinstance(raw, LocatedMap):
            self.error(data.loc_of("vocabulary"), "vocabulary must be a mapping (synonyms, times_of_day, users)")
            return Vocabulary()
        self._unknown_keys(raw, keys_of("vocabulary"), "vocabulary")
        synonyms = self._word_map(raw, "synonyms", "a word users say: the word the worksheets use")
        times = self._word_map(raw, "times_of_day", "a word: morning, afternoon or evening")
        for word, part in times.items():
            if part not in Vocabulary.PARTS_OF_DAY:
                self.error(raw["times_of_day"].loc_of(word), f"times_of_day '{word}' must be one of: "
                                                             f"{', '.join(Vocabulary.PARTS_OF_DAY)}")
        return Vocabulary(synonyms=synonyms, times_of_day={w: p for w, p in times.items()
                                                           if p in Vocabulary.PARTS_OF_DAY},
                          users=self._phrases(raw, "users"))

    def _word_map(self, raw: LocatedMap, key: str, what: str) -> dict[str, str]:
        value = raw.get(key)
        if value is None:
            return {}
        if not isinstance(value, LocatedMap) or not all(isinstance(k, str) and isinstance(v, str) and v.strip()
                                                        for k, v in value.items()):
            self.error(raw.loc_of(key), f"{key} must be a mapping of {what}")
            return {}
        return {k.strip().lower(): v.strip().lower() for k, v in value.items()}

    def _phrases(self, raw: LocatedMap, key: str) -> tuple[str, ...]:
        """A list of words or phrases (``synonyms: [party size, headcount]``), lower case."""
        value = raw.get(key)
        if value is None:
            return ()
        if not isinstance(value, LocatedList) or not all(isinstance(v, str) and v.strip() for v in value):
            self.error(raw.loc_of(key), f"'{key}' must be a list of words or phrases")
            return ()
        return tuple(v.strip().lower() for v in value)

    def _api_module(self, data: LocatedMap) -> tuple[dict, str]:
        module_file = data.get("api_module")
        path = self.directory / (module_file or "api.py")
        if not path.is_file():
            if module_file:
                self.error(data.loc_of("api_module"), f"API module '{module_file}' does not exist")
            return {}, ""
        try:
            return import_api_module(path), path.read_text(encoding="utf-8")
        except ApiModuleError as exc:
            self.error(Loc(str(path), exc.line, 1), str(exc))
            return {}, ""

    def _side_effecting_functions(self, raw_tasks: list) -> set[str]:
        names = set()
        for item in raw_tasks:
            api = item.get("api") if isinstance(item, LocatedMap) else None
            if isinstance(api, LocatedMap) and api.get("side_effects") is True and isinstance(api.get("function"), str):
                names.add(api["function"])
        return names

    # -- task worksheets -------------------------------------------------------------------------
    def _task_shell(self, item: Any, declared: dict[str, Loc]) -> TaskWorksheet | None:
        """Name, description and typed fields; code is checked later, once all types are known."""
        if not isinstance(item, LocatedMap):
            self.error(getattr(item, "loc", Loc(str(self.path), 1, 1)), "a task worksheet must be a mapping")
            return None
        self._unknown_keys(item, keys_of("task"), "task worksheet")
        name = self._identifier(item, "name", "task worksheet")
        if name is None:
            return None
        fields: dict[str, Field] = {}
        for raw in self._list(item, "fields"):
            f = self._field(raw, declared, name)
            if f is None:
                continue
            if f.name in fields:
                self.error(f.loc, f"duplicate field '{f.name}' in {name} (first declared at line {getattr(fields[f.name].loc, 'line', '?')})")
                continue
            fields[f.name] = f
        examples = tuple(str(e) for e in self._list(item, "examples"))
        phrase = item.get("phrase")
        return TaskWorksheet(name=name, description=str(item.get("description", "")), fields=fields,
                             examples=examples, phrase=None if phrase is None else str(phrase), loc=item.loc)

    def _field(self, raw: Any, declared: dict[str, Loc], ws_name: str) -> Field | None:
        if not isinstance(raw, LocatedMap):
            self.error(getattr(raw, "loc", Loc(str(self.path), 1, 1)), "a field must be a mapping with 'name' and 'type'")
            return None
        self._unknown_keys(raw, keys_of("field"), "field")
        name = self._identifier(raw, "name", "field")
        if name is None:
            return None
        if name in RESERVED_ATTRIBUTES:
            self.error(raw.loc_of("name"), f"'{name}' is reserved; choose another field name")
        ftype = self._type(raw, declared)
        kind = raw.get("kind", "input")
        if kind not in FIELD_KINDS:
            self.error(raw.loc_of("kind"), f"unknown kind '{kind}' (expected one of: {', '.join(FIELD_KINDS)})")
            kind = "input"
        values, value_descriptions, value_labels, value_synonyms = self._enum_values(raw, ftype)
        counts = self._phrases(raw, "counts")
        if counts and ftype is not None and ftype.kind not in ("int", "float"):
            self.error(raw.loc_of("counts"), "'counts' names what a number counts: only on int and float fields")
        f = Field(
            name=name, type=ftype or FieldType("str"), kind=kind, description=str(raw.get("description", "")),
            label=raw.get("label"), ask=raw.get("ask"), required=self._bool(raw, "required", kind == "input"),
            dont_ask=self._bool(raw, "dont_ask", False), confirm=self._bool(raw, "confirm", False),
            values=values, value_descriptions=value_descriptions, value_labels=value_labels,
            value_synonyms=value_synonyms, synonyms=self._phrases(raw, "synonyms"), counts=counts, loc=raw.loc_of("name"),
        )
        if "default" in raw and ftype is not None and not ftype.is_ref:
            try:
                f = replace(f, default=coerce(ftype, raw["default"], values))
            except CoercionError as exc:
                what = "enum default outside the enum" if ftype.kind == "enum" else "bad default"
                self.error(raw.loc_of("default"), f"{what} for field '{name}' of {ws_name}: {exc}")
        return f

    def _type(self, raw: LocatedMap, declared: dict[str, Loc]) -> FieldType | None:
        text = raw.get("type")
        if not isinstance(text, str):
            self.error(raw.loc_of("type") if "type" in raw else raw.loc, "field needs a 'type'")
            return None
        try:
            ftype = parse_type(text)
        except TypeSyntaxError as exc:
            self.error(raw.loc_of("type"), str(exc))
            return None
        ref = ftype.referenced()
        if ref is not None and ref not in declared:
            choices = [*BASE_TYPES, *declared]
            hint = closest(ref, choices)
            self.error(raw.loc_of("type"), f"unknown type '{text}'" + (f" (did you mean '{hint}'?)" if hint else
                                                                       f"; types are {', '.join(BASE_TYPES)}, list[T] or a worksheet name"))
            return None
        return ftype

    def _enum_values(self, raw: LocatedMap, ftype: FieldType | None
                     ) -> tuple[tuple[str, ...], dict[str, str], dict[str, str], dict[str, tuple[str, ...]]]:
        """Members, their descriptions, display labels and synonyms: ``values`` is a list of names, a
        mapping of name to description, or of name to ``{description, label, synonyms}``."""
        is_enum = ftype is not None and (ftype.kind == "enum" or (ftype.kind == "list" and ftype.item is not None
                                                               and ftype.item.kind == "enum"))
        values = raw.get("values")
        if values is None:
            if is_enum:
                self.error(raw.loc_of("type"), "an enum field needs 'values'")
            return (), {}, {}, {}
        if not is_enum:
            self.error(raw.loc_of("values"), "'values' is only allowed on enum fields")
            return (), {}, {}, {}
        out: dict[str, str] = {}
        labels: dict[str, str] = {}
        synonyms: dict[str, tuple[str, ...]] = {}
        items = values.items() if isinstance(values, dict) else (
            (next(iter(v.items())) if isinstance(v, dict) and len(v) == 1 else (v, "")) for v in values)
        for value, description in items:
            if isinstance(value, (dict, list)) or value is None:
                self.error(raw.loc_of("values"), "enum values must be text, or 'value: description' pairs")
                continue
            if str(value) in out:
                self.error(raw.loc_of("values"), f"duplicate enum value '{value}'")
            if isinstance(description, LocatedMap):  # value: {description, label, synonyms}
                self._unknown_keys(description, keys_of("member"), "enum member")
                if description.get("label") is not None:
                    labels[str(value)] = str(description["label"])
                synonyms[str(value)] = self._phrases(description, "synonyms")
                description = description.get("description")
            out[str(value)] = str(description or "")
        return tuple(out), {k: v for k, v in out.items() if v}, labels, {k: v for k, v in synonyms.items() if v}

    # -- code of task worksheets -----------------------------------------------------------------
    def _task_code(self, spec: AgentSpec, ws: TaskWorksheet, item: LocatedMap) -> TaskWorksheet:
        fields = {}
        raw_by_name = {r.get("name"): r for r in self._list(item, "fields") if isinstance(r, LocatedMap)}
        for f in ws.fields.values():
            raw = raw_by_name[f.name]
            what = f"field {ws.name}.{f.name}"
            fields[f.name] = replace(
                f,
                predicate=self._code(spec, ws, raw, "predicate", f"predicate of {what}", expression=True),
                actions=self._code(spec, ws, raw, "actions", f"actions of {what}", field_action=True),
                on_decline=self._code(spec, ws, raw, "on_decline", f"on_decline of {what}", field_action=True),
                validation=self._validation(spec, ws, raw, f),
                values_from=self._values_from(spec, raw, f),
            )
        ws = replace(ws, fields=fields)
        api = self._api(spec, ws, item)
        actions = self._code(spec, ws, item, "actions", f"actions of {ws.name}")
        calls_side_effect = actions is not None and any(
            spec.apis.get(n) and spec.apis[n].side_effects for n in _called_names(actions.tree))
        return replace(
            ws, api=api, actions=actions,
            predicate=self._code(spec, ws, item, "predicate", f"predicate of {ws.name}", expression=True),
            needs_confirmation=bool(api and api.side_effects) or calls_side_effect,
            actions_have_side_effects=calls_side_effect,
        )

    def _values_from(self, spec: AgentSpec, raw: LocatedMap, f: Field) -> str | None:
        table = raw.get("values_from")
        if table is None:
            return None
        if table not in spec.knowledge or spec.knowledge[table].source != "table":
            tables = [k.name for k in spec.knowledge.values() if k.source == "table"]
            self.error(raw.loc_of("values_from"), self._unknown("knowledge table", str(table), tables))
            return None
        if f.type.kind != "str" and not (f.type.kind == "list" and f.type.item and f.type.item.kind == "str"):
            self.error(raw.loc_of("values_from"), "values_from needs a text field (str): its value names a record")
            return None
        return str(table)

    def _validation(self, spec: AgentSpec, ws: TaskWorksheet, raw: LocatedMap, f: Field) -> Validation | None:
        v = raw.get("validation")
        if v is None:
            return None
        if not isinstance(v, LocatedMap):
            self.error(raw.loc_of("validation"), "validation must be a mapping (min, max, pattern, expression, message)")
            return None
        self._unknown_keys(v, keys_of("validation"), "validation")
        pattern = v.get("pattern")
        if pattern is not None:
            try:
                re.compile(pattern)
            except re.error as exc:
                self.error(v.loc_of("pattern"), f"bad pattern: {exc}")
                pattern = None
        bounds = {}
        dated = f.type.kind in ("date", "datetime")
        for key in ("min", "max"):
            if key not in v:
                continue
            bound = v[key]
            if dated and (bound == "today" or isinstance(bound, dt.date)):
                bounds[key] = bound
            elif dated:
                self.error(v.loc_of(key), f"validation {key} of a date must be 'today' or a date (YYYY-MM-DD)")
            elif isinstance(bound, bool) or not isinstance(bound, (int, float)):
                self.error(v.loc_of(key), f"validation {key} must be a number")
            else:
                bounds[key] = bound
        return Validation(
            minimum=bounds.get("min"), maximum=bounds.get("max"), pattern=pattern,
            expression=self._code(spec, ws, v, "expression", f"validation of {ws.name}.{f.name}", expression=True,
                                  extra_names={"value"}),
            message=v.get("message"),
        )

    def _api(self, spec: AgentSpec, ws: TaskWorksheet, item: LocatedMap) -> ApiSpec | None:
        raw = item.get("api")
        if raw is None:
            return None
        loc = item.loc_of("api")
        function: object
        if isinstance(raw, str):
            raw_map, function, side_effects = None, raw, False
        elif isinstance(raw, LocatedMap):
            self._unknown_keys(raw, keys_of("api"), "api")
            raw_map, function, side_effects = raw, raw.get("function"), self._bool(raw, "side_effects", False)
        else:
            self.error(loc, "api must be a function name or a mapping with 'function'")
            return None
        if not isinstance(function, str) or function not in spec.apis:
            self.error(loc, self._unknown("API function", function, spec.apis) + " in the agent's API module")
            return None
        names, required, var_kw = parameters(spec.apis[function].fn)
        args: dict[str, Code] = {}
        raw_args = raw_map.get("args") if raw_map else None
        if raw_map is not None and raw_args is not None and not isinstance(raw_args, LocatedMap):
            self.error(raw_map.loc_of("args"), "api args must be a mapping of parameter: expression")
        given = [(p, e, raw_args.loc_of(p)) for p, e in raw_args.items()] if isinstance(raw_args, LocatedMap) else []
        for param, expr, param_loc in given:
            if param not in names and not var_kw:
                self.error(param_loc, f"{function}() has no parameter '{param}' (parameters: {', '.join(names)})")
                continue
            source = expr if isinstance(expr, str) else repr(expr)
            code = self._code_text(spec, ws, source, param_loc, getattr(expr, "code_loc", None),
                                   f"api argument '{param}'", expression=True)
            if code:
                args[param] = code
        for param in names:
            if param in args or param == IDEMPOTENCY_PARAMETER:
                continue
            if param in ws.fields:
                args[param] = Code(f"self.{param}", parse_checked(f"self.{param}"), loc)
            elif param in required:
                self.error(loc, f"parameter '{param}' of {function}() matches no field of {ws.name}; map it under api.args")
        when = self._code(spec, ws, raw_map, "when", f"api condition of {ws.name}", expression=True) if raw_map else None
        return ApiSpec(function=function, args=args, side_effects=side_effects, when=when, loc=loc)

    def _code(self, spec: AgentSpec, ws: TaskWorksheet, raw: LocatedMap, key: str, what: str, *,
              expression: bool = False, field_action: bool = False,
              extra_names: AbstractSet[str] = frozenset()) -> Code | None:
        value = raw.get(key)
        if value is None:
            return None
        source = value if isinstance(value, str) else repr(value)
        return self._code_text(spec, ws, source, raw.loc_of(key), getattr(value, "code_loc", None), what,
                               expression=expression, field_action=field_action, extra_names=extra_names)

    def _code_text(self, spec: AgentSpec, ws: TaskWorksheet, source: str, loc: Loc, code_loc: Any, what: str, *,
                   expression: bool, field_action: bool = False,
                   extra_names: AbstractSet[str] = frozenset()) -> Code | None:
        position = code_loc or (lambda line, col: loc)
        try:
            tree = parse_checked(source)
        except InterpreterError as exc:
            self.error(position(exc.lineno or 1, exc.col or 1), f"{what}: {exc.reason}")
            return None
        if expression and (len(tree.body) != 1 or not isinstance(tree.body[0], ast.Expr)):
            self.error(position(1, 1), f"{what} must be a single expression")
            return None
        for node, message in _NameChecker(spec, ws, extra_names, field_action).problems(tree):
            self.error(position(getattr(node, "lineno", 1), getattr(node, "col_offset", 0) + 1), f"{what}: {message}")
        return Code(source, tree, position(1, 1))

    # -- knowledge worksheets ------------------------------------------------------------------------
    def _knowledge(self, item: Any) -> KnowledgeWorksheet | None:
        if not isinstance(item, LocatedMap):
            self.error(getattr(item, "loc", Loc(str(self.path), 1, 1)), "a knowledge worksheet must be a mapping")
            return None
        self._unknown_keys(item, keys_of("knowledge"), "knowledge worksheet")
        name = self._identifier(item, "name", "knowledge worksheet")
        if name is None:
            return None
        csv_path = self._data_path(item, "csv")
        database = item.get("database")
        if database is not None and (not isinstance(database, str) or ("://" not in database and "${" not in database)):
            self.error(item.loc_of("database"), "database must be the URL of the database that holds the table, "
                                                "e.g. postgresql://reader@db/catalogue or ${CATALOGUE_URL}")
            database = None
        if database is not None and "csv" in item:
            self.error(item.loc_of("database"), "a table comes from a csv file or lives in a database, not both")
        documents: tuple[Path, ...] = ()
        if "documents" in item:
            documents = tuple(sorted(self.directory.glob(str(item["documents"]))))
            if not documents:
                self.error(item.loc_of("documents"), f"no documents match '{item['documents']}'")
        facts = self._csv_facts(item, csv_path)
        columns = self._columns(item, csv_path, facts.header if facts else [])
        primary_key = item.get("primary_key")
        if primary_key is not None and columns and primary_key not in columns and database is None:
            self.error(item.loc_of("primary_key"), self._unknown("column", primary_key, columns))
        return KnowledgeWorksheet(
            name=name, description=str(item.get("description", "")),
            source="documents" if "documents" in item else "table",
            table=str(item.get("table") or name.lower()), csv=csv_path, csv_sha256=facts.sha256 if facts else None,
            database=database, documents=documents,
            primary_key=primary_key, columns=columns, noun=None if item.get("noun") is None else str(item["noun"]),
            plural=None if item.get("plural") is None else str(item["plural"]), loc=item.loc,
        )

    def _data_path(self, item: LocatedMap, key: str) -> Path | None:
        if key not in item:
            return None
        path = self.directory / str(item[key])
        if not path.is_file():
            self.error(item.loc_of(key), f"file '{item[key]}' does not exist in {self.directory}")
            return None
        return path

    def _csv_facts(self, item: LocatedMap, csv_path: Path | None) -> CsvFacts | None:
        """The CSV's header and hash, every line checked (its encoding, NUL characters, its header)."""
        if csv_path is None:
            return None
        try:
            return read_csv_facts(csv_path)
        except DataFileInvalid as exc:
            self.error(Loc(str(exc.path), exc.line, exc.column), exc.problem)
            return None

    def _columns(self, item: LocatedMap, csv_path: Path | None, header: list[str]) -> dict[str, Column]:
        raw = item.get("columns")
        if raw is None:
            return {h: Column(h) for h in header}
        if not isinstance(raw, LocatedMap):
            self.error(item.loc_of("columns"), "columns must be a mapping of column name to description or settings")
            return {}
        columns = {}
        for name, value in raw.items():
            if header and csv_path is not None and name not in header:
                self.error(raw.key_locs[name], f"column '{name}' is not in {csv_path.name} (columns: {', '.join(header)})")
            if isinstance(value, LocatedMap):
                self._unknown_keys(value, keys_of("column"), "column")
                declared = value.get("type")
                columns[name] = Column(name, None if declared is None else str(declared), str(value.get("description", "")),
                                       self._bool(value, "required", False), self._bool(value, "free_text", False))
            else:
                columns[name] = Column(name, description=str(value or ""))
        return columns

    # -- whole-spec checks -------------------------------------------------------------------------
    def _check_cycles(self, spec: AgentSpec, raw_fields: dict[str, LocatedMap]) -> None:
        """A task worksheet must not contain itself through its fields (it could never be filled)."""
        graph = {name: [(f.name, ref) for f in ws.fields.values()
                        if (ref := f.type.referenced()) is not None and ref in spec.tasks]
                 for name, ws in spec.tasks.items()}
        reported: set[frozenset[str]] = set()

        def visit(name: str, path: list[str]) -> None:
            for field_name, target in graph[name]:
                if target in path:
                    cycle = path[path.index(target):]
                    key = frozenset(cycle)
                    if key not in reported:
                        reported.add(key)
                        ws = spec.tasks[name]
                        self.error(ws.fields[field_name].loc or ws.loc,
                                   f"reference cycle: {' -> '.join([*cycle, target])}")
                else:
                    visit(target, [*path, target])

        for name in graph:
            visit(name, [name])

    # -- small readers -----------------------------------------------------------------------------
    def _list(self, data: LocatedMap, key: str) -> list:
        value = data.get(key)
        if value is None:
            return []
        if not isinstance(value, LocatedList):
            self.error(data.loc_of(key), f"'{key}' must be a list")
            return []
        return value

    def _identifier(self, data: LocatedMap, key: str, what: str, default: str | None = None) -> str | None:
        value = data.get(key, default)
        if value is None:
            self.error(data.loc, f"{what} needs a '{key}'")
            return None
        if not isinstance(value, str) or not _IDENTIFIER.match(value):
            self.error(data.loc_of(key), f"{what} name '{value}' must be an identifier (letters, digits, _)")
            return None
        return str(value)

    def _bool(self, data: LocatedMap, key: str, default: bool) -> bool:
        value = data.get(key, default)
        if not isinstance(value, bool):
            self.error(data.loc_of(key), f"'{key}' must be true or false")
            return default
        return value

    def _unknown_keys(self, data: LocatedMap, allowed: tuple[str, ...], what: str) -> None:
        for key in data:
            if key not in allowed:
                self.error(data.key_locs.get(key, data.loc), self._unknown(f"{what} key", key, allowed))

    @staticmethod
    def _unknown(what: str, name: Any, choices: Any) -> str:
        hint = closest(str(name), list(choices)) if name is not None else None
        return f"unknown {what} '{name}'" + (f" (did you mean '{hint}'?)" if hint else "")


class _NameChecker:
    """Finds unknown names, fields and API misuse in a piece of worksheet code."""

    def __init__(self, spec: AgentSpec, ws: TaskWorksheet, extra_names: AbstractSet[str], field_action: bool):
        self.spec = spec
        self.ws = ws
        self.field_action = field_action
        self.known = {"self", *extra_names, *ws.fields, *BUILTINS, *WORKSHEET_CODE_FUNCTIONS, *spec.apis,
                      *spec.tasks, *spec.knowledge, "NA"}

    def problems(self, tree: ast.Module) -> list[tuple[ast.AST, str]]:
        local = {n.id for n in ast.walk(tree) if isinstance(n, ast.Name) and isinstance(n.ctx, ast.Store)}
        out: list[tuple[ast.AST, str]] = []
        for node in ast.walk(tree):
            if isinstance(node, ast.Name) and isinstance(node.ctx, ast.Load) and node.id not in self.known | local:
                hint = closest(node.id, self.known | local)
                out.append((node, f"unknown name '{node.id}'" + (f" (did you mean '{hint}'?)" if hint else "")))
            elif isinstance(node, ast.Attribute) and _root_is_self(node):
                message = self._attribute_problem(node)
                if message:
                    out.append((node, message))
            elif isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and node.func.id in self.spec.apis:
                out.extend((node, m) for m in self._api_call_problems(node))
        return out

    def _attribute_problem(self, node: ast.Attribute) -> str | None:
        chain = _attribute_chain(node)  # e.g. ['self', 'course', 'course_name']
        owner: TaskWorksheet | KnowledgeWorksheet | None = self.ws
        for attr in chain[1:]:
            if owner is None or attr in RESERVED_ATTRIBUTES:
                return None
            if isinstance(owner, KnowledgeWorksheet):
                known = attr in owner.columns or attr in RECORD_METHODS
                return None if not owner.columns or known else _Builder._unknown(f"column of {owner.name}", attr, owner.columns)
            if attr not in owner.fields:
                return _Builder._unknown(f"field of {owner.name}", attr, owner.fields)
            ref = owner.fields[attr].type.ref
            owner = self.spec.tasks.get(ref) or self.spec.knowledge.get(ref) if ref else None
        return None

    def _api_call_problems(self, node: ast.Call) -> list[str]:
        assert isinstance(node.func, ast.Name), "a call of an API function by its name"
        api = self.spec.apis[node.func.id]
        problems = []
        reason = check_call(api.fn, len(node.args), [k.arg for k in node.keywords if k.arg is not None])
        if reason:
            problems.append(f"call to {api.name}(): {reason}")
        if api.side_effects and self.field_action:
            problems.append(f"{api.name}() has side effects; call it from a worksheet's actions, which run only after "
                            "the user confirms, not from a field action")
        return problems


def _root_is_self(node: ast.Attribute) -> bool:
    chain = _attribute_chain(node)
    return bool(chain) and chain[0] == "self"


def _attribute_chain(node: ast.expr) -> list[str]:
    names: list[str] = []
    while isinstance(node, ast.Attribute):
        names.append(node.attr)
        node = node.value
    if not isinstance(node, ast.Name):
        return []
    return [node.id, *reversed(names)]


def _called_names(tree: ast.Module) -> set[str]:
    return {n.func.id for n in ast.walk(tree) if isinstance(n, ast.Call) and isinstance(n.func, ast.Name)}
