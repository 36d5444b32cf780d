"""A person's name given as an answer: "Jane Doe", "José de la Cruz", "tyler jones"; from "my name is
Jane Doe and I study physics" the name alone. A sentence ("this is so frustrating") or a description
("an international student") is no name: the agent asks again rather than filing it as one.
"""

from __future__ import annotations

import re

from ..spec import Field

_PERSON = {"full", "first", "last", "given", "family", "maiden", "middle", "student", "customer", "user", "guest",
           "contact", "person", "your", "my", "his", "her", "their", "mother", "mothers", "father", "owner", "holder"}
"""Words that say a name field holds a person's name ("full_name", "the student's name"), not a course's."""
_NAME_WORD = re.compile(r"[^\W\d_][\w'’.-]*$")
_PARTICLES = {"van", "von", "der", "den", "de", "la", "le", "del", "della", "da", "di", "du", "dos", "bin", "ibn", "al",
              "el", "st", "mc", "mac", "y"}
_NOT_IN_A_NAME = {
    "i", "i'm", "im", "me", "my", "mine", "you", "your", "we", "our", "it", "it's", "its", "this", "that", "these",
    "those", "the", "a", "an", "is", "are", "am", "was", "were", "be", "been", "being", "so", "very", "really", "too",
    "not", "no", "yes", "yeah", "ok", "okay", "and", "but", "or", "if", "because", "please", "pls", "thanks", "thank",
    "help", "want", "need", "know", "don't", "dont", "can", "can't", "could", "would", "will", "should", "do", "does",
    "did", "have", "has", "had", "what", "why", "how", "when", "where", "who", "which", "with", "for", "from", "to", "of",
    "in", "on", "at", "about", "just", "still", "already", "here", "there", "again", "sorry", "hi", "hello", "hey",
    "great", "good", "fine", "cool", "nice", "perfect", "sure", "alright", "right", "wow", "oops", "lol",
}
"""Words that make a reply a sentence or a description rather than a name."""
_CONNECTOR = re.compile(r"^(?:,|;|\.|!|-|\band\b|\bbut\b|\bbtw\b|\bplease\b|\bpls\b|\bthanks?\b|\bthank you\b|\bthx\b)", re.I)
_LEAD_FILLER = re.compile(r"^(?:(?:um+|uh+|er+m*|oh+|ah+|hmm+|well|so|ok(?:ay)?|yes|yeah|sure)\b[\s,.!]*)+", re.I)
MAX_NAME_WORDS = 6


def names_a_person(f: Field) -> bool:
    """Whether the free-text field holds a person's name: its name says whose ("full_name",
    "mothers_maiden_name"; not "course_name" or "childhood_pet_name"), or is just "name" for a person."""
    words = set(f.name.lower().split("_"))
    if f.type.kind != "str" or "name" not in words:
        return False
    if words == {"name"}:
        words = set(re.findall(r"[a-z]+", f.description.lower()))
    return bool(words & _PERSON)


def person_name(text: str) -> str | None:
    """The name a reply gives (its leading name-like words, up to a clause that follows), or None when
    the reply is not a name."""
    text = _LEAD_FILLER.sub("", text.strip())  # "oh Jones"
    words = re.findall(r"\S+", text)
    taken: list[str] = []
    for word in words[:MAX_NAME_WORDS + 1]:
        token = word.strip("\"'“”")
        initial = re.fullmatch(r"[^\W\d_]\.|(?:dr|mr|mrs|ms|mx|prof)\.", token, re.I)  # "J. R. Smith", "Dr. Lee"
        bare = token if initial else token.rstrip(",;!.")
        if not bare or not _NAME_WORD.match(bare) or bare.lower() in _NOT_IN_A_NAME:
            break
        taken.append(bare)
        if not initial and token[-1:] in (",", ";", "!", "."):
            break  # the name ends with its clause
    if not taken or len(taken) > MAX_NAME_WORDS or all(w.lower() in _PARTICLES for w in taken):
        return None
    rest = text[_end_of(text, len(taken)):]
    if rest.strip() and not _CONNECTOR.match(rest.strip()):
        return None  # "Jane is my name"? "Jane lives here": not a bare name
    return " ".join(taken)


def _end_of(text: str, count: int) -> int:
    """Where the first ``count`` words of ``text`` end (with the punctuation that closes the last)."""
    spans = [m.end() for m in re.finditer(r"\S+", text)]
    end = spans[count - 1]
    return end - 1 if text[end - 1] in ",;!." and count < len(spans) else end
