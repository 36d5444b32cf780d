"""What a message is read against, derived from the spec once per spec version.

Every phrase by which a message can name an option (a member's name, its synonyms, the phrases
its description lists), a field (its label, the words of its name, its synonyms, what it counts)
or a task (its description and examples), every declared format, and how each field is filled
(:mod:`.slots`) are computed here when a spec is first read, not per message.
"""

from __future__ import annotations

import re
import weakref
from dataclasses import dataclass, field
from functools import cached_property

from ...language import english
from ...language.tokens import words
from ...language.words import content_words, stem
from ...responders.wording import label
from ...spec import AgentSpec, Field, TaskWorksheet
from .person_fields import is_a_persons_name

MIN_TYPO_CHARS = 5
"""A word this long may be recognised misspelt."""
FieldKey = tuple[str, str]
"""(worksheet, field name)."""


@dataclass(frozen=True)
class Phrase:
    """A phrase as stems, and what it names."""

    stems: tuple[str, ...]
    target: object
    words: tuple[str, ...] = ()
    """The words as written, lower case (a past tense said is no plural written: "booked" is not "books")."""


@dataclass
class PhraseIndex:
    """Phrases by their first stem, longest first, for finding every one a message says in one pass."""

    by_first: dict[str, list[Phrase]] = field(default_factory=dict)

    def add(self, text: str, target: object) -> None:
        stems = phrase_stems(text)
        if stems:
            entries = self.by_first.setdefault(stems[0], [])
            if not any(p.stems == stems and p.target == target for p in entries):
                entries.append(Phrase(stems, target, tuple(re.findall(r"[a-z0-9']+", text.lower()))))
                entries.sort(key=lambda p: -len(p.stems))


def phrase_stems(text: str) -> tuple[str, ...]:
    """A phrase as the stems of its words and signs, lower case ("Credit/No Credit" -> credit / no credit)."""
    return tuple(stem(w) for w in re.findall(r"[a-z0-9]+(?:'[a-z]+)?|[^\sa-z0-9]", text.lower().replace("’", "'"))
                 if w not in _JOINING_SIGNS)


_JOINING_SIGNS = {"/", "-", ",", ".", "(", ")", "'", "_", ":"}
"""Signs that stand between the words of a name and are matched as any spacing ("cr/nc" is "cr nc")."""


@dataclass(frozen=True)
class OptionTarget:
    worksheet: str
    field: str
    member: str
    how: str


@dataclass(frozen=True)
class FieldTarget:
    worksheet: str
    field: str
    how: str


class SpecIndex:
    """Everything a message is read against that comes from the spec alone (see the module docstring)."""

    def __init__(self, spec: AgentSpec):
        self.spec = spec
        self.cache: dict[str, dict] = {}
        """What readers derive from one field once (its class, what it counts), by name of what."""
        self.options = PhraseIndex()
        self.option_words: dict[str, list[OptionTarget]] = {}
        """Long words of members' names and one-word synonyms, to find them misspelt ("autum", "flite")."""
        self.field_names = PhraseIndex()
        self.patterns: list[tuple[FieldKey, re.Pattern[str], bool]] = []
        """(field, the pattern bounded to whole words, whether it is distinctive: has a letter or a sign of its own);
        not of a person's name, which is read as a name ("Its Jane Doe" is no code)."""
        for ws in spec.tasks.values():
            for f in ws.fields.values():
                if f.kind != "input":
                    continue
                self._index_options(ws, f)
                if f.type.kind != "confirm":
                    self._index_names(ws, f)
                pattern = (f.validation.pattern if f.validation else None) or ""
                if pattern and f.type.kind in ("str", "list") and not is_a_persons_name(f):
                    self.patterns.append(((ws.name, f.name), bounded(pattern), distinctive(pattern)))
            self._index_label_words(ws)
            self._index_description_words(ws)
            self._index_member_words(ws)

    def _index_options(self, ws: TaskWorksheet, f: Field) -> None:
        if not f.values:
            return
        for member in f.values:
            target = lambda how: OptionTarget(ws.name, f.name, member, how)  # noqa: E731
            self.options.add(member, target("name"))
            for word in re.findall(r"[a-z]{%d,}" % MIN_TYPO_CHARS, member.lower()):
                self.option_words.setdefault(word, []).append(target("typo"))
            for synonym in f.value_synonyms.get(member, ()):
                self.options.add(synonym, target("synonym"))
                if re.fullmatch(r"[a-z]{%d,}" % MIN_TYPO_CHARS, synonym.lower()):
                    self.option_words.setdefault(synonym.lower(), []).append(target("typo"))
            for phrase in listed_phrases(f.value_descriptions.get(member, "")):
                self.options.add(phrase, target("listed"))
            for compound in re.findall(r"[a-z]+(?:/[a-z]+)+", f.value_descriptions.get(member, "").lower()):
                self.options.add(compound, target("listed"))  # "graded pass/fail": "pass fail" names it
            for item in listed_items(f.value_descriptions.get(member, "")):
                self.options.add(item, target("described item"))
            label_ = f.value_labels.get(member)
            if label_:
                self.options.add(label_, target("name"))
            for word in _own_words(f, member):
                self.options.add(word, target("name word"))

    def _index_names(self, ws: TaskWorksheet, f: Field) -> None:
        target = lambda how: FieldTarget(ws.name, f.name, how)  # noqa: E731
        shown = re.sub(r"^(?:the|a|an|your|my)\s+", "", label(f).lower())
        self.field_names.add(shown, target("label"))
        named = [w for w in f.name.lower().split("_") if w]
        distinctive_words = [w for w in named if w not in english.GENERIC_FIELD_WORDS]
        self.field_names.add(" ".join(named), target("name"))
        for word in distinctive_words:
            if len(word) >= 3 and word not in english.STOP_WORDS:
                self.field_names.add(word, target("name"))
        for synonym in f.synonyms:
            self.field_names.add(synonym, target("synonym"))
        for noun in f.counts:
            self.field_names.add(noun, target("noun"))

    def _index_label_words(self, ws: TaskWorksheet) -> None:
        """Each word of a field's label that no other field of the worksheet has in its label or name
        ("sides" of "Sides and drinks"): "no sides" names the field."""
        fields = [f for f in ws.fields.values() if f.kind == "input" and f.type.kind != "confirm"]
        words = {f.name: set(re.findall(r"[a-z]{3,}", f"{label(f)} {f.name.replace('_', ' ')}".lower())) for f in fields}
        for f in fields:
            others = set().union(*(w for name, w in words.items() if name != f.name))
            for word in sorted(words[f.name] - others - set(english.STOP_WORDS) - english.GENERIC_FIELD_WORDS):
                self.field_names.add(word, FieldTarget(ws.name, f.name, "label word"))

    def _index_description_words(self, ws: TaskWorksheet) -> None:
        """The nouns a free-text field's description gives as examples ("a special request, like a high chair,
        a quiet table or an allergy"; or after a colon: "what happened: someone took or transferred money"),
        that no other field of the worksheet is described with: "we have a peanut allergy" says the special
        request."""
        fields = [f for f in ws.fields.values() if f.kind == "input" and f.type.kind != "confirm"]
        words = {f.name: set(re.findall(r"[a-z]{4,}", f"{f.description} {f.name.replace('_', ' ')} {label(f)}".lower()))
                 for f in fields}
        for f in fields:
            if f.type.kind != "str" or f.values_from or (f.validation and f.validation.pattern):
                continue
            examples = re.search(rf"(?:\b(?:{'|'.join(english.EXAMPLE_LEADS)})\b|:)(?P<examples>.+)$", f.description.lower())
            if examples is None:
                continue
            others = set().union(*(w for name, w in words.items() if name != f.name))
            # in order: of two forms of one stem ("transferred", "transfers") the first is kept, whatever the hash seed
            for word in sorted(set(re.findall(r"[a-z]{4,}", examples.group("examples"))) - others - set(english.STOP_WORDS)):
                self.field_names.add(word, FieldTarget(ws.name, f.name, "description word"))

    def _index_member_words(self, ws: TaskWorksheet) -> None:
        """The words an optional choice's members are described with, that no other field of the worksheet is
        described with, name the choice: "no allergies" declines dietary needs whose members are described with
        "nut allergy" and "peanut allergy"."""
        fields = [f for f in ws.fields.values() if f.kind == "input" and f.type.kind != "confirm"]
        own = {f.name: set(re.findall(r"[a-z]{4,}", " ".join((f.description, f.name.replace("_", " "), label(f), *f.values,
                                                             *(s for m in f.values for s in f.value_synonyms.get(m, ()))
                                                             )).lower())) for f in fields}
        for f in fields:
            if f.required or not f.values:
                continue
            said = " ".join((*(s for m in f.values for s in f.value_synonyms.get(m, ())), *f.value_descriptions.values()))
            names = set(re.findall(r"[a-z]+", " ".join(f.values).lower()))
            others = set().union(*(w for name, w in own.items() if name != f.name))
            for word in sorted(set(re.findall(r"[a-z]{4,}", said.lower())) - names - others - set(english.STOP_WORDS)):
                self.field_names.add(word, FieldTarget(ws.name, f.name, "members' word"))

    # -- tasks ------------------------------------------------------------------------------------------
    @cached_property
    def top_level_tasks(self) -> list[TaskWorksheet]:
        """Tasks a user can ask for: those no other worksheet nests (and the start worksheet)."""
        nested = {f.type.referenced() for ws in self.spec.tasks.values() for f in ws.fields.values()}
        return [ws for ws in self.spec.tasks.values() if ws.name not in nested or ws.name == self.spec.start]

    @cached_property
    def task_phrases(self) -> dict[str, list[frozenset[str]]]:
        """For each top-level task, the content words of its description and of each example."""
        return {ws.name: [content_words(p) for p in (ws.description, *ws.examples, ws.phrase or "") if p]
                for ws in self.top_level_tasks}

    @cached_property
    def distinctive_task_words(self) -> dict[str, frozenset[str]]:
        """For each top-level task, the verbs that ask for it and no other: the first word of its
        description or of one of its examples, used in its description or in two of its phrases, and
        in no phrase of another task ("book", "freeze", "renew")."""
        tasks = self.top_level_tasks
        said = {ws.name: self.task_phrases[ws.name] for ws in tasks}
        everyone = {name: frozenset().union(*words_) for name, words_ in said.items()}
        out = {}
        for ws in tasks:
            others = frozenset().union(*(w for name, w in everyone.items() if name != ws.name))
            leading = {first for p in (ws.description, *ws.examples) for first in _first_content_word(p)}
            central = {w for w in leading if (said[ws.name] and w in said[ws.name][0])
                       or sum(w in p for p in said[ws.name]) >= 2}
            out[ws.name] = frozenset(central - others)
        return out

    @cached_property
    def nested_worksheets(self) -> frozenset[str]:
        return frozenset(name for ws in self.spec.tasks.values() for f in ws.fields.values()
                         for name in [f.type.referenced()] if name is not None and name in self.spec.tasks)

    @cached_property
    def tables(self) -> tuple[str, ...]:
        return tuple(k.name for k in self.spec.knowledge.values() if k.source == "table")

    def table_of(self, f: Field) -> str | None:
        """The knowledge table whose records the field's values name, if any."""
        item = f.type.item if f.type.kind == "list" and f.type.item is not None else f.type
        if item.ref in self.spec.knowledge and self.spec.knowledge[item.ref].source == "table":
            return item.ref
        return f.values_from

    @cached_property
    def owner_nouns(self) -> frozenset[str]:
        """Nouns whose name a field holds, other than the user's: "the dog's name" -> dog."""
        out = set()
        for ws in self.spec.tasks.values():
            for f in ws.fields.values():
                if f.type.kind == "str" and "name" in f.name.lower().split("_"):
                    owner = re.search(r"\b(?:the|a|an|your)\s+([a-z]+)['’]s\s+(?:\w+\s+)?name\b", f.description.lower())
                    if owner and owner.group(1) not in english.USER_NOUNS:
                        out.add(owner.group(1))
        return frozenset(out)


def record_nouns(spec: AgentSpec) -> frozenset[str]:
    """The words for a table's records: of its name ("restaurants": restaurant), and of the fields that
    take its records ("course_name": course), stemmed (the agent's synonyms apply to what is said)."""
    tables = [k.name for k in spec.knowledge.values() if k.source == "table"]
    names = [t.replace("_", " ") for t in tables]
    names += [" ".join(w for w in f.name.split("_") if w not in english.GENERIC_FIELD_WORDS)
              for ws in spec.tasks.values() for f in ws.fields.values() if f.values_from or f.type.ref in tables]
    return frozenset().union(*(content_words(n) for n in names)) if names else frozenset()


def _own_words(f: Field, member: str) -> list[str]:
    """The words of a member's name that no other member of the field has in its name or description
    ("sfo" of "SFO Airport", "downtown" of "Downtown San Francisco"): each names the member alone."""
    others = " ".join(f"{v} {f.value_descriptions.get(v, '')} {' '.join(f.value_synonyms.get(v, ()))}"
                      for v in f.values if v != member).lower()
    said = set(re.findall(r"[a-z0-9]+", others))
    words = re.findall(r"[a-z0-9]+", member.lower())
    common = {*english.STOP_WORDS, *english.SENTENCE_WORDS, *english.WRONG_WORDS, *english.GENERIC_FIELD_WORDS}
    return [w for w in words if len(words) > 1 and len(w) >= 3 and w not in said and w not in common and not w.isdigit()]


MIN_LISTED_ITEMS = 3
MAX_ITEM_WORDS = 4


def listed_items(description: str) -> list[str]:
    """The items of a description that is a list of things ("mice, rats, roaches, ants or bedbugs"; "leaks,
    dripping faucets, clogged drains or toilets, no hot water"), without their articles: each names the
    member the way a synonym does. A description that is a sentence lists nothing."""
    text = re.sub(r"\([^)]*\)", " ", description.lower())
    items = [i.strip(" .") for i in re.split(rf",|;|\b(?:{'|'.join(english.LIST_OR)})\b", text) if i.strip(" .")]
    items = [re.sub(rf"^(?:{'|'.join(english.ARTICLES)})\s+", "", i) for i in items]
    if len(items) < MIN_LISTED_ITEMS or any(len(i.split()) > MAX_ITEM_WORDS for i in items):
        return []
    return [i for i in items if i and i not in english.STOP_WORDS]


def listed_phrases(description: str) -> list[str]:
    """The example phrases a member's description lists in parentheses: "go on (yes, next, keep going)"."""
    return [p.strip().lower() for group in re.findall(r"\(([^)]*)\)", description)
            for p in re.split(r",|;", group) if p.strip()]


def bounded(pattern: str) -> re.Pattern[str]:
    """A declared pattern, matching only whole tokens (its global flags kept in front: ``(?i)TKT-\\d{5}``)."""
    flags = re.match(r"\(\?[aiLmsux]+\)", pattern)
    prefix, body = (flags.group(0), pattern[flags.end():]) if flags else ("", pattern)
    body = re.sub(r"^(?:\\s\*)+|(?:\\s\*)+$", "", body)  # "\s*\d{8}\s*": the spaces around are no part of it
    return re.compile(rf"{prefix}(?<![\w/.@-])(?:{body})(?![\w/@-]|\.\w)")


def distinctive(pattern: str) -> bool:
    """A pattern that asks for a letter or a sign a plain number lacks ("DC-\\d{5}", an email), or for so
    many digits that no count or house number has them (an 8-digit id); not "\\d{3,6}"."""
    plain = re.sub(r"\\[dsSwWb]|\[[^\]]*\]|\{[^}]*\}|[()?*+^$|]|\(\?[a-z]+\)", "", pattern)
    return bool(re.search(r"[A-Za-z@]", plain)) or "@" in pattern or min_digits(pattern) >= DISTINCTIVE_DIGITS


DISTINCTIVE_DIGITS = 7
"""A value of this many digits or more is no count, price or house number."""


def min_digits(pattern: str) -> int:
    """The fewest digits a pattern's values have (literal digits and ``\\d`` with their least repeat)."""
    total = 0
    for match in re.finditer(r"\\d(?:\{(\d+)(?:,\d*)?\})?|(?<!\\)\d(?![^{]*\})", pattern):
        total += int(match.group(1)) if match.group(1) else 1
    return total


def _first_content_word(phrase: str) -> list[str]:
    for word in words(phrase):
        found = content_words(word)
        if found:
            return list(found)
    return []


_INDEXES: dict[int, tuple[weakref.ref, str, SpecIndex]] = {}


def index_of(spec: AgentSpec) -> SpecIndex:
    """The spec's index, built on its first message and kept while the spec lives (per version)."""
    cached = _INDEXES.get(id(spec))
    if cached is not None and cached[0]() is spec and cached[1] == spec.version:
        return cached[2]
    index = SpecIndex(spec)
    key = id(spec)

    def forget(_: weakref.ref, kept: dict = _INDEXES) -> None:
        """The spec is gone: so is its index (``kept`` bound now: at shutdown the module's names are None)."""
        kept.pop(key, None)

    _INDEXES[key] = (weakref.ref(spec, forget), spec.version, index)
    return index
