"""Dialogue acts: what a message, or a part of it, does with what it says.

Each act is recognised from the language module's data (:mod:`genie_bot.language.english`):
a yes or a no, declining or not knowing, cancelling and starting over, a self-correction ("no
wait"), a change of mind ("actually", "instead"), a denial ("not tuesday"), a question, a value
proposed as a question ("can we do 8pm?"), a request, thanks, greetings and goodbyes. The
analysis records where each cue is said (:class:`~.model.Cue`) and which acts the whole message
is, leaving what they mean for a field to the matchers.
"""

from __future__ import annotations

import re
from functools import lru_cache

from rapidfuzz import fuzz, process

from ....language import english
from ....language.tokens import normalise, phrase_pattern, words
from ....language.words import content_words
from .model import (ABOUT_AGENT, AFFIRM, CANCEL, CHANGE, DECLINE, DENY, GOODBYE, GREETING, NEGATION, NOTHING_MORE,
                    PROPOSAL, QUESTION, REQUEST, SELF_CORRECTION, START_OVER, THANKS, UNKNOWN, Cue)

_P = lambda phrases: re.compile(phrase_pattern(phrases), re.I)  # noqa: E731 - every cue pattern is built so
CUE_PATTERNS: dict[str, re.Pattern[str]] = {
    AFFIRM: _P(english.YES_PHRASES),
    DENY: _P(english.NO_PHRASES),
    DECLINE: _P((*english.DECLINE_PHRASES, *english.DECLINE_WORDS)),
    UNKNOWN: _P(english.UNKNOWN_PHRASES),
    CANCEL: _P(english.CANCEL_PHRASES),
    START_OVER: _P(english.START_OVER_PHRASES),
    SELF_CORRECTION: _P(english.SELF_CORRECTION_CUES),
    CHANGE: _P(english.CHANGE_CUES),
    NEGATION: _P(english.NEGATING_CUES),
    REQUEST: _P(english.REQUEST_LEADS),
    THANKS: _P(english.THANKS),
    GOODBYE: _P(english.GOODBYES),
    GREETING: _P(english.GREETINGS),
    NOTHING_MORE: _P(english.NOTHING_MORE),
}
_QUESTION_LEAD = re.compile(rf"^(?:(?:{phrase_pattern(english.POLITE_QUESTION_LEADS)})[\s,.!]+)*"
                            rf"(?:{phrase_pattern(english.QUESTION_WORDS)}|(?:{phrase_pattern(english.AUXILIARIES)})\s+"
                            rf"(?:{phrase_pattern(english.ASKED_SUBJECTS)}))", re.I)
_ASKING_TO_DO = re.compile(rf"^(?:(?:{phrase_pattern(english.POLITE_QUESTION_LEADS)})[\s,.!]+)*"
                           rf"(?:{phrase_pattern(english.ACTION_REQUESTS)})\b", re.I)
"""A request said as a question ("can i get a double burger", "could you book it"): no question for the records."""
_PROPOSING = re.compile(rf"^(?:(?:{phrase_pattern(english.POLITE_QUESTION_LEADS)})[\s,.!]+)*"
                        rf"(?:{phrase_pattern(english.PROPOSING_LEADS)})", re.I)
_CLAUSE_BREAK = re.compile(rf"[!?;]+|[.,]+(?=\s|$)|\s[-–—]\s|{phrase_pattern(english.CLAUSE_BREAKS)}|"
                           rf"\band\s+(?={phrase_pattern(english.AND_BEFORE_A_CLAUSE)})", re.I)
_LEAD = re.compile(rf"^(?:(?:{phrase_pattern((*english.FILLERS, *english.DECLINE_LEADS, *english.LEAD_INS))})[\s,.!]*)+",
                   re.I)
_COURTESY = re.compile(rf"(?:[\s,.!]*(?:{phrase_pattern((*english.COURTESY_TAILS, *english.THANKS))}))+[\s.!]*$", re.I)
_SIGNS = re.compile(r"[\s,.!?;:]+")


def cues(text: str, clauses: list[tuple[int, int]]) -> list[Cue]:
    """Every cue of every act, where it is said; a clause that asks (a question mark, a question
    word first) is a question, or a proposal when it proposes a value ("can we do 8pm instead?")."""
    out = [Cue(act, m.start(), m.end()) for act, pattern in CUE_PATTERNS.items() for m in pattern.finditer(text)]
    for start, end in clauses:
        clause = text[start:end]
        asks = _QUESTION_LEAD.match(clause) is not None or text[end:end + 2].lstrip().startswith("?") or clause.rstrip().endswith("?")
        if _PROPOSING.match(clause):
            out.append(Cue(PROPOSAL, start, end))
        elif _ASKING_TO_DO.match(clause):
            out.append(Cue(REQUEST, start, end))
        elif asks:
            out.append(Cue(QUESTION, start, end))
    if normalise(text).strip(" ?!.") in english.ABOUT_THE_AGENT or _about_the_agent(text):
        out.append(Cue(ABOUT_AGENT, 0, len(text)))
    return sorted(out, key=lambda c: (c.start, c.end, c.act))


def asks_with_a_question_word(clause: str) -> bool:
    """The clause starts with a question word (after polite words): "hey, who teaches it"."""
    return _QUESTION_LEAD.match(clause) is not None


def _about_the_agent(text: str) -> bool:
    core = _LEAD.sub("", normalise(text)).strip(" ?!.")
    return core in english.ABOUT_THE_AGENT


def clause_spans(text: str) -> list[tuple[int, int]]:
    """The message cut at punctuation and at words that start a new clause ("but"), without spaces around."""
    spans, start = [], 0
    for match in [*_CLAUSE_BREAK.finditer(text), None]:
        end = match.start() if match else len(text)
        piece = text[start:end]
        if piece.strip():
            lead = len(piece) - len(piece.lstrip())
            spans.append((start + lead, start + len(piece.rstrip())))
        if match:
            start = match.end()
    return spans


def core(text: str) -> str:
    """The message without the fillers before it and the courtesy after it ("um, no thanks!" -> "no")."""
    said = _COURTESY.sub("", _LEAD.sub("", normalise(text)))
    return _SIGNS.sub(" ", said).strip() or _SIGNS.sub(" ", normalise(text)).strip()


def whole_acts(text: str) -> dict[str, bool]:
    """The acts the whole message is: a yes or a no, declining, not knowing, cancelling, starting over,
    thanks or greetings alone, nothing more to add, a goodbye."""
    said = core(text)
    answer = yes_or_no(text)
    return {
        AFFIRM: answer is True,
        DENY: answer is False,
        DECLINE: declines(text),
        UNKNOWN: (bool(CUE_PATTERNS[UNKNOWN].search(text)) and len(said.split()) <= 8) or _not_known_in_a_clause(text),
        CANCEL: cancels(text),
        START_OVER: said in english.START_OVER_PHRASES,
        THANKS: _only(text, (*english.THANKS, *english.GREETINGS, *english.YES_PHRASES, *english.COURTESY_AROUND_THANKS))
        and bool(CUE_PATTERNS[THANKS].search(text)),
        GREETING: _only(text, (*english.GREETINGS, *english.COURTESY_AROUND_GREETINGS)),
        NOTHING_MORE: _only(text, (*english.NOTHING_MORE, *english.NO_PHRASES, *english.FOR_NOW)) and bool(
            CUE_PATTERNS[NOTHING_MORE].search(text)),
        GOODBYE: _farewell(text) or _farewell(_last_clause(text)),
    }


def _farewell(text: str) -> bool:
    """A goodbye with nothing but courtesy around it ("thanks, bye!", "ok have a great day")."""
    return bool(CUE_PATTERNS[GOODBYE].search(text)) and _only(
        text, (*english.FAREWELLS, *english.THANKS, *english.NO_PHRASES, *english.YES_PHRASES, *english.GREETINGS,
               *english.COURTESY_AROUND_THANKS, *english.FOR_NOW))


def _last_clause(text: str) -> str:
    """The last clause: a message that ends on a goodbye ("I will ask my daughter. Bye!") is one, whatever it
    said before (the matchers check that it gave no value there)."""
    spans = clause_spans(text)
    return text[spans[-1][0]:spans[-1][1]] if len(spans) > 1 else ""


def _not_known_in_a_clause(text: str) -> bool:
    """A clause says the user does not know what was asked, however long the rest: "I cannot remember it for the
    life of me!", "Oh, gosh. I don't think I remember it.", "I don't know. I promise it's me though"."""
    for start, end in clause_spans(text):
        clause = text[start:end]
        cue = CUE_PATTERNS[UNKNOWN].search(clause)
        if cue is None or content_words(clause[:cue.start()]) - english.BELIEF_WORDS:
            continue
        after = words(clause[cue.end():])
        if not after or after[0] in english.NOT_KNOWN_OBJECTS:
            return True
    return False


def _only(text: str, phrases: tuple[str, ...]) -> bool:
    """Whether the message is made of these phrases alone (and signs)."""
    rest = _only_pattern(phrases).sub(" ", normalise(text))
    return not _SIGNS.sub("", rest)


@lru_cache(maxsize=64)
def _only_pattern(phrases: tuple[str, ...]) -> re.Pattern[str]:
    return re.compile(rf"(?:{phrase_pattern((*phrases, *english.FILLERS))})", re.I)


# -- yes and no --------------------------------------------------------------------------------------------
YES = frozenset(english.YES_PHRASES)
NO = frozenset(english.NO_PHRASES)
_YES_LEAD = re.compile(rf"^{phrase_pattern(english.YES_LEADS)}(?!.*{phrase_pattern(english.TAKING_BACK)})")
_YES_NO_LEAD = re.compile(rf"^(?:{phrase_pattern(english.YES_NO_LEADS)})[\s,.!]+(?=\S)", re.I)
_EXCLAMATION = re.compile(rf"^{phrase_pattern(english.EXCLAMATIONS)}[,.!]*\s*")
_YES_WORD = re.compile(r"y+e+[sahp]*|yu+p+|ya+h*|ok+a*y*|okie|yay+")
_NO_WORD = re.compile(r"no+|no+pe+|na+h+")
_GOES_ON = re.compile(rf"{phrase_pattern(english.GOING_ON)}", re.I)
_STOPS = re.compile(phrase_pattern(english.STOPPING), re.I)
TYPO_SCORE = 85


def yes_or_no(text: str) -> bool | None:
    """True or False for a clear yes or no (said first: "yes, submit it"; a yes with nothing after it
    that takes it back: "perfect go ahead"), else None."""
    t = normalise(text).strip(".!?, ")
    taken_back = _taken_back(t)
    if taken_back is not None:
        return taken_back
    t = _EXCLAMATION.sub("", t) or t
    t = _YES_NO_LEAD.sub("", t) or t  # "actually no, i'd rather be home"
    if t in YES:
        return True
    if t in NO:
        return False
    first = re.split(r"[,.!;]| but ", t, maxsplit=1)[0].strip()
    if first in YES:
        return True
    if first in NO:
        return False
    words = t.split()
    if words and _YES_WORD.fullmatch(words[0].strip(",.!")):
        return True
    if _YES_LEAD.match(t):
        return True
    if words and _NO_WORD.fullmatch(words[0].strip(",.!")):
        return False
    if 1 < len(words) <= 3:  # "hell yeah", "oh yes", "well no"
        short = {w.strip(",.!") for w in words}
        yes_word, no_word = any(_YES_WORD.fullmatch(w) for w in short), any(_NO_WORD.fullmatch(w) for w in short)
        if yes_word != no_word:
            return yes_word
    said = {answer for clause in _clauses(t) if not CUE_PATTERNS[SELF_CORRECTION].fullmatch(clause.strip(" ,.!"))
            for answer in [_clause_yes_no(clause)] if answer is not None}
    if len(said) == 1:
        return said.pop()
    return _mistyped_yes_no(t) if not said else None


def _taken_back(t: str) -> bool | None:
    """The answer said after the user took back the one before ("yes, no wait, no", "yes, i mean no"; "yes wait
    no": the no of the cue), else None."""
    cues = [m for m in CUE_PATTERNS[SELF_CORRECTION].finditer(t) if m.start() > 0]
    if not cues:
        return None
    last = cues[-1]
    tail = t[last.end():].strip(" ,.!")
    if tail:
        return yes_or_no(tail)
    before = t[:last.start()].strip(" ,.!")
    if before and yes_or_no(before) is True and any(_NO_WORD.fullmatch(w) for w in last.group(0).split()):
        return False
    return None


def _clauses(text: str) -> list[str]:
    return [text[s:e] for s, e in clause_spans(text)]


def _clause_yes_no(clause: str) -> bool | None:
    c = clause.strip(".!?, ")
    first = c.split()[0].strip(",.!") if c else ""
    if c in YES or _YES_WORD.fullmatch(first):
        return True
    if c in NO or _NO_WORD.fullmatch(first):
        return False
    if _STOPS.search(c):
        return False
    return True if _GOES_ON.search(c) else None


def _mistyped_yes_no(text: str) -> bool | None:
    """A short yes or no with a typo ("corect", "looks goood"); short words are not guessed at."""
    if len(text.split()) > 2 or len(text) < 5:
        return None
    best = process.extractOne(text, list(english.LONG_YES_NO), scorer=fuzz.ratio, score_cutoff=TYPO_SCORE)
    return english.LONG_YES_NO[best[0]] if best else None


# -- declining and cancelling --------------------------------------------------------------------------------
_DECLINE = re.compile(rf"^(?:{phrase_pattern((*english.DECLINE_PHRASES, *english.DECLINE_WORDS, *english.UNKNOWN_PHRASES))}"
                      rf"[\s,.!]*)+$", re.I)
DECLINE_TYPO_SCORE = 90


def declines(text: str) -> bool:
    """The whole message declines or does not know ("skip", "nope that's it", "n/a", "no idea"),
    also mistyped when short ("nohing else", "skp it")."""
    said = core(text)
    if _DECLINE.match(said) or _DECLINE.match(normalise(text).strip(" .!")):
        return True
    return len(said.split()) <= 3 and process.extractOne(said, english.MISTYPED_DECLINES, scorer=fuzz.ratio,
                                                         score_cutoff=DECLINE_TYPO_SCORE) is not None


_CANCEL_CLAUSE = re.compile(rf"^(?:(?:{phrase_pattern((*english.FILLERS, *english.LEAD_INS, *english.NO_PHRASES, 'actually', 'just', 'please', 'you know what', 'on second thought', 'eh', 'ugh'))})[\s,.!]+)*"
                            rf"(?:{phrase_pattern(english.CANCEL_PHRASES)})"
                            rf"(?:\s+(?:{phrase_pattern(english.CANCEL_OBJECTS)}|(?:{phrase_pattern(english.POSSESSIVES)})\s+\w+))?"
                            rf"(?:[\s,.!]+(?:{phrase_pattern((*english.COURTESY_TAILS, 'then', 'now', 'for now', 'please'))}))*[.!]*$",
                            re.I)
_CANCEL_FIRST = re.compile(rf"^((?:{phrase_pattern((*english.FILLERS, 'eh', 'ugh', 'oh'))})[\s,.!]+)*"
                           rf"(?P<cancel>(?:{phrase_pattern(english.CANCEL_PHRASES)})(?:\s+(?:{phrase_pattern(english.CANCEL_OBJECTS)}))?)"
                           r"[.!,]*\s+(?P<rest>.+)$", re.I)


def cancels(text: str) -> bool:
    """A clause drops what is being done ("eh forget it, ill just buy it", "cancel for now"), and no
    other clause gives a value or asks ("never mind, my id is 06123456" corrects)."""
    clauses: list[str] = []
    for clause in _clauses(text):
        first = _CANCEL_FIRST.match(clause)
        clauses += [first.group("cancel"), first.group("rest")] if first else [clause]
    dropping = [c for c in clauses if _CANCEL_CLAUSE.match(c.strip())]
    rest = " ".join(c for c in clauses if c not in dropping)
    return bool(dropping) and not re.search(r"\d", rest) and "?" not in text
