"""Strategy: the answer to the question the agent just asked.

A typed answer (enum, yes/no, number, date, text of a declared format, free text), a decline
("skip", "I don't know") as "NA", or yes/no to a confirmation. A clause that gives or declines
another field is not part of the answer; small talk and questions to the agent are not free
text.
"""

from __future__ import annotations

import re

from ...language import english
from ...language.tokens import phrase_pattern
from ...acts import AskField, AskForConfirmation, AskForFieldConfirmation, AskToCancel, ProposeWorksheet, Report
from ...runtime.policy import field_applies
from ...spec import NA, Field, TaskWorksheet
from ...state import WorksheetInstance
from .. import enums, extract
from ..head_count import uncounted
from .about import MAX_SHORT_ANSWER_WORDS, declines, text_about
from .date_roles import date_of
from .evidence import claims_of, proposal, whole
from .fields import has_pattern, is_description, is_free_text, pattern_of
from .reading import Reading
from .records import record_value, table_of
from .requested import task_match
from .tasks import is_open
from .proposals import ASKED, CONFIRMATION, PHRASING_PENALTY, Proposal
from .values import same_as, typed
from .volunteered import constructor, opened
from .words import (NOTHING_MORE, QUESTION, addresses_the_agent, capitalised, closing_question, correcting,
                    names_only_a_field, small_talk, thanks_only)

REQUEST_FOR_A_TASK = 0.8
"""A free-text answer that matches a task this well is a request for it, not a value ("I want to check my ticket")."""


def propose(reading: Reading) -> list[Proposal]:
    """Matcher: the answer to the question the agent just asked, with the nested worksheets it opens.

    A yes or no to a summary is read from the whole message, and counts fully only when it is all
    the message says ("no, my name is Jayne" corrects more than it declines). A free-text answer of
    a message that reads as a correction or as a request for a task counts less."""
    scratch = reading.fresh()
    answered = answer_question(scratch)
    if not answered and scratch.listed:  # "harbor blue" names two paints: they are shown to choose from
        return [proposal(scratch, "asked", [], ASKED, claims=claims_of(scratch, scratch.used), phase=2)]
    if not answered:
        return []
    act = reading.question
    alone = all(small_talk(clause) for clause in extract.clauses(reading.text))
    if isinstance(act, (AskForConfirmation, ProposeWorksheet, AskToCancel, AskForFieldConfirmation)):
        return [proposal(scratch, "asked", answered, CONFIRMATION if alone else CONFIRMATION / 4, claims=whole(reading),
                         slots=frozenset({f"{getattr(act, 'instance', '')}.confirmed"}), answers=True, phase=2)]
    f = _asked_field(reading)
    base = ASKED
    if f is not None and is_free_text(f) and correcting(reading.text):
        base -= PHRASING_PENALTY  # "actually I sent it in person" is no note for the staff
    if f is not None and f.type.kind == "confirm" and not alone:
        base /= 4  # "no, the grading for cs 229 is wrong, ...": a change, more than a no to the list
    extended = opened(scratch)
    slots = frozenset(slot for _, slot in extended) | frozenset(
        f"{t.instance}.{t.field.name}" for t in scratch.taken if t.instance) | (
        frozenset({f"{act.instance}.{act.field}"}) if isinstance(act, AskField) else frozenset())
    return [proposal(scratch, "asked", answered + [s for s, _ in extended], base, slots=slots,
                     answers=not extended, phase=2,
                     describes=f is not None and is_description(f) and all(t.value != NA for t in scratch.taken))]


MAX_GO_AHEAD_WORDS = 4


def _asks_for_it(reading: Reading, ws: TaskWorksheet | None) -> bool | None:
    """A short imperative in the words the task is described or asked for with, to a question whether
    to go ahead with that task: "book it", "submit it", "file it" go ahead; "don't book it" does not."""
    words = extract.content_words(_NEGATION.sub(" ", reading.text))
    if ws is None or not words or len(reading.text.split()) > MAX_GO_AHEAD_WORDS or correcting(reading.text) \
            or extract.says_unknown(reading.text):
        return None
    confirming = " ".join(f.description for f in ws.fields.values() if f.type.kind == "confirm")
    if not words <= extract.content_words(" ".join((ws.description, *ws.examples, confirming))):
        return None
    return _NEGATION.search(reading.text) is None


_NEGATION = re.compile(phrase_pattern((*english.NEGATIONS, "dont", "do not")), re.I)


def _asked_field(reading: Reading) -> Field | None:
    instance, name = reading.asked
    found = reading.state.instances.get(instance or "")
    return reading.spec.tasks[found.worksheet].fields.get(name or "") if found else None


def answer_question(reading: Reading) -> list[str]:
    act = reading.question
    if isinstance(act, (AskForConfirmation, ProposeWorksheet)):
        yes = extract.yes_no(reading.text)
        if yes is None:
            yes = _asks_for_it(reading, reading.spec.tasks.get(act.worksheet))  # "book it", "don't submit it"
        if yes and correcting(reading.text):  # "yes but change the time": nothing goes ahead on a change
            reading.problem = "What should I change? Tell me the new value (for example “make it 8pm”)."
            return []
        if isinstance(act, AskForConfirmation) and NOTHING_MORE.match(reading.text.strip()):
            reading.problem = "Got it, nothing more to add. Please answer yes or no to this:"
            return []  # "(no,) that's all" answers "anything else?", which was not asked: neither yes nor no
        return [] if yes is None else [f"{act.instance}.confirmed = {yes}"]
    if isinstance(act, AskToCancel):
        yes = extract.yes_no(reading.text)
        return [] if yes is None else [f"exitws({act.instance}, confirmed=True)" if yes else "# keep going"]
    if isinstance(act, AskForFieldConfirmation):
        yes = extract.yes_no(reading.text)
        if yes and correcting(reading.text):
            return []
        return [] if yes is None else [f"{act.instance}.{act.field}.confirmed = {yes}"]
    if not isinstance(act, AskField):
        return []
    if act.instance == "answer":
        return [f"answer.{act.field} = {extract.free_text(reading.text)!r}"]
    instance = reading.state.instances.get(act.instance)
    if instance is None or act.field not in reading.spec.tasks[instance.worksheet].fields:
        return []
    f = reading.spec.tasks[instance.worksheet].fields[act.field]
    if (instance.name, f.name) in reading.assigned:
        return []  # an earlier part of the message answered it
    if _about_another_record(reading, instance):
        return []  # "also cs 221 pass fail 3 units" asked for CS224N's units: the values are the new course's
    skipped = _skipped_for_later(reading, f, instance)
    if skipped:
        return skipped
    if f.type.ref in reading.spec.tasks:
        answer = _nested_answer(reading, reading.spec.tasks[f.type.ref])
        if answer is None:
            return []
        reading.assigned.add((instance.name, f.name))
        return [f"{instance.name}.{f.name} = {answer}"]
    value = asked_value(reading, f, instance)
    return [] if value is None else [reading.assign(instance, f, value)]


def _nested_answer(reading: Reading, nested: TaskWorksheet) -> str | None:
    """Asked for a field that holds a worksheet ("which courses?"), the reply answers that
    worksheet's first question ("CS 224V" is the first course, of the first of the courses),
    with whatever else it gives: the constructor, or None."""
    first = next((g for g in nested.fields.values() if g.askable and g.predicate is None), None)
    if first is None:
        return None
    if first.type.ref in reading.spec.tasks:
        inner = _nested_answer(reading, reading.spec.tasks[first.type.ref])
        return None if inner is None else constructor(reading, nested, "", nested_args={first.name: inner})
    value = asked_value(reading, first, WorksheetInstance("", nested.name))
    return None if value is None else constructor(reading, nested, "", {first.name: value})


def asked_value(reading: Reading, f: Field, instance: WorksheetInstance):
    """The value the message gives the asked field ``f`` ("NA" for a decline), or None."""
    free_text = is_free_text(f)
    if free_text and declines(reading, f) and extract.role_phrase(reading.text, f) is None:
        return "NA"  # "I don't know, but near the library" gives one
    if not f.required and (free_text or f.type.kind == "list") and _plain_no(reading.text):
        return "NA"  # "no" to "any extras?"; "no. my name is Jane Doe": nothing to add (the name is volunteered)
    if has_pattern(f):
        text = reading.text  # a format is its own evidence
    elif free_text:  # "poem. Another one please!" answers "poem"; "thanks" or "who are you?" nothing
        siblings = tuple(reading.spec.tasks[instance.worksheet].fields.values())
        text = "" if addresses_the_agent(reading.text) else text_about(
            reading, f, keep=lambda c: not small_talk(c), siblings=siblings)
        if _asks_for_a_task(reading):  # "I want to check my ticket" is no name; "can u sign me up for
            return record_value(reading, f)  # cs224v" names the course it is for
        if _restates_a_choice(reading, text):
            return None  # "change a course" to "which course are you in now?" repeats what was chosen
        if names_only_a_field(reading.spec, reading.text):
            return None  # "change the grading option" asks about a field: it is no course name
    else:
        text = text_about(reading, f)
    value = same_as(reading, f, instance)  # "same place": what the other field of its kind holds
    placed = date_of(reading, f, instance) if value is None and f.type.kind in ("date", "datetime") else None
    if placed is not None:  # "from dec 21 to jan 4" asked for the last day: jan 4
        reading.used.append(placed[1])
        value = placed[0]
    if value is None and text:
        value = typed(reading, f, text, whole_answer=True, instance=instance)
    if value is None and has_pattern(f) and _uncapitalised_answer(reading, f):
        value = typed(reading, f, capitalised(reading.text), whole_answer=True, instance=instance)  # "tyler jones"
    if f.type.is_boolean and closing_question(f) and thanks_only(reading.text) and not _reported(reading):
        value = False  # "is there anything else?" - "ok, thanks!": nothing else
    if value is None and declines(reading, f):
        value = False if f.type.is_boolean else "NA"  # "that's all" answers "anything else?" with no
    if value is None and has_pattern(f) and _attempt_at_format(reading.text, f):
        value = extract.free_text(reading.text)  # refused with the worksheet's message, so the user learns why
    if value is None and extract.counts_people(f) and uncounted(reading.text):  # "me, my wife and the kids"
        reading.problem = f"How many people is that in total, counting the {uncounted(reading.text)}?"
    return value


def _about_another_record(reading: Reading, instance: WorksheetInstance) -> bool:
    """The message names a record other than the one the asked instance is about (another course)."""
    if reading.knowledge is None:
        return False
    for g in reading.spec.tasks[instance.worksheet].fields.values():
        table, held = table_of(reading.spec, g), instance.values.get(g.name)
        if table is None or held in (None, "NA"):
            continue
        held_records = [held] if isinstance(held, dict) else [
            m.record for m in reading.knowledge.record_names(table).find(str(held))]
        if any(m.record not in held_records for m in reading.mentions(table)):
            return True
    return False


def _skipped_for_later(reading: Reading, f: Field, instance: WorksheetInstance) -> list[str]:
    """At an optional free-text question, a reply made of a value of a later field's format and a
    few plain words ("Jane Doe, jane@stanford.edu" at "anything else?") skips the question: the
    words answer the next free-text question (the name), the format's value its own field."""
    if f.required or not is_free_text(f) or has_pattern(f):
        return []
    later = [g for g in reading.spec.tasks[instance.worksheet].fields.values()
             if g.kind == "input" and g is not f and instance.values.get(g.name) is None
             and field_applies(reading.spec, reading.state, instance, g, reading.today)]
    formatted = [g for g in later if has_pattern(g)]
    values = [v for g in formatted for v in extract.pattern_values(reading.text, pattern_of(g))]
    if not values:
        return []
    rest = reading.text
    for value in values:
        rest = rest.replace(value, " ")
    words = re.sub(r"[,;:.!]+", " ", rest).split()
    target = next((g for g in later if is_free_text(g) and not has_pattern(g) and g.required), None)
    if target is None or not 1 <= len(words) <= MAX_SHORT_ANSWER_WORDS or not all(_PLAIN_WORD.fullmatch(w) for w in words):
        return []
    return [reading.assign(instance, f, "NA"), reading.assign(instance, target, " ".join(words))]


_PLAIN_WORD = re.compile(r"[A-Za-z][A-Za-z'’-]*")


def _attempt_at_format(text: str, f: Field) -> bool:
    """A short reply written in the format's own characters (digits for an id, "@" for an email)
    that does not fit it: "jane.doe@stanford,edu", "1234567"."""
    pattern = pattern_of(f)
    needs = [c for c, sign in (("@", "@"), ("0", r"\d")) if sign in pattern]
    return (bool(needs) and len(text.split()) <= MAX_SHORT_ANSWER_WORDS and not QUESTION.search(text)
            and all(re.search(r"\d" if c == "0" else re.escape(c), text) for c in needs))


def _asks_for_a_task(reading: Reading) -> bool:
    """The message asks for a task rather than answering: another task, or the open one restated
    with nothing more ("I want to enroll in courses"); a request that also tells what happened
    ("I want to change a course, the one I have clashes with work") answers a question about
    what happened."""
    ws, score = task_match(reading)
    if ws is None or score < REQUEST_FOR_A_TASK:
        return False
    if not is_open(reading, ws):
        return True
    said = extract.content_words(" ".join((ws.description, *ws.examples)))
    return len(extract.content_words(reading.text) - said) < 2


def _restates_a_choice(reading: Reading, text: str) -> bool:
    """The reply is only an option of another question of the task, already answered: no free text."""
    said = extract.content_words(text)
    for instance in reading.open_instances():
        for g in reading.spec.tasks[instance.worksheet].fields.values():
            member = enums.mentioned_enum_value(text, g) if g.type.kind == "enum" else None  # "join the waitlist"
            if member is not None and instance.values.get(g.name) is not None and not said - extract.content_words(
                    f"{member} {g.value_descriptions.get(member, '')}"):
                return True
    return False


def _plain_no(text: str) -> bool:
    """The message opens with a bare "no" ("no. my name is...", "nope, that's all")."""
    first = extract.clauses(text)[:1]
    return bool(first) and extract.yes_no(first[0]) is False and len(first[0].split()) <= 3


def _uncapitalised_answer(reading: Reading, f: Field) -> bool:
    """A short reply that may be the asked value written without capitals ("tyler jones" for a
    format of capitalised words); not a decline, a question or small talk."""
    text = reading.text
    return ("[A-Z]" in pattern_of(f) and text != capitalised(text)
            and len(text.split()) <= MAX_SHORT_ANSWER_WORDS and not declines(reading, f)
            and not extract.says_unknown(text) and not QUESTION.search(text)
            and not small_talk(text) and not addresses_the_agent(text))


def _reported(reading: Reading) -> bool:
    """The agent's last turn reported a result with its question: thanks then is for the
    result, not an answer to the question."""
    return any(isinstance(a, Report) for a in reading.state.last_acts)
