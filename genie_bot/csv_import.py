"""Importing a spreadsheet of the original Genie Worksheets project as an ``agent.yaml``.

The original project (stanford-oval/genie-worksheets) declared an agent in a spreadsheet with
the columns ``Form Predicate, Form Name, Predicate, Kind, Type, Name, Enum Values, Description,
Don't Ask, Required, Confirm, Actions, Form Actions`` (later versions add ``Validation``). A row
with a Form Name starts a worksheet (Type ``worksheet``, ``type`` or ``db``; Name holds the
backend API), the rows below it are its fields, and rows holding only an Enum Value list the
values of the Enum field above them. Actions may call ``>say(...)`` (a built-in) and
``@api(...)`` (a backend API); our action code calls both plainly.

The import is best effort: whatever cannot be carried over exactly becomes a warning naming the
CSV row (``file.csv:ROW: message``; rows are counted as in the spreadsheet, the header being
row 1), and guesses in the YAML carry a ``# check`` comment. The CSV holds no code for the
APIs it names, so the import also writes an ``api.py`` skeleton (:mod:`.api_skeleton`), and the
agent gets the reference's policy choices (``policy:``, docs/genie-compatibility.md).
The reference's JSON layout is read into the same rows by :mod:`.json_import`.
"""

from __future__ import annotations

import ast
import csv
import io
import keyword
import re
import textwrap
import tokenize
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import yaml

from .api_skeleton import ApiStub, render_api_skeleton
from .interpreter import InterpreterError, parse_checked
from .names import closest
from .spec.model import FIELD_KINDS
from .spec.types import BASE_TYPES

_STANDARD_HEADER = ("Form Predicate", "Form Name", "Predicate", "Kind", "Type", "Name", "Enum Values", "Description",
                    "Don't Ask", "Required", "Confirm", "Actions", "Form Actions", "Validation")
_CODE_COLUMNS = ("form_predicate", "predicate", "actions", "form_actions")
_SHEET_KINDS = ("worksheet", "type", "db")
_USED_COLUMNS = {
    "worksheet": {"form_predicate", "form_name", "type", "name", "description", "form_actions"},
    "db": {"form_name", "type", "name", "description"},
    "field": {"predicate", "kind", "type", "name", "description", "dont_ask", "required", "confirm", "actions"},
    "db column": {"kind", "type", "name", "description"},
}
_IGNORED_HINTS = {
    "validation": "genie-bot validations are structured: give min, max, pattern or expression under the "
                  "field's 'validation:' key",
    "enum_values": "list each value on its own row below the Enum field",
}
_LEGACY_PREFIXES = (">", "@")
_IDENTIFIER = re.compile(r"[A-Za-z][A-Za-z0-9_]*\Z")
REFERENCE_POLICY = {"nested_worksheet_question": "parent_field", "start_task": "when_nothing_asked"}
"""The reference Genie's choices where genie-bot's policy differs (docs/genie-compatibility.md)."""
_POLICY_COMMENT = "  # the reference Genie's choices (docs/genie-compatibility.md); remove for genie-bot's"
_SIDE_EFFECTS_COMMENT = {
    "true": "  # check: guessed from the worksheet's confirm field; the spec does not say",
    "false": "  # check: guessed (no confirm field); set true if this API changes anything",
}


def _column_key(title: str) -> str:
    """``Don't Ask`` -> ``dont_ask``: header cells are matched ignoring case, spaces and quotes."""
    return re.sub(r"[^a-z0-9]+", "_", title.lower().replace("'", "")).strip("_")


_TITLES = {_column_key(title): title for title in _STANDARD_HEADER}


@dataclass(frozen=True)
class ImportedAgent:
    """An imported spec: the agent's YAML, its API skeleton and what could not be carried over."""

    yaml: str
    api: str
    warnings: list[str]


def import_genie_csv(path: Path) -> ImportedAgent:
    """Convert the Genie Worksheets spreadsheet at ``path``."""
    importer = SpecImporter(Path(path))
    return importer.run(importer.read_csv_rows())


def write_agent(imported: ImportedAgent, out_path: Path) -> list[str]:
    """Write the YAML to ``out_path`` and the API skeleton to ``api.py`` beside it, unless that
    file exists (it is never overwritten); return the warnings and notes to show the user."""
    out_path = Path(out_path)
    out_path.parent.mkdir(parents=True, exist_ok=True)
    out_path.write_text(imported.yaml, encoding="utf-8")
    api_path = out_path.parent / "api.py"
    if api_path.exists():
        return [*imported.warnings, f"{api_path} exists: left as it is, no skeleton written"]
    api_path.write_text(imported.api, encoding="utf-8")
    return list(imported.warnings)


@dataclass(frozen=True)
class Row:
    """One record of the spec: its number (a spreadsheet row; the header is row 1) and its
    non-blank cells by column key (``form_name``, ``kind``, ``enum_values``...)."""

    number: int
    cells: dict[str, str]

    def __getitem__(self, key: str) -> str:
        return self.cells.get(key, "")


@dataclass
class _FieldRows:
    """A field row and the enum values listed on the rows below it (with their descriptions)."""

    row: Row
    enum_values: list[str] = field(default_factory=list)
    enum_descriptions: dict[str, str] = field(default_factory=dict)


@dataclass
class _Sheet:
    """A worksheet row (``kind`` is worksheet, type or db) and its field rows."""

    row: Row
    name: str
    kind: str
    fields: list[_FieldRows] = field(default_factory=list)


class SpecImporter:
    """Groups the rows of one spec into worksheets and renders our YAML and API skeleton.

    ``labels`` name rows in warnings when their numbers are no spreadsheet rows (the JSON
    layout's ``Main.courses_to_take``); ``layout`` and ``command`` name the source in the YAML.
    """

    def __init__(self, path: Path, labels: dict[int, str] | None = None,
                 layout: str = "a Genie Worksheets spreadsheet", command: str = "import-csv"):
        self.path = path
        self.labels = labels or {}
        self.layout, self.command = layout, command
        self.warnings: list[tuple[int, str]] = []
        self.worksheet_names: set[str] = set()
        self.backend_apis: set[str] = set()
        self.api_calls: dict[str, ApiStub] = {}
        """Functions called from actions (``@function(...)``), with the keywords they are given."""

    def warn(self, row: int, message: str) -> None:
        self.warnings.append((row, f"{self.path}:{self.labels.get(row, row)}: {message}"))

    def run(self, rows: list[Row]) -> ImportedAgent:
        sheets = self._group(rows)
        if not sheets:
            self.warn(1, "no worksheet rows (rows with a Form Name) found")
        self.worksheet_names = {s.name for s in sheets}
        self.backend_apis = {s.row["name"] for s in sheets if s.kind != "db" and s.row["name"]}
        tasks = [self._task(s) for s in sheets if s.kind != "db"]
        knowledge = [self._knowledge(s) for s in sheets if s.kind == "db"]
        doc: dict[str, Any] = {"name": _agent_name(self.path)}
        start = next((s.name for s in sheets if s.kind == "worksheet"), None)
        if start:
            doc["start"] = start
            doc["policy"] = dict(REFERENCE_POLICY)
        if tasks:
            doc["tasks"] = tasks
        if knowledge:
            doc["knowledge"] = knowledge
        api = render_api_skeleton(doc["name"], self.path.name, [*_backend_stubs(tasks), *self.api_calls.values()])
        return ImportedAgent(self._render(doc), api,
                             [message for _, message in sorted(self.warnings, key=lambda w: w[0])])

    # -- reading and grouping ----------------------------------------------------------------------
    def read_csv_rows(self) -> list[Row]:
        """Rows keyed by column; a missing header is tolerated by assuming the standard order."""
        with self.path.open(newline="", encoding="utf-8-sig") as handle:
            records = list(csv.reader(handle))
        if not records:
            return []
        header = [_column_key(cell) for cell in records[0]]
        if "form_name" in header:
            for title, key in zip(records[0], header):
                if key and key not in _TITLES:
                    self.warn(1, f"unknown column '{title}' ignored")
            keys, first = header, 1
        else:
            self.warn(1, f"no header row; assuming the standard columns ({', '.join(_STANDARD_HEADER[:13])})")
            keys, first = list(_TITLES), 0
        rows = []
        for number, record in enumerate(records[first:], start=first + 1):
            cells = {key: value if key in _CODE_COLUMNS else value.strip()
                     for key, value in zip(keys, record) if key in _TITLES and value.strip()}
            rows.append(Row(number, cells))
        return rows

    def _group(self, rows: list[Row]) -> list[_Sheet]:
        """Attach field rows to the worksheet row above them and enum value rows to their field."""
        sheets: list[_Sheet] = []
        current: _Sheet | None = None
        started = False
        field_rows: _FieldRows | None = None
        for row in rows:
            if not row.cells:
                continue
            if row["form_name"]:
                started, field_rows = True, None
                current = self._start_sheet(row, sheets)
                if current is not None:
                    sheets.append(current)
            elif not started:
                self.warn(row.number, "field row before any worksheet row (a row with a Form Name); skipped")
            elif current is None:
                continue  # the rows of a skipped worksheet; it was reported once
            elif _is_enum_value_row(row):
                if field_rows is None:
                    self.warn(row.number, f"enum value '{row['enum_values']}' is not below a field; skipped")
                else:
                    field_rows.enum_values.append(row["enum_values"])
                    if row["description"] and row["description"] != row["enum_values"]:
                        field_rows.enum_descriptions[row["enum_values"]] = row["description"]
            else:
                field_rows = _FieldRows(row)
                current.fields.append(field_rows)
        return sheets

    def _start_sheet(self, row: Row, sheets: list[_Sheet]) -> _Sheet | None:
        name = row["form_name"].replace(" ", "")  # as the original does with class names
        kind = row["type"].lower()
        if kind not in _SHEET_KINDS:
            found = f"unknown worksheet Type '{row['type']}'" if kind else "worksheet row without a Type"
            self.warn(row.number, f"{found} (expected worksheet, type or db); imported as a worksheet")
            kind = "worksheet"
        if not _IDENTIFIER.match(name):
            self.warn(row.number, f"worksheet name '{row['form_name']}' is not an identifier; worksheet skipped")
            return None
        first = next((s for s in sheets if s.name == name), None)
        if first is not None:
            self.warn(row.number, f"duplicate worksheet '{name}' (first at row {first.row.number}); skipped")
            return None
        return _Sheet(row, name, kind)

    # -- task worksheets ------------------------------------------------------------------------------
    def _task(self, sheet: _Sheet) -> dict[str, Any]:
        row = sheet.row
        self._warn_ignored(row, "worksheet")
        task: dict[str, Any] = {"name": sheet.name}
        if row["description"]:
            task["description"] = row["description"]
        predicate = self._code(row, "form_predicate", f"Form Predicate of {sheet.name}", expression=True)
        if predicate:
            task["predicate"] = predicate
        fields: dict[str, dict[str, Any]] = {}
        for field_rows in sheet.fields:
            converted = self._field(sheet, field_rows, fields)
            if converted is not None:
                fields[converted["name"]] = converted
        task["fields"] = list(fields.values())
        if row["name"]:
            task["api"] = self._api(row, task["fields"])
        actions = self._code(row, "form_actions", f"Form Actions of {sheet.name}")
        if actions:
            task["actions"] = actions
        return task

    def _api(self, row: Row, fields: list[dict[str, Any]]) -> dict[str, Any]:
        """The Name column's backend API; the CSV cannot say whether it has side effects.

        A worksheet that asks for confirmation almost always submits something, so a ``confirm``
        input field is taken as the sign of side effects (the YAML marks this as a guess).
        """
        if not _IDENTIFIER.match(row["name"]):
            self.warn(row.number, f"backend API name '{row['name']}' is not an identifier")
        confirms = any(f["type"] == "confirm" and f.get("kind", "input") == "input" for f in fields)
        return {"function": row["name"], "side_effects": confirms}

    def _field(self, sheet: _Sheet, field_rows: _FieldRows, seen: dict[str, dict[str, Any]]) -> dict[str, Any] | None:
        row = field_rows.row
        kind, primary = self._kind(row)
        name = row["name"]
        if not name:
            if kind == "output":
                self.warn(row.number, "output row without a Name (the original's result type of the worksheet) "
                                      "skipped: genie-bot stores API results in named output fields")
            else:
                self.warn(row.number, "field row without a Name; skipped")
            return None
        if not self._new_name(row, name, seen, sheet.name):
            return None
        self._warn_ignored(row, "field")
        if not kind:
            self.warn(row.number, f"field '{name}' has no Kind; imported as internal, as the original treats it")
            kind = "internal"
        if primary:
            self.warn(row.number, "'; primary' only matters in a db worksheet; ignored")
        ftype = self._field_type(row, field_rows.enum_values)
        out: dict[str, Any] = {"name": name, "type": ftype}
        if kind != "input":
            out["kind"] = kind
        if row["description"]:
            out["description"] = row["description"]
        predicate = self._code(row, "predicate", f"Predicate of {sheet.name}.{name}", expression=True)
        if predicate:
            out["predicate"] = predicate
        required = self._flag(row, "required")  # the original treats a blank Required as optional
        if required != (kind == "input"):  # written only where it differs from our default
            out["required"] = required
        if self._flag(row, "dont_ask"):
            out["dont_ask"] = True
        if self._flag(row, "confirm"):
            out["confirm"] = True
        if ftype in ("enum", "list[enum]"):
            out["values"] = {v: field_rows.enum_descriptions.get(v, "") for v in field_rows.enum_values} \
                if field_rows.enum_descriptions else list(field_rows.enum_values)
        actions = self._code(row, "actions", f"Actions of {sheet.name}.{name}")
        if actions:
            out["actions"] = actions
        return out

    def _field_type(self, row: Row, enum_values: list[str]) -> str:
        """Our type for the row's Type; ``str`` (with a warning) when it cannot be carried over."""
        ftype = self._type(row)
        is_enum = ftype in ("enum", "list[enum]")
        if enum_values and not is_enum:
            self.warn(row.number, f"field '{row['name']}' is not an Enum; the Enum Values below it were ignored")
        if ftype is None:
            return "str"
        if is_enum and not enum_values:
            self.warn(row.number, f"Enum field '{row['name']}' has no values (list them in the Enum Values column "
                                  "of the rows below it); imported as str")
            return ftype.replace("enum", "str")
        return ftype

    def _type(self, row: Row) -> str | None:
        """Translate the Type cell (``Enum``, ``List[X]``, a worksheet...); warn and return None if unknown."""
        converted = self._translate_type(row["type"])
        if converted is None:
            text = row["type"]
            if not text:
                self.warn(row.number, f"field '{row['name']}' has no Type; imported as str")
            else:
                base = re.sub(r"(?i)^list\s*\[\s*(.*?)\s*\]$", r"\1", text)
                hint = closest(base, [*BASE_TYPES, *self.worksheet_names])
                self.warn(row.number, f"unknown type '{text}'" + (f" (did you mean '{hint}'?)" if hint else "")
                          + "; imported as str")
        return converted

    def _translate_type(self, text: str) -> str | None:
        match = re.fullmatch(r"(?i)list\s*\[\s*(.+?)\s*\]", text)
        if match:
            item = self._translate_type(match.group(1))
            return f"list[{item}]" if item else None
        if text.lower() in BASE_TYPES:
            return text.lower()
        return text if text in self.worksheet_names else None

    def _kind(self, row: Row) -> tuple[str, bool]:
        """``input; primary`` -> (``input``, True); an empty Kind gives ``""``."""
        kind, *flags = [part.strip().lower() for part in row["kind"].split(";")]
        for flag in flags:
            if flag != "primary":
                self.warn(row.number, f"unknown Kind flag '{flag}' ignored (only '; primary' is known)")
        if kind and kind not in FIELD_KINDS:
            self.warn(row.number, f"unknown Kind '{kind}' (expected {', '.join(FIELD_KINDS)}); imported as input")
            kind = "input"
        return kind, "primary" in flags

    def _flag(self, row: Row, key: str) -> bool:
        text = row[key].upper()
        if text not in ("", "TRUE", "FALSE"):
            self.warn(row.number, f"{_TITLES[key]} should be TRUE or FALSE, not '{row[key]}'; read as FALSE")
        return text == "TRUE"

    # -- knowledge worksheets ------------------------------------------------------------------------
    def _knowledge(self, sheet: _Sheet) -> dict[str, Any]:
        row = sheet.row
        self._warn_ignored(row, "db")
        out: dict[str, Any] = {"name": sheet.name}
        if row["description"]:
            out["description"] = row["description"]
        out["table"] = row["name"] or sheet.name
        columns: dict[str, dict[str, Any]] = {}
        primary_key: str | None = None
        for field_rows in sheet.fields:
            column_row = field_rows.row
            name = column_row["name"]
            if not name:
                self.warn(column_row.number, "db column row without a Name; skipped")
                continue
            if not self._new_name(column_row, name, columns, sheet.name):
                continue
            self._warn_ignored(column_row, "db column")
            columns[name] = self._column(column_row, field_rows)
            if self._kind(column_row)[1]:
                if primary_key is None:
                    primary_key = name
                else:
                    self.warn(column_row.number, f"second primary key '{name}' ignored (the first is '{primary_key}')")
        if primary_key:
            out["primary_key"] = primary_key
        out["columns"] = columns
        return out

    def _column(self, row: Row, field_rows: _FieldRows) -> dict[str, Any]:
        """A table column: enums become text whose description lists the values (columns have no values)."""
        ctype = self._field_type(row, field_rows.enum_values)
        description = row["description"]
        if ctype in ("enum", "list[enum]"):
            ctype = ctype.replace("enum", "str")
            values = [v + (f" ({field_rows.enum_descriptions[v]})" if v in field_rows.enum_descriptions else "")
                      for v in field_rows.enum_values]
            description = f"{description} (one of: {', '.join(values)})".lstrip()
        elif re.sub(r"^list\[(.*)\]$", r"\1", ctype) in self.worksheet_names:
            self.warn(row.number, f"a db column cannot hold the worksheet '{row['type']}'; imported as str")
            ctype = "str"
        column: dict[str, Any] = {"type": ctype}
        if description:
            column["description"] = description
        return column

    # -- shared checks ---------------------------------------------------------------------------------
    def _new_name(self, row: Row, name: str, seen: dict[str, Any], sheet: str) -> bool:
        """Whether ``name`` may be added to ``sheet``; bad and duplicate names are reported and skipped."""
        if not _IDENTIFIER.match(name):
            self.warn(row.number, f"field name '{name}' is not an identifier; skipped")
            return False
        if name in seen:
            self.warn(row.number, f"duplicate field '{name}' in {sheet}; skipped")
            return False
        return True

    def _warn_ignored(self, row: Row, what: str) -> None:
        """Report cells this kind of row has no use for, so nothing is dropped silently."""
        for key in row.cells:
            if key not in _USED_COLUMNS[what]:
                hint = _IGNORED_HINTS.get(key)
                self.warn(row.number, f"{_TITLES[key]} ignored on a {what} row" + (f" ({hint})" if hint else ""))

    def _code(self, row: Row, key: str, what: str, *, expression: bool = False) -> str | None:
        """The cell as our worksheet code, legacy prefixes removed; problems become warnings."""
        text = _normalise_code(row[key])
        if not text:
            return None
        text, api_calls, problems = _strip_legacy_prefixes(text)
        for problem in problems:
            self.warn(row.number, f"{what}: {problem}")
        for api in api_calls:
            if api not in self.backend_apis:
                self.warn(row.number, f"{what}: {api}() is called directly, so genie-bot will not treat it as "
                                      "having side effects (no confirmation step; re-run when values change); if it "
                                      "changes anything, name it in a worksheet's Name column instead")
        try:
            tree = parse_checked(text)
        except InterpreterError as exc:
            self.warn(row.number, f"{what}: {exc}")
            return text
        self._note_calls(tree, api_calls)
        if expression and (len(tree.body) != 1 or not isinstance(tree.body[0], ast.Expr)):
            self.warn(row.number, f"{what} must be a single expression")
        return text

    def _note_calls(self, tree: ast.Module, functions: list[str]) -> None:
        """Remember how actions call the ``@`` APIs, for their skeletons."""
        for node in ast.walk(tree):
            if isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and node.func.id in functions \
                    and node.func.id not in self.backend_apis:
                seen = self.api_calls.get(node.func.id, ApiStub(node.func.id, purpose="Called from actions."))
                keywords = tuple(k.arg for k in node.keywords if k.arg and k.arg not in seen.optional)
                self.api_calls[node.func.id] = ApiStub(seen.name, optional=seen.optional + keywords,
                                                       positional=seen.positional or bool(node.args),
                                                       purpose=seen.purpose)

    # -- rendering -------------------------------------------------------------------------------------
    def _render(self, doc: dict[str, Any]) -> str:
        """safe_dump output, spaced between worksheets and with the ``# check`` comments on guesses."""
        body = yaml.dump(doc, Dumper=_Dumper, sort_keys=False, allow_unicode=True, width=120)
        lines: list[str] = [
            f"# Imported from {self.path.name}, {self.layout}, by `genie-bot {self.command}`.",
            "# Lines marked 'check' are guesses the spec cannot settle; run `genie-bot validate` on this agent.",
        ]
        for line in body.splitlines():
            starts_worksheet = line.startswith("  - name: ") and not lines[-1].endswith(":")
            if line.startswith(("tasks:", "knowledge:")) or starts_worksheet:
                lines.append("")
            lines.append(_annotate(line))
        return "\n".join(lines) + "\n"


class _Dumper(yaml.SafeDumper):
    """Indents lists under their key, as our hand-written agent files do."""

    def increase_indent(self, flow: bool = False, indentless: bool = False) -> None:
        return super().increase_indent(flow, False)


def _represent_str(dumper: yaml.SafeDumper, value: str) -> yaml.ScalarNode:
    """Multi-line text (action code) as a ``|`` block, so it reads as the code it is."""
    return dumper.represent_scalar("tag:yaml.org,2002:str", value, style="|" if "\n" in value else None)


_Dumper.add_representer(str, _represent_str)


def _backend_stubs(tasks: list[dict[str, Any]]) -> list[ApiStub]:
    """A worksheet's backend API is called with each of its fields (genie-bot passes the
    parameters named after fields; the reference passed them all)."""
    stubs: dict[str, ApiStub] = {}
    for task in tasks:
        if "api" not in task or task["api"]["function"] in stubs:
            continue
        fields = [f for f in task["fields"] if f.get("kind", "input") != "output"]
        required = tuple(f["name"] for f in fields if f.get("required", f.get("kind", "input") == "input"))
        optional = tuple(f["name"] for f in fields if f["name"] not in required)
        function = task["api"]["function"]
        stubs[function] = ApiStub(function, required, optional,
                                  purpose=f"The backend API of {task['name']}, called once it is complete"
                                          + (" and confirmed." if task["api"]["side_effects"] else "."))
    return list(stubs.values())


def _annotate(line: str) -> str:
    """Add the ``# check`` comment to the YAML lines that hold guesses."""
    if line == "policy:":
        return line + _POLICY_COMMENT
    match = re.fullmatch(r" {6}side_effects: (true|false)", line)
    if match:
        return line + _SIDE_EFFECTS_COMMENT[match.group(1)]
    match = re.fullmatch(r" {4}table: (\S+)", line)
    if match:
        return line + f"  # check: add 'csv: {match.group(1)}.csv' if its rows come from a CSV file"
    return line


def _agent_name(path: Path) -> str:
    """An identifier for the agent, from the spec's file name."""
    name = re.sub(r"[^A-Za-z0-9_]+", "_", path.stem).strip("_")
    return name if _IDENTIFIER.match(name) else f"agent_{name}".rstrip("_")


def _is_enum_value_row(row: Row) -> bool:
    return bool(row["enum_values"]) and not any(row[k] for k in ("kind", "type", "name"))


def _normalise_code(text: str) -> str:
    """Spreadsheet cells come with CRLF, tabs, common indentation and trailing blanks; drop them.

    Trailing spaces would also stop the YAML dumper from writing the code as a ``|`` block.
    """
    text = textwrap.dedent(text.replace("\r\n", "\n").replace("\r", "\n").expandtabs(4))
    return "\n".join(line.rstrip() for line in text.splitlines()).strip("\n")


def _strip_legacy_prefixes(code: str) -> tuple[str, list[str], list[str]]:
    """Remove the ``>`` of ``>say(...)`` and the ``@`` of ``@api(...)``.

    Returns the code, the APIs called with ``@`` and the prefixes that could not be converted.
    Works on tokens, so strings, comments and comparisons such as ``a >b(c)`` are left alone:
    a prefix is a ``>`` or ``@`` where an operand must start (beginning of a statement, after an
    operator, an opening bracket or a keyword), which Python itself would reject.
    """
    try:
        tokens = [t for t in tokenize.generate_tokens(io.StringIO(code).readline)
                  if t.type not in (tokenize.COMMENT, tokenize.NL)]
    except (tokenize.TokenError, SyntaxError) as exc:
        return code, [], [f"cannot read the code to convert legacy prefixes: {exc}"]
    cuts: list[tuple[int, int, int]] = []  # (line, start col, end col) to delete
    api_calls: list[str] = []
    problems: list[str] = []
    for i, token in enumerate(tokens):
        if token.type != tokenize.OP or token.string not in _LEGACY_PREFIXES \
                or not _starts_operand(tokens[i - 1] if i else None):
            continue
        following = tokens[i + 1:i + 3]
        if len(following) == 2 and following[0].type == tokenize.NAME and following[1].string == "(" \
                and following[0].start[0] == token.start[0]:
            cuts.append((token.start[0], token.start[1], following[0].start[1]))
            if token.string == "@":
                api_calls.append(following[0].string)
        else:
            problems.append(f"cannot convert the legacy prefix '{token.string}' on line {token.start[0]}: "
                            f"it must be followed by a call, as in {token.string}function(...)")
    lines = code.split("\n")
    for line, start, end in reversed(cuts):
        lines[line - 1] = lines[line - 1][:start] + lines[line - 1][end:]
    return "\n".join(lines), api_calls, problems


def _starts_operand(previous: tokenize.TokenInfo | None) -> bool:
    """Whether the token after ``previous`` must begin an operand, so ``>``/``@`` there is no operator."""
    if previous is None or previous.type in (tokenize.NEWLINE, tokenize.INDENT, tokenize.DEDENT):
        return True
    if previous.type == tokenize.OP:
        return previous.string not in (")", "]", "}")
    return previous.type == tokenize.NAME and keyword.iskeyword(previous.string) \
        and previous.string not in ("True", "False", "None")
