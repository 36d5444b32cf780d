"""Free text as a field's value: the reply to the question asked, or what follows the field's name.

Free text is read only for the field just asked, or for a field the message names ("the note is
..."); never for another. A reply that is no answer (a decline, thanks, a question, a cancel, a
shrug, "hmm k") gives none. The words that lead into an answer ("it's", "my name is", "pick up
at") are left out; an account (a problem, a note, a reason) keeps every other word; other text
leaves out the clauses that only give values of other fields ("Jane Doe, jane@x.com" names Jane Doe).
"""

from __future__ import annotations

import re

from ...language import english
from ...language.tokens import phrase_pattern
from ...language.words import content_words
from .analysis.acts import asks_with_a_question_word, core
from .analysis.names import could_be_a_name
from .analysis.model import (ADDRESS, AMOUNT, CODE, DATE, EMAIL, IDENTIFIER, NAME, NUMBER, OPTION, PHONE,
                             QUESTION, SELF_CORRECTION, TIME)
from .context import Context, Target
from .field_classes import ACCOUNT, ADDRESS_FIELD, PERSON, RECORD_NAME, TEXT, THING_NAME
from .roles import field_role, phrases_in_role

MAX_NAME_WORDS = 6
MAX_RECORD_NAME_WORDS = 6
_LEAD_IN = re.compile(rf"^(?:(?:{phrase_pattern((*english.LEAD_INS, *english.FILLERS, *english.YES_PHRASES))})[\s,.!:-]+)+",
                      re.I)
_ANSWER_LEAD = re.compile(rf"^(?:{phrase_pattern((*english.ANSWER_LEADS, *english.NAME_INTRODUCTIONS, *english.SELF_INTRODUCTIONS))})"
                          r"[\s,:]+(?=(?:\S+\s*){1,4}$)", re.I)
"""Words before a short answer ("it's Ann Lee"); "i'm on a visa so please reply soon" is a sentence kept whole."""
_SUBJECT = re.compile(rf"^(?:{phrase_pattern(english.POSSESSORS)})\s+(?P<subject>[\w'’ ]{{1,30}}?)\s+"
                      rf"(?:{phrase_pattern(english.STATING_VERBS)})\s+(?=\S)", re.I)
_TRAILING = re.compile(rf"[\s,;]+(?:{phrase_pattern(english.VALUE_ENDINGS)})[.!]*$", re.I)
_ROLE_LEAD = re.compile(rf"^(?P<lead>(?:[\w'’-]+\s+){{0,3}}?)(?:{phrase_pattern(english.ROLE_PREPOSITIONS)})\s+(?=\S)", re.I)
_COPULA = re.compile(rf"^\s*(?:(?:{phrase_pattern(english.STATING_VERBS)})|[:=-]|to\b|that\b|says\b|saying\b)\s*", re.I)
_SIGNS_ONLY = re.compile(r"^[\W_]*$")
SPANS = tuple[tuple[int, int], ...]


Reading = tuple[str, "SPANS", tuple[str, ...]]


def reply_text(ctx: Context, target: Target, cls: str) -> Reading | None:
    """The reply to the field's question as its text, where it is said and how it was read, or None when the
    reply is no answer."""
    if ctx.asked is None or ctx.asked.key != target.key or not is_an_answer(ctx):
        return None
    return _answer(ctx, target, cls)


def answer_instead(ctx: Context, target: Target, cls: str) -> Reading | None:
    """The reply as the text of a field other than the one asked (one never asked, answered instead)."""
    return _answer(ctx, target, cls) if is_an_answer(ctx) else None


def named_text(ctx: Context, target: Target, cls: str) -> Reading | None:
    """Text the message gives a field it was not asked for, by naming it: after its name ("the note is ..."),
    in a clause with a word its description gives as an example ("we'll need a high chair"), right after
    a word of its description ("the waitlist for CS 107"), or in its role ("switch from cs 106b")."""
    return (_after_its_name(ctx, target, cls) or _said_by_its_examples(ctx, target)
            or _named_after_its_description(ctx, target) or _said_in_its_role(ctx, target))


def a_number_alone(ctx: Context) -> bool:
    """The reply is one number and nothing else ("3", "three?"): an answer to a free-text question too."""
    numbers = ctx.analysis.of(NUMBER)
    return len(numbers) == 1 and core(ctx.text) == core(numbers[0].text)


def is_an_answer(ctx: Context) -> bool:
    """Whether the reply could be a free-text answer at all."""
    whole = ctx.analysis.whole
    if any(whole.get(act) for act in ("decline", "unknown", "cancel", "thanks", "greeting", "goodbye", "nothing_more",
                                      "start_over")):
        return False
    if (whole.get("affirm") or whole.get("deny")) and len(ctx.text.split()) <= 3:
        return False
    if (not content_words(ctx.text) and not a_number_alone(ctx)) or _SIGNS_ONLY.match(ctx.text):
        return False  # "hmm k", a shrug; not "3" or "three?"
    questions = [c for c in ctx.analysis.cues if c.act == QUESTION]
    return not any(c.start == ctx.analysis.clauses[0][0] and asks_with_a_question_word(ctx.text[c.start:c.end])
                   for c in questions[:1])


def _answer(ctx: Context, target: Target, cls: str) -> Reading | None:
    text = ctx.text.strip()
    if cls in (PERSON, THING_NAME):
        name = name_in(ctx)
        return None if name is None else (name[0], (name[1],), ("reply reads as a name",))
    stripped, start = _without_leads(text, _field_words(target), keep_tail=cls == ACCOUNT)
    if not stripped:
        return None
    if any(c.act == SELF_CORRECTION for c in ctx.analysis.cues):  # "wait i meant cs 108": a fix, not an answer
        reading = _answer_of(ctx, target, cls, stripped, start)
        return None if reading is None else (reading[0], reading[1], (*reading[2], "the reply takes something back"))
    return _answer_of(ctx, target, cls, stripped, start)


def _answer_of(ctx: Context, target: Target, cls: str, stripped: str, start: int) -> Reading | None:
    span = ((start, start + len(stripped)),)
    if cls == RECORD_NAME:
        if len(stripped.split()) > MAX_RECORD_NAME_WORDS or _reads_as_a_sentence(stripped):
            return None
        return stripped, span, ("reply as a name the table lacks",)
    if cls in (ADDRESS_FIELD, TEXT) and (len(ctx.analysis.clauses) > 1 or _reads_as_a_sentence(stripped)):
        in_role = _said_in_its_role(ctx, target)  # "my date is near Broadway and Main. If I get close I'll know"
        if in_role is not None:
            return in_role[0], in_role[1], ("the place in its role in a longer reply",)
    if cls in (ACCOUNT, ADDRESS_FIELD):
        return stripped, span, ("reply kept whole",)
    kept = _without_other_values(ctx, target, start, start + len(stripped))
    if kept is not None and kept[0] != stripped:
        return kept[0], kept[1], ("reply without other values",)
    if kept is None and any(e.kind == OPTION and e.usable for e in ctx.analysis.entities):
        return None  # "join the waitlist" to "which course?": an option said again, no course
    return stripped, span, ("reply",)


def _without_leads(text: str, field_words: frozenset[str], keep_tail: bool = False) -> tuple[str, int]:
    """The reply without the words that lead into an answer, and where what is left starts."""
    value, start = text, 0
    for _ in range(3):
        before = value
        for pattern in (_LEAD_IN, _ANSWER_LEAD):
            match = pattern.match(value)
            if match and match.end() < len(value):
                value, start = value[match.end():], start + match.end()
        subject = _SUBJECT.match(value)
        if subject and content_words(subject.group("subject")) & field_words:
            value, start = value[subject.end():], start + subject.end()
        role = _ROLE_LEAD.match(value)
        if role and content_words(role.group("lead")) and content_words(role.group("lead")) <= field_words:
            value, start = value[role.end():], start + role.end()  # "pick up at 55 Market St"
        if value == before:
            break
    trailing = None if keep_tail else _TRAILING.search(value)
    if trailing:
        value = value[:trailing.start()]
    value = value.rstrip(" .!")
    return value, start


def _reads_as_a_sentence(text: str) -> bool:
    return any(w in english.SENTENCE_WORDS for w in text.lower().split()) and len(text.split()) > 2


def _without_other_values(ctx: Context, target: Target, start: int, end: int) -> tuple[str, SPANS] | None:
    """The reply without its clauses that only give typed values (a date, an email, an option of another
    field): "Jane Doe, jane@x.com" -> "Jane Doe"."""
    kept = []
    for s, e in ctx.analysis.clauses:
        s, e = max(s, start), min(e, end)
        if s >= e:
            continue
        inside = [x for x in ctx.analysis.entities if s <= x.start and x.end <= e and x.kind != NAME]
        rest = ctx.text[s:e]
        for x in inside:
            rest = rest.replace(x.text, " ")
        if inside and not content_words(rest) - _field_words(target):
            continue
        e = _before_other_values(ctx, s, e, inside)
        kept.append((s, e))
    if not kept:
        return None
    text = ", ".join(ctx.text[s:e] for s, e in kept)
    return text, tuple(kept)


_PREPOSITION = re.compile(rf"\s+(?:{phrase_pattern(english.NAME_PREPOSITIONS)})\s+", re.I)


def _before_other_values(ctx: Context, start: int, end: int, inside: list) -> int:
    """Where the clause's own words end: before a preposition that leads into another field's option ("CS 224V
    for a letter grade" is CS 224V)."""
    options = [x for x in inside if x.kind == OPTION and x.usable]
    for cut in _PREPOSITION.finditer(ctx.text, start, end):
        if content_words(ctx.text[start:cut.start()]) and any(x.start >= cut.end() for x in options):
            return cut.start()
    return end


def _field_words(target: Target) -> frozenset[str]:
    f = target.field
    return content_words(f"{f.name.replace('_', ' ')} {f.description} {' '.join(f.synonyms)}")


_NOT_IN_A_NAME = (EMAIL, PHONE, CODE, DATE, TIME, NUMBER, AMOUNT, ADDRESS, IDENTIFIER)


def name_in(ctx: Context) -> tuple[str, tuple[int, int]] | None:
    """The name a reply gives: its leading name-like words (after "it's", "my name is"), or None when it
    reads as a sentence ("this is so frustrating") or a description ("an international student")."""
    text = ctx.text
    for e in ctx.analysis.entities:  # "Alex Kim alex.kim@stanford.edu": the email is no part of the name
        if e.kind in _NOT_IN_A_NAME:
            text = text[:e.start] + " " * (e.end - e.start) + text[e.end:]
    stripped, start = _without_leads(text.strip(), frozenset(content_words("name")))
    words = re.findall(r"[^\W\d_][\w'’.-]*|\S+", stripped)
    taken: list[str] = []
    for word in words[:MAX_NAME_WORDS + 1]:
        bare = word.strip("\"'“”").rstrip(",;!.")
        if not bare or not re.fullmatch(r"[^\W\d_][\w'’.-]*", bare) or not could_be_a_name(bare):
            break
        taken.append(bare)
        if word[-1:] in (",", ";", "!"):
            break
    if not taken or len(taken) > MAX_NAME_WORDS:
        return None
    end_of_name = stripped.find(taken[-1]) + len(taken[-1])
    after = stripped[end_of_name:]
    rest = after.strip(" ,;.!")
    if rest and not after.lstrip()[:1] in (",", ";", ".") and not re.match(
            rf"(?:{phrase_pattern(english.VALUE_ENDINGS)}|and\b|but\b)", rest, re.I):
        return None  # "Jane lives here" is no name; "Ana Ruiz, 3A, ..." says one
    name = " ".join(taken)
    at = text.find(taken[0], start)
    return name, (at, at + len(stripped[:end_of_name]) - stripped.find(taken[0]))


_NAME_LIKE = re.compile(r"^(?:[A-Z][\w&'’-]*|\w*\d\w*)(?:\s+(?:[A-Z][\w&'’-]*|\w*\d\w*|of|to|and|for|the|in))*$")
MAX_NAMED_WORDS = 5
NAMED_BY_DESCRIPTION = "named after a word of its description"
ROLE_READING = "said in its role"


def _named_after_its_description(ctx: Context, target: Target) -> Reading | None:
    """A name or code right after a word of the field's description and a preposition, written like a name
    (capitalised, or with digits, never digits alone): "the waitlist for CS 107" gives "the course whose
    waitlist to join"."""
    words = [w for w in re.findall(r"[a-z]{4,}", target.field.description.lower()) if w not in english.STOP_WORDS]
    for word in words:
        pattern = re.compile(rf"\b{re.escape(word)}\w*\s+(?:{phrase_pattern(english.NAME_PREPOSITIONS)})\s+(?:the\s+)?",
                             re.I)
        for match in pattern.finditer(ctx.text):
            end = _NAME_END.search(ctx.text, match.end())
            phrase = ctx.text[match.end():end.start() if end else len(ctx.text)].strip()
            if phrase and _NAME_LIKE.match(phrase) and len(phrase.split()) <= MAX_NAMED_WORDS and \
                    re.search(r"[^\W\d_]", phrase):  # "a table for 2": a number, no name
                return phrase, ((match.end(), match.end() + len(phrase)),), (NAMED_BY_DESCRIPTION,)
    return None


_NAME_END = re.compile(rf"\s+(?:{phrase_pattern(english.NAME_ENDS)})\s+(?![A-Z0-9])|[.!?,;:(]|$")


def _said_in_its_role(ctx: Context, target: Target) -> Reading | None:
    """The phrase said in the field's role ("switch from cs 106b to cs 106x": the course now is cs 106b)."""
    role = field_role(target.field)
    spans = [(start, end) for start, end in (phrases_in_role(ctx.text, role) if role else [])
             if not _an_option_alone(ctx, start, end)]  # "i'm taking Transit": the option of how, no place
    if not spans:
        return None
    spans = [sp for sp in spans if ctx.text[sp[0]].isupper() or ctx.text[sp[0]].isdigit()] or spans  # "to 5th and Main"
    start, end = spans[-1]
    trailing = _TRAILING.search(ctx.text[start:end])
    end = start + trailing.start() if trailing else end
    return ctx.text[start:end], ((start, end),), (ROLE_READING,)


def _an_option_alone(ctx: Context, start: int, end: int) -> bool:
    return any(e.kind == OPTION and e.usable and e.start <= start and end <= e.end for e in ctx.analysis.entities)


def _said_by_its_examples(ctx: Context, target: Target) -> Reading | None:
    """The clauses that use a word a free-text field's description gives as an example ("we'll need a high
    chair for the baby" is a special request), without the words that lead into them."""
    used = [m for m in ctx.analysis.fields if (m.worksheet, m.field) == (target.worksheet, target.field.name)
            and m.how == "description word"]
    if not used:
        return None
    clauses = sorted({ctx.analysis.clause_of(m.start) for m in used})
    start = clauses[0][0]
    end = clauses[-1][1]
    value, at = _without_leads(ctx.text[start:end], frozenset())
    if not value:
        return None
    return value, ((start + at, start + at + len(value)),), ("text said with a word of its description",)


def _after_its_name(ctx: Context, target: Target, cls: str) -> Reading | None:
    """"the note is please hurry", "special request: a table outside", "change the full name to Rosa
    Delgado-Ruiz": what follows the field's name and a word that states it."""
    for mention in ctx.analysis.fields:
        if mention.worksheet != target.worksheet or mention.field != target.field.name:
            continue
        after = ctx.text[mention.end:]
        stated = _COPULA.match(after)
        if stated is None or not stated.group(0).strip():
            continue
        start = mention.end + stated.end()
        while start < len(ctx.text) and ctx.text[start] in " :=-":
            start += 1  # "change the description to: water is coming through the ceiling"
        end = len(ctx.text) if cls == ACCOUNT else ctx.analysis.clause_of(start)[1]
        value = ctx.text[start:end].strip(" .!")
        trailing = _TRAILING.search(value)
        value = value[:trailing.start()] if trailing else value
        if value and content_words(value):
            return value, ((start, start + len(value)),), ("text after the field's name",)
    return None
