"""Values named by a knowledge table: a restaurant by its name, a course by its code or title.

A field whose type is a table takes the record the message names ("a table at Enoteca
Vigna", fuzzily: "enoteca vinga"), or the one in focus for "book it"; a text field declared
``values_from: <table>`` takes the words naming a record as the user wrote them ("CS 224V").
Each mention gives one value: "CS 224V and CS 229" fill two courses.
"""

from __future__ import annotations

import datetime as dt
import re
from dataclasses import dataclass
from typing import Any

from ...knowledge.mentions import Mention, squashed
from ...spec import AgentSpec, Field
from .focus import focus_record, in_focus, pronoun
from .. import dates, extract
from .reading import Reading

_WORD = re.compile(r"[A-Za-z0-9]+")
_NUMBER = re.compile(r"(?<![\w.])-?\d+(?:\.\d+)?(?![\w.])")
MAX_NAMESAKES = 50
"""Records sharing one name that are told apart by the rest of a message, at most."""
_ORDINALS = {"first": 0, "1st": 0, "second": 1, "2nd": 1, "third": 2, "3rd": 2, "fourth": 3, "4th": 3, "fifth": 4,
             "5th": 4, "last": -1}


def table_of(spec: AgentSpec, f: Field) -> str | None:
    """The knowledge table whose records the field's values name, if any."""
    if f.type.ref in spec.knowledge and spec.knowledge[f.type.ref].source == "table":
        return f.type.ref
    return f.values_from


def record_value(reading: Reading, f: Field, text: str | None = None, asked: bool = False) -> Any:
    """The next value of ``f`` the message names by a table (the record, or the words naming it);
    ``asked``: the message answers the question for ``f``, so a description that fits one record
    names it ("Audi" when only one car is an Audi)."""
    table = table_of(reading.spec, f)
    if table is None:
        return None
    for mention in reading.mentions(table):
        if reading.unused(mention.start, mention.end):
            reading.used.append((mention.start, mention.end))
            if not f.type.is_ref:
                return reading.text[mention.start:mention.end]
            return _chosen(reading, table, mention)
    if f.type.is_ref:
        listed = _listed(reading, text or reading.text)
        if listed is not None:
            return listed
        described = described_among_listed(reading, table)
        if described is not None:
            return described
        named = named_by_values(reading, table, asked=asked)
        if named is not None:
            return named
        said = pronoun(reading)
        found = focus_record(reading, table) if pronoun(reading, text) else None
        if found is not None and said is not None:
            reading.used.append(said.span())  # "book it": the word that stands for the record
        return found
    return _named_in_focus(reading, table) if pronoun(reading, text) else None


def _named_in_focus(reading: Reading, table: str) -> str | None:
    """"that one": the name of the record in focus, when it is a record of ``table`` (CS106A after
    its offerings); the words stand for one value only."""
    said = pronoun(reading)
    if said is None or not reading.unused(*said.span()):
        return None
    name = in_focus(reading)
    found = reading.knowledge.record_names(table).find(name) if name and reading.knowledge is not None else []
    if not found:
        return None
    reading.used.append(said.span())
    key = reading.spec.knowledge[table].primary_key
    code = found[0].record.get(key) if key else None
    return code if isinstance(code, str) and code else name  # the course's code rather than its title


def _chosen(reading: Reading, table: str, mention: Mention) -> dict[str, Any] | None:
    """The record a mention names: itself, when no other record has the name it was named by; else
    the one of those namesakes the rest of the message describes ("spin on thursday": the Thursday
    Spin 45); else none, and the namesakes are listed for the user to choose from."""
    column = mention.by
    if column is None or column == reading.spec.knowledge[table].primary_key \
            or not reading.knowledge.shares_names(table):
        return mention.record
    namesakes = reading.knowledge.rows(table, {column: mention.record[column]}, limit=MAX_NAMESAKES)
    if len(namesakes) <= 1:
        return mention.record
    rest = reading.text[:mention.start] + " " * (mention.end - mention.start) + reading.text[mention.end:]
    described = _described(reading, table, namesakes, rest)
    shown = [r for r in described.rows if r in _listed_rows(reading, table)]
    if len(described.rows) == 1:
        reading.used.extend(described.spans)  # "cloud white 5 gallon x2": the 5 is the can's, no quantity
        return described.rows[0]
    if len(shown) == 1:  # "book the yin one" after the Sunday classes were listed
        return shown[0]
    query = " ".join([reading.text[mention.start:mention.end], *described.said])
    reading.listed.append(f"answer({query!r})")
    return None


def described_among_listed(reading: Reading, table: str, mark: bool = True) -> dict[str, Any] | None:
    """"the thursday 5:30 one": the one record of those the agent just listed (of ``table``) that
    the message describes (``mark``: the words that describe it are taken)."""
    rows = _listed_rows(reading, table)
    if len(rows) < 2:
        return None
    described = _described(reading, table, rows, reading.masked() if mark else reading.text)
    if not described.said or len(described.rows) != 1:
        return None
    if mark:
        reading.used.extend(described.spans)
    return described.rows[0]


IDENTIFYING_SHARE = 0.8
"""A column whose values are this share of its table's rows, or more, tells records apart (a car's model)."""


def named_by_values(reading: Reading, table: str, mark: bool = True, asked: bool = False) -> dict[str, Any] | None:
    """"a corolla", "honda crv": the one record of ``table`` with the values the message names,
    one of them of a column that tells records apart (a table without names calls its records so),
    or any values when the message answers a question for such a record (``asked``); ``mark``: the
    words are taken."""
    if reading.knowledge is None:
        return None
    imported = reading.knowledge.imported[table]
    values = reading.knowledge.column_values(table)
    identifying = {c for c in values.columns if len(imported.values[c]) >= IDENTIFYING_SHARE * imported.rows}
    if not identifying and not asked:
        return None  # a table with names, or with no column that tells its records apart
    text = reading.masked() if mark else reading.text
    said = values.find(text)
    if not said or not (asked or identifying & said.keys()):
        return None
    rows = reading.knowledge.rows(table, said, limit=2)
    if len(rows) != 1:
        return None
    if mark:
        reading.used.extend(_described(reading, table, rows, text).spans)
    return rows[0]


def _listed_rows(reading: Reading, table: str) -> list[dict[str, Any]]:
    """The records of ``table`` the agent's last answer listed."""
    answer = reading.state.answer
    rows = answer.result if answer is not None and isinstance(answer.result, list) else []
    key = reading.spec.knowledge[table].primary_key
    return [r for r in rows if isinstance(r, dict) and (key in r if key else "name" in r)]


@dataclass(frozen=True)
class _Description:
    rows: list[dict[str, Any]]
    """The rows that fit best (all of them when nothing describes any)."""
    said: list[str]
    """The values said: of categorical columns, times of day ("17:30"), weekdays of dates."""
    spans: list[tuple[int, int]]
    """Where the message says them."""


def _described(reading: Reading, table: str, rows: list[dict[str, Any]], text: str) -> _Description:
    """The rows that fit best what ``text`` says of their columns (a value of a categorical column,
    a time of day, the weekday of a date, a number, a word of a value: "gallon" for "1 gallon"),
    with the values said that some row has."""
    said, spans = [], []
    for value in reading.knowledge.column_values(table).find(text).values():
        said.append(value)
        spans += [m.span() for m in re.finditer(r"\W*".join(map(re.escape, _WORD.findall(value))), text, re.I)][:1]
    for found in dates.find_times(text):
        said += [t.strftime("%H:%M") for t in found.readings]
        spans.append((found.start, found.end))
    for found in dates.find_dates(text, reading.today):
        if not found.vague and found.readings and isinstance(found.readings[0], dt.date):
            said.append(found.readings[0].strftime("%A"))
            spans.append((found.start, found.end))
    wanted = {squashed(v) for v in said}
    words = extract.content_words(text)

    def values(row: dict[str, Any]) -> list[str]:
        return [str(v) for v in row.values() if v is not None]

    numbers = {float(n) for n in extract.numbers(text, loose=False)}

    def fit(row: dict[str, Any]) -> tuple[int, int]:
        said_numbers = sum(isinstance(v, (int, float)) and not isinstance(v, bool) and float(v) in numbers
                           for v in row.values())  # "-2.00" is a power of -2.0
        return (len(wanted & {squashed(v) for v in values(row)}) + said_numbers,
                len(words & extract.content_words(" ".join(values(row)))))

    best = max((fit(r) for r in rows), default=(0, 0))
    had = {squashed(v) for r in rows for v in values(r)}
    said = [v for v in dict.fromkeys(said) if squashed(v) in had]  # "Sunday" for a pick-up day describes no paint
    held = {float(v) for r in rows for v in r.values() if isinstance(v, (int, float)) and not isinstance(v, bool)}
    said += [f"{n:g}" for n in numbers if n in held]
    spans += [m.span() for m in _NUMBER.finditer(text) if float(m.group(0)) in held & numbers]
    return _Description([r for r in rows if fit(r) == best] if best != (0, 0) else rows, said, spans)


def unused_mentions(reading: Reading, f: Field) -> int:
    """How many records of the field's table the message names that no value took yet."""
    table = table_of(reading.spec, f)
    return 0 if table is None else sum(reading.unused(m.start, m.end) for m in reading.mentions(table))


def _listed(reading: Reading, text: str) -> dict[str, Any] | None:
    """"the second one": a record of the results the agent just listed."""
    answer = reading.state.answer
    rows = answer.result if answer is not None and isinstance(answer.result, list) else []
    found = _ordinal(text)
    if found is None or not -len(rows) <= found[0] < len(rows):
        return None
    said = re.search(re.escape(text[found[1][0]:found[1][1]]), reading.text)
    if said:
        reading.used.append(said.span())
    return rows[found[0]]


def described_values(reading: Reading, text: str, tables: list[str]) -> set[str]:
    """Values of the tables' short text columns the text names ("winter", "tue/thu", "sf"), other than
    options of a field being filled ("letter" is a grading): the text describes records."""
    if reading.knowledge is None:
        return set()
    options = {squashed(member) for f in reading.open_fields() if f.type.kind == "enum" for member in f.values}
    return {squashed(v) for t in tables for v in reading.knowledge.column_values(t).find(text).values()} - options


def ordinal(text: str) -> int | None:
    """"the second one" -> 1, "the last" -> -1, "number 3" -> 2."""
    found = _ordinal(text)
    return None if found is None else found[0]


def _ordinal(text: str) -> tuple[int, tuple[int, int]] | None:
    """The position an ordinal says, and where it says it."""
    for word, index in _ORDINALS.items():
        match = re.search(rf"\b(?:the\s+)?{word}\b(?:\s+one\b)?", text, re.I)
        if match:
            return index, match.span()
    match = re.search(r"(?:number|#|option)\s*(\d+)", text, re.I)
    return (int(match.group(1)) - 1, match.span()) if match else None
