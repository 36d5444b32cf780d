"""Words for a field, built from what the bot builder wrote: a label and a question.

A field's ``ask:`` and ``label:`` are used as written. Without them, both come from its
description, spoken to the user ("the student's full name" -> "What is your full name?",
"when the form was submitted" -> "When was the form submitted?"), never from the code name.
"""

from __future__ import annotations

import re
from functools import lru_cache

from ..language import english
from ..language.tokens import phrase_pattern, words
from ..language.words import active, stem
from ..spec import Field, KnowledgeWorksheet, TaskWorksheet

_ADVERBS = r"(?:(?:already|still|also|really|currently|usually|actually|ever|once)\s+)*"


@lru_cache(maxsize=64)
def _user_patterns(users: tuple[str, ...]) -> tuple[re.Pattern, re.Pattern, re.Pattern, re.Pattern]:
    """Subject, possessive, leading object and object patterns for the nouns that stand for the user."""
    user = "|".join(re.escape(u) for u in sorted({*english.USER_NOUNS, *users}, key=len, reverse=True))
    return (re.compile(rf"\b(?:the|this) (?:{user}) ({_ADVERBS})([a-z]+)\b", re.I),
            re.compile(rf"\b(?:the|this) (?:{user})['’]s\b", re.I),
            re.compile(rf"^(\w+) (?:a|an|the) (?:{user})(?=\s+(?:in|to|for|with|on|at|into|from|about)\b|$)", re.I),
            re.compile(rf"\b(for|to|with|by|from|about) (?:the|this) (?:{user})\b(?!['’])", re.I))
_THIRD_PERSON = {"is": "are", "was": "were", "has": "have", "does": "do"}
_WH = ("what", "when", "where", "which", "who", "whom", "whose", "why", "how")
_AUXILIARIES = ("is", "are", "was", "were", "has", "have", "had", "will", "would", "can", "could", "should", "do",
                "does", "did")
_RELATIVE = re.compile(rf"\s*{phrase_pattern(english.RELATIVE_WORDS)}", re.I)
_LABEL_END = re.compile(r"\s*(?:\(|,|;|:|(?<![\w'’-])(?:to|for|that|which|where|who|whose|when|in|like|such as|from|at|on|by)"
                        r"(?![\w'’-])).*$", re.I)
"""Where the head of a description ends: a clause or a preposition, as a whole word ("the check-in date"
is no "check-" before "in")."""


_SAYS_OPTIONAL = re.compile(
    r"(?<![\w-])(?:optional|skip|if any|not required|leave (?:it|this) (?:blank|empty)"
    r"|(?:you can|you may|feel free to|just) (?:say|answer|reply) (?:no|none|nothing|n/a)"
    r"|(?:no|none|nothing) is (?:fine|ok|okay))(?![\w-])", re.I)
"""How a builder's ``ask:`` already says its question may be declined: "(You can say no.)", "any notes? (optional)"."""


def says_optional(question_text: str) -> bool:
    """Whether a question already tells the user they need not answer it (so no hint is added)."""
    return _SAYS_OPTIONAL.search(question_text) is not None


def to_user(text: str) -> str:
    """Speak to the user: "the customer's id" -> "your id", "the student wants" -> "you want" (the
    agent's own word for its users, ``vocabulary: {users: [student]}``, while it is in effect)."""
    subject, possessive, leading_object, object_ = _user_patterns(tuple(active().users))
    text = possessive.sub("your", text)
    spoken = subject.sub(_subject, text)
    if spoken != text:  # "you already know their position": the rest of the clause is about the user too
        spoken = re.sub(r"\b(their|his|her)\b", "your", spoken)
    spoken = leading_object.sub(lambda m: f"{m.group(1)} you", spoken)  # "Enroll a student in" -> "Enroll you in"
    return object_.sub(lambda m: f"{m.group(1)} you", spoken)


def _subject(match: re.Match) -> str:
    """"the student already knows" -> "you already know"; left alone when no verb follows ("the student id")."""
    adverbs, word = match.group(1), match.group(2)
    verb = _second_person(word)
    return match.group(0) if verb is None else f"you {adverbs}{verb}"


def _second_person(word: str) -> str | None:
    """The verb agreeing with "you", or None when ``word`` is not a third-person verb."""
    lower = word.lower()
    if lower in _THIRD_PERSON:
        return _THIRD_PERSON[lower]
    if lower in ("would", "will", "can", "could", "should", "may", "must", "did"):
        return lower
    if len(lower) > 3 and lower.endswith("s") and not lower.endswith(("ss", "us", "is")):
        return lower[:-2] if lower.endswith(("sses", "shes", "ches", "xes")) else lower[:-1]
    return None


def label(f: Field) -> str:
    """A short name for the field in a summary: ``label:``, else the head of its description
    ("the student's full name" -> "Full name"), else its name in words."""
    if f.label:
        return f.label
    name = _name_words(f.name)
    description = f.description.strip().rstrip(".")
    words = description.lower().split()
    if words[:1] == ["what"] and len(words) <= 6 and words[1] not in _AUXILIARIES:
        return _capital(to_user(description))  # "what the student needs help with" -> "What you need help with"
    if not words or words[0] in _WH + ("whether", "if"):
        return _capital(name)
    head = _user_patterns(tuple(active().users))[1].sub("your", description)  # "the maiden name of the customer's mother": of your mother
    head = re.sub(r"^(?:the|a|an|your)\s+", "", head.strip(), flags=re.I)
    head = re.sub(r"^(\w+)['’]s\s+", r"\1 ", head)  # "course's code" -> "course code"
    head_of_description = head.strip()
    whole = _LABEL_END.sub("", head).strip()
    head = _before_relative_clause(whole)
    says_less = " " not in head and len(name.split()) > 1 and (head.lower() in name.lower().split() or head != whole)
    cut = _LABEL_END.search(head_of_description)
    role_cut = cut is not None and _RELATIVE.match(cut.group(0)) is not None and len(name.split()) > 1 \
        and name.split()[0].lower() not in head.lower()  # "the branch where the car is picked up": Pickup location
    if not head or says_less or role_cut:  # "the course the student is in now", "the place the user leaves from": the name
        return _capital(name)
    return _capital(head)


def _before_relative_clause(phrase: str) -> str:
    """"course the student is enrolled in" -> "course": a determiner not after a preposition starts a clause."""
    words = phrase.split()
    for index in range(1, len(words)):
        if words[index].lower() in ("the", "a", "an", "your", "you") and words[index - 1].lower() not in _PREPOSITIONS:
            return " ".join(words[:index])
    return phrase


_PREPOSITIONS = {"of", "in", "on", "at", "for", "to", "with", "from", "by", "about", "into", "under", "over"}


def _name_words(name: str) -> str:
    """``is_international_student`` -> "international student"; digits and flags of a name dropped."""
    words = [w for w in name.split("_") if w and not w.isdigit()]
    if len(words) > 1 and words[0] in ("is", "has", "num"):
        words = words[1:] if words[0] != "num" else ["number", "of", *words[1:]]
    return " ".join(words)


def question(f: Field, record: bool = False) -> str:
    """The question that asks for ``f``: ``ask:``, else a sentence from the description (for a
    ``record`` of a knowledge table, "Which" and its label)."""
    if f.ask:
        return f.ask
    if record:  # "the study room, a row of the rooms table" -> "Which study room?"
        return f"Which {label(f)[:1].lower()}{label(f)[1:]}?"
    description = _inner(to_user(f.description.strip().rstrip(".?"))) or f.name.replace("_", " ")
    first, _, rest = description.partition(" ")
    lead = first.lower()
    if lead in ("whether", "if"):
        return _yes_no_question(rest) or f"Could you tell me {description}?"
    if lead in _WH:
        return _capital(_wh_question(lead, rest)) + "?"
    if f.type.kind in ("bool", "confirm"):
        return f"Could you tell me {description}?"
    words = description.split()
    index = 1 if lead in ("the", "your", "a", "an") and len(words) > 1 else 0
    while index + 1 < len(words) and words[index].lower().endswith(("'s", "’s")):
        index += 1  # "the player's answer": the answer is what is asked for
    noun = words[index].lower()
    verb = "are" if noun.endswith("s") and not noun.endswith(("ss", "us", "is", "'s", "’s")) else "is"
    if lead in ("the", "your", "a", "an"):
        return f"What {verb} {description}?"
    return f"What {verb} the {description}?"


def _wh_question(wh: str, rest: str) -> str:
    """"when" + "the form was submitted" -> "when was the form submitted"; "what is wrong" stays."""
    words = rest.split()
    if not words or words[0].lower() in _AUXILIARIES:
        return f"{wh} {rest}"  # "what is wrong with the credits": the wh-word is the subject
    if wh == "how" and words[0].lower() in ("many", "much", "long", "often", "far", "old"):
        return f"{wh} {rest}"
    for index, word in enumerate(words[1:], 1):
        if word.lower() in _AUXILIARIES:
            return " ".join([wh, word, *words[:index], *words[index + 1:]])
    if words[0].lower() == "you" and len(words) > 1:
        return " ".join([wh, "do", *words])  # "what you need help with" -> "what do you need help with"
    return f"{wh} {rest}"


def _yes_no_question(clause: str) -> str | None:
    """"you want to take a third course" -> "Do you want to take a third course?"."""
    words = clause.split()
    for index, word in enumerate(words[:6]):
        if word.lower() in _AUXILIARIES:
            return _capital(" ".join([word, *words[:index], *words[index + 1:]])) + "?"
    if len(words) > 1 and words[0].lower() == "you":
        return "Do " + " ".join(words) + "?"
    return None


def _inner(text: str) -> str:
    """A description as part of a sentence: "The courses that..." -> "the courses that..."."""
    first = text.split(" ", 1)[0]
    capitalised_word = len(first) > 1 and first[0].isupper() and first[1:].islower()  # "Name of", not "CS"
    return text[:1].lower() + text[1:] if capitalised_word else text


def task_phrase(ws: TaskWorksheet | None) -> str:
    """The task in the bot's sentences ("Shall I go ahead and <phrase>?"): ``phrase:``, else the
    description spoken to the user without its parenthesised explanation ("Report an IT incident
    (something is broken)" -> "report an IT incident")."""
    if ws is None or not (ws.phrase or ws.description):
        return "do that"
    phrase = ws.phrase or to_user(_PARENTHESISED.sub("", ws.description).strip().rstrip("."))
    return _inner(phrase)


_PARENTHESISED = re.compile(r"\s*\([^()]*\)")


def records(kb: KnowledgeWorksheet | None, count: int = 2) -> str:
    """What ``count`` records of a table are called: its ``noun:`` ("laptop", "6 laptops"), else "items"."""
    if kb is None or kb.noun is None:
        return "item" if count == 1 else "items"
    return kb.noun if count == 1 else kb.plural or plural(kb.noun)


def plural(noun: str) -> str:
    """The English plural of a noun (its last word): laptop -> laptops, category -> categories, box -> boxes."""
    head, _, last = noun.rpartition(" ")
    lower = last.lower()
    if lower.endswith(("s", "x", "z", "ch", "sh")):
        last += "es"
    elif lower.endswith("y") and lower[-2:-1] not in tuple("aeiou"):
        last = last[:-1] + "ies"
    else:
        last += "s"
    return f"{head} {last}" if head else last


def _capital(text: str) -> str:
    return text[:1].upper() + text[1:]


_SENTENCE = re.compile(r"\([^()]*\)|[^.?!;()]+(?:[.?!;]+|$)")
"""A sentence, a clause ended by a semicolon, or a parenthesised remark: the units a text may repeat."""


def unsaid(asked: str, said: str) -> str:
    """``asked`` (a question, maybe with remarks) without the sentences ``said`` already says, so that a
    validation message and the question after it repeat nothing: "A course can be taken for 1 to 5 units;
    how many units would you like?" needs no "How many units would you like to take it for?" after it,
    nor "We see patients from 8am to 6pm; please pick a time." a second "We see patients from 8am to 6pm."
    A question is repeated only by a question, a statement by any sentence saying all it says."""
    before = [(_meaning(u), u.strip().endswith("?")) for u in _SENTENCE.findall(said) if _meaning(u)]
    kept = []
    for unit in _SENTENCE.findall(asked):
        meaning, asks = _meaning(unit), unit.strip().endswith("?")
        if meaning and any(meaning <= m or (asks and q and m <= meaning) for m, q in before if q or not asks):
            continue
        kept.append(unit.strip())
    return " ".join(u for u in kept if u)


def _meaning(text: str) -> frozenset[str]:
    """The stemmed words of a sentence but its stop words, numbers and times included ("8am")."""
    return frozenset(stem(w) for w in words(text) if w not in english.STOP_WORDS)
