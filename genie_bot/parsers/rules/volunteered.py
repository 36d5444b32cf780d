"""Strategy: values for fields the agent did not ask about, given in the same message.

A value counts when the field's type, its declared format, a "my X is Y" statement, a
preposition of its description or a table it names makes it unambiguous; a filled field is
read again only when the message restates it (changes are the ``corrections`` strategy's). A
worksheet nested in a field opens with values when the message gives them and the field
applies once this message's values are in ("I need help joining a waitlist" gives the kind
of help and, inside it, the kind of problem); several records named for several slots of one
kind fill them in order ("CS 224V and CS 229").
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from dataclasses import replace
from typing import Any

from ...acts import Report, formal_value
from ...runtime.checks import value_problem
from ...runtime.policy import field_applies
from ...spec import NA, Field, TaskWorksheet
from ...state import WorksheetInstance
from .. import dates, enums, extract
from ...language.english import NUMBER_WORDS, VAGUE_NUMBER_WORDS
from .about import declines_unasked, stated_values
from .evidence import proposal
from .fields import fields_by_kind, has_pattern, is_description, is_free_text, pattern_of
from .date_roles import date_of
from .implied import implied_member
from .proposals import Proposal
from .reading import Reading, Taken
from .records import record_value, table_of
from .requested import request_words
from .values import blanked, same_as, short_reply_readers, stated_yes_no, typed, without_field_name
from .words import names_only_a_field


def volunteered(reading: Reading, free_text: bool = True) -> list[str]:
    """Statements for the values the message gives; ``free_text=False``: of typed fields only (the
    words of a search describe what is looked for, not a request of the task)."""
    return [statement for statement, _ in _volunteered(reading, free_text)]


def propose(reading: Reading) -> list[Proposal]:
    """Matcher: each value the message gives a field of an open task, a reading of its own."""
    scratch = reading.fresh()
    out, mark = [], 0
    for_all = _FOR_ALL.search(reading.text) is not None
    asked = reading.state.instances.get(reading.asked[0] or "")
    for statement, slot in _volunteered(scratch, free_text=True):
        taken, mark = scratch.taken[mark:], len(scratch.taken)
        described = any(t.instance and is_description(t.field) for t in taken)
        declined = any(t.value == NA for t in taken)  # a decline owns its words
        found = proposal(scratch, "volunteered", [statement], 0.0, taken=taken, slots=frozenset({slot} if slot else ()),
                         phase=5, describes=described and not declined, volunteers=not (described or declined))
        if for_all and asked is not None and any(_sibling(reading, t.instance, asked) for t in taken):
            found = replace(found, claims=frozenset())  # "letter for both": the course asked about takes it too
        out.append(found)
        out.extend(_without_typed_clauses(scratch, taken))
    return out


def _sibling(reading: Reading, name: str, asked: WorksheetInstance) -> bool:
    other = reading.state.instances.get(name)
    return other is not None and other is not asked and other.worksheet == asked.worksheet


def _without_typed_clauses(reading: Reading, taken: list[Taken]) -> list[Proposal]:
    """For free text that holds clauses giving typed values ("next friday, and we need a quiet table"),
    the reading without them too: the resolver takes it when another reading explains those clauses."""
    out = []
    for t in taken:
        if not (t.instance and is_free_text(t.field) and isinstance(t.value, str)):
            continue
        shorter = _without_clauses(reading, _typed_clauses(reading))
        if shorter and shorter != t.value and shorter in t.value:
            alternative = Taken(t.instance, t.field, shorter, [])
            out.append(proposal(reading, "volunteered", [f"{t.instance}.{t.field.name} = {formal_value(shorter)}"],
                                0.0, taken=[alternative], phase=5, describes=is_description(t.field)))
    return out


def _typed_spans(reading: Reading) -> list[tuple[int, int]]:
    """Where the message says a number, a date, a time, a record's name or a value of a declared format."""
    text = reading.text
    spans = [(t.start, t.end) for t in reading.tokens if t.is_number or (
        t.lower in NUMBER_WORDS and t.lower not in VAGUE_NUMBER_WORDS)]
    spans += [(found.start, found.end) for found in dates.find_times(text)]
    if dates.mentions_date(text):
        spans += [(found.start, found.end) for found in dates.find_dates(text, reading.today)]
    spans += [(m.start, m.end) for table in _tables(reading) for m in reading.mentions(table)]
    for f in reading.open_fields():
        if has_pattern(f):
            spans += [m.span() for value in extract.pattern_values(text, pattern_of(f))
                      for m in re.finditer(re.escape(value), text)]
    return spans


def opened(reading: Reading) -> list[tuple[str, str]]:
    """(statement, slot) for the nested worksheets the values the reading gave open, with what the
    message says of them: "I need help joining a waitlist" answers the kind of help, and the kind
    of problem inside it belongs to the same reading."""
    out = []
    given = [reading.state.instances[t.instance] for t in reading.taken if t.instance in reading.state.instances]
    lineage = [i for instance in given for i in _with_ancestors(reading, instance)]
    for name in dict.fromkeys(i.name for i in lineage):  # "CS 224V and CS 229": the second course too
        instance = reading.state.instances[name]
        ws = reading.spec.tasks[instance.worksheet]
        for field_name, text in nested_values(reading, ws, _as_it_will_be(reading, instance)).items():
            reading.assigned.add((name, field_name))
            out.append((f"{name}.{field_name} = {text}", f"{name}.{field_name}"))
    return out


def _with_ancestors(reading: Reading, instance: WorksheetInstance) -> list[WorksheetInstance]:
    out = [instance]
    while out[-1].parent and out[-1].parent[0] in reading.state.instances:
        out.append(reading.state.instances[out[-1].parent[0]])
    return out


def _volunteered(reading: Reading, free_text: bool) -> Iterator[tuple[str, str | None]]:
    """Each statement, with the slot it fills when no value of its own says so (a nested worksheet)."""
    for instance in reading.open_instances():
        ws = reading.spec.tasks[instance.worksheet]
        for f, value in volunteer_values(reading, ws, instance.name, instance):
            if free_text or not is_free_text(f):
                yield reading.assign(instance, f, value), None
        if not free_text:
            continue
        taken = {f.name for f in ws.fields.values() if instance.values.get(f.name) is not None
                 or (instance.name, f.name) in reading.assigned or (instance.name, f.name) == reading.asked}
        for name, value in described_problem(reading, ws, taken).items():  # the problem, told later on
            yield reading.assign(instance, ws.fields[name], value), None
        for name, text in nested_values(reading, ws, _as_it_will_be(reading, instance)).items():
            reading.assigned.add((instance.name, name))
            yield f"{instance.name}.{name} = {text}", f"{instance.name}.{name}"


def constructor(reading: Reading, ws: TaskWorksheet, name: str, given: dict[str, Any] | None = None,
                nested_args: dict[str, str] | None = None) -> str:
    """``Worksheet(field=value, nested=Nested(field=value))`` with what the message gives for a new
    instance (``given``: values already read for it; ``nested_args``: constructors of its nested
    worksheets already written)."""
    target = WorksheetInstance(name or ws.name, ws.name, {**(given or {}), **(nested_args or {})})
    values = dict(given or {})
    for key, value in values.items():
        reading.took(name, ws.fields[key], value)
    values.update({f.name: v for f, v in volunteer_values(reading, ws, name, None, target)
                   if f.name not in values and f.name not in (nested_args or {})})
    for found in (_carried_over(reading, ws, set(values)), _said_in_the_search(reading, ws, target, set(values))):
        values.update(found)
    for key, value in described_problem(reading, ws, set(values)).items():
        reading.took(name, ws.fields[key], value)
        values[key] = value
    target.values.update(values)
    args = {k: formal_value(v) for k, v in values.items()}
    args.update(nested_args or {})
    args.update(nested_values(reading, ws, target))
    reading.assigned.update((name, k) for k in args)
    return f"{ws.name}({', '.join(f'{k}={v}' for k, v in args.items())})"


def nested_values(reading: Reading, ws: TaskWorksheet, target: WorksheetInstance) -> dict[str, str]:
    """Constructors for the unset nested worksheets of ``target`` that apply and that the message fills."""
    out = {}
    for f in ws.fields.values():
        nested = reading.spec.tasks.get(f.type.ref or "")
        if nested is None or f.kind != "input" or target.values.get(f.name) is not None \
                or (target.name, f.name) in reading.assigned:
            continue  # filled, or answered by this message already
        if not field_applies(reading.spec, reading.state, target, f, reading.today):
            continue  # "the details of a leave of absence" only once the user wants one
        keys = [g for g in nested.fields.values() if table_of(reading.spec, g) is not None and g.kind == "input"]
        tried = len(reading.taken)
        inner = constructor(reading, nested, "")
        keyed = not keys or any(f"{g.name}=" in inner for g in keys)  # a second course needs its own code
        if inner != f"{nested.name}()" and keyed:
            out[f.name] = inner
            target.values[f.name] = inner
        else:
            del reading.taken[tried:]  # only tried out: nothing of it was read
    return out


def volunteer_values(reading: Reading, ws: TaskWorksheet, name: str, instance: WorksheetInstance | None = None,
                     target: WorksheetInstance | None = None) -> Iterator[tuple[Field, Any]]:
    """(field, value) for each field of ``ws`` (instance ``name``; None while starting it) the message gives."""
    starting = [ws] if instance is None else []
    same_kind = fields_by_kind([reading.spec.tasks[i.worksheet] for i in reading.open_instances()] + starting)
    target = target or instance or WorksheetInstance(name or ws.name, ws.name)  # values of a task being started
    options_said: list[tuple[int, int]] = []  # one word gives one option: "from sfo" is no return branch too
    for f in ws.fields.values():
        if f.kind != "input" or (name, f.name) in reading.assigned or (name, f.name) == reading.asked \
                or f.name in reading.corrected:
            continue
        if reading.spec.tasks.get(f.type.ref or "") is not None:
            continue  # nested worksheets: ``nested_values``
        if instance is not None and _answered_for_a_sibling(reading, instance, f):
            continue  # "letter" for the first course is not the second's grading, unless "both"
        current = instance.values.get(f.name) if instance is not None else None
        filled = current is not None and current != NA  # a declined field may still be given later
        restated = is_free_text(f) and extract.role_phrase(reading.text, f) is not None
        if filled and not restated:  # changing a value is the corrections strategy's business
            continue
        value = _volunteered_value(reading, f, same_kind, target, options_said)
        if value is None and current is None:
            value = same_as(reading, f, target)  # "back dec 9, same place"
        if value is None and current is None and declines_unasked(reading, f):
            value = NA
        if value is not None and value != current:
            if instance is None:
                target.values[f.name] = value
                reading.note_choice(f, value)
                reading.took(name, f, value)
            yield f, value


_FOR_ALL = re.compile(r"\b(both|each|all|every|them all|for all|all of them|same)\b", re.I)


def _answered_for_a_sibling(reading: Reading, instance: WorksheetInstance, f: Field) -> bool:
    """The message answers ``f`` for another instance of the same worksheet (the course asked about)
    and does not say it is for all of them."""
    asked_instance, asked_field = reading.asked
    asked = reading.state.instances.get(asked_instance or "")
    return (asked is not None and asked is not instance and asked.worksheet == instance.worksheet
            and asked_field == f.name and (asked.name, f.name) in reading.assigned and not _FOR_ALL.search(reading.text))


def described_problem(reading: Reading, ws: TaskWorksheet, taken: dict[str, Any] | set[str]) -> dict[str, str]:
    """Free-text fields the message already answers, when it opens a task or later on.

    A request that states the user's problem fills the free-text field whose description
    shares a word with it that is distinctive of that field, in neither its name nor the other
    fields (a field described as "what happened: unauthorised transfers, a stolen card...").
    """
    if extract.declines(reading.text) or names_only_a_field(reading.spec, reading.text):
        return {}  # "I don't know" alone tells the staff nothing; "change the full name" is no name
    words = extract.content_words(reading.text) - reading.chose_by
    overlaps = {}
    for f in ws.fields.values():
        if f.kind != "input" or f.name in taken or not is_free_text(f) or f.values_from:
            continue
        others = " ".join(f"{g.name.replace('_', ' ')} {g.description}" for g in ws.fields.values() if g is not f)
        described = extract.content_words(f.description) - extract.content_words(
            f"{f.name.replace('_', ' ')} {others}")
        overlaps[f.name] = len(words & described)
    best = max(overlaps, key=lambda name: overlaps[name], default=None)
    return {best: _untaken_text(reading)} if best and overlaps[best] else {}


def _untaken_text(reading: Reading) -> str:
    """The message without the clauses another value was read from ("3, and we'll need a high
    chair" tells the request "we'll need a high chair")."""
    return _without_clauses(reading, [(s, e) for s, e in extract.clause_spans(reading.text)
                                      if any(us <= s and e <= ue for us, ue in reading.used)])


def _without_clauses(reading: Reading, dropped: list[tuple[int, int]]) -> str:
    spans = [span for span in extract.clause_spans(reading.text) if span not in dropped]
    text = extract.joined(reading.text, spans) if spans else reading.text
    return extract.without_lead_in(text)  # "oh and we have a peanut allergy"


def _typed_clauses(reading: Reading) -> list[tuple[int, int]]:
    """The clauses that only give a typed value, maybe naming its field: "next friday", "3", "PIN is 9431"."""
    typed_spans = _typed_spans(reading)
    naming = set().union(*(extract.content_words(f.name.replace("_", " ")) for f in reading.open_fields()))
    out = []
    for start, end in extract.clause_spans(reading.text):
        rest = reading.text[start:end]
        for s, e in typed_spans:
            if start <= s and e <= end:
                rest = rest[:s - start] + " " * (e - s) + rest[e - start:]
        if rest != reading.text[start:end] and extract.content_words(rest) <= naming:
            out.append((start, end))
    return out


def _carried_over(reading: Reading, ws: TaskWorksheet, taken: set[str]) -> dict[str, Any]:
    """Values of this conversation the message points at: "the status of my ticket" right after a
    ticket was filed is that ticket's (a finished task's field of the same name)."""
    out = {}
    for f in ws.fields.values():
        if f.kind != "input" or f.name in taken or not _points_at(reading.text, f):
            continue
        done = sorted((i for i in reading.state.instances.values() if not i.open and f.name in i.values),
                      key=lambda i: -i.touched)
        if done and done[0].values[f.name] not in (None, NA):
            out[f.name] = done[0].values[f.name]
    return out


def _said_in_the_search(reading: Reading, ws: TaskWorksheet, target: WorksheetInstance,
                        taken: set[str]) -> dict[str, Any]:
    """The day, time or party size said with the search the agent just answered, for a task started
    on its results: "somewhere italian in sf for friday night", then "book osteria alba for 4" is
    for Friday."""
    answer = reading.state.answer
    if answer is None or not any(isinstance(a, Report) and a.query_or_instance.startswith("answer(")
                                 for a in reading.state.last_acts):
        return {}
    search = Reading(reading.spec, reading.state, answer.question, reading.today, reading.knowledge)
    out = {}
    for f in ws.fields.values():
        if f.kind != "input" or f.name in taken or f.type.kind not in ("date", "time", "datetime"):
            continue
        value = typed(search, f, search.text, whole_answer=False, instance=target)
        if value is not None and search.problem is None:
            out[f.name] = value
    return out


def _points_at(text: str, f: Field) -> bool:
    """"my ticket", "that ticket": a word of the field's name after a possessive or a demonstrative."""
    words = "|".join(re.escape(w) for w in extract.name_words(f))
    return bool(words) and bool(re.search(rf"\b(my|our|the|that|this)\s+({words})\b", text, re.I))


def _as_it_will_be(reading: Reading, instance: WorksheetInstance) -> WorksheetInstance:
    """A copy of ``instance`` with this reading's values in, to ask which fields will apply."""
    copy = WorksheetInstance(instance.name, instance.worksheet, dict(instance.values), parent=instance.parent)
    copy.values.update({f: v for (i, f), v in reading.given.items() if i == instance.name})
    return copy


def _volunteered_value(reading: Reading, f: Field, same_kind: dict[str, int], instance: WorksheetInstance,
                       options_said: list[tuple[int, int]]) -> Any:
    kind = f.type.kind
    text = reading.text
    if table_of(reading.spec, f) is not None:
        return record_value(reading, f)
    if kind == "list" and f.type.item is not None and table_of(reading.spec, item := Field(f.name, f.type.item)):
        records: list[Any] = []  # "a sofa and a fridge from 12 oak st": each record named
        while (record := record_value(reading, item)) is not None and len(records) < MAX_LISTED_RECORDS:
            records.append(record)
        return records or None
    if kind == "enum":  # the words of the worksheet itself ("external test credits"), or those asking for a
        ws = reading.spec.tasks[instance.worksheet]  # task ("submit a ticket"), choose no member of it
        asking = request_words(reading)
        text = blanked(text, options_said)
        named = enums.mentioned_enum_value(text, f, ignore=asking, explicit=True)
        implied = None if named else implied_member(reading, instance, f)
        if implied:
            reading.implied.add((f.name, implied))
        option = named or implied or enums.mentioned_enum_value(
            text, f, ignore=extract.content_words(f"{ws.name} {ws.description}") | asking)
        said = enums.where_worded(text, f, option) if option and not implied else None
        if said is not None:
            options_said.append(said)
        return option
    if kind in ("int", "float"):
        number = extract.number_with_noun(text, f)
        if number is None and same_kind.get(kind, 0) == 1 and not _read_as_another_number(reading, f):
            number = _only_free_number(reading)  # "a table for 4 at 7pm": the one number that is nothing else
            if number is not None and _inside_free_text(reading, number):
                number = None  # "pick up at 55 market st": the address's number
        value = None if number is None else (int(number) if kind == "int" and float(number).is_integer() else number)
        if number is None or value is None or not _accepted(reading, f, instance, value):
            return None
        reading.take_number(number)
        return value
    if kind in ("date", "datetime"):
        placed = date_of(reading, f, instance)  # "from dec 21 to jan 4": each date its field
        if placed is not None:
            reading.used.append(placed[1])
            return placed[0]
    if kind in ("date", "time", "datetime"):
        mentioned = extract.content_words(f.name.replace("_", " ")) & extract.content_words(text)
        calendar_date = kind != "date" or dates.mentions_date(text)  # "9503" is an id, not a year
        if ((same_kind.get(kind, 0) == 1 or _only_applicable_of_kind(reading, f, instance)) and calendar_date) \
                or mentioned:
            return typed(reading, f, _untaken_date(reading, kind), whole_answer=False, instance=instance)
    if kind == "bool" and _ABOUT_ME.match(text):
        return stated_yes_no(text, f)  # "I'm an international student", said before it is asked
    if kind == "str" and has_pattern(f):
        return _pattern_value(reading, f)
    if kind == "str" and names_only_a_field(reading.spec, text):
        return None  # "change the student full name" gives no name
    if kind == "str":
        return (stated_values(reading).get(f.name) or extract.role_phrase(text, f)
                or extract.named_after(reading.masked(), f))  # not a name another value was read from
    return None


MAX_LISTED_RECORDS = 20
"""Records one message gives a list field, at most."""
_ABOUT_ME = re.compile(r"^\W*(?:(?:yes|yeah|no|oh|and|also|btw)[,.!]?\s+)*(?:i'?m|i am|im)\b", re.I)


_NUMBERED_KINDS = ("int", "float", "date", "time", "datetime")


def _only_applicable_of_kind(reading: Reading, f: Field, instance: WorksheetInstance) -> bool:
    """``f`` is the one field of its kind that applies in the open tasks (the date of birth asked
    only for some products does not make "saturday" any less the pick-up day)."""
    kind = f.type.kind
    applicable = [g for i in reading.open_instances() for g in reading.spec.tasks[i.worksheet].fields.values()
                  if g.kind == "input" and g.type.kind == kind and field_applies(reading.spec, reading.state, i, g, reading.today)]
    return applicable == [f] and instance.name in {i.name for i in reading.open_instances()}


def _inside_free_text(reading: Reading, number: float) -> bool:
    """The agent asked for free text (an address, a description) and the number is said amid other
    words of one clause ("55 market st"): part of the answer, not a count of something else
    ("cs 107, letter, 3" says 3 on its own)."""
    instance, name = reading.asked
    asked = reading.state.instances.get(instance or "")
    f = reading.spec.tasks[asked.worksheet].fields.get(name or "") if asked is not None else None
    if f is None or not is_free_text(f):
        return False
    said = re.compile(rf"(?<![\w.]){number:g}(?![\w])")
    return any(said.search(c) and len(c.split()) > 1 for c in extract.clauses(reading.text))


def _read_as_another_number(reading: Reading, f: Field) -> bool:
    """A short reply another field would read as its number ("4" when asked for a date: 4 o'clock
    or 4 people?): the bare number is left alone rather than guessed."""
    return any(g.type.kind in _NUMBERED_KINDS for _, g, _ in short_reply_readers(reading, exclude=f))


def _untaken_date(reading: Reading, kind: str) -> str:
    """The text to read a date from: the message, or the first date in it no other field took."""
    found = dates.find_dates(reading.text, reading.today) if kind == "date" else ()
    if len(found) < 2 or reading.unused(found[0].start, found[0].end):
        return reading.text
    untaken = next((f for f in found if reading.unused(f.start, f.end)), None)
    return reading.text[untaken.start:untaken.end] if untaken else ""


def _only_free_number(reading: Reading) -> float | None:
    """The single number of the message that is not part of a date, a time, a record's name, a value of
    a table's column or a format."""
    text = extract.without_pronoun_one(reading.masked())  # "the second one" is no number
    if not re.search(r"\d", text) and not extract.numbers(text, loose=False):
        return None
    spans = [(m.start, m.end) for table in _tables(reading) for m in reading.mentions(table)]
    spans += [span for table in _tables(reading) for span in reading.knowledge.column_values(table).numbered(text)]
    # "5 gallon": a can's size, no count
    found_dates = dates.find_dates(text, reading.today) if dates.mentions_date(text) else ()
    spans += [(found.start, found.end) for found in found_dates + dates.find_times(text)]
    for f in reading.open_fields():
        for value in extract.pattern_values(text, pattern_of(f)) if has_pattern(f) else []:
            spans += [(m.start(), m.end()) for m in re.finditer(re.escape(value), text)]
    for start, end in spans:
        text = text[:start] + " " * (end - start) + text[end:]
    found = extract.numbers(text, loose=False)
    return found[0] if len(found) == 1 else None




def _tables(reading: Reading) -> list[str]:
    return [k.name for k in reading.spec.knowledge.values() if k.source == "table"]


def _accepted(reading: Reading, f: Field, instance: WorksheetInstance, value: Any) -> bool:
    """An unasked value is taken only if the field accepts it: 107 is no number of units."""
    return value_problem(reading.spec, reading.state, instance, f, value, reading.today) is None


def _pattern_value(reading: Reading, f: Field) -> str | None:
    """A value of the field's distinctive format (a ticket id, a student id) the user gave unasked.

    Taken when its clause names the field ("my student id is 06123456"), or when no other open field's
    format fits it and it is no number in a clause about a date (1930 is a year there; "PF-204817"
    is no part of "on friday").
    """
    others = [g for g in reading.open_fields() if g is not f and has_pattern(g)]
    for clause in extract.clauses(reading.text):
        for value in extract.pattern_values(clause, pattern_of(f)):
            if extract.mentions(clause, f):
                return without_field_name(value, f)
            fits_other = any(re.fullmatch(pattern_of(g), value) for g in others)
            if not fits_other and not (value.strip().isdigit() and dates.mentions_date(clause)):
                return without_field_name(value, f)
    return None
