"""A field's value read from text, by the field's type (and its declared format or table)."""

from __future__ import annotations

import datetime as dt
import re
from typing import Any

from ...runtime.checks import first_accepted, value_problem
from ...spec import NA, Field
from ...state import WorksheetInstance
from .. import dates, enums, extract
from ..person_names import names_a_person, person_name
from .fields import has_pattern, pattern_of
from .implied import implied_member
from .reading import Reading
from .records import described_values, record_value, table_of
from .words import SENTENCE

def typed(reading: Reading, f: Field, text: str, whole_answer: bool, instance: WorksheetInstance | None = None) -> Any:
    """The value of ``f`` that ``text`` gives, or None.

    ``whole_answer``: the text is a reply to a question about ``f`` (any wording of a value
    counts); otherwise the value must be named explicitly in a longer message. Of several
    readings (a date without a year, a time without am/pm), the first one ``instance`` accepts.
    """
    kind = f.type.kind
    if kind == "list" and f.type.item is not None:
        if f.type.item.kind == "enum":
            members = enums.every_member_named(text, f)  # "afternoons or evenings on weekdays"
            if len(members) > 1:
                return members
        parts = [p for p in re.split(r",|\band\b|\bor\b", text) if p.strip()]
        item = Field(f.name, f.type.item, values=f.values, value_descriptions=f.value_descriptions,
                     value_synonyms=f.value_synonyms)
        values = [typed(reading, item, p, whole_answer, instance) for p in parts]
        return values if values and all(v is not None for v in values) else None
    if kind == "enum":
        named = enums.enum_value(text, f, explicit=True) if whole_answer else enums.mentioned_enum_value(
            text, f, explicit=True)
        implied = implied_member(reading, instance, f) if named is None and instance is not None else None
        if implied:
            reading.implied.add((f.name, implied))
        if named or implied:
            return named or implied
        return enums.enum_value(text, f) if whole_answer else enums.mentioned_enum_value(text, f)
    if kind in ("bool", "confirm"):
        said = extract.yes_no(text)
        if said is None and kind == "bool" and whole_answer:
            said = stated_yes_no(text, f)  # "i am an international student", "I'm not"
        return said
    if kind in ("int", "float"):
        number = extract.number_for(text, f) if whole_answer else extract.number_with_noun(text, f)
        if number is None:
            return None
        if text == reading.text:  # the number is taken: no other field reads it
            reading.take_number(number)
        return int(number) if kind == "int" and float(number).is_integer() else number
    if kind in ("date", "time", "datetime"):
        readings, vague, spans = date_time_readings(text, reading.today, kind, whole_answer)
        if text == reading.text:
            reading.used.extend(spans)
        if instance is None or not readings:
            return readings[0] if readings and not vague else None
        value = first_accepted(reading.spec, reading.state, instance, f, readings, reading.today)
        accepted = value_problem(reading.spec, reading.state, instance, f, value, reading.today) is None
        if vague and accepted:  # "next week" is no day, but can be said to be too late
            phrase = " ".join(reading.text[s:e] for s, e in spans[:1])
            reading.problem = f"Which day exactly? “{phrase.strip()}” is more than one day (an approximate day is fine)."
            return None
        return value
    if table_of(reading.spec, f) is not None:
        named = record_value(reading, f, text, asked=whole_answer)
        if named is not None or f.type.is_ref or not whole_answer or not _could_be_a_name(text) \
                or _names_an_option(reading, f, text) or described_values(reading, text, _tables(reading)):
            return named  # "i wanna take a couple classes", "letter grade pls", "something in winter" name no course
    if kind == "str" and has_pattern(f):
        found = extract.pattern_values(text, pattern_of(f))
        return without_field_name(found[0], f) if found else None
    if kind == "str" and whole_answer and names_a_person(f):
        return person_name(extract.free_text(text, f))  # "this is so frustrating" is no name
    if kind == "str":
        return (extract.role_phrase(text, f) or extract.free_text(text, f)) if whole_answer else None
    return None


def without_field_name(value: str, f: Field) -> str:
    """A value of a format said after the field's name ("unit 12F", "apt 4B" for a unit): the value
    alone, when what is left still has the format."""
    words = value.split()
    if len(words) > 1 and extract.mentions(words[0], f):
        rest = " ".join(words[1:])
        if re.fullmatch(pattern_of(f), rest):
            return rest
    return value


def blanked(text: str, spans: list[tuple[int, int]]) -> str:
    """``text`` with the spans blanked out (offsets unchanged)."""
    for start, end in spans:
        text = text[:start] + " " * (end - start) + text[end:]
    return text


_SAME = re.compile(r"\b(?:the\s+)?same(?:\s+(?P<noun>[a-z]+))?(?:\s+as\s+(?:the\s+)?(?P<other>[a-z]+))?\b", re.I)


def same_as(reading: Reading, f: Field, target: WorksheetInstance) -> Any:
    """The value of another field of the same kind that "the same (place | day | as the pick-up)" points
    at: "pick up at sfo, return same place" returns the car at SFO. Only one field may be meant."""
    said = _SAME.search(reading.text)
    if said is None:
        return None
    ws = reading.spec.tasks[target.worksheet]
    others = [g for g in ws.fields.values() if g is not f and g.kind == "input" and g.type == f.type
              and g.values == f.values and reading.value_of(target, g.name) not in (None, NA)]
    if said.group("other"):  # "same as the pickup"
        others = [g for g in others if extract.mentions(said.group("other"), g)
                  or extract.content_words(said.group("other")) & extract.content_words(g.description)]
    if len(others) != 1:
        return None
    reading.used.append(said.span())
    return reading.value_of(target, others[0].name)


MAX_SHORT_REPLY_WORDS = 4
"""Only a reply this short is read as the whole answer to a question the agent did not ask."""


def short_reply_readers(reading: Reading, exclude: Field | None = None) -> list[tuple[WorksheetInstance, Field, Any]]:
    """The unfilled typed fields of the open tasks, other than the one asked (and ``exclude``), that
    read a short reply as their whole answer: "walk" when asked where to go, "4" (4 o'clock?) when
    asked for a date. With more than one, the reply is ambiguous."""
    if len(reading.text.split()) > MAX_SHORT_REPLY_WORDS:
        return []
    trial = reading.fresh()
    return [(instance, f, value) for instance in reading.open_instances()
            for f in reading.spec.tasks[instance.worksheet].fields.values()
            if f is not exclude and f.kind == "input" and not (f.type.kind == "str" and not has_pattern(f))
            and not f.type.is_boolean and not f.type.referenced()
            and (instance.name, f.name) != reading.asked and instance.values.get(f.name) in (None, NA)
            for value in [typed(trial, f, reading.text, whole_answer=True, instance=instance)] if value is not None]


_NEGATED = re.compile(r"\b(not|never|no|n't|isn'?t|aren'?t|am not|i'?m not)\b", re.I)


def stated_yes_no(text: str, f: Field) -> bool | None:
    """The yes or no a statement gives a yes/no field by saying it back ("I'm an international
    student", "i am not"; "not an emergency" to "whether it is an emergency (flooding, ...)"), or
    None: every word of the field's name, or of what its description asks, is in it."""
    words = set(re.findall(r"[a-z]+", text.lower()))
    named = [w for w in extract.name_words(f) if len(w) >= 3]
    restated = bool(named) and all(any(w.startswith(n) for w in words) for n in named)
    asked = extract.content_words(_WHETHER.sub("", _ASIDE.sub(" ", f.description)))
    restated = restated or (bool(asked) and len(asked) <= MAX_ASKED_WORDS and asked <= extract.content_words(text))
    return (not _NEGATED.search(text)) if restated else None


_WHETHER = re.compile(r"^\s*whether\s+(?:(?:it|there|this|that|the \w+)\s+(?:is|are|was|has|have)\s+)?", re.I)
_ASIDE = re.compile(r"\([^)]*\)")
MAX_ASKED_WORDS = 2
"""A description asking this few words ("whether it is an emergency") is said back by a message using them."""


MAX_NAME_WORDS = 6


def _names_an_option(reading: Reading, f: Field, text: str) -> bool:
    """Whether ``text`` names an option of another field being filled ("letter grade" is a grading)."""
    return any(enums.mentioned_enum_value(text, g, explicit=True) is not None
               for g in reading.open_fields() if g is not f and g.type.kind == "enum")


def _tables(reading: Reading) -> list[str]:
    return list(reading.knowledge.tables) if reading.knowledge is not None else []


def _could_be_a_name(text: str) -> bool:
    """A name the table does not have ("CS 999", "Intro to Cooking"), not a sentence about one nor
    a bare number ("5" answers a question still to come)."""
    return len(text.split()) <= MAX_NAME_WORDS and not SENTENCE.search(text) and re.search(r"[^\W\d_]", text) is not None


def date_time_readings(text: str, today: dt.date, kind: str,
                       whole_answer: bool) -> tuple[tuple[Any, ...], bool, list[tuple[int, int]]]:
    """The readings of the first date, time or date and time in ``text``, nearest or likeliest
    first; whether the date is a vague period ("next week"); and where they were said."""
    times = dates.find_times(text, now=dt.time(12, 0))
    time_readings = times[0].readings if times else dates.whole_hour(text) if whole_answer else ()
    time_spans = [(times[0].start, times[0].end)] if times else [(0, len(text))] if time_readings else []
    if kind == "time":
        return time_readings, False, time_spans
    found = dates.find_dates(text, today)
    date_readings, vague = (found[0].readings, found[0].vague) if found else ((), False)
    date_spans = [(found[0].start, found[0].end)] if found else []
    if kind == "date" or not date_readings:
        return date_readings, vague, date_spans
    combined = tuple(dt.datetime.combine(d, t) for d in date_readings for t in (time_readings or (dt.time(0, 0),)))
    return combined, vague, date_spans + time_spans
