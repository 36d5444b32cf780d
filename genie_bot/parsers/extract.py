"""Typed value extraction from free text: the rule-based parser's vocabulary.

Each extractor returns the value it found or ``None``; none of them guesses. They are shared
by the rule-based parser and by the LLM parser's omission repair.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from functools import lru_cache

from rapidfuzz import fuzz, process
from rapidfuzz.distance import OSA

from ..spec import Field
from .head_count import head_count
from .number_words import NUMBER_WORDS, VAGUE_NUMBER_WORDS

# -- yes and no ------------------------------------------------------------------------------------------
YES = {"yes", "y", "yeah", "yep", "yup", "sure", "ok", "okay", "correct", "right", "confirm", "confirmed", "definitely",
       "absolutely", "please do", "go ahead", "do it", "sounds good", "that's right", "that is right", "of course",
       "submit", "submit it", "book it", "true", "affirmative", "perfect", "great", "yes please", "alright",
       "all right", "one more", "another one", "next", "next one", "next question", "keep going", "continue", "go on",
       "let's go", "let's do it", "why not", "i'd love to", "looks good", "look good", "looks great", "looks right",
       "lgtm", "that works", "works for me", "all correct", "all right then", "yes that's right", "good to go"}
_YES_LEAD = re.compile(r"^(looks (good|great|right)|perfect|great|sounds good|go ahead|all correct|that'?s right|"
                       r"correct|lgtm|yes|yeah|yep|yup|sure)\b(?!.*\b(but|change|wrong|not|instead|except|actually|"
                       r"should|fix)\b)")
"""A clear yes said first, with nothing after it that takes it back: "perfect go ahead"."""
NO = {"no", "n", "nope", "nah", "not really", "don't", "do not", "negative", "false", "wrong", "incorrect",
      "no thanks", "no thank you", "not now", "i don't think so", "never mind", "i'm good", "i am good", "i'm fine",
      "i am fine", "i'm all set", "i am all set", "all good", "i'm ok", "i'm okay", "not today"}
_WORD = re.compile(r"[a-z']+")


def normalise(text: str) -> str:
    return re.sub(r"\s+", " ", text.strip().lower())


def yes_no(text: str) -> bool | None:
    """True/False for a clear yes or no (leading words count: "yes, submit it"), else None."""
    t = normalise(text).strip(".!?, ")
    t = re.sub(r"^(no way|oh no|oh my god|oh my|omg)\b[,.!]*\s*", "", t) or t  # exclamations, not a no
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


_LONG_YES_NO = {"correct": True, "confirm": True, "confirmed": True, "absolutely": True, "definitely": True,
                "perfect": True, "sounds good": True, "looks good": True, "go ahead": True, "incorrect": False,
                "negative": False, "not really": False}
TYPO_SCORE = 85


def _mistyped_yes_no(text: str) -> bool | None:
    """A short yes or no with a typo ("corect", "looks goood", "defintely"); short words are not
    guessed at ("yse" could be anything)."""
    if len(text.split()) > 2 or len(text) < 5:
        return None
    best = process.extractOne(text, list(_LONG_YES_NO), scorer=fuzz.ratio, score_cutoff=TYPO_SCORE)
    return _LONG_YES_NO[best[0]] if best else None


_YES_WORD = re.compile(r"y+e+[sahp]*|yu+p+|ya+h*|ok+a*y*|okie|yay+")
_NO_WORD = re.compile(r"no+|no+pe+|na+h+")


_GOES_ON = re.compile(r"\b(one more|another(?=(?:\s+(?:one|question|round|game|try|go))?(?:\s+please)?\s*[.!?]*$)|"
                      r"next(?!\s+(?:week|month|year|weekend|time|day|quarter|semester|"
                      r"(?:mon|tues|wednes|thurs|fri|satur|sun)day|mon|tue|wed|thu|fri|sat|sun)\b)|last one|keep (going|playing|on)|continue|go on|go again|"
                      r"(once|play|some|a few|two|couple) more|more (please|questions?)|"
                      r"let'?s (play|go|do|keep|continue))\b", re.I)
_STOPS = re.compile(r"\b(no more|i'?m done|i am done|all done|that'?s (it|all|enough)|enough for (now|today)|"
                    r"stop|quit)\b", re.I)


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
DECLINE = re.compile(r"^(skip( it| this)?|pass|i (don'?t|do not) know|no idea|not sure|i'?d rather not( say)?|"
                     r"rather not( say)?|prefer not to( say)?|none|nothing|no comment|n/?a|not applicable|"
                     r"nothing else|no,? that'?s (it|all)|that'?s all)[.!]*$", re.I)
UNKNOWN = re.compile(
    r"\b(forg[eo]t(ten)?|(do\s*n[o'’]?t|dont|can\s*[o'’]?\s*n?[o'’]?t|cannot|could\s*n[o'’]?t|did\s*n[o'’]?t)\s+"
    r"((really|quite|even|actually|think\s+i|seem\s+to)\s+)*(know|remember|recall|recollect|find|think of)|"
    r"(do\s*n[o'’]?t|dont|do not)\s+have|no (idea|clue)|not sure|unsure|never had|n/a)\b", re.I)
FAREWELL = re.compile(
    r"\b(good\s*-?\s*bye|bye|see (you|ya)|take care|have a (good|great|nice|lovely) (day|one|night|evening|weekend)|"
    r"that'?s (all|it)|that is (all|it)|that will be all|that'?ll be all|"
    r"i'?m (done|all set|finished)|i am (done|all set|finished)|all done|done for (now|today|the day)|call it quits|"
    r"i give up)\b", re.I)
THANKS = re.compile(r"\b(thanks?|thank (you|u)|thx|ty|appreciate|grateful)\b", re.I)


def is_thanks(text: str) -> bool:
    return bool(THANKS.search(text))


_DECLINE_PHRASES = ("nothing else", "nothing more", "nothing", "no thanks", "no idea", "not sure", "skip", "skip it",
                    "no comment", "rather not say", "prefer not to say")
DECLINE_TYPO_SCORE = 90
"""A short reply this close to a decline phrase is one mistyped ("nohing else", "noting else", "skp it")."""


def declines(text: str) -> bool:
    t = normalise(text).strip(" .!")
    if DECLINE.match(t):
        return True
    return len(t.split()) <= 3 and process.extractOne(t, _DECLINE_PHRASES, scorer=fuzz.ratio,
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
_CLAUSE_BREAK = re.compile(r"[!?;]+|[.,]+(?=\s|$)|\b(?:but|though|however|although)\b|"
                           r"\band\s+(?=(?:my|her|his|the|in|on|during|for)\b)",
                           re.I)
GENERIC_NAME_WORDS = {"name", "number", "date", "of", "the", "details", "detail", "id", "code", "type", "value", "my"}


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
    return (words - GENERIC_NAME_WORDS) or words


def mentions(text: str, f: Field) -> bool:
    """Whether ``text`` names the field by a distinctive word of its name ("my email", "my student id")."""
    words = {w for w in _WORD.findall(text.lower()) if len(w) >= 3}
    return any(w.startswith(k) or k.startswith(w) for w in words for k in name_words(f))


_STATEMENT = re.compile(r"^(?:.*?\b(?:my|her|his|our|their|the)\s+)?(?P<subject>(?:[\w'’]+\s+){0,3}?[\w'’]+)\s+"
                        r"(?:is|was|were|are|=|:)\s+(?P<value>[^.!?,;]+)", re.I)
MAX_STATED_WORDS = 5
_HEDGE = re.compile(r"^((actually|really|now|still|spelled|spelt|written|in fact|just)\s+)+", re.I)


def statements_of_value(text: str) -> list[tuple[str, str]]:
    """(subject, value) of each clause shaped "my X is Y" with a short Y: ("email", "ann@stanford.edu")."""
    out = []
    for clause in clauses(text):
        match = _STATEMENT.match(clause)
        if match and len(match.group("value").split()) <= MAX_STATED_WORDS and not says_unknown(clause):
            value = _HEDGE.sub("", match.group("value").strip())  # "my name is spelled Jayne Doe"
            out.append((match.group("subject").lower(), value))
    return out


def shared_name_words(text: str, f: Field) -> set[str]:
    """The words of the field's name (of three letters or more) that ``text`` uses, plurals and possessives too."""
    words = {w.rstrip("'’s") or w for w in _WORD.findall(text.lower().replace("’", "'"))}
    return {k for k in f.name.lower().split("_") if len(k) > 2 and any(w == k or w == k.rstrip("s") for w in words)}


_NAME_LIKE = re.compile(r"^(?:[A-Z][\w&'-]*|\w*\d\w*)(?:\s+(?:[A-Z][\w&'-]*|\w*\d\w*|of|to|and|for|the|in))*$")
_RELATION = ("for", "of", "on", "in", "to", "from", "at")
_NAME_END = (r"(?=\s+(?:in|on|at|by|because|please|so|but|and|since|for|to|with|this|next|tomorrow|today)\b"
             r"(?!\s+(?-i:[A-Z0-9]))|[.!?,;:(]|$)")


def named_after(text: str, f: Field) -> str | None:
    """A name or code the message gives right after a word of the field's description and a
    preposition: "the waitlist for CS 107" gives "the course whose waitlist to join" CS 107. Only
    something written like a name (capitalised, or with digits) counts."""
    words = [w for w in _WORD.findall(f.description.lower()) if len(w) >= 4 and w not in _STOPWORDS]
    for word in words:
        pattern = rf"\b{re.escape(word)}\w*\s+(?:{'|'.join(_RELATION)})\s+(?:the\s+)?(?P<phrase>.+?){_NAME_END}"
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


ROLE_PREPOSITIONS = ("from", "to", "at", "near", "in", "for", "with", "on")
_PHRASE_END = (r"(?=\s+(?:right now|at the moment|at|by|on|for|around|via|using|with|because|please|so|then|and then|"
               r"leaving|starting|i want|i'?d like|"
               r"departing|arriving|tomorrow|today|tonight|now|asap|if|but|when|where|as|to|from|towards|into)\b|"
               r"[.!?,;:(]|$)")
_VERBS = {"get", "go", "be", "have", "head", "make", "find", "reach", "take", "walk", "drive", "meet", "see", "do",
          "help", "leave", "start", "travel", "arrive", "come", "visit", "know", "use", "give", "play", "file",
          "report"}


_NOW = ("now", "currently", "at present")
MAX_ROLE_WORDS = 6


def _says_now(f: Field) -> bool:
    """The description is of a present state: "the course the student is enrolled in now"."""
    return f.description.lower().rstrip(" .").endswith(_NOW)


def role_prepositions(f: Field) -> list[str]:
    """The prepositions a field's description ends with: "the place the user goes to or near" -> [near, to];
    "the course the student is enrolled in now" -> [in]."""
    found = []
    description = f.description.lower().rstrip(" .")
    for adverb in _NOW:
        description = description.removesuffix(f" {adverb}")
    for word in reversed(description.split()):
        if word in ROLE_PREPOSITIONS:
            found.append(word)
        elif word not in ("or", "and"):
            break
    return found


_WANTING = re.compile(r"\b(?:want|wanna|would like|'d like|rather (?:have|take|do)|switch(?:ing)? to|chang(?:e|ing) to|"
                      r"move to|get)\s+(?:to (?:take|do|get|switch to)\s+)?(?:the\s+)?", re.I)


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
    lead = r"(?:i'?m|i am|currently|still|now)\s+" if _says_now(f) else ""  # "i'm in history 156 right now"
    for start in re.finditer(rf"\b{lead}(?:{'|'.join(prepositions)})\s+", text, re.I):  # each: "to my date near X"
        match = phrase_at.match(text, start.end())
        phrase = match.group("phrase").strip() if match else ""
        if phrase and phrase.split()[0].lower() not in _VERBS | {"me", "you", "my", "a", "it", "there", "here"}:
            found = phrase
    return found


# -- numbers ---------------------------------------------------------------------------------------------
def numbers(text: str, loose: bool = True) -> list[float]:
    """Numbers written with digits or words ("four", "twenty two", and unless not ``loose``, "a couple")."""
    out: list[float] = [float(m.replace(",", "")) for m in re.findall(r"(?<![\w.])-?\d[\d,]*(?:\.\d+)?(?![A-Za-z])", text)]
    words = _WORD.findall(normalise(text))
    i = 0
    while i < len(words):
        word = words[i]
        if word in NUMBER_WORDS and word not in ("a", "an") and (loose or word not in VAGUE_NUMBER_WORDS):
            value = NUMBER_WORDS[word]
            if value >= 20 and i + 1 < len(words) and words[i + 1] in NUMBER_WORDS and NUMBER_WORDS[words[i + 1]] < 10:
                value += NUMBER_WORDS[words[i + 1]]
                i += 1
            out.append(float(value))
        i += 1
    return out


_PRONOUN_ONE = re.compile(r"\b(the|that|this|which|any|each|every|another|other|first|second|third|fourth|fifth|last|"
                          r"next|same|right|wrong|cheaper|better|nicer|closer|new|old) one\b", re.I)


def without_pronoun_one(text: str) -> str:
    """The text with "one" standing for a thing blanked out ("the second one" says no number)."""
    return _PRONOUN_ONE.sub(lambda m: " " * len(m.group(0)), text)


def number_for(text: str, f: Field | None = None) -> float | None:
    """The single number in ``text`` or, with several, the one next to a word of the field's name."""
    heads = head_count(text) if f is not None and counts_people(f) else None
    if heads is not None:
        return float(heads)  # "me plus 3 friends" is 4
    found = numbers(without_pronoun_one(text))
    if len(found) == 1:
        return found[0]
    if not found:
        found = [NUMBER_WORDS[w] for w in [_mistyped_number_word(text)] if w]  # "thre", "there" for three
        if found:
            return float(found[0])
    return number_with_noun(text, f) if f is not None else None


def _mistyped_number_word(text: str) -> str | None:
    """The number word a one-word reply mistypes ("thre", "fiev", "there"), or None."""
    word = normalise(text).strip(" .!?")
    if not re.fullmatch(r"[a-z]{4,}", word) or word in NUMBER_WORDS:
        return None
    long_words = [w for w in NUMBER_WORDS if len(w) >= 4 and w not in VAGUE_NUMBER_WORDS]
    swapped = [w for w in long_words if sorted(w) == sorted(word) and OSA.distance(w, word) == 1]
    best = process.extractOne(word, long_words, scorer=fuzz.ratio, score_cutoff=TYPO_SCORE)
    return swapped[0] if swapped else best[0] if best else None


_ORDINAL_WORDS = {"first": 1, "second": 2, "third": 3, "fourth": 4, "fifth": 5, "sixth": 6, "seventh": 7, "eighth": 8,
                  "ninth": 9, "tenth": 10, "eleventh": 11, "twelfth": 12}
_NUMBER_LINKS = {"at", "from", "with", "on", "number", "no", "the", "#", "is", "are", "was", "be", "should", "to",
                 "of"}


def _number_token(token: str, ordinals: bool = False) -> float | None:
    token = token.lstrip("#")
    if re.fullmatch(r"\d+(?:\.\d+)?", token):
        return float(token)
    if re.fullmatch(r"\d+(st|nd|rd|th)", token) and ordinals:
        return float(token[:-2])
    if token in NUMBER_WORDS and token not in ("a", "an", "single", "couple", "pair", "dozen"):
        return float(NUMBER_WORDS[token])
    return float(_ORDINAL_WORDS[token]) if ordinals and token in _ORDINAL_WORDS else None


NOUN_ABBREVIATIONS = {"ppl": "people", "pple": "people", "pax": "people", "hrs": "hours", "hr": "hours",
                      "mins": "minutes", "wks": "weeks", "yrs": "years", "qtr": "quarter", "qtrs": "quarters",
                      "guests": "people", "guest": "people", "persons": "people", "party size": "people",
                      "of us": "people", "adults": "people", "adult": "people", "kids": "people", "kid": "people",
                      "children": "people", "child": "people"}
"""Chat shorthand and other words for what numbers count ("3 ppl", "4 guests", "the party size")."""
_NOUN_ABBREVIATION = re.compile(rf"\b({'|'.join(NOUN_ABBREVIATIONS)})\b")


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
    heads = head_count(text) if counts_people(f) else None
    if heads is not None:
        return float(heads)
    keywords = _field_words(f)
    t = _NOUN_ABBREVIATION.sub(lambda m: NOUN_ABBREVIATIONS[m.group(1)], normalise(text))
    t = _CLOCK_TIME.sub(" ", t)  # "5 people, 12:30pm": 12 counts no people
    tokens = re.findall(r"#?\d+(?:\.\d+)?(?:st|nd|rd|th)?|[a-z]+", t)

    def is_keyword(word: str) -> bool:
        return word in keywords or word.rstrip("s") in keywords or stem(word) in keywords

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
            if following not in _NUMBER_LINKS:
                break
    for ordinals in (False, True):  # the number, then the field's word: "4 people", then "the second question"
        for i, word in enumerate(tokens[:-1]):  # ("the second course should be 3 units" is 3 units)
            value = _number_token(word, ordinals=ordinals)
            if value is not None and is_keyword(tokens[i + 1]):
                return value
    for match in re.finditer(r"(\d+(?:\.\d+)?|[a-z]+(?: [a-z]+)?)\s+([a-z]+)", t):
        head, noun = match.groups()
        if noun in keywords or noun.rstrip("s") in keywords:
            values = numbers(head.split()[-1]) or numbers(head)
            if values:
                return values[-1]
    for match in re.finditer(r"\b([a-z]+)\s+(?:(?:at|from|with|on|number|no\.?)\s+){0,2}#?\s*(\d+)\b", t):
        noun, digits = match.groups()
        if noun in keywords or noun.rstrip("s") in keywords:
            return float(digits)
    return None


_STOP = {"the", "of", "a", "an", "to", "for", "in", "is", "are", "and", "or", "number", "what", "which", "whether"}


def _field_words(f: Field) -> set[str]:
    words = _name_words(f)
    if counts_people(f):
        words |= {"people", "person", "persons", "guests", "guest", "of us", "adults", "party"}
    return words - _STOP


def _name_words(f: Field) -> set[str]:
    words = set(f.name.lower().split("_")) | set(_WORD.findall(f.description.lower()))
    return {w.rstrip("s") for w in words} | words


def counts_people(f: Field) -> bool:
    """A number field whose name or description counts people (a party size, guests)."""
    return f.type.kind in ("int", "float") and bool({"people", "person", "party", "guest"} & _name_words(f))


# -- free text and content words -------------------------------------------------------------------------
_ANSWER_PREFIX = re.compile(
    r"^(?:it'?s|it is|that'?s|that is|i'?m|i am|call me|i'?d like|i want|i would like|please)(?=(\s+\S+){1,4}\s*$)\s+",
    re.I)  # "i'm on a visa so please reply soon" is a sentence to keep whole
_SUBJECT_PREFIX = re.compile(r"^(?:my|the) (?P<subject>\w+(?: \w+)?) is\s+", re.I)
_TRAILING_LINK = re.compile(r"[\s,;]+(and|but|or|so|plus|also|please|pls|plz|thanks|thank you|thx|ty)$", re.I)
"""A word that ends a value without being part of it: "bio 284 and", "cs107 please"."""


def without_lead_in(text: str) -> str:
    """The text without the words that lead into it ("oh and", "um", "also", "btw")."""
    for _ in range(3):
        stripped = _LEAD_IN.sub("", text)
        if stripped == text:
            break
        text = stripped
    return text


_LEAD_IN = re.compile(r"^(?:um+|uh+|well|so|and|but|plus|(?:oh|ah)(?:[,!]|\s+(?:and|also|plus)\b)|and also|also|btw|"
                      r"by the way,?)\s+", re.I)


def free_text(text: str, f: Field | None = None) -> str:
    """The answer part of a free-text reply ("my name is Ann Lee" -> "Ann Lee"). With ``f``, "my X is"
    is dropped only when X names the field: "my adviser is cc'd on this" is all a note."""
    value = text.strip()
    for _ in range(3):
        stripped = _ANSWER_PREFIX.sub("", without_lead_in(value))  # "oh and we have a peanut allergy": "we ..."
        subject = _SUBJECT_PREFIX.match(stripped)
        if subject and (f is None or content_words(subject.group("subject")) & content_words(
                f"{f.name.replace('_', ' ')} {f.description}")):
            stripped = stripped[subject.end():]
        if stripped == value:
            break
        value = stripped
    value = _TRAILING_LINK.sub("", value.strip().rstrip(".!"))
    return value or text.strip()


_STOPWORDS = {"i", "me", "my", "we", "our", "you", "your", "a", "an", "the", "to", "of", "for", "in", "on", "at", "and",
              "or", "is", "are", "be", "it", "this", "that", "with", "want", "would", "like", "need", "please", "can",
              "could", "do", "does", "have", "has", "some", "about", "from", "get", "help", "hi", "hello", "hey",
              "just", "so", "also", "there", "what", "how", "which", "will", "am", "was", "im", "id", "yes", "no", "as",
              "by", "not", "all", "after", "whether", "why", "had", "were", "been", "its", "if", "than", "but",
              "really", "very", "else", "something", "anything"}


def stem(word: str) -> str:
    """A word without its ending: "transferred", "transfers" -> "transfer"; "change", "changing",
    "changes" -> "chang" (a final e is dropped, as "-ing" and "-ed" drop it)."""
    for suffix in ("ing", "ed", "es", "s"):
        if len(word) > len(suffix) + 3 and word.endswith(suffix):
            root = word[: -len(suffix)]
            doubled = suffix in ("ing", "ed") and root[-1] == root[-2] and root[-1] not in "aeiouls"
            word = root[:-1] if doubled else root
            break
    return word[:-1] if len(word) > 4 and word.endswith("e") else word


_CAMEL = re.compile(r"(?<=[a-z])(?=[A-Z])")


@lru_cache(maxsize=4096)
def content_words(text: str) -> frozenset[str]:
    """Stemmed words that carry meaning, for matching a message against descriptions and examples
    (a name written in CamelCase is its words: "TroubleShoot" is "trouble" and "shoot"). Cached: the
    same descriptions are read at every turn."""
    words = _WORD.findall(_CAMEL.sub(" ", text).lower().replace("'", ""))
    return frozenset(SAME_MEANING.get(stem(w), stem(w)) for w in words if w not in _STOPWORDS and len(w) > 1)


SAME_MEANING = {"switch": "chang", "swap": "chang", "swapp": "chang", "class": "cours", "reserv": "book",
                "additional": "extra", "info": "detail", "information": "detail",
                "reservation": "book", "child": "kid", "children": "kid", "kiddo": "kid"}
"""Everyday words for the same thing, by stem: a user who wants to "switch classes" wants to
change a course, whatever words a worksheet's descriptions use."""
