"""Strategy: corrections of values already given.

"change CS 229 to CS 230" or "I meant CS 108, not 107" replaces the value that was CS 229 (CS 107),
wherever it is; "actually make
it 3 units", "the email is wrong, it's jdoe2@...", "no, my name is spelled Jayne Doe" and "the
date is wrong, it was March 3" change the field the message names or gives a value of its
kind for, in the task being filled or a part of it already finished (the course just given).
A correction is never the answer to the question asked (it is not a course called "actually
make it 3 units"), and "no, ..." with a correction at a summary corrects rather than declines.
"""

from __future__ import annotations

import re
from typing import Any

from rapidfuzz import fuzz, process

from ...acts import AskForConfirmation
from ...responders.display import join_words
from ...responders.wording import label
from ...spec import NA, Field
from ...state import DialogueState, WorksheetInstance
from .. import dates, enums, extract
from .about import stated_values
from .evidence import claims_of, of_value, proposal
from .fields import has_pattern, is_free_text, pattern_of
from .per_record import values_per_record
from .proposals import CORRECTION, Proposal
from .reading import Reading
from .volunteered import opened
from .words import correcting
from .records import record_value, table_of
from .values import typed

AT_A_SUMMARY = re.compile(r"^(no|nope|nah|and|also|plus)\b[\s,]+\w", re.I)
"""At a summary, "no, my email is ..." or "and for 6 people" changes what it shows."""
REPLACEMENTS = (
    re.compile(r"\b(?:change|replace|swap|switch)\s+(?P<old>.+?)\s+(?:to|with|for|into|by)\s+(?P<new>.+?)[.!?]*$", re.I),
    re.compile(r"\b(?:i meant|i mean|meant|it'?s|it is|make it|should be)\s+(?P<new>.+?)\s*,?\s+not\s+(?P<old>.+?)[.!?]*$",
               re.I),  # "wait actually i meant cs 108 not 107"
    re.compile(r"\bnot\s+(?P<old>.+?)\s*,?\s+but\s+(?P<new>.+?)[.!?]*$", re.I),  # "not 107 but 108"
)
"""A correction that says the old value and the new one."""


_NEW_VALUE = re.compile(r"\b(?:should be|to be|is now|change it to|make it|to)\s+(?P<value>[\w:. ]{1,20}?)\s*[.!]*$", re.I)


def _at_a_summary(reading: Reading) -> bool:
    """The agent shows what it has and asks whether it is right (the whole task, or a list of it)."""
    act = reading.question
    if isinstance(act, AskForConfirmation):
        return True
    instance = reading.state.instances.get(getattr(act, "instance", None) or "")
    f = reading.spec.tasks[instance.worksheet].fields.get(getattr(act, "field", None) or "") if instance else None
    return f is not None and f.type.kind == "confirm"


def propose(reading: Reading) -> list[Proposal]:
    """Matcher: changes of values given before, each scored as the value it gives plus the
    evidence that it is a change; the clauses saying them are theirs. Values said for each of
    several parts by naming the part ("4 for 229 and 3 for 231n") count as changes too."""
    scratch = reading.fresh()
    found = values_per_record(scratch) + corrections(scratch)
    if not found:
        return []
    said = frozenset().union(*(of_value(scratch, t.field, t.value, t.spans).claims for t in scratch.taken))
    tokens = reading.whole_tokens
    clauses = [(s, e) for s, e in extract.clause_spans(reading.text)
               if any(s <= tokens[i].start - reading.offset < e for i in said)] or [(0, len(reading.text))]
    extended = opened(scratch)
    changed = tuple(line.split(" = ", 1)[0] for line in found if " = " in line)
    return [proposal(scratch, "corrections", found + [s for s, _ in extended], CORRECTION * len(found),
                     claims=claims_of(reading, clauses), slots=frozenset(slot for _, slot in extended),
                     corrects=changed, phase=1)]


def corrections(reading: Reading) -> list[str]:
    """Statements that change values the user gave before; the fields changed count as taken."""
    out = _replacement(reading)
    at_a_summary = _at_a_summary(reading) and (AT_A_SUMMARY.match(reading.text) or extract.statements_of_value(
        reading.text) or _removed_labels(reading.text))
    if out or not (correcting(reading.text) or at_a_summary):
        return out
    family = _in_progress(reading.state)
    referred = _referred_part(reading, family)
    if referred is not None:  # "the second course should be 3 units": that course only
        family = [referred, *reading.state.descendants(referred)]
    filled = [(i, f) for i in family for f in reading.spec.tasks[i.worksheet].fields.values()
              if f.kind == "input" and i.values.get(f.name) not in (None, NA)]
    kinds = [f.type.kind for _, f in filled]
    named = _named(reading.text, [f for _, f in filled])
    latest = _latest_of_each_kind(filled) if not named else {}
    given_by_part = {(reading.state.instances[i].worksheet, name) for i, name in reading.assigned
                     if i in reading.state.instances}
    changes: list[tuple[WorksheetInstance, Field, Any]] = []
    for instance, f in filled:
        if f.name in reading.corrected or (instance.worksheet, f.name) in given_by_part:
            continue  # "the units for cs 236 should be 3" was read for that course
        if _said_wrong(reading.text, f) and not instance.actions_done:  # "the extra details is wrong": asked again
            out.append(reading.assign(instance, f, None))
            reading.corrected.add(f.name)
            continue
        if _said_removed(reading.text, f) and not instance.actions_done:  # "remove the extra details"
            out.append(reading.assign(instance, f, None if f.required else NA))
            reading.corrected.add(f.name)
            continue
        only = (kinds.count(f.type.kind) == 1 or latest.get(f.type.kind) is f) and (not named or f in named)
        value = _corrected_value(reading, f, instance, only_of_its_kind=only, named=f in named)
        # ("the time ... should be 9" is no party of 9; "sorry, the 18th" is the date given last)
        if value is not None and value != instance.values.get(f.name):
            changes.append((instance, f, value))
    for instance, f, value in _placed(reading, changes):
        out.append(reading.assign(instance, f, value))
        reading.corrected.add(f.name)
    return out


def _placed(reading: Reading, changes: list[tuple[WorksheetInstance, Field, Any]]) -> list[tuple[WorksheetInstance, Field, Any]]:
    """The changes, but one option said for two fields that both have it ("it should be palo alto" for
    the pick-up and the return branch): neither changes, and the user is asked which."""
    by_option: dict[tuple[str, str], list[Field]] = {}
    for instance, f, value in changes:
        if f.type.kind == "enum":
            by_option.setdefault((instance.name, str(value)), []).append(f)
    said = extract.content_words(reading.text)
    unplaced: set[int] = set()
    for fields in by_option.values():
        if len(fields) < 2:
            continue
        naming = {id(f): len(said & extract.content_words(f"{f.name.replace('_', ' ')} {label(f)}")) for f in fields}
        best = max(naming.values())
        if [n for n in naming.values()].count(best) == 1:  # "the pickup location should be palo alto"
            unplaced |= {id(f) for f in fields if naming[id(f)] < best}
            continue
        unplaced |= {id(f) for f in fields}
        named = join_words([f"the {label(f)[:1].lower()}{label(f)[1:]}" for f in fields], "or")
        reading.problem = f"Which should change: {named}?"
    return [(i, f, v) for i, f, v in changes if id(f) not in unplaced]


_WRONG = re.compile(r"\b(?:the|my)\s+(?P<label>[a-z][\w ]{1,40}?)\s+(?:is|are|was|were)\s+(?:wrong|incorrect|not right|"
                    r"a mistake|off)\s*[.!]*$|\bwrong\s+(?P<label2>[a-z][\w ]{1,40}?)\s*[.!]*$|"
                    r"\b(?:change|update|fix|edit|correct|modify)\s+(?:the|my)\s+(?P<label3>[a-z][\w ]{1,40}?)"
                    r"(?:\s+please)?\s*[.!?]*$", re.I)


def _said_wrong(text: str, f: Field) -> bool:
    """The message only says the field's value is wrong or to be changed, without the right one ("no,
    the extra details is wrong"; "wrong email"; "can I change the number of people?")."""
    match = _WRONG.search(text)
    if match is None:
        return False
    return _names_the_field(match.group("label") or match.group("label2") or match.group("label3"), f)


TYPO_SCORE = 80
_REMOVING_VERBS = ("remove", "delete", "erase", "clear", "scrap")
_REMOVED = re.compile(r"(?:\b(?:take out|get rid of|leave out|no need for|(?:there'?s|there is|i have|i've got)\s+no|"
                      r"(?:don'?t|do not) (?:need|want) (?:the|any|an?)|(?:didn'?t|did not|never) ask(?:ed)? for(?: an?)?)|"
                      r"^no)\s+(?:the\s+|my\s+|any\s+)?(?P<label>[a-z][\w ]{1,40}?)\s*(?:please)?[.!]*$", re.I)
_REMOVED_BY_VERB = re.compile(r"^(?:(?:no+|nope|nah)[,.!]*\s+)?(?P<verb>\w+)\s+(?:the\s+|my\s+|that\s+)?"
                              r"(?P<label>[a-z][\w ]{1,40}?)\s*(?:please)?[.!]*$", re.I)


def _said_removed(text: str, f: Field) -> bool:
    """The message asks to take the field's value out ("no remove the additional info", "there's no
    extra details", "no special request please"): an optional field is then declined, a required one
    asked again."""
    return any(_names_the_field(said, f) for said in _removed_labels(text))


def _removed_labels(text: str) -> list[str]:
    """What the message asks to take out, as it names it; a removing verb may be mistyped ("remoe")."""
    text = extract.normalise(text)
    said = _REMOVED.search(text)
    by_verb = _REMOVED_BY_VERB.search(text)
    if by_verb and process.extractOne(by_verb.group("verb"), _REMOVING_VERBS, scorer=fuzz.ratio,
                                      score_cutoff=TYPO_SCORE) is None:
        by_verb = None
    return [m.group("label") for m in (said, by_verb) if m is not None]


def _names_the_field(said: str, f: Field) -> bool:
    """Every word of ``said`` is a word of the field's name or label ("the extra details", "email")."""
    words = extract.content_words(said)
    named = extract.content_words(f"{f.name.replace('_', ' ')} {label(f)} {' '.join(f.synonyms)}")
    return bool(words) and words <= named | {"the", "my"}


def _replacement(reading: Reading) -> list[str]:
    """"change CS 229 to CS 230", "I meant CS 108, not 107": the field whose value is the old one takes the new one."""
    for pattern in REPLACEMENTS:
        match = pattern.search(reading.text)
        replaced = _replaced(reading, match) if match is not None else None
        if replaced is not None:
            return replaced
    return []


def _replaced(reading: Reading, match: re.Match) -> list[str] | None:
    old = extract.normalise(match.group("old")).strip(" '\"")
    return _replaced_value(reading, match, old) or _replaced_field(reading, match, old)


def _replaced_field(reading: Reading, match: re.Match, old: str) -> list[str] | None:
    """"change the note to please hurry", "change the description to: water is coming through the ceiling":
    the field the words before "to" name (its label, its name, a synonym) takes what follows."""
    said = match.group("new").strip(" :-")
    for instance in _in_progress(reading.state):
        if instance.actions_done:
            continue
        for f in reading.spec.tasks[instance.worksheet].fields.values():
            if f.kind == "input" and f.type.kind != "confirm" and _names_the_field(old, f):
                new = typed(reading, f, said, whole_answer=True, instance=instance)
                if new is None:
                    return None
                reading.used.append(match.span())
                reading.corrected.add(f.name)
                return [reading.assign(instance, f, new)]
    return None


def _replaced_value(reading: Reading, match: re.Match, old: str) -> list[str] | None:
    for instance in _in_progress(reading.state):
        ws = reading.spec.tasks[instance.worksheet]
        for f in ws.fields.values():
            if f.kind == "input" and _names(instance.values.get(f.name), old):
                reading.used.append(match.span("old"))  # the old value names no new one
                said = _last_said(match.group("new"))
                counted = _counted_field(ws.fields.values(), said) or _chosen_option(ws.fields.values(), said, f)
                if counted is not None:  # "change cs 231n to 3 units", "... to credit/no credit": that course's
                    f, new = counted
                else:
                    new = typed(reading, f, said, whole_answer=True, instance=instance)
                reading.corrected.add(f.name)
                return [] if new is None else [reading.assign(instance, f, new)]
    return None


def _chosen_option(fields: Any, text: str, replaced: Field) -> tuple[Field, Any] | None:
    """The other enum field of the record the text names an option of ("credit/no credit" for the
    grading), when the field whose value was named is no enum: the course keeps its name."""
    if replaced.type.kind == "enum":
        return None
    named = [(g, enums.enum_value(text, g, explicit=True)) for g in fields if g.type.kind == "enum" and g.kind == "input"]
    named = [(g, member) for g, member in named if member is not None]
    return named[0] if len(named) == 1 else None


def _last_said(text: str) -> str:
    """What a message settles on when it corrects itself: "3 units... no actually 4 units" says 4 units."""
    parts = [p for p in _SELF_CORRECTION.split(text) if p and p.strip(" .,!")]
    return parts[-1].strip() if parts else text


_SELF_CORRECTION = re.compile(r"\.\.\.|\b(?:no,? actually|actually|i mean|sorry|make that|or rather|rather)\b", re.I)


def _counted_field(fields: Any, text: str) -> tuple[Field, Any] | None:
    """A number field the text counts ("4 units"), with its number."""
    for g in fields:
        if g.kind == "input" and g.type.kind in ("int", "float"):
            number = extract.number_with_noun(text, g)
            if number is not None:
                return g, int(number) if g.type.kind == "int" and float(number).is_integer() else number
    return None


def _referred_part(reading: Reading, family: list[WorksheetInstance]) -> WorksheetInstance | None:
    """The part of the task the message names by its label ("the second course") or by a code it
    holds ("the grade option for cs 242": the course whose name is CS 242)."""
    for instance in family:
        for g in reading.spec.tasks[instance.worksheet].fields.values():
            child = reading.state.resolve(instance.values.get(g.name)) if g.type.ref in reading.spec.tasks else None
            words = label(g).lower()
            said = re.search(rf"\b{re.escape(words).replace(chr(92) + ' ', chr(92) + 's+')}\b", reading.text, re.I) \
                if isinstance(child, WorksheetInstance) and " " in words else None
            if said is not None:
                reading.used.append(said.span())  # "the second course": "second" is no number of units
                return child
    coded = [(i, span) for i in family if i.parent for value in i.values.values() for span in [_code_in(value, reading.text)]
             if span is not None]
    if len({i.name for i, _ in coded}) != 1:
        return None
    reading.used.append(coded[0][1])  # "cs 103" names the course: 103 is no number of units
    return coded[0][0]


def _code_in(value: Any, text: str) -> tuple[int, int] | None:
    """Where ``text`` says the code ``value`` is ("cs242" or "CS 242" for "cs 242": letters and digits), or None."""
    if isinstance(value, dict):
        value = value.get("name") or value.get("title")
    if not isinstance(value, str) or not re.search(r"[a-z]", value, re.I) or not re.search(r"\d", value):
        return None
    spaced = r"\W*".join(map(re.escape, re.sub(r"\W", "", value.lower())))
    found = re.search(rf"(?<![a-z0-9]){spaced}(?![a-z0-9])", text, re.I)
    return found.span() if found else None


def _names(value: Any, text: str) -> bool:
    """Whether ``text`` is how the user would refer to ``value`` ("cs 229" for "CS 229", a record by name)."""
    if isinstance(value, dict):
        value = value.get("name") or value.get("title")
    if not isinstance(value, str):
        return False
    said, held = re.sub(r"\W", "", text), re.sub(r"\W", "", value.lower())
    return said == held or (len(said) >= 3 and any(c.isdigit() for c in said) and held.endswith(said))  # "107" of "cs 107"


def _held_elsewhere(reading: Reading, f: Field, instance: WorksheetInstance) -> bool:
    """The message names a record that an instance of the worksheet holds ("the units for cs 242"
    while cs 242 is the first course): it says which part, it replaces nothing."""
    table = table_of(reading.spec, f)
    held = [i.values.get(f.name) for i in reading.state.of_worksheet(instance.worksheet, open_only=False)
            if i.values.get(f.name) not in (None, NA)]  # its own record too: named again, it is no change
    names = reading.knowledge.record_names(table) if reading.knowledge is not None and table else None
    if names is None or table is None:
        return False
    held_records = [h if isinstance(h, dict) else next((m.record for m in names.find(str(h))), None) for h in held]
    return any(m.record in held_records for m in reading.mentions(table))


def _in_progress(state: DialogueState) -> list[WorksheetInstance]:
    """Open tasks and everything nested in them (a course already finished included), most recent first."""
    roots = [i for i in state.instances.values() if i.open and not i.parent]
    family = {i.name: i for root in roots for i in (root, *state.descendants(root))}
    return sorted(family.values(), key=lambda i: -i.touched)


def _named(text: str, fields: list[Field]) -> list[Field]:
    """The fields the text names; of several of one kind named by a word they share ("day" of the
    first and the last day), those it names by a word of their own ("first")."""
    named = [f for f in fields if extract.mentions(text, f)]
    out = []
    for f in named:
        kin = [g for g in named if g is not f and g.type.kind == f.type.kind]
        own = extract.name_words(f) - set().union(*(extract.name_words(g) for g in kin)) if kin else None
        if own is None or any(extract.mentions(text, Field(w, f.type)) for w in own):
            out.append(f)
    return out


_SAID_KINDS = ("date", "datetime")
"""Kinds of values a message says unmistakably ("the 18th"): a correction naming no field is of the field of
that kind given last (a bare number or hour could be of any kind, and is not guessed)."""


def _latest_of_each_kind(filled: list[tuple[WorksheetInstance, Field]]) -> dict[str, Field]:
    """For each kind of value said plainly, the field of the most recently touched instance given one last."""
    out: dict[str, Field] = {}
    for kind in _SAID_KINDS:
        of_kind = [(i, f) for i, f in filled if f.type.kind == kind]
        if len(of_kind) < 2:
            continue
        latest = max(i.touched for i, _ in of_kind)
        here = [(i, f) for i, f in of_kind if i.touched == latest]
        out[kind] = max(here, key=lambda p: p[0].changed.index(p[1].name) if p[1].name in p[0].changed else -1)[1]
    return out


def _corrected_value(reading: Reading, f: Field, instance: WorksheetInstance, only_of_its_kind: bool,
                     named: bool) -> Any:
    """The new value the message gives a field that has one: only when the message names the
    field or gives a value only that kind of field takes."""
    text, kind = reading.text, f.type.kind
    said_by_name, named = named, named or only_of_its_kind
    if table_of(reading.spec, f) is not None:  # a record another part holds is named to refer to it
        return None if _held_elsewhere(reading, f, instance) else record_value(reading, f)
    if kind == "enum":  # "wrong" in "the email is wrong" is no member Wrong Credits
        return enums.mentioned_enum_value(text, f, explicit=not named)
    if kind in ("int", "float"):  # "make it 5" when only one field counts something
        text = reading.masked()  # not the 103 of "cs 103"
        bare = only_of_its_kind and not dates.mentions_date(text) and not dates.find_times(text)  # not "december 3"
        number = extract.number_with_noun(text, f) or (extract.number_for(text, f) if bare else None)
        return None if number is None else (int(number) if kind == "int" and float(number).is_integer() else number)
    if kind in ("date", "time", "datetime"):
        found = dates.find_times(text) if kind == "time" else dates.find_dates(text, reading.today)
        if found and named:
            return typed(reading, f, text, whole_answer=False, instance=instance)
        new = _NEW_VALUE.search(text) if said_by_name else None  # "the time ... should be 9"
        return typed(reading, f, new.group("value"), whole_answer=True, instance=instance) if new else None
    if kind == "str" and has_pattern(f):
        values = extract.pattern_values(text, pattern_of(f))
        return values[0] if values else None
    if is_free_text(f):
        return stated_values(reading).get(f.name)
    return None
