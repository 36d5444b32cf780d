"""Slot mappings: which entities fill which fields, and when.

Every field has a class (:func:`field_class`: an option, a record, a date, an amount of money, a
count, a code, an email, a phone number, a person's name, an address, free text...). For each
class, :data:`SLOT_MAPPINGS` lists what fills it and when, as Rasa's slot mappings do:

- ``always``: the entity is evidence enough to fill the field, asked or not ("$1,250" is the
  amount, "DC-10482" the reference, "uber" the category);
- ``asked``: only for the field the agent just asked for, or one the message names in the same
  clause ("the note is ..."): free text, a bare number, a bare hour, yes or no, words of an option's
  description.

:func:`candidates` applies the table to a target field and returns every value the message gives
it, with the evidence for each (features the resolver weighs: how the value is said, whether the
field was asked or named, whether it holds a value already). The table is also written out in
docs/how-the-bot-talks.md ("Which words fill which fields").
"""

from __future__ import annotations

import datetime as dt
import re
from dataclasses import dataclass, field, replace
from typing import Any

from rapidfuzz import fuzz, process

from ...language import english
from ...language.tokens import normalise, phrase_pattern
from ...language.words import active, content_words, part_of_day, stem
from ...spec import NA, Field
from .analysis import dates as date_reader
from .analysis.acts import NO, YES, core, yes_or_no
from .analysis.model import (ADDRESS, AMOUNT, CHANGE, CODE, DATE, DURATION, EMAIL, IDENTIFIER, NAME, NUMBER, OPTION, PHONE,
                             RECORD, TIME, Entity, FieldMention)
from .analysis.names import SELF
from .analysis.people import PEOPLE, uncounted
from .context import Context, Target
from .parts import parts
from .predicates import needs
from .field_classes import (_says, ACCOUNT, ADDRESS_FIELD, BOOL, CODE_FIELD, CONFIRM, COUNT, DATE_FIELD, DATETIME_FIELD,
                            EMAIL_FIELD, ENUM, ENUM_LIST, LOOSE_CODE, MONEY, OTHER_LIST, PERSON, PHONE_FIELD,
                            RECORD_FIELD, RECORD_LIST, RECORD_NAME, TEXT, THING_NAME, TIME_FIELD,
                            expects_capitalised_text, field_class)
from .spec_index import SpecIndex, listed_phrases
from .records import named_by_values
from .text import NAMED_BY_DESCRIPTION, answer_instead, is_an_answer, named_text, reply_text

# -- what fills them ---------------------------------------------------------------------------------------
ALWAYS = "always"
ASKED = "asked"
"""Only for the field just asked, or one the message names in the clause that gives the value."""
ASKED_ONLY = "asked only"
"""Only for the field just asked."""
UNASKED = "unasked"
"""Only for fields not just asked (the asked one takes the reply whole)."""
ASKED_OR_BENEATH = "asked or beneath"
"""For the field just asked, or one that the answer to it opens ("the class is full" answers what the student
needs help with and says which enrollment problem)."""

# sources that are not entity kinds
YES_NO = "yes or no"
DESCRIBED = "described"
RESTATED = "restated"
WHOLE_REPLY = "whole reply"
NAMED_TEXT = "named text"
HOUR = "bare hour"
COUNTED = "counted"
CURRENCY = "currency"
LISTED_CHOICE = "listed choice"
ONLY_COUNT = "only count"
SAME = "same"
BY_VALUES = "by values"
CARRIED = "carried over"
NUMBERED_OPTION = "numbered option"
LENGTH_AFTER = "length after a date"
INSTEAD = "instead of a yes or no"
IN_RANGE = "number in a member's range"
OTHERWISE = "otherwise"
ONLY_FORMAT = "only format"


@dataclass(frozen=True)
class SameAs:
    """The value another field holds, or is given in the same message ("back dec 9, same place")."""

    key: str
FOCUS = "focus"


_NAMED_TEXT = ("text the message says by naming the field: after its name (“the note is …”), with a word its "
               "description gives as an example, right after a word of its description (“the refund for order A-107”), "
               "or in its role (“switch from cs 106b to cs 106x”)")


_INSTEAD = ("for a field never asked (`dont_ask`), the reply to a yes-or-no question of its task that says neither "
            "yes nor no (“cesium?” to “another question?”: the player's next answer)")


_CARRIED = ("the value a finished task of this conversation holds in a field of the same name, pointed at "
            "(“the status of my order” right after placing one)")


@dataclass(frozen=True)
class Rule:
    source: str
    when: str
    says: str


SLOT_MAPPINGS: dict[str, tuple[Rule, ...]] = {
    ENUM: (Rule(OPTION, ALWAYS, "an option by its name, a synonym the builder declared, or a phrase its description lists"),
           Rule(DURATION, ALWAYS, "a length of time that one member is (“an hour” for “60 min”)"),
           Rule(NUMBERED_OPTION, ASKED, "a bare number that starts the names of one member only (“30” for “30 min”)"),
           Rule(CURRENCY, ALWAYS, "the currency an amount is written in (“$40” for USD)"),
           Rule(YES_NO, ASKED, "yes or no, to a choice between X and Not X"),
           Rule(DESCRIBED, ASKED_OR_BENEATH, "words that only one member's description has"),
           Rule(IN_RANGE, ASKED, "a number within the range of numbers one member's description gives (“about 20 "
                                 "people” for “serves 18 to 24 people”)"),
           Rule(SAME, ALWAYS, "“same place”, “the same”: what the other field with these options holds"),
           Rule(OTHERWISE, ASKED_ONLY, "a remark that names no member, for the member whose description says it is "
                                       "taken “otherwise” (“this place looks so dirty” at the directions: go on)")),
    ENUM_LIST: (Rule(OPTION, ALWAYS, "every option named"),),
    RECORD_FIELD: (Rule(RECORD, ALWAYS, "a record by its name, a short name only it has, or its name misspelt"),
                   Rule(LISTED_CHOICE, ASKED, "one of the records just listed, by its place or what only it has"),
                   Rule(BY_VALUES, ALWAYS, "a record of a table without names, by values only it has (“a corolla”)"),
                   Rule(FOCUS, ALWAYS, "“it”, “that place”: the record the conversation is about")),
    RECORD_LIST: (Rule(RECORD, ALWAYS, "every record named"),),
    RECORD_NAME: (Rule(RECORD, ALWAYS, "a record's name, as written"),
                  Rule(FOCUS, ALWAYS, "“that one”, “it”: the name of the record the conversation is about"),
                  Rule(WHOLE_REPLY, ASKED, "a name the table does not have")),
    BOOL: (Rule(YES_NO, ASKED, "yes or no"),
           Rule(RESTATED, ALWAYS, "the field said back (“i'm a new patient”, “not an emergency”), or “no” with a "
                                  "thing only its description names (“no dogs”)")),
    CONFIRM: (Rule(YES_NO, ASKED, "yes or no"),),
    DATE_FIELD: (Rule(DATE, ALWAYS, "a date, absolute or relative (“3 days ago”, “last night”, “the 3rd”)"),
                 Rule(SAME, ALWAYS, "“the same day”: what the other date of the task holds"),
                 Rule(LENGTH_AFTER, ALWAYS, "for a date declared after another date of the task, a length of days "
                                            "counted from a date said with it (“from tomorrow for two weeks”, “3 "
                                            "nights starting the 19th”) or from the earlier date the task holds "
                                            "(“just 2 nights”): its last day, or the morning after the last night")),
    TIME_FIELD: (Rule(TIME, ALWAYS, "a time of day"), Rule(HOUR, ASKED, "a bare hour (“7”)")),
    DATETIME_FIELD: (Rule(DATE, ALWAYS, "a date, with the time said beside it"),),
    MONEY: (Rule(AMOUNT, ALWAYS, "an amount of money (“$1,250”, “twelve hundred euros”, “3k”)"),
            Rule(NUMBER, ASKED, "a bare number")),
    COUNT: (Rule(COUNTED, ALWAYS, "a number beside what the field counts (“3 units”, “x2”), or the people listed"),
            Rule(NUMBER, ASKED, "a bare number"),
            Rule(INSTEAD, ALWAYS, _INSTEAD),
            Rule(ONLY_COUNT, ALWAYS, "the one number no other value explains, when no other field counts anything "
                                     "(“a table for 4”)")),
    CODE_FIELD: (Rule(CODE, ALWAYS, "a value of its declared format with a letter or sign of its own (“DC-10482”)"),
                 Rule(CARRIED, ALWAYS, _CARRIED)),
    LOOSE_CODE: (Rule(CODE, ASKED, "a value of its declared format that is only digits (“4471”)"),
                 Rule(ONLY_FORMAT, ALWAYS, "digits only its declared format fits, of all the fields the open tasks "
                                           "have, when none of them counts or costs anything (“Katarina Miller "
                                           "351531510” gives the account number)"),
                 Rule(CARRIED, ALWAYS, _CARRIED)),
    EMAIL_FIELD: (Rule(EMAIL, ALWAYS, "an email address"),),
    PHONE_FIELD: (Rule(PHONE, ALWAYS, "a phone number"), Rule(CODE, ASKED, "digits of its declared format")),
    PERSON: (Rule(NAME, ALWAYS, "a name the user gives as theirs or someone's (“im Jenna Ortiz”, “my daughter Emma Ruiz”)"),
             Rule(WHOLE_REPLY, ASKED, "a reply that reads as a name")),
    THING_NAME: (Rule(NAME, ALWAYS, "a name said after what it names (“my dog rex”) or capitalised (“Biscuit”)"),
                 Rule(WHOLE_REPLY, ASKED, "a reply that reads as a name")),
    ADDRESS_FIELD: (Rule(ADDRESS, ALWAYS, "a street address (“88 harbor view dr”)"),
                    Rule(WHOLE_REPLY, ASKED_ONLY, "the reply, as written"),
                    Rule(NAMED_TEXT, UNASKED, _NAMED_TEXT)),
    ACCOUNT: (Rule(WHOLE_REPLY, ASKED_ONLY, "the reply, every word kept"),
              Rule(NAMED_TEXT, UNASKED, _NAMED_TEXT)),
    TEXT: (Rule(WHOLE_REPLY, ASKED_ONLY, "the reply, without the words of other values"),
           Rule(NAMED_TEXT, UNASKED, _NAMED_TEXT),
           Rule(INSTEAD, ALWAYS, _INSTEAD)),
    OTHER_LIST: (),
}
"""The slot mappings (see the module docstring)."""


# -- candidates ----------------------------------------------------------------------------------------------
@dataclass(frozen=True)
class Candidate:
    """A value the message gives a target, the words it is said with, and the evidence for it."""

    target: Target
    value: Any
    spans: tuple[tuple[int, int], ...]
    features: frozenset[str]
    problem: str | None = None
    """Why the field refuses the value (said to the user, who is asked again), or None."""
    listed: tuple[str, ...] = ()
    """Records to show the user to choose from (a name several records share), as ``answer(...)`` statements."""
    extra: dict = field(default_factory=dict, compare=False, hash=False)
    naming: tuple[tuple[int, int], ...] = ()
    """The words of the clause that name the field ("my email is"): the value's words too, so that no other
    reading takes them ("email" is then no option of another field). Not the thing a number counts ("2 chicken
    burgers"): those words may be a value of their own."""


def candidates(ctx: Context, target: Target, as_asked: bool = False) -> list[Candidate]:
    """Every value the message gives ``target``, by the rules of its field's class (``as_asked``: the message
    is known to be about this field, as if it had been asked: "52 not 45" says which field by its old value)."""
    cls = field_class(target.field, ctx.index)
    asked = as_asked or (ctx.asked is not None and ctx.asked.key == target.key) or _asked_of_its_part(ctx, target)
    out: list[Candidate] = []
    mentioned = mention_of(ctx, target) is not None
    for rule in SLOT_MAPPINGS.get(cls, ()):
        if (rule.when == ASKED and not (asked or mentioned)) or (rule.when == ASKED_ONLY and not asked) or (
                rule.when == UNASKED and asked) or (rule.when == ASKED_OR_BENEATH and not (asked or _beneath_asked(ctx, target))):
            continue
        for found in _READERS[rule.source](ctx, target, cls):
            naming = _naming_in_clause(ctx, target, found.spans)
            named = naming is not None or NAMED_BY_DESCRIPTION in found.features
            if rule.when == ASKED and not (asked or named):
                continue
            features = {f"{cls}<-{rule.source}", *found.features}
            beneath = not asked and rule.when == ASKED_OR_BENEATH
            features |= {"asked"} if asked else {"beneath the question asked"} if beneath else set()
            features |= {"named"} if named else set()
            features |= set() if asked or named or beneath else {"volunteered"}
            if "volunteered" in features and not target.field.required and cls in _SAID_FOR_ANYTHING and not \
                    _all_the_message_says(ctx, found.spans):
                continue  # "ill grab it tomorrow morning" gives no optional last day: a day is said for many reasons
            if any(e.in_question and any(e.start < end and start < e.end for start, end in found.spans)
                   for e in ctx.analysis.entities):
                features.add("said in a question")
            features |= _state_features(ctx, target, found.value)
            out.append(Candidate(target, found.value, found.spans, frozenset(features), found.problem, found.listed,
                                 found.extra, ((naming.start, naming.end),) if naming and naming.how != "noun" else ()))
    return out


_SAID_FOR_ANYTHING = (DATE_FIELD, TIME_FIELD, DATETIME_FIELD)
"""Classes whose values a message says for reasons of its own: an optional field of them takes one only when asked,
named or said in its role."""


def _asked_of_its_part(ctx: Context, target: Target) -> bool:
    """The field asked of one part, in another part the message names ("4 for 229 and 3 for 231n" while the
    units of one course are asked: 4 is the other course's)."""
    asked = ctx.asked
    return asked is not None and (asked.worksheet, asked.field.name) == (target.worksheet, target.field.name) \
        and any(target.owner in p.owners for p in parts(ctx))


def _beneath_asked(ctx: Context, target: Target) -> bool:
    """Every way the field comes to apply goes through the value of the field just asked."""
    asked = ctx.asked
    return asked is not None and bool(target.needs) and all(
        any((owner, name) == (asked.owner, asked.field.name) for owner, name, _ in way) for way in target.needs)


def _state_features(ctx: Context, target: Target, value: Any) -> set[str]:
    out = set()
    held = ctx.value_of(target)
    if not target.exists:
        out.add("new task" if target.new_task else "new part")
    elif held not in (None, NA):
        out.add("same value" if _same(held, value) or _same_record(ctx, target, held, value) else "changes a value")
    if ctx.at_summary:
        out.add("at a summary")
    return out


def _same(held: Any, value: Any) -> bool:
    if isinstance(held, dict) and isinstance(value, dict):
        return held == value or (held.get("name") is not None and held.get("name") == value.get("name"))
    if isinstance(held, str) and isinstance(value, str):
        return normalise(held) == normalise(value)
    return held == value


def _same_record(ctx: Context, target: Target, held: Any, value: Any) -> bool:
    """Two names of one record ("cs 221" and "artificial intelligence: principles and techniques")."""
    table = ctx.index.table_of(target.field)
    if table is None or ctx.knowledge is None or not isinstance(held, str) or not isinstance(value, str):
        return False
    return bool(_records_named(ctx, table, held) & _records_named(ctx, table, value))


def _records_named(ctx: Context, table: str, name: str) -> frozenset[str]:
    return frozenset(repr(sorted(m.record.items())) for m in ctx.knowledge.record_names(table).find(name)
                     if m.start == 0 and m.end == len(name))


def _naming_in_clause(ctx: Context, target: Target, spans: tuple[tuple[int, int], ...]) -> FieldMention | None:
    """Where the clause that says the value names the field ("my email is", "3 units", "gate code 4471")."""
    if not spans:
        return None
    start, end = ctx.analysis.clause_of(spans[0][0])
    before = [clause for clause in ctx.analysis.clauses if clause[1] <= start]
    if before and _BACK_REFERENCE.match(ctx.text, start):  # "I just remembered my PIN. It is 5380."
        start = before[-1][0]
    return next((m for m in ctx.analysis.fields if m.field == target.field.name and m.worksheet == target.worksheet
                 and start <= m.start < end and not (spans[0][0] <= m.start < spans[0][1])), None)


_BACK_REFERENCE = re.compile(rf"(?:{phrase_pattern(english.BACK_REFERENCES)})\s", re.I)


@dataclass(frozen=True)
class Found:
    value: Any
    spans: tuple[tuple[int, int], ...]
    features: tuple[str, ...] = ()
    problem: str | None = None
    listed: tuple[str, ...] = ()
    extra: dict = field(default_factory=dict, compare=False, hash=False)


def _usable(ctx: Context, *kinds: str) -> list[Entity]:
    """Entities of these kinds the message gives, or asks about (the evidence says which)."""
    return [e for e in ctx.analysis.entities if e.kind in kinds and not (e.retracted or e.negated)]


def _typed(ctx: Context, target: Target, entity: Entity, readings: tuple[Any, ...], *features: str) -> Found:
    """A value with readings (a date, a time): the first the field accepts, else the first and why not."""
    value, accepted = ctx.first_accepted(target, readings)
    problem = None if accepted else ctx.problem(target, value)
    if entity.vague and entity.kind == DATE and problem is None:  # a vague day the field refuses anyway: say why
        return Found(value, (entity.span,), (*features, "vague"),
                     f"Which day exactly? “{entity.text}” is more than one day (an approximate day is fine).")
    return Found(value, (entity.span,), (*features, *(("vague",) if entity.vague else ())), problem)


def _checked(ctx: Context, target: Target, value: Any, spans: tuple[tuple[int, int], ...], *features: str) -> Found:
    return Found(value, spans, features, ctx.problem(target, value))


# -- readers, one per source ------------------------------------------------------------------------------------
def _options(ctx: Context, target: Target, cls: str) -> list[Found]:
    f = target.field
    hits = [(e, h) for e in _usable(ctx, OPTION) for h in e.value if h.worksheet == target.worksheet and h.field == f.name]
    if cls == ENUM_LIST:
        members = list(dict.fromkeys(h.member for _, h in hits))
        if not members:
            return []
        spans = tuple(e.span for e, _ in hits)
        naming = ("the words name another field",) if all(_names_a_field(ctx, e, target, h.member) for e, h in hits) \
            else ()
        return [Found(members, spans, (*(f"option by {h.how}" for _, h in hits[:1]), *naming))]
    sharing = lambda e: len({(h.worksheet, h.field) for h in e.value}) > 1  # noqa: E731
    return [_checked(ctx, target, h.member, (e.span,), f"option by {h.how}",
                     *(("shared by fields",) if sharing(e) else ()), *_coverage(ctx, e, h.member, h.how),
                     *(("the words name another field",) if _names_a_field(ctx, e, target, h.member) else ()),
                     *(("option said by a common word",) if _common_words(e.text) and not _the_whole_reply(ctx, e)
                       else ()),
                     *(("the verb of a change to another field",) if _verb_of_a_change(ctx, e, target) else ()))
            for e, h in hits]


_DETERMINERS = re.compile(rf"\s+(?:(?:{phrase_pattern((*english.POSSESSORS, *english.DEMONSTRATIVES))})\s+)?")


def _verb_of_a_change(ctx: Context, e: Entity, target: Target) -> bool:
    """The option's word is the verb of changing another field ("change the quarter to spring" changes the
    quarter; it names no Change Course)."""
    if e.text.lower() not in english.REPLACING_VERBS:
        return False
    gap = _DETERMINERS.match(ctx.text, e.end)
    start = gap.end() if gap else e.end
    return any(m.start == start and (m.worksheet, m.field) != (target.worksheet, target.field.name)
               for m in ctx.analysis.fields)


def _all_the_message_says(ctx: Context, spans: tuple[tuple[int, int], ...]) -> bool:
    """The value is the whole message, but for courtesy ("4 pm", "3pm please")."""
    return len(spans) == 1 and core(ctx.text) == core(ctx.text[spans[0][0]:spans[0][1]])


def _the_whole_reply(ctx: Context, e: Entity) -> bool:
    """The option's words are all the reply says ("yes please" for a member described with "yes"): chosen
    as the answer, not said in passing."""
    return core(ctx.text) == core(e.text)


def _common_words(said: str) -> bool:
    """Every word is a common word of the language ("other" in "my other work order")."""
    words = said.lower().split()
    return bool(words) and all(w in english.STOP_WORDS or w in english.SENTENCE_WORDS or w in english.THE_REST
                               for w in words)


def _names_a_field(ctx: Context, e: Entity, target: Target, member: str | None = None) -> bool:
    """The option's words name another field ("my email is ..." names the email, not the Email option); a field
    the member itself opens is no other field ("the waitlist" names Join Waitlist and the waitlist form it opens)."""
    opened = _opened_by(ctx, target, member) if member is not None else frozenset()
    return any(m.start <= e.start and e.end <= m.end and (m.worksheet, m.field) != (target.worksheet, target.field.name)
               and (m.worksheet, m.field) not in opened for m in ctx.analysis.fields)


def _opened_by(ctx: Context, target: Target, member: str) -> frozenset[tuple[str, str]]:
    """The fields that apply once ``target`` holds ``member``, with every field of the forms they hold."""
    ws = ctx.spec.tasks.get(target.worksheet)
    if ws is None:
        return frozenset()
    out: set[tuple[str, str]] = set()
    for f in ws.fields.values():
        if any((target.field.name, member) in way for way in needs(f) or ()):
            out.add((ws.name, f.name))
            nested = ctx.spec.tasks.get(f.type.referenced() or "")
            if nested is not None:
                out.update((nested.name, g) for g in nested.fields)
    return frozenset(out)


def _coverage(ctx: Context, e: Entity, member: str, how: str) -> tuple[str, ...]:
    """For an option named by one word of its name: whether the clause says the member's other words too
    ("my AP credits are missing" says both words of Missing Credits, one of Scores Not Received)."""
    if how != "name word":
        return ()
    start, end = ctx.analysis.clause_of(e.start)
    said = content_words(ctx.text[start:end])
    words = content_words(member)
    return ("every word of the member said",) if words and words <= said else ("one word of the member said",)


def _durations(ctx: Context, target: Target, cls: str) -> list[Found]:
    members = _member_minutes(ctx, target.field)
    out = []
    for e in _usable(ctx, DURATION):
        matching = [m for m, minutes in members.items() if abs(minutes - e.value) < 1e-6]
        if len(matching) == 1:
            out.append(_checked(ctx, target, matching[0], (e.span,), "option by length"))
    return out


def _numbered_options(ctx: Context, target: Target, cls: str) -> list[Found]:
    members = _members_by_number(ctx, target.field)
    return [_checked(ctx, target, next(iter(members[e.value])), (e.span,), "option by its number")
            for e in _usable(ctx, NUMBER) if len(members.get(e.value, ())) == 1]


def _members_by_number(ctx: Context, f: Field) -> dict[float, set[str]]:
    """The members whose name or a synonym starts with each number ("30 min", "30 minutes": 30)."""
    cache = ctx.index.cache.setdefault("numbered", {})
    if id(f) not in cache:
        found: dict[float, set[str]] = {}
        for member in f.values:
            for phrase in (member, *f.value_synonyms.get(member, ())):
                leading = _LEADING_NUMBER.match(phrase)
                if leading:
                    found.setdefault(float(leading.group(1)), set()).add(member)
        cache[id(f)] = found
    return cache[id(f)]


_LEADING_NUMBER = re.compile(r"\s*(\d+(?:\.\d+)?)(?![\d.])")


def _member_minutes(ctx: Context, f: Field) -> dict[str, float]:
    """The length of time each member is, when it is one ("30 min", "an hour")."""
    cache = ctx.index.cache.setdefault("minutes", {})
    if id(f) not in cache:
        found: dict[str, float] = {}
        for member in f.values:
            for phrase in (member, *f.value_synonyms.get(member, ())):
                lengths = [e.value for e in date_reader.find(phrase, ctx.today) if e.kind == DURATION]
                if len(lengths) == 1:
                    found.setdefault(member, lengths[0])
        cache[id(f)] = found
    return cache[id(f)]


def _currencies(ctx: Context, target: Target, cls: str) -> list[Found]:
    out = []
    for e in _usable(ctx, AMOUNT):
        said = e.value.currency_text.lower()
        for member in target.field.values:
            names = {member.lower(), *(s.lower() for s in target.field.value_synonyms.get(member, ()))}
            if said and (said in names or (e.value.currency or "").lower() in names):
                at = e.text.lower().find(said)
                span = (e.start + at, e.start + at + len(said)) if at >= 0 else e.span
                out.append(_checked(ctx, target, member, (span,), "option by currency"))
                break
    return out


def _yes_no(ctx: Context, target: Target, cls: str) -> list[Found]:
    said = ctx.analysis.whole.get("affirm") and True or (False if ctx.analysis.whole.get("deny") else None)
    if said is None:
        said = yes_or_no(ctx.text)
    if said is None:
        said = _done_or_not(ctx.text)
    if said is None and cls == BOOL and _offers_more_help(target.field) and (
            ctx.analysis.whole.get("thanks") or ctx.analysis.whole.get("nothing_more")):
        said = False  # "thank you" to "anything else I can do for you?"
    if said is None:
        return []
    cues = [c for c in ctx.analysis.cues if c.act in ("affirm", "deny")]
    span = ((cues[0].start, cues[0].end),) if cues and len(ctx.text.split()) > 3 else ((0, len(ctx.text)),)
    if cls == ENUM:
        pair = _opposite_pair(target.field)
        if pair is not None:
            return [_checked(ctx, target, pair[0] if said else pair[1], span, "yes or no")]
        member = _member_listing(target.field, YES if said else NO, english.YES_PHRASES[0] if said else english.NO_PHRASES[0])
        return [] if member is None else [_checked(ctx, target, member, span, "yes or no")]
    changed = cls == CONFIRM and said is False and (
        any(c.act == CHANGE for c in ctx.analysis.cues) or any(e.usable for e in ctx.analysis.entities))
    return [Found(said, span, ("yes or no", *(("no with the change to make",) if changed else ())))]


_DID = re.compile(rf"^(?:(?:i|we)\s+)?(?:already\s+)?{phrase_pattern(english.DONE_BEFORE)}(?:\s+(?:it|that|so))?(?:\s+already)?$")
_NOT_YET = re.compile(rf"^(?:no,?\s+)?not yet$|^(?:(?:i|we)\s+)?{phrase_pattern(english.NEGATIONS)}(?:\s+(?:yet|it))?$")


def _done_or_not(text: str) -> bool | None:
    """Yes or no said with a verb alone ("already did", "I have", "not yet", "I haven't")."""
    t = normalise(text).strip(" .!?")
    return True if _DID.match(t) else False if _NOT_YET.match(t) else None


def _in_a_members_range(ctx: Context, target: Target, cls: str) -> list[Found]:
    """The one member whose description gives a range of numbers the number said is in."""
    ranges = {m: [(float(a), float(b)) for a, b in _RANGE.findall(target.field.value_descriptions.get(m, ""))]
              for m in target.field.values}
    out = []
    for e in _usable(ctx, NUMBER):
        members = [m for m, spans in ranges.items() if any(low <= e.value <= high for low, high in spans)]
        if len(members) == 1:
            out.append(_checked(ctx, target, members[0], (e.span,), "number in the member's range"))
    return out


_RANGE = re.compile(rf"(\d+(?:\.\d+)?)\s*(?:{phrase_pattern(english.RANGE_ENDS)}|[-–])\s*(\d+(?:\.\d+)?)", re.I)


def _taken_otherwise(ctx: Context, target: Target, cls: str) -> list[Found]:
    """The member the builder describes as the answer to anything else, for a remark that names no member."""
    members = [m for m in target.field.values if _OTHERWISE.search(target.field.value_descriptions.get(m, ""))]
    named = any(h.field == target.field.name for e in _usable(ctx, OPTION) for h in e.value)
    if len(members) != 1 or named or not is_an_answer(ctx) or yes_or_no(ctx.text) is not None:
        return []
    return [_checked(ctx, target, members[0], ((0, len(ctx.text)),), "a remark, the member taken otherwise")]


_OTHERWISE = re.compile(phrase_pattern(english.OTHERWISE), re.I)


def _offers_more_help(f: Field) -> bool:
    return _MORE_HELP.search(f"{f.description} {f.ask or ''}") is not None


_MORE_HELP = re.compile(phrase_pattern(english.MORE_HELP), re.I)


def _member_listing(f: Field, answers: frozenset[str], plain: str) -> str | None:
    """The one member whose description lists a yes (or a no) among the phrases that say it ("proceed: go on
    (yes, ok, next)"): any yes, "okay" or "sure", says it too. Of several, the one listing the plain word."""
    listed = {m: {p.lower() for p in listed_phrases(f.value_descriptions.get(m, ""))} for m in f.values}
    members = [m for m, phrases in listed.items() if answers & phrases]
    if len(members) > 1:
        members = [m for m in members if plain in listed[m]]
    return members[0] if len(members) == 1 else None


def _opposite_pair(f: Field) -> tuple[str, str] | None:
    if len(f.values) != 2:
        return None
    for v in f.values:
        opposite = next((o for o in f.values if o.lower() in (f"not {v.lower()}", f"no {v.lower()}")), None)
        if opposite is not None:
            return v, opposite
    return None


def _described(ctx: Context, target: Target, cls: str) -> list[Found]:
    """The member whose name and description share the most words with the reply ("the class is full" for
    "get onto the waitlist of a full course"), or a clear fuzzy match of the whole reply."""
    f = target.field
    said = content_words(ctx.text)
    asked = ctx.asked
    if asked is not None and asked.key != target.key:  # beneath the question: its options' names answer it, not this
        said -= content_words(" ".join(asked.field.values))
    yes_or_no_alone = (ctx.analysis.whole.get("affirm") or ctx.analysis.whole.get("deny")) and len(ctx.text.split()) <= 3
    if not said or yes_or_no_alone:
        return []
    members = {v: content_words(f"{v} {f.value_descriptions.get(v, '')}") for v in f.values}
    common = frozenset.intersection(*members.values()) if len(members) > 1 else frozenset()
    overlaps = sorted(((len((said - common) & words), v) for v, words in members.items()), reverse=True)
    if overlaps and overlaps[0][0] > 0 and (len(overlaps) == 1 or overlaps[0][0] > overlaps[1][0]):
        member = overlaps[0][1]
        spans = tuple((t.start, t.end) for t in ctx.analysis.tokens if content_words(t.text) & (members[member] - common))
        return [_checked(ctx, target, member, spans or ((0, len(ctx.text)),), "option described")]
    choices = {v: f"{v} {f.value_descriptions.get(v, '')}".lower() for v in f.values}
    scored = process.extract(normalise(ctx.text), choices, scorer=fuzz.token_set_ratio, limit=2)
    if scored and scored[0][1] >= FUZZY_OPTION and (len(scored) == 1 or scored[0][1] - scored[1][1] >= 10):
        return [_checked(ctx, target, scored[0][2], ((0, len(ctx.text)),), "option described")]
    return []


FUZZY_OPTION = 85


def _lists_of_records(ctx: Context, entities: list[Entity], table: str) -> list[tuple[list[tuple[Any, Entity]], tuple[str, ...]]]:
    """The lists a message naming records may give a list field: all of them; and, of several, all but the first
    and each alone, since the first may be another field's ("a chicken salad and a lemonade": the salad is the
    main dish, the lemonade the side)."""
    named = [(record, e) for e, (record, _) in ((e, _record(ctx, e, table)) for e in entities) if record is not None]
    if len(named) < 2:
        return [(named, ())] if named else []
    return [(named, ()), (named[1:], ("a part of the records named",)),
            *(([one], ("a part of the records named",)) for one in named if len(named) > 2 or one is not named[1])]


def _records(ctx: Context, target: Target, cls: str) -> list[Found]:
    table = ctx.index.table_of(target.field)
    if table is None:
        return []
    entities = [e for e in _usable(ctx, RECORD) if any(m.table == table for m in e.value)]
    if cls == RECORD_LIST:
        asked = ctx.asked is not None and ctx.asked.key == target.key  # the answer: every record named is its
        return [Found([r for r, _ in chosen], tuple(e.span for _, e in chosen),
                      (min(_how_named(e, table) for _, e in chosen), *features))
                for chosen, features in _lists_of_records(ctx, entities, table)[:1 if asked else None]]
    out = []
    for e in entities:
        how = _how_named(e, table)
        record, listed = _record(ctx, e, table)
        if cls == RECORD_NAME:
            if record is None and listed:
                out.append(Found(None, (e.span,), (how, "names several"), listed=listed))
            else:
                out.append(Found(_name_held(target.field, record, e.text), (e.span,), (how,)))
            continue
        if record is not None:
            out.append(Found(record, (e.span,), (how,)))
        elif listed:
            out.append(Found(None, (e.span,), (how, "names several"), listed=listed))
    return out


def _name_held(f: Field, record: dict | None, said: str) -> str:
    """What the field holds of a record named: the value of the record its format asks for (the code
    "PRJ-1002" of "atlas migration phase 2"), else the name as said."""
    pattern = f.validation.pattern if f.validation else None
    if record is None or not pattern or re.fullmatch(pattern, said):
        return said
    return next((str(v) for v in record.values() if isinstance(v, str) and re.fullmatch(pattern, v)), said)


def _how_named(entity: Entity, table: str | None) -> str:
    exact = max(m.score for m in entity.value if m.table == table) >= 100
    return "record by name" if exact else "record by short name or typo"


def _record(ctx: Context, entity: Entity, table: str) -> tuple[dict | None, tuple[str, ...]]:
    """The record a mention names; of several (a name they share, a short name of several names), the one the
    rest of the message describes, else none and the query that lists them."""
    mentions = [m for m in entity.value if m.table == table]
    records = list({id(m.record): m.record for m in mentions}.values())
    if len(records) == 1:
        if not _shares_names(ctx, table, mentions[0]):
            return records[0], ()
        records = _namesakes(ctx, table, mentions[0]) or records
        if len(records) <= 1:
            return records[0], ()
    rest = ctx.text[:entity.start] + " " * (entity.end - entity.start) + ctx.text[entity.end:]
    chosen = _described_rows(ctx, table, records, rest)
    if len(chosen) == 1:
        return chosen[0], ()
    return None, (f"answer({entity.text!r})",)


MAX_NAMESAKES = 50


def _shares_names(ctx: Context, table: str | None, mention: Any) -> bool:
    return table is not None and mention.by not in (None, ctx.spec.knowledge[table].primary_key) and \
        ctx.knowledge.shares_names(table)


def _namesakes(ctx: Context, table: str | None, mention: Any) -> list[dict]:
    if table is None or mention.by is None:
        return [mention.record]
    return ctx.knowledge.rows(table, {mention.by: mention.record[mention.by]}, limit=MAX_NAMESAKES)


def _described_rows(ctx: Context, table: str, rows: list[dict], text: str) -> list[dict]:
    """The rows whose values the text says the most of (a categorical value, the weekday of a date, a time,
    a number, a word of a value); all of them when it says none."""
    said = {squashed for squashed in (_squash(v) for v in ctx.values_named(table, text).values())}
    days = {r.strftime("%A").lower() for e in _usable(ctx, DATE) if e.start < len(text) and not text[e.start:e.end].isspace()
            for r in e.value[:1] if isinstance(r, dt.date)}
    times = {t.strftime("%H:%M") for e in _usable(ctx, TIME) if not text[e.start:e.end].isspace() for t in e.value}
    numbers = {e.value for e in _usable(ctx, NUMBER) if not text[e.start:e.end].isspace()}
    words = content_words(text)

    def fit(row: dict) -> tuple[int, int]:
        values = [str(v) for v in row.values() if v is not None]
        hits = len(said & {_squash(v) for v in values})
        hits += sum(any(d in v.lower() for v in values) for d in days)
        hits += sum(any(v.startswith(t) for v in values) for t in times)
        hits += sum(isinstance(v, (int, float)) and not isinstance(v, bool) and float(v) in numbers for v in row.values())
        return hits, len(words & content_words(" ".join(values)))

    best = max(fit(r) for r in rows)
    return [r for r in rows if fit(r) == best] if best != (0, 0) else rows


def _squash(value: Any) -> str:
    return re.sub(r"[^a-z0-9]", "", str(value).lower())


def _by_values(ctx: Context, target: Target, cls: str) -> list[Found]:
    table = ctx.index.table_of(target.field)
    asked = ctx.asked is not None and ctx.asked.key == target.key
    found = named_by_values(ctx, table, asked=asked) if table else None
    return [] if found is None else [Found(found[0], tuple(found[1]), ("record by values only it has",))]


def _listed_choice(ctx: Context, target: Target, cls: str) -> list[Found]:
    """One of the records the agent just listed: by its place ("the second one") or by what only it has."""
    answer = ctx.state.answer
    rows = [r for r in (answer.result if answer is not None and isinstance(answer.result, list) else [])
            if isinstance(r, dict)]
    if len(rows) < 2:
        return []
    ordinal = next((e for e in _usable(ctx, "ordinal")), None)
    if ordinal is not None and 1 <= ordinal.value <= len(rows):
        return [Found(rows[int(ordinal.value) - 1], (ordinal.span,), ("record by place",))]
    chosen = _described_rows(ctx, ctx.index.table_of(target.field) or "", rows, ctx.text)
    if len(chosen) == 1 and len(rows) > 1:
        return [Found(chosen[0], ((0, len(ctx.text)),), ("record described",))]
    return []


def _restated(ctx: Context, target: Target, cls: str) -> list[Found]:
    """Yes or no said by saying the field back: every distinctive word of its name, or what its short
    description asks, is in the message ("I'm an international student", "not an emergency")."""
    f = target.field
    named = content_words(" ".join(w for w in f.name.lower().split("_") if w not in english.GENERIC_FIELD_WORDS))
    asked = content_words(re.sub(r"^\s*whether\s+(?:(?:it|there|this|that|the \w+)\s+(?:is|are|was|has|have)\s+)?", "",
                                 re.sub(r"\([^)]*\)", " ", f.description), flags=re.I))
    if named and named <= content_words(ctx.text):
        words = named
    elif asked and len(asked) <= MAX_RESTATED_WORDS and asked <= content_words(ctx.text):
        words = asked
    else:
        return _none_of_its_things(ctx, target)
    clauses = [c for c in ctx.analysis.clauses if content_words(ctx.text[c[0]:c[1]]) & words] or [(0, len(ctx.text))]
    said = " ".join(ctx.text[s:e] for s, e in clauses)  # "..., have the receipt": that clause says it
    negated = re.search(phrase_pattern(english.NEGATIONS), said, re.I) is not None
    return [Found(not negated, tuple(clauses), ("said back",))]


MAX_RESTATED_WORDS = 2


def _none_of_its_things(ctx: Context, target: Target) -> list[Found]:
    """No to a yes/no field said as "no <thing>" of a thing only its description names ("no dogs" for
    whether the campers bring a dog or another pet)."""
    things = content_words(target.field.description) - content_words(" ".join(
        f"{t.field.description} {t.field.name.replace('_', ' ')}" for t in ctx.targets
        if t.owner == target.owner and t.key != target.key))
    described = " ".join(target.field.description.lower().split())
    for match in _NO_THING.finditer(ctx.text):
        if " ".join(match.group(0).lower().split()) in described:
            continue  # "no heat" is one of the emergencies the description lists: a yes, not a no
        if content_words(match.group("thing")) & things:
            return [Found(False, (match.span(),), ("said back",))]  # "no dogs": the field said back, negated
    return []


_NO_THING = re.compile(rf"(?:{phrase_pattern(english.NO_LEADS)})\s+(?P<thing>[a-z]+)", re.I)


def _dates(ctx: Context, target: Target, cls: str) -> list[Found]:
    out = []
    for e in _usable(ctx, DATE):
        if cls == DATETIME_FIELD:
            times = [t for t in _usable(ctx, TIME)]
            readings = tuple(dt.datetime.combine(d, t) for d in e.value for t in (times[0].value if times else (dt.time(0),)))
            out.append(_typed(ctx, target, e, readings, "date"))
        else:
            out.append(_typed(ctx, target, e, _after_the_day_before(ctx, target, e), "date"))
    return out


def _after_the_day_before(ctx: Context, target: Target, e: Entity) -> tuple[dt.date, ...]:
    """The readings of a day said after another day of the message ("june 17 to 19" said in November), for a date
    field declared after another date field: those after the day the earlier field takes from the earlier day (next
    June's 19th when the arrival must be next June's 17th), so one range is read in one year."""
    fields = list(ctx.spec.tasks[target.worksheet].fields.values())
    earlier = [f for f in fields[:fields.index(target.field)] if f.type.kind == "date"]
    before = [d for d in _usable(ctx, DATE) if d.end <= e.start]
    first = next((t for t in ctx.targets if earlier and t.owner == target.owner and t.field is earlier[-1]), None)
    if first is None or not before:
        return e.value
    start, accepted = ctx.first_accepted(first, before[-1].value)
    later = tuple(d for d in e.value if accepted and isinstance(start, dt.date) and d > start)
    return later or e.value


def _hours_after_the_name(ctx: Context, target: Target) -> list[Found]:
    mention = mention_of(ctx, target)
    if mention is None:
        return []
    _, clause_end = ctx.analysis.clause_of(mention.start)
    out = []
    for e in _usable(ctx, NUMBER):
        if mention.end <= e.start < clause_end and float(e.value).is_integer():
            readings = date_reader.hour_readings(int(e.value))
            if readings:
                value, accepted = ctx.first_accepted(target, readings)
                out.append(Found(value, (e.span,), ("bare hour",), None if accepted else ctx.problem(target, value)))
    return out


def _length_after_a_date(ctx: Context, target: Target, cls: str) -> list[Found]:
    """The last day of a length of whole days counted from a date, for a date field declared after another: the
    date said before the length ("from tomorrow for two weeks"), else after it ("3 nights starting the 19th"), else
    the earlier date field's value ("just 2 nights" asked the departure). Days count the first ("two weeks" from
    the 1st ends on the 14th); nights end the morning after the last ("2 nights from friday" ends on sunday)."""
    fields = list(ctx.spec.tasks[target.worksheet].fields.values())
    earlier = [f for f in fields[:fields.index(target.field)] if f.type.kind == "date"]
    if not earlier:
        return []
    dates = _usable(ctx, DATE)
    out = []
    for length in _usable(ctx, DURATION):
        days = int(length.value // MINUTES_A_DAY)
        if days < 1 or length.value % MINUTES_A_DAY:
            continue
        start = next((e.value for e in reversed(dates) if e.end <= length.start), None) or next(
            (e.value for e in dates if e.start >= length.end), None) or _held_before(ctx, target, earlier[-1])
        start = _as_the_earlier_field_takes(ctx, target, earlier[-1], start)
        if start:
            overnight = any(w in english.OVERNIGHT_UNITS for w in length.text.lower().split())
            last = tuple(d + dt.timedelta(days=days if overnight else days - 1) for d in start)
            out.append(_typed(ctx, target, length, last, LAST_DAY_OF_A_LENGTH))
    return out


LAST_DAY_OF_A_LENGTH = "the last day of a length of time"


def _as_the_earlier_field_takes(ctx: Context, target: Target, earlier: Field,
                                readings: tuple[dt.date, ...]) -> tuple[dt.date, ...]:
    """Of the readings of a stay's first day, the one the earlier date field accepts first (next June's 19th when
    the arrival cannot be past), then the others."""
    first = next((t for t in ctx.targets if t.owner == target.owner and t.field is earlier), None)
    if first is None or len(readings) < 2:
        return readings
    start, accepted = ctx.first_accepted(first, readings)
    return (start, *(d for d in readings if d != start)) if accepted else readings


def _held_before(ctx: Context, target: Target, earlier: Field) -> tuple[dt.date, ...]:
    """The date the task holds in an earlier date field, as readings."""
    held = next((ctx.value_of(t) for t in ctx.targets if t.owner == target.owner and t.field is earlier), None)
    return (held,) if isinstance(held, dt.date) else ()


MINUTES_A_DAY = 24 * 60


def _times(ctx: Context, target: Target, cls: str) -> list[Found]:
    """Times of day; a bare hour ("about 8") only for the time asked for or named (it is a number too)."""
    asked = ctx.asked is not None and ctx.asked.key == target.key or mention_of(ctx, target) is not None
    dated = any(e.kind == DATE for e in ctx.analysis.entities) or part_of_day(ctx.text) is not None
    return [_typed(ctx, target, e, e.value, "time", *(("bare hour with a day",) if e.vague else ()))
            for e in _usable(ctx, TIME) if not e.vague or asked or dated]


def _bare_hours(ctx: Context, target: Target, cls: str) -> list[Found]:
    """A reply that is only an hour, or a bare number said after the field's name ("the time should be 4")."""
    readings = date_reader.whole_hour(ctx.text)
    if not readings:
        return _hours_after_the_name(ctx, target)
    value, accepted = ctx.first_accepted(target, readings)
    return [Found(value, ((0, len(ctx.text)),), ("bare hour",), None if accepted else ctx.problem(target, value))]


def _amounts(ctx: Context, target: Target, cls: str) -> list[Found]:
    return [_checked(ctx, target, _number_value(target.field, e.value.value), (e.span,), "amount")
            for e in _usable(ctx, AMOUNT)]


def _numbers(ctx: Context, target: Target, cls: str) -> list[Found]:
    """A bare number (asked): the one number of the reply, or the one beside the field's words."""
    numbers = [e for e in _usable(ctx, NUMBER, IDENTIFIER) if e.kind == NUMBER or e.text.isdigit()]
    return [_checked(ctx, target, _number_value(target.field, float(e.value)), (e.span,), "number",
                     *(("vague",) if e.vague else ()), *(("one of several numbers",) if len(numbers) > 1 else ()))
            for e in numbers]


def _counted(ctx: Context, target: Target, cls: str) -> list[Found]:
    """A number beside what the field counts ("3 units", "walks 3x", "4 people"), or the people listed
    when the field counts people."""
    nouns = _counted_stems(ctx.index, target.field)
    out = []
    people = bool(nouns & _PERSON_STEMS)
    age = _says(f"{target.field.name.replace('_', ' ')} {target.field.description}".lower(), english.AGE_WORDS)
    for e in _usable(ctx, NUMBER, DURATION):
        if age and e.kind == NUMBER and _said_as_an_age(ctx, e):
            out.append(_checked(ctx, target, _number_value(target.field, e.value), (e.span,), "age said"))
            continue
        if e.owner == PEOPLE:
            if people:
                out.append(_checked(ctx, target, _number_value(target.field, e.value), (e.span,), "people listed"))
            continue
        noun = _noun_beside(ctx, e)
        if noun and noun & nouns:
            value = e.value if e.kind == NUMBER else _count_of(e.text)
            if value is not None:
                out.append(_checked(ctx, target, _number_value(target.field, value), (e.span,), "counted noun",
                                    *(("vague",) if e.vague else ())))
    left_out = uncounted(ctx.text) if people and not out else None
    if left_out is not None:  # "me, my wife and the kids": how many kids is not said
        out.append(Found(None, ((0, len(ctx.text)),), ("people not counted", "vague"),
                         f"How many people is that in total, counting the {left_out}?"))
    return out


_PERSON_STEMS = frozenset(stem(w) for w in english.PERSON_NOUNS)
_AGE_BEFORE = re.compile(rf"(?:{phrase_pattern((*english.SELF_INTRODUCTIONS, 'is', 'age', 'aged', 'age is'))})\s+$", re.I)
_AGE_AFTER = re.compile(rf"^\s*(?:{phrase_pattern(english.AGE_TAILS)})", re.I)


def _said_as_an_age(ctx: Context, e: Entity) -> bool:
    """"im twenty five", "driver is 40", "25 years old"."""
    return bool(_AGE_BEFORE.search(ctx.text[max(0, e.start - 20):e.start]) or _AGE_AFTER.match(ctx.text[e.end:]))


def _count_of(text: str) -> float | None:
    found = re.match(r"\s*(\d+(?:\.\d+)?)", text)
    return float(found.group(1)) if found else None


def _noun_beside(ctx: Context, e: Entity) -> frozenset[str]:
    """The stems of the words right after a number (up to two: "3 large pizzas"), or right before it
    ("walks: 3", "question 5"), or the unit of a length of time."""
    tokens = ctx.analysis.tokens
    after = [t for t in tokens if t.start >= e.end][:3]
    before = [t for t in tokens if t.end <= e.start][-2:]
    words = [t.lower for t in after if t.is_word] + [t.lower for t in before if t.is_word]
    words += [" ".join(t.lower for t in after[:2])]  # "2 of us"
    if e.kind == DURATION:
        words.append(e.text.split()[-1].lower())
    said = {english.SHORTHAND.get(w, w) for w in words}
    return frozenset(stem(w) for phrase in said for w in phrase.split())


def _counted_stems(index: SpecIndex, f: Field) -> frozenset[str]:
    cache = index.cache.setdefault("counted", {})
    if id(f) not in cache:
        nouns = set(f.counts) | (set(f.name.lower().split("_")) - english.GENERIC_FIELD_WORDS)
        nouns |= {m.group(1) for m in re.finditer(rf"{phrase_pattern(english.COUNTING_LEADS)}\s+(?:the\s+)?([a-z]+)",
                                                  f.description.lower())}
        nouns |= set(f.synonyms)
        stems = {stem(w) for phrase in nouns for w in phrase.split()}
        if stems & {stem(w) for w in english.PERSON_NOUNS}:
            stems |= _PERSON_STEMS
        cache[id(f)] = frozenset(stems - {stem(w) for w in english.STOP_WORDS})
    return cache[id(f)]


def _number_value(f: Field, value: float) -> int | float:
    return int(value) if f.type.kind == "int" and float(value).is_integer() else value


_SAME = re.compile(rf"{phrase_pattern(english.SAME_WORDS)}(?:\s+(?P<noun>[a-z]+))?(?:\s+as\s+(?:the\s+)?(?P<other>[a-z]+))?",
                   re.I)


def _same_as_another(ctx: Context, target: Target, cls: str) -> list[Found]:
    """"same place", "the same as the pickup": the other field of the task with the same options (or of the same
    type) is what the value is; when several are, the one the message names."""
    said = _SAME.search(ctx.text)
    if said is None:
        return []
    f = target.field
    if said.group("noun") and not _noun_fits(said.group("noun"), f):
        return []  # "same place" is no day
    others = [t for t in ctx.targets if t.owner == target.owner and t.field is not f and t.field.type == f.type
              and t.field.values == f.values]
    if said.group("other"):
        others = [t for t in others if content_words(said.group("other")) & content_words(
            f"{t.field.name.replace('_', ' ')} {t.field.description}")]
    if len(others) != 1:
        return []
    return [Found(SameAs(others[0].key), (said.span(),), ("same as another field",))]


def _noun_fits(noun: str, f: Field) -> bool:
    """Whether "the same <noun>" can be said of the field: a word of its own, or a word for its kind of value."""
    word = stem(noun.lower())
    if word in content_words(f"{f.name.replace('_', ' ')} {f.description}"):
        return True
    kinds = {"date": english.DATE_NOUNS, "datetime": english.DATE_NOUNS, "time": english.TIME_NOUNS}
    nouns = kinds.get(f.type.kind, english.PLACE_NOUNS if f.values else ())
    return word in {stem(n) for n in nouns}


def _only_count(ctx: Context, target: Target, cls: str) -> list[Found]:
    """The one free number of the message ("a table for 4 at 7pm"), when this is the only field of the open
    and requested tasks that counts something."""
    counts = [t for t in ctx.targets if field_class(t.field, ctx.index) == COUNT and t.owner == target.owner]
    numbers = [e for e in _usable(ctx, NUMBER) if e.owner != PEOPLE and not _read_otherwise(ctx, e)
               and not _a_measure(ctx, e, target.field)]
    if len(counts) != 1 or len(numbers) != 1:
        return []
    e = numbers[0]
    return [_checked(ctx, target, _number_value(target.field, e.value), (e.span,), "the one free number",
                     *(("vague",) if e.vague else ()))]


def _carried_over(ctx: Context, target: Target, cls: str) -> list[Found]:
    f = target.field
    if ctx.value_of(target) not in (None, NA):
        return []
    words = [w for w in f.name.lower().split("_") if w not in english.GENERIC_FIELD_WORDS]
    pointing = re.search(rf"\b(?:{phrase_pattern((*english.POSSESSORS, *english.DEMONSTRATIVES))})\s+"
                         rf"(?:{phrase_pattern(words)})\b", ctx.text, re.I) if words else None
    if pointing is None:
        return []
    done = sorted((i for i in ctx.state.instances.values() if not i.open and i.values.get(f.name) not in (None, NA)),
                  key=lambda i: -i.touched)
    return [Found(done[0].values[f.name], (pointing.span(),), ("a finished task's value pointed at",))] if done else []


_UNIT_AFTER = re.compile(rf"^\s*(?:(?:{phrase_pattern(english.ROUGHLY_AFTER)})\s+)?"
                         rf"(?:{phrase_pattern((*english.MEASURE_UNITS, *english.DURATION_UNITS, *(u + 's' for u in english.DURATION_UNITS)))})"
                         r"(?!\w)", re.I)


def _a_measure(ctx: Context, number: Entity, f: Field) -> bool:
    """The number is a measure in a unit the field does not count ("45 lb" is no number of walks, "one or more
    nights" no number of people)."""
    unit = _UNIT_AFTER.match(ctx.text[number.end:])
    return unit is not None and not {stem(unit.group(0).strip().lower())} & _counted_stems(ctx.index, f)


def _read_otherwise(ctx: Context, number: Entity) -> bool:
    """The number is also read as a typed value of another kind ("at 8" is a time)."""
    return any(e.kind != NUMBER and e.usable and e.start <= number.start and number.end <= e.end
               for e in ctx.analysis.entities)


def _focus(ctx: Context, target: Target, cls: str) -> list[Found]:
    """"book it", "that place": the record the conversation is about."""
    from .focus import focus_record, named_in_focus, pronoun

    said = pronoun(ctx)
    table = ctx.index.table_of(target.field)
    if said is None or table is None:
        return []
    if cls == RECORD_NAME:
        name = named_in_focus(ctx, table)
        return [Found(name, (said.span(),), ("record in focus",))] if name is not None else []
    record = focus_record(ctx, table)
    return [Found(record, (said.span(),), ("record in focus",))] if record is not None else []


def _codes(ctx: Context, target: Target, cls: str) -> list[Found]:
    pattern = (target.field.validation.pattern if target.field.validation else None) or ""
    if not pattern:
        return []
    whole = re.compile(pattern)
    out = []
    for e in _usable(ctx, CODE, PHONE, EMAIL, IDENTIFIER, NUMBER):
        value = e.value if e.kind == CODE else e.text.strip()
        if whole.fullmatch(value) or whole.fullmatch(e.text.strip()):
            out.append(Found(_without_its_name(value, target.field, whole), (e.span,),
                             ("format", *(("loose format",) if e.vague else ()))))
    typed_otherwise = any(e.usable and e.kind in (DATE, TIME, AMOUNT, OPTION, RECORD) for e in ctx.analysis.entities)
    if not out and cls in (CODE_FIELD, LOOSE_CODE, PHONE_FIELD, EMAIL_FIELD) and ctx.asked is not None \
            and ctx.asked.key == target.key and not typed_otherwise:  # "nov 20" is a day, no attempt at a number
        attempt = _attempt_at(ctx.text, pattern)
        if attempt is not None:  # refused with the worksheet's message, so that the user learns why
            out.append(Found(attempt, ((0, len(ctx.text)),), ("attempt at the format",),
                             ctx.problem(target, attempt) or "That does not look right."))
    return out


def _only_its_format(ctx: Context, target: Target, cls: str) -> list[Found]:
    """Digits said unasked that fit this field's format and no other field's, where no field takes a number."""
    open_targets = [t for t in ctx.targets if t.exists]
    if any(field_class(t.field, ctx.index) in (COUNT, MONEY) for t in open_targets):
        return []
    others = [re.compile(t.field.validation.pattern) for t in open_targets if t.key != target.key
              and t.field.validation is not None and t.field.validation.pattern]
    return [replace(found, features=(*found.features, "the only format the digits fit"))
            for found in _codes(ctx, target, cls) if "loose format" in found.features and found.problem is None
            and not any(other.fullmatch(str(found.value)) for other in others)]


def _without_its_name(value: str, f: Field, pattern: re.Pattern[str]) -> str:
    """A value of a format said with the field's name ("unit 12F", "apt 4B"): the value alone, when what is
    left still has the format."""
    first, _, rest = value.partition(" ")
    named = content_words(first) & content_words(f"{f.name.replace('_', ' ')} {f.description}")
    return rest.strip() if rest and named and pattern.fullmatch(rest.strip()) else value


def _attempt_at(text: str, pattern: str) -> str | None:
    """A short reply written in the format's own characters (digits for an id, "@" for an email) that does not fit it."""
    needs = [sign for sign in ("@", r"\d") if sign in pattern]
    said = text.strip()
    if needs and len(said.split()) <= 3 and all(re.search(n, said) for n in needs) and "?" not in said:
        return said
    return None


def _emails(ctx: Context, target: Target, cls: str) -> list[Found]:
    return [_checked(ctx, target, e.text, (e.span,), "email") for e in _usable(ctx, EMAIL)] + _codes(ctx, target, cls)


def _phones(ctx: Context, target: Target, cls: str) -> list[Found]:
    return [_checked(ctx, target, e.text, (e.span,), "phone") for e in _usable(ctx, PHONE)]


def _names(ctx: Context, target: Target, cls: str) -> list[Found]:
    out = []
    owners = _owners(target.field)
    for e in _usable(ctx, NAME):
        if cls == PERSON and e.owner == SELF:
            out.append(Found(e.text, (e.span,), ("name given as the user's",)))
        elif cls == PERSON and e.owner in english.RELATIONS:
            out.append(Found(e.text, (e.span,), ("name of someone the user names",)))
        elif cls == THING_NAME and e.owner and stem(e.owner) in owners:
            out.append(Found(e.text, (e.span,), ("name of what the field names",)))
        elif cls == THING_NAME and e.owner and e.owner != SELF and e.owner not in english.RELATIONS:
            out.append(Found(e.text, (e.span,), ("name of something the user has",)))
        elif not e.owner and not _the_text_asked(ctx, target, e):
            out.append(Found(e.text, (e.span,), ("capitalised name", *_the_one_name_lacking(ctx, target, cls))))
    return out


def _the_text_asked(ctx: Context, target: Target, e: Entity) -> bool:
    """A capitalised name that is the whole reply to another field's free-text question, whose description gives
    capitalised examples, is that text ("Happy Birthday Mia" to "what should the cake say?"), not a name; a name
    said to "anything else?" is still the name asked next."""
    asked = ctx.asked
    return asked is not None and asked.key != target.key and field_class(asked.field, ctx.index) in (TEXT, ACCOUNT) \
        and expects_capitalised_text(asked.field) and _all_the_message_says(ctx, (e.span,))


def _the_one_name_lacking(ctx: Context, target: Target, cls: str) -> tuple[str, ...]:
    """Whether the field is the one name of a person its task still lacks (a name said bare, beside the
    email the task also asks, is that person's)."""
    if cls != PERSON or ctx.value_of(target) not in (None, NA) or not target.exists:
        return ()
    lacking = [t for t in ctx.targets if t.owner == target.owner and field_class(t.field, ctx.index) == PERSON
               and ctx.value_of(t) in (None, NA)]
    return ("the one name the task lacks",) if len(lacking) == 1 else ()


def _owners(f: Field) -> frozenset[str]:
    owner = re.search(r"\b([a-z]+)['’]s\s+(?:\w+\s+)?name\b", f.description.lower())
    return frozenset({stem(owner.group(1))}) if owner else frozenset()


def _addresses(ctx: Context, target: Target, cls: str) -> list[Found]:
    return [Found(e.text, (e.span,), ("street address",)) for e in _usable(ctx, ADDRESS)]


def _whole_reply(ctx: Context, target: Target, cls: str) -> list[Found]:
    """The reply as the field's text: the words no other value of the message explains, without the
    words that lead into an answer ("it's", "my name is"); an account keeps every word; a person's name
    typed partly in lower case is kept so, or capitalised when only that fits the field ("tyler jones" or
    "Sarah brown" for a pattern of capitalised names: Tyler Jones, Sarah Brown)."""
    said = reply_text(ctx, target, cls)
    if cls == PERSON and said is not None and said[0] != said[0].title():
        value, _ = ctx.first_accepted(target, (said[0], said[0].title()))
        said = (value, *said[1:])
    return _text(ctx, target, said)


def _instead_of_a_yes_or_no(ctx: Context, target: Target, cls: str) -> list[Found]:
    """What a field never asked takes from a reply that neither says yes nor no to its task's question."""
    asked = ctx.asked
    if not target.field.dont_ask or asked is None or asked.owner != target.owner or \
            field_class(asked.field, ctx.index) != BOOL or _yes_no(ctx, asked, BOOL):
        return []
    if cls == COUNT:
        return [replace(found, features=(*found.features, "instead of a yes or no")) for found in _numbers(ctx, target, cls)]
    reading = answer_instead(ctx, target, cls)
    return [] if reading is None else [replace(found, features=(*found.features, "instead of a yes or no"))
                                       for found in _text(ctx, target, reading)]


def _named_text(ctx: Context, target: Target, cls: str) -> list[Found]:
    return _text(ctx, target, named_text(ctx, target, cls))


def _text(ctx: Context, target: Target, said: Any) -> list[Found]:
    if said is None:
        return []
    value, spans, features = said
    return [Found(value, spans, features, ctx.problem(target, value))]


_READERS = {
    OPTION: _options, DURATION: _durations, CURRENCY: _currencies, YES_NO: _yes_no, DESCRIBED: _described,
    RECORD: _records, LISTED_CHOICE: _listed_choice, RESTATED: _restated, DATE: _dates, TIME: _times,
    HOUR: _bare_hours, AMOUNT: _amounts, NUMBER: _numbers, COUNTED: _counted, CODE: _codes, EMAIL: _emails,
    PHONE: _phones, NAME: _names, ADDRESS: _addresses, WHOLE_REPLY: _whole_reply, NAMED_TEXT: _named_text,
    ONLY_COUNT: _only_count, NUMBERED_OPTION: _numbered_options, LENGTH_AFTER: _length_after_a_date,
    FOCUS: _focus, SAME: _same_as_another, BY_VALUES: _by_values, CARRIED: _carried_over,
    INSTEAD: _instead_of_a_yes_or_no, IN_RANGE: _in_a_members_range, OTHERWISE: _taken_otherwise,
    ONLY_FORMAT: _only_its_format,
}


def mapping_table() -> list[tuple[str, str, str]]:
    """(field class, when, what fills it): the slot mappings as the docs print them."""
    return [(cls, rule.when, rule.says) for cls, rules in SLOT_MAPPINGS.items() for rule in rules]


def mention_of(ctx: Context, target: Target) -> FieldMention | None:
    """Where the message names the target's field, if it does."""
    return next((m for m in ctx.analysis.fields if m.worksheet == target.worksheet and m.field == target.field.name), None)
