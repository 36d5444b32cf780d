"""Typed value extraction from free text: yes and no, declines, clauses, numbers, free text.

Each extractor returns the value it found or ``None``; none of them guesses. They are shared
by the rule-based parser and by the LLM parser's omission repair. The English they read is the
language module's (``genie_bot.language.english``); what a field counts or is called is its own
(``counts``, ``synonyms``).
"""

from __future__ import annotations

import re
from collections.abc import Callable
from functools import lru_cache

from rapidfuzz import fuzz, process
from rapidfuzz.distance import OSA

from ..language import english
from ..language.tokens import normalise, phrase_pattern, words
from ..language.words import content_words, stem, without_pronoun_one
from ..spec import Field
from .head_count import head_count
from .person_names import names_a_person

__all__ = ["content_words", "normalise", "stem"]

# -- yes and no ------------------------------------------------------------------------------------------
YES = set(english.YES_PHRASES)
_YES_LEAD = re.compile(rf"^{phrase_pattern(english.YES_LEADS)}(?!.*{phrase_pattern(english.TAKING_BACK)})")
"""A clear yes said first, with nothing after it that takes it back: "perfect go ahead"."""
NO = set(english.NO_PHRASES)
_WORD = re.compile(r"[a-z']+")
_EXCLAMATION = re.compile(rf"^{phrase_pattern(english.EXCLAMATIONS)}[,.!]*\s*")


def yes_no(text: str) -> bool | None:
    """True/False for a clear yes or no (leading words count: "yes, submit it"), else None."""
    t = normalise(text).strip(".!?, ")
    t = _EXCLAMATION.sub("", t) or t  # exclamations, not a no
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
    if words and (words[0] in ("sure", "correct") or _YES_WORD.fullmatch(words[0].strip(",.!"))):
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
    said = {answer for answer in map(_clause_yes_no, clauses(t)) if answer is not None}
    if len(said) == 1:
        return said.pop()  # "I really thought it was a boat! yes please"
    return _mistyped_yes_no(t) if not said else None


TYPO_SCORE = 85


def _mistyped_yes_no(text: str) -> bool | None:
    """A short yes or no with a typo ("corect", "looks goood", "defintely"); short words are not
    guessed at ("yse" could be anything)."""
    if len(text.split()) > 2 or len(text) < 5:
        return None
    best = process.extractOne(text, list(english.LONG_YES_NO), scorer=fuzz.ratio, score_cutoff=TYPO_SCORE)
    return english.LONG_YES_NO[best[0]] if best else None


_YES_WORD = re.compile(r"y+e+[sahp]*|yu+p+|ya+h*|ok+a*y*|okie|yay+")
_NO_WORD = re.compile(r"no+|no+pe+|na+h+")


_GOES_ON = re.compile(rf"{phrase_pattern(english.GOING_ON)}|\banother(?=(?:\s+please)?\s*[.!?]*$)|"
                      r"\bnext(?=\s*(?:one|question|please)?\s*[.!?]*$)", re.I)
"""Asking to go on ("one more", "next"); "next week" is no "go on"."""
_STOPS = re.compile(phrase_pattern(english.STOPPING), re.I)


def _clause_yes_no(clause: str) -> bool | None:
    """A clause's own yes or no: a yes/no word, a leading one, or asking to go on or to stop."""
    c = normalise(clause).strip(".!?, ")
    first = c.split()[0].strip(",.!") if c else ""
    if c in YES or first == "sure" or _YES_WORD.fullmatch(first):
        return True
    if c in NO or _NO_WORD.fullmatch(first):
        return False
    if _STOPS.search(c):
        return False
    return True if _GOES_ON.search(c) else None


# -- declining, not knowing, small talk ------------------------------------------------------------------
DECLINE = re.compile(rf"^(?:{phrase_pattern(english.DECLINE_LEADS)}[\s,]+)?{phrase_pattern(english.DECLINE_PHRASES)}"
                     rf"(?:[\s,.!]+{phrase_pattern(english.COURTESY_TAILS)})*[.!]*$", re.I)
UNKNOWN = re.compile(
    r"\b(forg[eo]t(ten)?|(do\s*n[o'’]?t|dont|can\s*[o'’]?\s*n?[o'’]?t|cannot|could\s*n[o'’]?t|did\s*n[o'’]?t)\s+"
    rf"((really|quite|even|actually|think\s+i|seem\s+to)\s+)*{phrase_pattern(english.NOT_KNOWING_VERBS)}|"
    r"(do\s*n[o'’]?t|dont|do not)\s+have|no (idea|clue)|not sure|unsure|never had|n/a)\b", re.I)
"""Not knowing, in the forms people type it ("i dont remember", "can not recall", "I forgot")."""
FAREWELL = re.compile(phrase_pattern(english.FAREWELLS), re.I)
THANKS = re.compile(phrase_pattern(english.THANKS), re.I)


def is_thanks(text: str) -> bool:
    return bool(THANKS.search(text))


DECLINE_TYPO_SCORE = 90
"""A short reply this close to a decline phrase is one mistyped ("nohing else", "noting else", "skp it")."""


def declines(text: str) -> bool:
    t = normalise(text).strip(" .!")
    if DECLINE.match(t):
        return True
    return len(t.split()) <= 3 and process.extractOne(t, english.MISTYPED_DECLINES, scorer=fuzz.ratio,
                                                      score_cutoff=DECLINE_TYPO_SCORE) is not None


def says_unknown(text: str) -> bool:
    """The text says the user does not know or cannot give something ("I forgot my student id")."""
    return bool(UNKNOWN.search(text))


UNKNOWN_LEAD_WORDS = 5


def unknown_near_start(clause: str) -> bool:
    """The clause opens with not knowing ("oh geez I don't remember, let me call my mom")."""
    match = UNKNOWN.search(clause)
    return match is not None and len(clause[:match.start()].split()) <= UNKNOWN_LEAD_WORDS


def is_farewell(text: str) -> bool:
    """The user is closing the conversation ("thanks, bye", "that's all for today")."""
    return bool(FAREWELL.search(text))


# -- clauses and the fields they talk about --------------------------------------------------------------
_CLAUSE_BREAK = re.compile(rf"[!?;]+|[.,]+(?=\s|$)|{phrase_pattern(english.CLAUSE_BREAKS)}|"
                           rf"\band\s+(?={phrase_pattern(english.AND_BEFORE_A_CLAUSE)})", re.I)


def clauses(text: str) -> list[str]:
    """The message cut at punctuation and at "but": the unit a decline or a value refers to."""
    return [text[start:end] for start, end in clause_spans(text)]


def clause_spans(text: str) -> list[tuple[int, int]]:
    """Where each clause of ``clauses`` is in ``text`` (without surrounding spaces)."""
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


def joined(text: str, spans: list[tuple[int, int]]) -> str:
    """The parts of ``text`` at ``spans``, as written: neighbours keep the punctuation between
    them ("the library, 2nd floor"); parts with words left out between them join with ", "."""
    out = ""
    for index, (start, end) in enumerate(spans):
        if index and re.fullmatch(r"[\s,;:.!?-]*", text[spans[index - 1][1]:start]):
            out += text[spans[index - 1][1]:start] + text[start:end]
        else:
            out += (", " if out else "") + text[start:end]
    return out.strip()


def name_words(f: Field) -> set[str]:
    """The distinctive words of a field's name: ``student_email_address`` -> {student, email, address}."""
    words = set(f.name.lower().split("_"))
    return (words - english.GENERIC_FIELD_WORDS) or words


def declined_by_name(text: str, f: Field) -> bool:
    """Whether ``text`` declines the field by naming it: "no guest" (``guest_name``), "without extras"."""
    words = "|".join(re.escape(w) for w in name_words(f))
    return bool(words) and bool(re.search(rf"{phrase_pattern(english.NONE_OF)}\s+(?:{words})s?\b", text, re.I))


def _head_word(f: Field) -> str:
    """The stem of the noun a number field is a number of: the last distinctive word of its name
    (``question_number``: question; ``course_num_units``: unit)."""
    words = [w for w in f.name.lower().split("_") if w not in english.GENERIC_FIELD_WORDS] or f.name.lower().split("_")
    return stem(words[-1])


def mentions(text: str, f: Field) -> bool:
    """Whether ``text`` names the field: by a distinctive word of its name, in any form ("my email",
    "my student id", "the grading" for ``grade_type``), or by one of its ``synonyms`` ("the party size")."""
    words = {w for w in _WORD.findall(text.lower()) if len(w) >= 3}
    named = name_words(f)
    return any(w.startswith(k) or k.startswith(w) for w in words for k in named) or bool(
        content_words(text) & content_words(" ".join(named))) or (
        bool(f.synonyms) and re.search(phrase_pattern(f.synonyms), text, re.I) is not None)


_STATEMENT = re.compile(rf"^(?:.*?{phrase_pattern(english.POSSESSORS)}\s+)?(?P<subject>(?:[\w'’]+\s+){{0,3}}?[\w'’]+)\s+"
                        rf"(?:{phrase_pattern(english.STATING_VERBS)}|=|:)\s+(?P<value>[^.!?,;]+)", re.I)
MAX_STATED_WORDS = 5
_HEDGE = re.compile(rf"^({phrase_pattern(english.HEDGES)}\s+)+", re.I)


def statements_of_value(text: str) -> list[tuple[str, str]]:
    """(subject, value) of each clause shaped "my X is Y" with a short Y: ("email", "ann@stanford.edu");
    "the name is wrong, it's Joanna Lee" states the name Joanna Lee (wrong is no name)."""
    out = []
    parts = clauses(text)
    for index, clause in enumerate(parts):
        match = _STATEMENT.match(clause)
        if not match or len(match.group("value").split()) > MAX_STATED_WORDS or says_unknown(clause):
            continue
        value = _HEDGE.sub("", match.group("value").strip())  # "my name is spelled Jayne Doe"
        if _WRONG.fullmatch(value):
            following = _STATING.sub("", parts[index + 1]).strip() if index + 1 < len(parts) else ""
            if not following or len(following.split()) > MAX_STATED_WORDS:
                continue
            value = following
        out.append((match.group("subject").lower(), value))
    return out


_WRONG = re.compile(phrase_pattern(english.WRONG_WORDS), re.I)
_STATING = re.compile(r"^(?:(?:it|that)['’]?s|(?:it|that) is|it should be|should be|actually|but)\s+", re.I)


def shared_name_words(text: str, f: Field) -> set[str]:
    """The words of the field's name (of three letters or more) that ``text`` uses, plurals and possessives too."""
    words = {w.rstrip("'’s") or w for w in _WORD.findall(text.lower().replace("’", "'"))}
    return {k for k in f.name.lower().split("_") if len(k) > 2 and any(w == k or w == k.rstrip("s") for w in words)}


_NAME_LIKE = re.compile(r"^(?:[A-Z][\w&'-]*|\w*\d\w*)(?:\s+(?:[A-Z][\w&'-]*|\w*\d\w*|of|to|and|for|the|in))*$")
_NAME_END = (rf"(?=\s+{phrase_pattern(english.NAME_ENDS)}"
             r"(?!\s+(?-i:[A-Z0-9]))|[.!?,;:(]|$)")


def named_after(text: str, f: Field) -> str | None:
    """A name or code the message gives right after a word of the field's description and a
    preposition: "the waitlist for CS 107" gives "the course whose waitlist to join" CS 107. Only
    something written like a name (capitalised, or with digits) counts."""
    words = [w for w in _WORD.findall(f.description.lower()) if len(w) >= 4 and w not in english.STOP_WORDS]
    for word in words:
        pattern = rf"\b{re.escape(word)}\w*\s+(?:{'|'.join(english.NAME_PREPOSITIONS)})\s+(?:the\s+)?(?P<phrase>.+?){_NAME_END}"
        for match in re.finditer(pattern, text, re.I):
            phrase = re.sub(r"\s+(?:in|on|at)$", "", match.group("phrase").strip())
            if phrase and _NAME_LIKE.match(phrase) and len(phrase.split()) <= 5:
                return phrase
    return None


# -- values of a declared format, places and dates -------------------------------------------------------
def pattern_values(text: str, pattern: str) -> list[str]:
    """Substrings of ``text`` that the whole ``pattern`` matches, not cut out of a longer token."""
    flags = re.match(r"\(\?[aiLmsux]+\)", pattern)  # global flags must stay in front: (?i)TKT-\d{5}
    prefix, body = (flags.group(0), pattern[flags.end():]) if flags else ("", pattern)
    bounded = re.compile(rf"{prefix}(?<![\w/.-])(?:{body})(?![\w/-]|\.\w)")
    found = [m.group(0) for m in bounded.finditer(text)]
    if found or not _DIGIT_GROUPS.search(text):
        return found
    joined = _DIGIT_GROUPS.sub(lambda m: re.sub(r"[\s-]", "", m.group(0)), text)  # "0634 5678" is 06345678
    return [v for v in (m.group(0) for m in bounded.finditer(joined)) if v.isdigit()]


_DIGIT_GROUPS = re.compile(r"\b\d{2,}(?:[ -]\d{2,})+\b")


_PHRASE_END = rf"(?=\s+{phrase_pattern(english.PHRASE_ENDS)}|[.!?,;:(]|$)"
MAX_ROLE_WORDS = 6


def _says_now(f: Field) -> bool:
    """The description is of a present state: "the course the student is enrolled in now"."""
    return f.description.lower().rstrip(" .").endswith(english.PRESENT_ADVERBS)


def role_prepositions(f: Field) -> list[str]:
    """The prepositions a field's description ends with: "the place the user goes to or near" -> [near, to];
    "the course the student is enrolled in now" -> [in]."""
    found = []
    description = f.description.lower().rstrip(" .")
    for adverb in english.PRESENT_ADVERBS:
        description = description.removesuffix(f" {adverb}")
    for word in reversed(description.split()):
        if word in english.ROLE_PREPOSITIONS:
            found.append(word)
        elif word not in ("or", "and"):
            break
    if not found:  # "the address where the items are picked up": from (one way only)
        implied = [p for p in english.ROLE_VERBS if _ROLE_VERB[p].search(description)]
        found = implied if len(implied) == 1 else []
    return found


_ROLE_VERB = {p: re.compile(rf"{phrase_pattern((*english.RELATIVE_WORDS, 'the'))}.*{phrase_pattern(verbs)}", re.I)
              for p, verbs in english.ROLE_VERBS.items()}


_WANTING = re.compile(rf"{phrase_pattern(english.WANTING)}\s+(?:to (?:take|do|get|switch to)\s+)?"
                      r"(?:the\s+)?", re.I)


_INFINITIVE_BEFORE = re.compile(rf"{phrase_pattern(english.BEFORE_AN_INFINITIVE)}\s+$", re.I)


def role_phrase(text: str, f: Field) -> str | None:
    """The phrase after a preposition a field's description ends with: "the place the user leaves from"
    takes "Palo Alto" from "I'm driving from Palo Alto to the office"; the last fitting one wins. A
    description ending "instead" takes what is wanted instead ("i want physics 148c instead")."""
    if f.description.lower().rstrip(" .").endswith(" instead"):
        instead = re.search(r"\s+instead\b", text, re.I)
        wants = list(_WANTING.finditer(text, 0, instead.start())) if instead else []
        phrase = text[wants[-1].end():instead.start()].strip(" ,") if wants and instead else ""
        return phrase if 0 < len(phrase.split()) <= MAX_ROLE_WORDS else None
    prepositions = role_prepositions(f)
    if not prepositions:
        return None
    found = None
    phrase_at = re.compile(rf"(?:the\s+)?[\"'‘“]?(?P<phrase>[^.!?,;:\"'’”]+?)[\"'’”]?{_PHRASE_END}", re.I)
    lead = rf"{phrase_pattern(english.PRESENT_LEADS)}\s+" if _says_now(f) else ""  # "i'm in history 156 right now"
    for start in re.finditer(rf"\b{lead}(?:{'|'.join(prepositions)})\s+", text, re.I):  # each: "to my date near X"
        if _INFINITIVE_BEFORE.search(text, 0, start.start()):
            continue  # "i need to reorder my contacts": what the user does, no place
        match = phrase_at.match(text, start.end())
        phrase = match.group("phrase").strip() if match else ""
        if phrase and phrase.split()[0].lower() not in {*english.COMMON_VERBS, "me", "you", "my", "a", "it", "there", "here"}:
            found = phrase
    return found


# -- numbers ---------------------------------------------------------------------------------------------
_TIMES = re.compile(r"(?<![\w.])[x×]\s?(\d+)\b|\b(\d+)\s?[x×](?![A-Za-z\d])", re.I)


def numbers(text: str, loose: bool = True) -> list[float]:
    """Numbers written with digits or words ("four", "twenty two", and unless not ``loose``, "a couple"),
    and counts written as times ("x2", "2x")."""
    text = _TIMES.sub(lambda m: f" {m.group(1) or m.group(2)} ", text)
    out: list[float] = [float(m.replace(",", "")) for m in re.findall(r"(?<![\w.])-?\d[\d,]*(?:\.\d+)?(?![A-Za-z\d])", text)]
    words = _WORD.findall(normalise(text))
    i = 0
    while i < len(words):
        word = words[i]
        if word in NUMBER_WORDS and word not in ("a", "an") and (loose or word not in english.VAGUE_NUMBER_WORDS):
            value = NUMBER_WORDS[word]
            if value >= 20 and i + 1 < len(words) and words[i + 1] in NUMBER_WORDS and NUMBER_WORDS[words[i + 1]] < 10:
                value += NUMBER_WORDS[words[i + 1]]
                i += 1
            out.append(float(value))
        i += 1
    return out


def number_for(text: str, f: Field | None = None) -> float | None:
    """The single number in ``text`` or, with several, the one next to a word of the field's name."""
    heads = head_count(text, counted_nouns(f)) if f is not None and counts_people(f) else None
    if heads is not None:
        return float(heads)  # "me plus 3 friends" is 4
    found = numbers(without_pronoun_one(text))
    if len(found) == 1:
        return found[0]
    if not found:
        found = [NUMBER_WORDS[w] for w in [_mistyped_number_word(text)] if w]  # "thre", "there" for three
        if found:
            return float(found[0])
        thing = without_pronoun_one(text)
        ordinals = [n for t in words(normalise(thing)) if (n := _number_token(t, ordinals=True))]
        if thing != text and len(ordinals) == 1:
            return ordinals[0]  # "let's do the 4th one" (not "the 28th": a day)
    return number_with_noun(text, f) if f is not None else None



def _mistyped_number_word(text: str) -> str | None:
    """The number word a one-word reply mistypes ("thre", "fiev", "there"), or None."""
    word = normalise(text).strip(" .!?")
    if not re.fullmatch(r"[a-z]{4,}", word) or word in NUMBER_WORDS:
        return None
    long_words = [w for w in NUMBER_WORDS if len(w) >= 4 and w not in english.VAGUE_NUMBER_WORDS]
    swapped = [w for w in long_words if sorted(w) == sorted(word) and OSA.distance(w, word) == 1]
    best = process.extractOne(word, long_words, scorer=fuzz.ratio, score_cutoff=TYPO_SCORE)
    return swapped[0] if swapped else best[0] if best else None


NUMBER_WORDS = english.NUMBER_WORDS


def _number_token(token: str, ordinals: bool = False) -> float | None:
    token = token.lstrip("#")
    if re.fullmatch(r"\d+(?:\.\d+)?", token):
        return float(token)
    if re.fullmatch(r"\d+(st|nd|rd|th)", token) and ordinals:
        return float(token[:-2])
    if token in NUMBER_WORDS and token not in english.VAGUE_NUMBER_WORDS:
        return float(NUMBER_WORDS[token])
    return float(english.ORDINAL_WORDS[token]) if ordinals and token in english.ORDINAL_WORDS else None


_SHORTHAND = re.compile(phrase_pattern(english.SHORTHAND))


_CLOCK_TIME = re.compile(r"\b\d{1,2}[:.]\d\d\s*(?:[ap]\.?m\b\.?)?|\b\d{1,2}\s*[ap]\.?m\b\.?")


def _added_up(tokens: list[str], is_keyword: Callable[[str], bool]) -> float | None:
    """"6 people and 2 people": counts of the field's word joined by "and" or "plus", added up."""
    counted = [(i, _number_token(word)) for i, word in enumerate(tokens[:-1]) if is_keyword(tokens[i + 1])]
    counts = [(i, v) for i, v in counted if v is not None]
    if len(counts) < 2 or not all(tokens[j + 2] in ("and", "plus") and j + 3 == k
                                  for (j, _), (k, _) in zip(counts, counts[1:])):
        return None
    return sum(v for _, v in counts)


def number_with_noun(text: str, f: Field) -> float | None:
    """A number next to one of the field's words: "question 5", "starting at number 4", "question
    four", then "4 people", "three units", "the second question"."""
    heads = head_count(text, counted_nouns(f)) if counts_people(f) else None
    if heads is not None:
        return float(heads)
    keywords = _field_words(f)
    stems = content_words(" ".join(keywords))
    t = _SHORTHAND.sub(lambda m: english.SHORTHAND[m.group(0)], normalise(text))
    t = _CLOCK_TIME.sub(" ", t)  # "5 people, 12:30pm": 12 counts no people
    tokens = re.findall(r"#?\d+(?:\.\d+)?(?:st|nd|rd|th)?|[a-z]+", t)

    def is_keyword(word: str) -> bool:
        return word in keywords or bool(content_words(word) & stems)

    total = _added_up(tokens, is_keyword)
    if total is not None:
        return total  # "6 adults and 2 kids"

    for i, word in enumerate(tokens):  # the field's word, then its number: "question 5", "start at number 4"
        if not is_keyword(word):
            continue
        for following in tokens[i + 1:i + 4]:
            value = _number_token(following)
            if value is not None:
                return value
            if following not in english.NUMBER_LINKS:
                break
    head = _head_word(f)
    for ordinals in (False, True):  # the number, then the field's word: "4 people", then "the second question"
        for i, word in enumerate(tokens[:-1]):  # ("the second course should be 3 units" is 3 units)
            value = _number_token(word, ordinals=ordinals)
            if value is not None and (is_keyword(tokens[i + 1]) if not ordinals else stem(tokens[i + 1]) == head):
                return value  # an ordinal counts only what the field is a number of: "the second course" is no units
    for match in re.finditer(r"(\d+(?:\.\d+)?|[a-z]+(?: [a-z]+)?)\s+([a-z]+)", t):
        head, noun = match.groups()
        if is_keyword(noun):
            values = numbers(head.split()[-1]) or numbers(head)
            if values:
                return values[-1]
    for match in re.finditer(r"\b([a-z]+)\s+(?:(?:at|from|with|on|number|no\.?)\s+){0,2}#?\s*(\d+)\b", t):
        noun, digits = match.groups()
        if is_keyword(noun):
            return float(digits)
    return None


def _field_words(f: Field) -> set[str]:
    """The words a number may stand next to to be the field's: those of its name, description and
    synonyms, and the nouns it counts."""
    words = set(f.name.lower().split("_")) | set(_WORD.findall(f.description.lower()))
    words |= {w for phrase in f.synonyms for w in phrase.split()} | counted_nouns(f)
    return words - english.STOP_WORDS - {"number", "whether", "what", "which"}


def counted_nouns(f: Field) -> set[str]:
    """The nouns a number field counts: its ``counts``, else the words of its name and those after
    "number of" or "how many" in its description ("the number of attendees"); every word for
    people when it counts people."""
    if f.counts:
        nouns = set(f.counts)
    else:
        description = normalise(f.description)
        nouns = set(f.name.lower().split("_")) - english.GENERIC_FIELD_WORDS
        nouns |= {m.group(1) for m in re.finditer(rf"{phrase_pattern(english.COUNTING_LEADS)}\s+(?:the\s+)?([a-z]+)",
                                                  description)}
    return nouns | set(english.PERSON_NOUNS) if nouns & set(english.PERSON_NOUNS) else nouns


def counts_people(f: Field) -> bool:
    """A number field that counts people: a party, attendees, travelers."""
    return f.type.kind in ("int", "float") and bool(counted_nouns(f) & set(english.PERSON_NOUNS))


# -- free text and content words -------------------------------------------------------------------------
_ANSWER_PREFIX = re.compile(rf"^{phrase_pattern(english.ANSWER_LEADS)}(?=(\s+\S+){{1,4}}\s*$)\s+", re.I)
_STATEMENT_PREFIX = re.compile(rf"^{phrase_pattern([w for w in english.ANSWER_LEADS if w != 'please'])}"
                               r"(?=(\s+\S+){1,4}\s*$)\s+", re.I)
"""Words before a short answer ("it's Ann Lee"); "i'm on a visa so please reply soon" is a sentence to keep whole."""
_SUBJECT_PREFIX = re.compile(r"^(?:my|the) (?P<subject>\w+(?: \w+)?) is\s+", re.I)
_TRAILING_LINK = re.compile(rf"[\s,;]+{phrase_pattern(english.VALUE_ENDINGS)}$", re.I)
"""A word that ends a value without being part of it: "bio 284 and", "cs107 please"."""


def without_lead_in(text: str) -> str:
    """The text without the words that lead into it ("oh and", "um", "also", "btw")."""
    for _ in range(3):
        stripped = _LEAD_IN.sub("", text)
        if stripped == text:
            break
        text = stripped
    return text


_LEAD_IN = re.compile(rf"^(?:um+|uh+|(?:oh|ah)[,!]|{phrase_pattern(english.LEAD_INS)},?)\s+", re.I)


def _described(f: Field) -> bool:
    """A field of text in the user's own words (a note, a problem), not a name of someone or something."""
    return f.type.kind == "str" and not f.values_from and not names_a_person(f)


def free_text(text: str, f: Field | None = None) -> str:
    """The answer part of a free-text reply ("my name is Ann Lee" -> "Ann Lee"). With ``f``, "my X is"
    is dropped only when X names the field: "my adviser is cc'd on this" is all a note."""
    value = text.strip()
    prefix = _STATEMENT_PREFIX if f is not None and _described(f) else _ANSWER_PREFIX  # a note: "please hurry"
    for _ in range(3):
        stripped = prefix.sub("", without_lead_in(value))  # "oh and we have a peanut allergy": "we ..."
        subject = _SUBJECT_PREFIX.match(stripped)
        if subject and (f is None or content_words(subject.group("subject")) & content_words(
                f"{f.name.replace('_', ' ')} {f.description}")):
            stripped = stripped[subject.end():]
        stripped = _without_role_lead(stripped, f) if f is not None and role_prepositions(f) else stripped
        if stripped == value:
            break
        value = stripped
    value = _TRAILING_LINK.sub("", value.strip().rstrip(".!"))
    return value or text.strip()


_ROLE_LEAD = re.compile(rf"^(?P<lead>(?:[\w'’-]+\s+){{1,3}}?){phrase_pattern(english.ROLE_PREPOSITIONS)}\s+(?=\S)", re.I)


def _without_role_lead(text: str, f: Field) -> str:
    """"pick up at 55 Market St" -> "55 Market St": words of the field's description before a
    preposition lead into the value of a field of a place ("where the items are picked up")."""
    match = _ROLE_LEAD.match(text)
    if match is None:
        return text
    lead = content_words(match.group("lead"))
    return text[match.end():] if lead and lead <= content_words(f"{f.name.replace('_', ' ')} {f.description}") else text
