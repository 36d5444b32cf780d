"""Which field a clause of the message is about: declines, stated values, other fields' clauses."""

from __future__ import annotations

import re
from collections.abc import Callable

from ...spec import Field
from .. import enums, extract
from .fields import has_pattern, has_pattern_value, is_account, is_free_text, pattern_of
from .reading import Reading

MAX_SHORT_ANSWER_WORDS = 4
"""Only a short reply ("walk", "7pm", "3") is read as the answer to a question the agent did not ask."""


def declines(reading: Reading, f: Field) -> bool:
    """The user cannot or will not give the field: "skip", "I forgot it", "no idea, sorry".

    A clause saying the user does not know refers to ``f`` unless it names another field
    ("I forgot my student id" declines the id, whatever was asked), or says it late in a long
    clause ("the class is full and I don't know why").
    """
    if extract.declines(reading.text) or (not f.required and extract.declined_by_name(reading.text, f)):
        return True  # "no large items"
    others = [g for g in reading.open_fields() if g is not f]
    return any(extract.says_unknown(clause) and (extract.mentions(clause, f) or (
        extract.unknown_near_start(clause) and not any(extract.mentions(clause, g) for g in others)))
        for clause in extract.clauses(reading.text))


def declines_unasked(reading: Reading, f: Field) -> bool:
    """The message says the user does not know a field it names ("I can't remember my student id"),
    or declines an optional one by its name ("no guest")."""
    return (any(extract.says_unknown(c) and extract.mentions(c, f) for c in extract.clauses(reading.text))
            or (not f.required and extract.declined_by_name(reading.text, f)))


def stated_values(reading: Reading) -> dict[str, str]:
    """Free-text values stated as "my X is Y": {field name: Y}.

    The subject names the field by the words of its name; when it names several fields
    ("my name is" and full_name, student_name...), the ones sharing the most words with it
    win, then the ones with the fewest words in their name.
    """
    fields = [f for f in reading.open_fields() if is_free_text(f)]
    out: dict[str, str] = {}
    for subject, value in extract.statements_of_value(reading.text):
        scored = [(len(extract.shared_name_words(subject, f)), -len(f.name.split("_")), f) for f in fields]
        scored = [s for s in scored if s[0]]
        best = max(((n, size) for n, size, _ in scored), default=None)
        out.update({f.name: value for n, size, f in scored if (n, size) == best and f.name not in out})
    return out


def text_about(reading: Reading, f: Field, keep: Callable[[str], bool] = lambda clause: True,
               siblings: tuple[Field, ...] = ()) -> str:
    """The message without the clauses that give or decline another field (and those ``keep`` refuses).

    A clause that names another field and carries a value of its format, or says the user
    does not know it, belongs to that field: "my email is ann@stanford.edu" answers no question about a
    date of birth; so does a clause that is a value of another field's format ("Jane Doe,
    jane.doe@stanford.edu" answers the name with "Jane Doe"). ``siblings``: fields of a worksheet
    not open yet whose values the message may also give.
    """
    others = [g for g in [*reading.open_fields(), *siblings] if g is not f and not g.type.referenced()]
    stated = stated_values(reading)
    chosen = {(i.worksheet, name) for i in reading.open_instances() for name, value in i.values.items() if value is not None}
    answered = {id(g) for g in others if any((ws, g.name) in chosen and reading.spec.tasks[ws].fields.get(g.name) is g
                                             for ws in reading.spec.tasks)}

    def claimed_by(clause: str, g: Field) -> bool:
        if g.name in stated and str(stated[g.name]) in clause:  # "my name is Jane Doe" states the name
            return True
        if extract.mentions(clause, g):  # "my PIN is ...", "I forgot my id", "(make it) 3 units"
            return (extract.says_unknown(clause) or g.name in stated or has_pattern_value(reading.text, g)
                    or (g.type.kind in ("int", "float") and extract.number_with_noun(clause, g) is not None))
        if is_free_text(f) and g.type.kind == "enum" and len(clause.split()) <= MAX_SHORT_ANSWER_WORDS:
            # "Drive, please" names no place; "it conflicts with another class" is a reason, and "kitchen
            # lights flicker" a description: an option is claimed by its name, not by words of its description
            return enums.mentioned_enum_value(clause, g, explicit=True) is not None
        if has_pattern(g) and not has_pattern(f):
            values = extract.pattern_values(clause, pattern_of(g))
            return any(len(clause.replace(v, " ").split()) <= 2 for v in values)
        return extract.mentions(reading.text, g) and has_pattern_value(clause, g)

    source = reading.text if has_pattern(f) else _without_formatted_values(reading.text, others)
    spans = extract.clause_spans(source)
    kept = [(s, e) for s, e in spans if keep(source[s:e]) and (
        extract.mentions(source[s:e], f) or _names_its_record(reading, f, s, e) or _names_its_option(source[s:e], f)
        or not any(claimed_by(source[s:e], g) for g in others))]
    text = source.strip() if kept == spans else extract.joined(source, kept)  # untouched, "?" and all
    if not is_free_text(f) or is_account(f):
        return text  # a description keeps every word: "the dishwasher won't drain" also names the appliance
    return without_options(text, [g for g in others if g.type.kind == "enum"])


def _names_its_record(reading: Reading, f: Field, start: int, end: int) -> bool:
    """The clause names a record of the table ``f`` takes its values from ("cs 106a for 5 units" is
    about the course, whatever else it says)."""
    table = f.values_from or (f.type.ref if f.type.ref in reading.spec.knowledge else None)
    return table is not None and any(start <= m.start and m.end <= end for m in reading.mentions(table))


def _names_its_option(clause: str, f: Field) -> bool:
    """The clause names an option of ``f`` ("credit/no credit and 3 units" answers the grading too)."""
    return f.type.kind == "enum" and (enums.mentioned_enum_value(clause, f, explicit=True) is not None
                                      or enums.listed_phrase_value(extract.normalise(clause), f) is not None)


def _without_formatted_values(text: str, others: list[Field]) -> str:
    """The text without values of other fields' formats ("Alex Kim alex.kim@stanford.edu" answers
    the name with "Alex Kim"; the email is read as the email)."""
    for g in others:
        if has_pattern(g):
            for value in extract.pattern_values(text, pattern_of(g)):  # with the comma before it
                text = re.sub(rf"[,;:]?\s*{re.escape(value)}", lambda m: " " * len(m.group(0)), text)
    return text


def without_options(text: str, enum_fields: list[Field]) -> str:
    """Free text without an option of another question said in passing: "CS 224V for a letter
    grade" names the course "CS 224V" (the grade is read as the grade)."""
    for g in enum_fields:
        for member in g.values:
            about = "|".join(re.escape(w) for w in extract.content_words(f"{g.name.replace('_', ' ')} {g.description}"))
            trailing = rf"(?:\s+(?:{about})\w*)?" if about else ""
            phrase = rf"(?:\s+(?:for|with|as|in|on|at|by|and))?(?:\s+(?:a|an|the))?\s+{re.escape(member)}{trailing}\b"
            shorter = re.sub(phrase, "", text, flags=re.I).strip()
            if shorter and shorter != text:
                text = shorter
    return text
