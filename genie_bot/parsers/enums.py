"""Enum members in a message: which declared value the user means.

Read from what the spec declares for each member: its name ("Join Waitlist"), its description
("get onto the waitlist of a full course") and the phrases a description lists in parentheses
("go on (yes, next, keep going)"); forms of a word ("emailed" names Email), typos ("autum"),
and negation ("I haven't submitted it" names Not Submitted when the enum has it).
"""

from __future__ import annotations

import re
from collections.abc import Set as AbstractSet

from rapidfuzz import fuzz, process
from rapidfuzz.distance import OSA

from ..language import english
from ..language.tokens import phrase_pattern
from ..spec import Field
from .extract import _WORD, content_words, normalise, yes_no

def enum_value(text: str, f: Field, threshold: int = 85, explicit: bool = False) -> str | None:
    """The enum member ``text`` names: exact, contained, misspelt, one of its listed phrases, or
    (unless ``explicit``) a clear fuzzy match of its name or description."""
    t = normalise(text).strip(" .!?")
    values = list(f.values)
    for v in values:
        if t == v.lower():
            return v
    other = the_other_member(text, f)
    if other is not None:
        return other
    contained = [v for v in values if re.search(as_written(v), t)]
    contained = _not_denied(contained, t)
    if len(contained) == 1:
        return negation_aware(text, f, contained[0])
    if len(contained) > 1:
        longest = max(contained, key=len) if len({len(c) for c in contained}) == len(contained) else None
        return longest and negation_aware(text, f, longest)
    misspelt = _misspelt_values(t, f)
    if misspelt:  # "i haven't submited it" is Not Submitted
        return negation_aware(text, f, misspelt[0])
    pair = _opposite_pair(f)
    said = _yes_or_no_reply(text)
    if pair is not None and said is not None:  # "yes" to "have you submitted the form, or not yet?"
        return pair[0] if said else pair[1]
    listed = listed_phrase_value(t, f)
    if listed is not None or explicit:
        return listed
    choices = {v: f"{v} {f.value_descriptions.get(v, '')}".lower() for v in values}
    said = yes_no(text)
    # a bare yes or no is no member whose name holds the word ("no" is not Credit/No Credit)
    scored = [] if said is not None and len(t.split()) <= 2 else process.extract(t, choices, scorer=fuzz.token_set_ratio,
                                                                                 limit=2)
    best = scored[0] if scored else None
    runner_up = scored[1][1] if len(scored) > 1 else 0
    if best is not None and best[1] >= threshold and best[1] - runner_up >= 10:
        return best[2]
    # "yes please" picks the member described with "yes", a question the one with "question"
    kind = "question" if "?" in text else None if said is None else "yes" if said else "no"
    if kind is not None:
        word = re.compile(rf"\b{kind}\b", re.I)
        answering = [v for v in values if word.search(f.value_descriptions.get(v, ""))]
        if len(answering) == 1:
            return answering[0]
    partial = [(v, fuzz.partial_ratio(v.lower(), t)) for v in values if len(v) >= 3 and said is None]
    partial = [p for p in partial if p[1] >= 90]
    if len(partial) == 1 and len(t) <= 3 * len(partial[0][0]) + 20:
        return partial[0][0]
    return _by_meaning(t, f)


_NONE_OF_THESE = re.compile(r"\b(something else|some other|(?:an|some) other (?:one|kind|type|test)|a different (?:one|kind|type)|"
                            r"none of (?:those|these|them|the above)|neither|not (?:any|one) of (?:those|these|them))\b", re.I)
_STANDS_FOR_THE_REST = re.compile(r"^(?:an?other|other|others|something else|none|none of the above)\b", re.I)


def the_other_member(text: str, f: Field) -> str | None:
    """The member that stands for every other case ("Other: another external test") when the message
    says it is none of the members named ("something else", "neither", "not AP or IB"), or None."""
    others = [v for v in f.values if _STANDS_FOR_THE_REST.match(v) or _STANDS_FOR_THE_REST.match(f.value_descriptions.get(v, ""))]
    if len(others) != 1:
        return None
    t = normalise(text)
    named = [v for v in f.values if re.search(as_written(v), t)]
    negated = _negated_list(t)
    if named and others[0] not in named and all(re.search(as_written(v), negated) for v in named):
        return others[0]  # "not ap or ib": every member named is negated
    return others[0] if not named and _NONE_OF_THESE.search(t) else None


def _negated_list(text: str) -> str:
    """The words a "not" or "neither" denies, with the list it starts ("not ap or ib", "neither x nor y")."""
    return " ".join(m.group(0) for m in re.finditer(r"\b(?:not|no|neither|nor)\b(?:\s+(?:an?|the|my)\b)?(?:\s+[\w'-]+)"
                                                    r"(?:\s*(?:,|or|nor|and)\s+(?:an?\s+)?[\w'-]+)*", text))


def _not_denied(members: list[str], text: str) -> list[str]:
    """Of several members a message names, the one it does not deny ("it's not AP, it's IB"), else all."""
    if len(members) < 2:
        return members
    negated = _negated_list(text)
    affirmed = [v for v in members if not re.search(as_written(v), negated)]
    return affirmed if len(affirmed) == 1 else members


_DID = re.compile(r"^(?:(?:i|we)\s+)?(?:already\s+)?(?:did|have|had|do)(?:\s+(?:it|that|so))?(?:\s+already)?$|^already(?:\s+did)?$")
_NOT_YET = re.compile(r"^(?:no,?\s+)?not yet$|^(?:(?:i|we)\s+)?(?:haven'?t|didn'?t|have not|did not|don'?t)(?:\s+(?:yet|it))?$")


def _yes_or_no_reply(text: str) -> bool | None:
    """Yes or no, also said with a verb alone ("already did", "I have", "not yet", "I haven't")."""
    t = normalise(text).strip(" .!?")
    return True if _DID.match(t) else False if _NOT_YET.match(t) else yes_no(text)


def _opposite_pair(f: Field) -> tuple[str, str] | None:
    """(X, Not X) when the enum is a yes/no choice between a member and its negation ("Submitted",
    "Not Submitted"): yes answers the one, no the other."""
    if len(f.values) != 2:
        return None
    for v in f.values:
        opposite = next((o for o in f.values if o.lower() in (f"not {v.lower()}", f"no {v.lower()}")), None)
        if opposite is not None:
            return v, opposite
    return None


def otherwise_value(f: Field) -> str | None:
    """The member an enum's description marks as the answer to a remark that names none ("otherwise")."""
    marked = [v for v in f.values if re.search(r"\botherwise\b", f.value_descriptions.get(v, ""), re.I)]
    return marked[0] if len(marked) == 1 else None


def listed_phrases(description: str) -> list[str]:
    """The example phrases a value's description lists in parentheses: "go on (yes, next, keep going)"."""
    return [p.strip().lower() for group in re.findall(r"\(([^)]*)\)", description)
            for p in re.split(r",|;", group) if p.strip()]


def listed_phrase_value(text: str, f: Field) -> str | None:
    """The member one of whose listed example phrases the text uses, the longest phrase winning
    ("ok, more details please" uses "more details" of one member and "ok" of another)."""
    t = re.sub(r"\s+", " ", re.sub(r"[,.!?;:]+", " ", re.sub(r"['’]", "", normalise(text)))).strip()  # "don't", "dont"
    best: dict[str, int] = {}
    for v in f.values:
        for phrase in listed_phrases(f.value_descriptions.get(v, "")):
            phrase = re.sub(r"['’]", "", phrase)  # a word may take an ending: "more detail" in "more detailed"
            if re.search(rf"(?<!\w){re.escape(phrase)}(?:s|es|ed|ing)?(?!\w)", t):
                best[v] = max(best.get(v, 0), len(phrase))
    if not best:
        return None
    top = max(best.values())
    winners = [v for v, n in best.items() if n == top]
    return winners[0] if len(winners) == 1 else None


_NEGATED = re.compile(rf"{phrase_pattern(english.NEGATIONS)}((?:\s+[\w']+){{1,3}})", re.I)
"""A negation and the words it denies ("haven't sent it", "not by email")."""


def said_negated(text: str, member: str) -> bool:
    """Whether ``text`` names ``member`` only under a negation ("not email", "haven't emailed it")."""
    written = re.compile(as_written(member))
    said = [m.span() for m in written.finditer(normalise(text))]
    denied = [m.span(1) for m in _NEGATED.finditer(normalise(text))]
    return bool(said) and all(any(s <= start and end <= e for s, e in denied) for start, end in said)


_MISTAKEN = re.compile(r"\b(?:wrong|missed)\b(?!\s+with\b)((?:\s+[\w']+){1,2})", re.I)
"""What went wrong is no choice: "I got the wrong form" does not choose the form."""


def _chosen_words(text: str) -> frozenset[str]:
    """Content words of ``text``, those under a negation marked as negated ("not by email" says "not
    email", never "email"), those under a mistake left out ("the wrong course"), and "wrong" in
    "something is wrong with my enrollment" too (the enrollment is what it is about)."""
    spans = [m.group(1) for pattern in (_NEGATED, _MISTAKEN) for m in pattern.finditer(text)]
    spans += [m.group(1) for m in _WRONG_WITH.finditer(text)]
    return content_words(text) - content_words(" ".join(spans)) | _negated_words(text)


_WRONG_WITH = re.compile(r"\b(wrong|the (?:matter|problem|issue))\s+with\b", re.I)


def _words_as_meant(words: AbstractSet[str], f: Field) -> set[str]:
    """The words, a long one misspelt taken as the word of a member it is close to ("enrollmet")."""
    known = set().union(*(member_words(f, v) for v in f.values))
    surfaces = _surface_words(f)
    meant = set()
    for word in words:
        close = None if word in known or len(word) < MIN_TYPO_LENGTH + 1 else process.extractOne(
            word, [k for k in surfaces if k[:1] == word[:1]], scorer=fuzz.ratio, score_cutoff=TYPO_SCORE + 3)
        meant.add(surfaces[close[0]] if close else word)  # the first letter is kept: "mother" is no "other"
    return meant


def _surface_words(f: Field) -> dict[str, str]:
    """The words of the members' names and descriptions as written, each with its stem: a misspelt
    word ("enrollmet") is compared with the words as written ("enrollment"), never with stems."""
    text = " ".join(f"{v} {f.value_descriptions.get(v, '')}" for v in f.values)
    return {w: stem for w in _WORD.findall(text.lower()) for stem in content_words(w)}


def member_words(f: Field, value: str) -> frozenset[str]:
    """The words of a member's name and description, a word its description negates marked as such:
    "the credits do not show up" is what "they never showed up" says."""
    description = f.value_descriptions.get(value, "")
    negated = _negated_words(re.sub(r"\([^)]*\)", " ", description))  # listed phrases are examples: "(no I'm good)"
    return content_words(value) | content_words(description) - {w.removeprefix("not ") for w in negated} | negated


def _negated_words(text: str) -> set[str]:
    return {f"not {w}" for m in _NEGATED.finditer(text) for w in content_words(m.group(1))}


def _by_meaning(text: str, f: Field) -> str | None:
    """The one value whose name and description share the most content words with the text
    (words under a negation do not count: "I don't know the way" does not mean "I know the way")."""
    words = _words_as_meant(_chosen_words(text), f)
    overlaps = sorted(((len(words & member_words(f, v)), v) for v in f.values), reverse=True)
    if overlaps and overlaps[0][0] > 0 and (len(overlaps) == 1 or overlaps[0][0] > overlaps[1][0]):
        return overlaps[0][1]
    return None


def mentioned_enum_value(text: str, f: Field, ignore: AbstractSet[str] = frozenset(),
                         explicit: bool = False) -> str | None:
    """An enum member named in a longer message (for volunteered values): verbatim, a one-word
    member by another form of the word ("drive" names Driving, "walked" names Walking, "emialed"
    Email), or by the words of its name and description (unless ``explicit``: a member named as
    such). ``ignore``: words that say nothing about this choice (those of the field's worksheet)."""
    other = the_other_member(text, f)
    if other is not None:
        return other
    t = normalise(text)
    found = _not_denied([v for v in f.values if len(v) > 1 and re.search(as_written(v), t)], t)
    if not found:
        roots = {word_root(w) for w in _WORD.findall(t) if not content_words(w) & ignore}
        found = [v for v in f.values if " " not in v and len(v) > 3 and word_root(v.lower()) in roots]
    if not found:
        found = _misspelt_values(t, f)
    if not found:  # a phrase the description lists for the member is as good as its name ("cr/nc")
        listed = listed_phrase_value(t, f)
        found = [listed] if listed is not None else []
    if not found and not explicit:
        found = _described_values(t, f, ignore)
    return negation_aware(text, f, max(found, key=len)) if found else None


def as_written(value: str) -> str:
    """A pattern for ``value`` as a message writes it: any punctuation or spaces between its words
    ("credit no credit", "credit/no credit" for Credit/No Credit)."""
    words = re.findall(r"[a-z0-9']+", value.lower())
    return rf"(?<!\w){'[^a-z0-9]+'.join(map(re.escape, words))}(?!\w)" if words else re.escape(value.lower())


def described_member(text: str, f: Field) -> str | None:
    """The member only the description of which says what the message says ("the class is full"
    for "get onto the waitlist of a full course"); the words of members' names do not count here."""
    found = _described_values(text, f, name_weight=0)
    return found[0] if found else None


def _described_values(text: str, f: Field, ignore: AbstractSet[str] = frozenset(), name_weight: int = 2) -> list[str]:
    """The member whose name and description have the most words of the message: a word of its
    name counts twice, a word of its description only when no other member has it ("the
    waitlist" names the member described as "get onto the waitlist of a full course"); a word every
    member uses ("course" for changing a course or joining a full course's waitlist) chooses none."""
    said = {v: member_words(f, v) for v in f.values}
    words = {w for w in _words_as_meant(_chosen_words(text), f) if len(w) > 2}  # "messed up" says nothing of credits that "show up"
    every = list(said.values())
    words -= every[0].intersection(*every[1:]) if len(every) > 1 else set()
    names = {v: content_words(v) for v in f.values}
    described = {v: said[v] - names[v] - ignore for v in f.values}
    hits = {v: name_weight * len(words & names[v]) + len(words & (described[v] - set().union(
        *(names[o] | described[o] for o in f.values if o != v)))) for v in f.values}
    best = max(hits.values(), default=0)
    winners = [v for v, n in hits.items() if n == best]
    return winners if best and len(winners) == 1 else []


TYPO_SCORE = 85
MIN_TYPO_LENGTH = 5


def _misspelt_values(text: str, f: Field) -> list[str]:
    """Members a word of the message misspells ("autum" for Autumn, "emialed" for Email, "submited"
    for Submitted); a word written as it is or in one of its forms ("emailed") is no misspelling."""
    words = [w for w in _WORD.findall(text) if len(w) >= MIN_TYPO_LENGTH]
    found = []
    said = set(_WORD.findall(text))
    for v in f.values:
        if any(word in ("not", "no") and word not in said for word in v.lower().split()):
            continue  # "submited" is no "Not Submitted": a member's negation must be said
        long_words = [word for word in v.lower().split() if len(word) >= 4]
        matches = [max((_typo_score(w, form), w in _forms(word)) for w in words for form in _forms(word))
                   for word in long_words] if words else []
        if matches and all(score >= TYPO_SCORE for score, _ in matches) and not all(exact for _, exact in matches):
            found.append(v)  # every word of the member, at least one of them misspelt ("submited")
    return found if len(found) == 1 else []


def every_member_named(text: str, f: Field) -> list[str]:
    """The members every word of whose name the text says, in their declared order ("afternoons or
    evenings on weekdays": Weekday Afternoon and Weekday Evening); none of a member a negation denies."""
    said = _chosen_words(text)
    return [v for v in f.values if content_words(v) and content_words(v) <= said]


def where_said(text: str, f: Field, value: str) -> tuple[int, int] | None:
    """Where ``text`` names the member ``value`` as written, by a synonym or by a listed phrase, if it does."""
    phrases = [value, *f.value_synonyms.get(value, ()), *listed_phrases(f.value_descriptions.get(value, ""))]
    for phrase in phrases:
        found = re.search(as_written(phrase), text.lower())
        if found:
            return found.span()
    return None


def where_worded(text: str, f: Field, value: str) -> tuple[int, int] | None:
    """Where ``text`` names the member ``value`` as written (:func:`where_said`), else the first word
    of the member's name in it ("sfo" for SFO Airport), else of its description."""
    found = where_said(text, f, value)
    if found is not None:
        return found
    for words in (content_words(" ".join((value, *f.value_synonyms.get(value, ())))), member_words(f, value)):
        found = next((m.span() for m in re.finditer(r"[\w'’-]+", text) if content_words(m.group(0)) & words), None)
        if found is not None:
            return found
    return None


def misspells(word: str, value: str) -> bool:
    """Whether ``word`` is a long word of the member ``value`` misspelt ("sprng" for Spring)."""
    return len(word) >= MIN_TYPO_LENGTH - 1 and any(
        _typo_score(word, part) >= TYPO_SCORE - 5 for part in value.lower().split() if len(part) >= 4)


def _typo_score(said: str, word: str) -> float:
    """How alike two words are, two neighbouring letters swapped ("otehr") counting as alike ("wound" is no
    "found": a letter changed is a typo only in a longer word, as the ratio says)."""
    swapped = sorted(said) == sorted(word) and OSA.distance(said, word) == 1
    return 100.0 if swapped else fuzz.ratio(said, word)


def _forms(word: str) -> list[str]:
    """A word and the forms a message may use it in: "email", "emailed", "emailing", "emails"."""
    stem = word[:-1] if word.endswith("e") else word
    return [word, f"{word}s", f"{stem}ed", f"{stem}ing"]


_NEGATION = re.compile(r"(not|never|no|haven'?t|hasn'?t|hadn'?t|didn'?t|don'?t|doesn'?t|isn'?t|wasn'?t|weren'?t|"
                       r"aren'?t|won'?t|can'?t|cannot|[a-z]+'t)", re.I)  # "havne't" typed fast


def negation_aware(text: str, f: Field, value: str) -> str:
    """``value``, or its opposite member when the message negates it: "I haven't submitted it"
    names Not Submitted (when the enum has a member "Not Submitted" or "No ...")."""
    opposite = next((v for v in f.values if v.lower() in (f"not {value.lower()}", f"no {value.lower()}")), None)
    if opposite is None:
        return value
    word = value.lower().split()[-1]
    tokens = _WORD.findall(normalise(text))
    for index, token in enumerate(tokens):
        said = word_root(token) == word_root(word) or (len(token) >= MIN_TYPO_LENGTH and _typo_score(token, word) >= TYPO_SCORE)
        if said and any(_NEGATION.fullmatch(t) for t in tokens[max(0, index - 3):index]):  # "haven't submittde"
            return opposite
    return value


def word_root(word: str) -> str:
    """``driving``, ``drives``, ``drive`` -> ``driv``; ``submitted`` -> ``submit``: enough to tell
    forms of a word apart from other words."""
    for suffix in ("ing", "ed", "es", "s", "e"):
        if len(word) > len(suffix) + 3 and word.endswith(suffix):
            root = word[: -len(suffix)]
            doubled = suffix in ("ing", "ed") and len(root) > 3 and root[-1] == root[-2] and root[-1] not in "aeiouls"
            return root[:-1] if doubled else root
    return word


