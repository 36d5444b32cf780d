"""Reading a knowledge table's CSV file as its import reads it, and the problems that would stop the import.

A CSV file is UTF-8, with or without a byte order mark (Excel's "CSV UTF-8" writes one); any
other encoding, a NUL character, an empty file or a header that cannot name columns (an empty or
repeated name, one longer than :data:`MAX_COLUMN_NAME_BYTES`) is a :class:`DataFileInvalid`
naming the file, line and column. The spec loader reads each CSV once, checking that and hashing
its bytes (:func:`read_csv_facts`): the hash is part of the agent's version. The importer
(:mod:`genie_bot.knowledge.importer`) and ``genie-bot validate`` read the rows through
:class:`CsvFile` and the functions below, so a file that validates imports: a row with more values
than columns (often an unquoted comma in a value) or a value that is not of its column's declared
type is reported as ``file:line`` by both. Each pass of a :class:`CsvFile` hashes the bytes it
reads, so the rows the importer writes can be checked to be the bytes the agent was loaded with: a
file edited meanwhile is refused, not imported under the hash of what it held before. Reading
streams the file: it costs memory for one line, and time linear in its size, whatever the table.
"""

from __future__ import annotations

import codecs
import csv
import hashlib
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any, BinaryIO

from ..errors import GenieError
from .model import KnowledgeWorksheet

TYPED = ("int", "float")
"""Declared column types whose every value must parse as one."""


class TableInvalid(GenieError, ValueError):
    """A table cannot be imported; the message names the file, line and column."""


BOM = "\ufeff"
NUL = "a NUL character: text files hold none (is it saved as UTF-16?)"
MAX_COLUMN_NAME_BYTES = 63
"""The longest column name, in UTF-8 bytes: PostgreSQL's identifier limit (it would cut a longer one)."""
_CHUNK = 1 << 20


class DataFileInvalid(TableInvalid):
    """A CSV file that cannot be read as text, or whose header names no columns: ``file:line:column: problem``."""

    def __init__(self, path: Path, line: int, problem: str, column: int = 1):
        super().__init__(f"{path}:{line}:{column}: {problem}")
        self.path, self.line, self.column, self.problem = path, line, column, problem


@dataclass(frozen=True)
class CsvFacts:
    header: list[str]
    sha256: str
    """Of the file's bytes."""


def file_sha256(path: Path) -> str:
    digest = hashlib.sha256()
    with path.open("rb") as fh:
        while chunk := fh.read(_CHUNK):
            digest.update(chunk)
    return digest.hexdigest()


class CsvFile:
    """One open CSV file, read in passes, each hashed: the file is opened once, so a file replaced
    meanwhile (as editors save) is still read as it was, and one changed in place shows in the hash."""

    def __init__(self, path: Path):
        self.path = path
        self._file: BinaryIO = path.open("rb")
        self.sha256 = ""
        """Of the bytes of the last pass read to its end."""

    def close(self) -> None:
        self._file.close()

    def __enter__(self) -> CsvFile:
        return self

    def __exit__(self, *_: object) -> None:
        self.close()

    def rows(self) -> Iterator[tuple[int, list[str]]]:
        """(line, values) of each non-blank row, the header first; raises :class:`DataFileInvalid`."""
        self._file.seek(0)
        digest = hashlib.sha256()
        reader = csv.reader(self._lines(digest))
        empty = True
        try:
            for values in reader:
                if not values:
                    continue
                if empty:
                    _check_header(self.path, reader.line_num, values)
                    empty = False
                yield reader.line_num, values
        except csv.Error as exc:
            raise DataFileInvalid(self.path, reader.line_num, str(exc)) from None
        if empty:
            raise DataFileInvalid(self.path, 1, "the file is empty: a table needs a header line naming its columns")
        self.sha256 = digest.hexdigest()

    def _lines(self, digest: Any) -> Iterator[str]:
        for number, raw in enumerate(self._file, 1):
            digest.update(raw)
            _check_text(self.path, raw, number)
            line = raw.decode("utf-8")
            yield line.removeprefix(BOM) if number == 1 else line


def read_csv_facts(path: Path) -> CsvFacts:
    """The header and hash of the CSV at ``path``, every line checked (its encoding, NUL characters),
    in chunks, at the speed of the checks themselves; raises :class:`DataFileInvalid`."""
    with CsvFile(path) as file:
        header = next(file.rows())[1]
    digest, decoder = hashlib.sha256(), codecs.getincrementaldecoder("utf-8")()
    line, line_start, offset = 1, 0, 0
    """The line of the chunk's first byte, where that line starts and where the chunk starts (in bytes)."""
    with path.open("rb") as fh:
        while chunk := fh.read(_CHUNK):
            digest.update(chunk)
            try:
                decoder.decode(chunk)
                problem, at = NUL, chunk.find(b"\0")
                found = at >= 0
            except UnicodeDecodeError as exc:  # at a byte of this chunk, or of a character begun in the last one
                problem, at, found = _not_utf8(exc.object[exc.start]), exc.start - (len(exc.object) - len(chunk)), True
            if found:
                before = chunk.rfind(b"\n", 0, at) if at > 0 else -1
                raise DataFileInvalid(path, line + (chunk.count(b"\n", 0, at) if at > 0 else 0), problem,
                                      at - before if before >= 0 else offset + at - line_start + 1)
            if (newlines := chunk.count(b"\n")) > 0:
                line, line_start = line + newlines, offset + chunk.rindex(b"\n") + 1
            offset += len(chunk)
    try:
        decoder.decode(b"", final=True)
    except UnicodeDecodeError as exc:  # the file ends inside a character
        raise DataFileInvalid(path, line, _not_utf8(exc.object[exc.start]), offset - line_start) from None
    return CsvFacts(header, digest.hexdigest())


def _check_text(path: Path, raw: bytes, line: int) -> None:
    """Raise :class:`DataFileInvalid` at the first byte of line ``raw`` that is not UTF-8 or is a NUL;
    columns are counted in bytes."""
    try:
        raw.decode("utf-8")
        problem, at = NUL, raw.find(b"\0")
    except UnicodeDecodeError as exc:
        problem, at = _not_utf8(raw[exc.start]), exc.start
    if at >= 0:
        raise DataFileInvalid(path, line, problem, at + 1)


def _not_utf8(byte: int) -> str:
    return f"not UTF-8 (byte 0x{byte:02x}): save the file as UTF-8 (\"CSV UTF-8\")"


def _check_header(path: Path, line: int, header: list[str]) -> None:
    seen: set[str] = set()
    for position, name in enumerate(header, 1):
        if not name.strip():
            raise DataFileInvalid(path, line, f"column {position} has no name")
        if len(name.encode()) > MAX_COLUMN_NAME_BYTES:
            raise DataFileInvalid(path, line, f"the name of column {position} ({name[:30]!r}…) is longer than "
                                  f"{MAX_COLUMN_NAME_BYTES} bytes")
        if name in seen:
            raise DataFileInvalid(path, line, f"two columns are named {name!r}")
        seen.add(name)


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
    if kb.csv is None or kb.csv_sha256 is None:  # no CSV, or one the spec loader found unreadable (and said why)
        return []
    header: list[str] | None = None
    problems: list[TableInvalid] = []
    try:
        with CsvFile(kb.csv) as file:
            for line, values in file.rows():
                if header is None:
                    header = values
                    continue
                try:
                    _check_row(kb, line, values, header)
                except TableInvalid as exc:
                    problems.append(exc)
                if len(problems) == MAX_PROBLEMS:
                    break
    except TableInvalid as exc:  # the file cannot be read on from here (changed since the loader read it)
        problems.append(exc)
    return problems


def _check_row(kb: KnowledgeWorksheet, line: int, values: list[str], header: list[str]) -> None:
    assert kb.csv is not None, "a CSV's row"
    check_width(kb.csv, line, values, header)
    for column, value in zip(header, values):
        declared = kb.columns.get(column)
        if declared is not None and declared.type in TYPED:
            typed_value(kb.csv, line, column, value, declared.type)
