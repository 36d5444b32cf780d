"""Reading a knowledge table's CSV file as its import reads it, and the problems that would stop the import.

The importer (:mod:`genie_bot.knowledge.importer`) and ``genie-bot validate`` read a CSV through these
functions, so a file that validates imports: a row with more values than columns (often an unquoted comma
in a value) or a value that is not of its column's declared type is reported as ``file:line`` by both.
Reading streams the file: it costs memory for one line, whatever the table's size.
"""

from __future__ import annotations

import csv
from collections.abc import Iterator
from pathlib import Path
from typing import Any

from ..errors import GenieError
from .model import KnowledgeWorksheet

TYPED = ("int", "float")
"""Declared column types whose every value must parse as one."""


class TableInvalid(GenieError, ValueError):
    """A table cannot be imported; the message names the file, line and column."""


def csv_lines(path: Path) -> Iterator[tuple[int, list[str]]]:
    """The non-empty lines of a CSV file with their line numbers (a quoted value may span lines)."""
    with path.open(newline="", encoding="utf-8") as fh:
        reader = csv.reader(fh)
        try:
            for values in reader:
                if values:
                    yield reader.line_num, values
        except (csv.Error, UnicodeDecodeError) as exc:
            raise TableInvalid(f"{path}:{reader.line_num}: {exc}") from None


def check_width(path: Path, line: int, values: list[str], header: list[str]) -> None:
    """A row has at most one value per column (fewer: the rest are empty)."""
    if len(values) > len(header):
        raise TableInvalid(f"{path}:{line}: {len(values)} values for {len(header)} columns "
                           f"({', '.join(header)}); a value with a comma in it must be quoted (\"a, b\")")


def typed_value(path: Path, line: int, column: str, value: str, kind: str) -> Any:
    """``value`` of a column of type ``kind`` (``int``, ``float``, ``str``); an empty value is None."""
    if value == "":
        return None
    if kind not in TYPED:
        return value
    try:
        return int(value) if kind == "int" else float(value)
    except ValueError:
        raise TableInvalid(f"{path}:{line}: column {column} holds {value!r}, not a{'n' if kind == 'int' else ''} "
                           f"{kind}") from None


MAX_PROBLEMS = 10
"""Bad rows reported per file, at most: the first ones show what is wrong with the rest."""


def csv_problems(kb: KnowledgeWorksheet) -> list[TableInvalid]:
    """Why importing ``kb``'s CSV would fail: each bad row with its file and line (at most
    :data:`MAX_PROBLEMS`), or none."""
    if kb.csv is None:
        return []
    header: list[str] | None = None
    problems: list[TableInvalid] = []
    try:
        for line, values in csv_lines(kb.csv):
            if header is None:
                header = values
                continue
            try:
                _check_row(kb, line, values, header)
            except TableInvalid as exc:
                problems.append(exc)
            if len(problems) == MAX_PROBLEMS:
                break
    except TableInvalid as exc:  # the file cannot be read on from here
        problems.append(exc)
    return problems


def _check_row(kb: KnowledgeWorksheet, line: int, values: list[str], header: list[str]) -> None:
    assert kb.csv is not None, "a CSV's row"
    check_width(kb.csv, line, values, header)
    for column, value in zip(header, values):
        declared = kb.columns.get(column)
        if declared is not None and declared.type in TYPED:
            typed_value(kb.csv, line, column, value, declared.type)
