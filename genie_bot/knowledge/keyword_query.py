"""The offline knowledge parser: answers ``answer("...")`` without an LLM.

It reads a question against what the tables declare and hold:

- filters: records the question names ("CS 107", "Enoteca Vigna", fuzzily), values of the
  tables' categorical columns ("Italian", "Seattle", "Tue/Thu"), explicit query parameters;
- the table: the one the question names records or values of, and, among those, the one
  whose name, description and columns share the most words with the question ("offered",
  "seats", "workload"), with a wh-word pointing at columns of a kind (who -> a person's name,
  where -> a place, when -> days and times, how many -> numbers);
- the columns to show: the record's name and key, the filters, and the columns asked about;
- the order: best first for "best / highly rated" wording when the table has a rating.

The query is real SQL (SQLAlchemy), kept with the result for the trace. Questions it cannot
map to a table get an honest empty result.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

from sqlalchemy import Float, Integer, case, func, literal, or_, select, union_all
from sqlalchemy.sql import ColumnElement, Select
from sqlalchemy.sql.selectable import NamedFromClause

from ..language import english
from ..language.tokens import phrase_pattern
from ..runtime.executor import KnowledgeResult
from ..spec import AgentSpec, KnowledgeWorksheet
from ..state import KnowledgeAnswer, Searched
from .mentions import SHARED_SCORE
from .store import KnowledgeStore

RESULT_LIMIT = 10
MAX_TERMS = 4
"""Words of a description (beyond its filters) that a search ranks rows by, at most."""
CANDIDATES = 200
"""Rows using those words, at most, that a search ranks."""
RELEVANCE = "relevance"
_NEGATIONS = ("not", "not very", "not especially", "not particularly", "not so", "n't", "never", "no")
"""Said before a word, these make a text say the opposite ("It's not especially romantic")."""
_RANKING_WORDS = re.compile(r"\b(best|top|highest|highly|good|great|popular|recommend\w*)\b", re.I)
_WORD = re.compile(r"[a-z0-9]+")
@dataclass
class _TableIndex:
    rating_column: str | None
    free_text_columns: list[str]
    """Columns declared free text (a review, a description)."""
    vocabulary: set[str]
    """Words of the table's name, description, columns and their descriptions."""
    column_words: dict[str, set[str]]
    """Each column's distinctive words: of its name, and of its description that few other columns use."""
    kinds: dict[str, set[str]]
    """What each column holds, as question cues name it (``english.PERSON``, ``english.COUNT``)."""


@dataclass
class _Reading:
    """What a question says about one table."""

    table: str
    filters: dict[str, Any]
    relevance: int
    asked: list[str]
    described: list[str]
    """Words the question uses that no column but a free-text one and no filter accounts for
    ("quiet"): rows whose free-text columns use them come first."""


class KeywordQuery:
    """Maps a question onto one table with equality filters; see the module docstring."""

    def __init__(self, store: KnowledgeStore):
        self.store = store
        self.stop = english.STOP_WORDS | english.SEARCH_FILLER | set(english.NUMBER_WORDS) | _task_words(store.spec)
        self.index = {name: self._index(name) for name in store.tables}

    def _index(self, name: str) -> _TableIndex:
        table = self.store.tables[name]
        rating = next((c.name for c in table.columns if "rating" in c.name and isinstance(c.type, (Integer, Float))), None)
        kb = self.store.spec.knowledge[name]
        described = {c: self._words(kb.columns[c].description) if c in kb.columns else set() for c in table.c.keys()}
        uses = {w: sum(w in words for words in described.values()) for words in described.values() for w in words}
        column_words = {c: self._words(c.replace("_", " ")) | {w for w in described[c] if uses[w] <= 2}
                        for c in table.c.keys()}
        vocabulary = self._words(f"{name} {kb.description}").union(*column_words.values())
        kinds = {c: _kinds(kb, c, table.c[c].type, described[c]) for c in table.c.keys()}
        free_text = [c for c, column in kb.columns.items() if column.free_text and c in table.c]
        return _TableIndex(rating, free_text, vocabulary, column_words, kinds)

    def _words(self, text: str) -> set[str]:
        """The words of ``text`` that may say what is looked for, without their endings."""
        return {_stem(w) for w in _WORD.findall(text.lower()) if w not in self.stop and len(w) > 2}

    def query(self, answer: KnowledgeAnswer) -> KnowledgeResult:
        candidates = [answer.table] if answer.table in self.store.tables else list(self.store.tables)
        common = set.intersection(*(self.index[n].vocabulary for n in candidates)) if len(candidates) > 1 else set()
        readings = [self._read(name, answer, common) for name in candidates]
        if not readings:
            return KnowledgeResult(None, [])
        best = max(readings, key=lambda r: (len(r.filters) > 0, r.relevance, len(r.filters)))
        if not best.filters and best.relevance == 0 and len(candidates) > 1:
            return KnowledgeResult(None, [])
        statement = self._select(best, bool(_RANKING_WORDS.search(answer.question)))
        sql = self.store.shown(statement, best.table)
        with self.store.engine_for(best.table).connect() as conn:
            rows = [dict(r._mapping) for r in conn.execute(statement)]
        conditions = tuple((c, str(v)) for c, v in best.filters.items() if not isinstance(v, list))
        return KnowledgeResult(sql, rows, Searched((self.store.tables[best.table].name,), conditions),
                               self.store.whole_records(rows, [best.table]))

    # -- reading a question against one table --------------------------------------------------------
    def _read(self, name: str, answer: KnowledgeAnswer, common: set[str]) -> _Reading:
        table = self.store.tables[name]
        kb = self.store.spec.knowledge[name]
        filters = {k: v for k, v in answer.params.items() if k in table.c}
        text = answer.question
        # a word several names share that is a value too ("thai" of "Orchid Thai" and "Thai Basil", the cuisine
        # Thai) is that value here; one that is no value ("gatsby" of three editions) names them all
        values = self._words(" ".join(self.store.column_values(name).find(text).values()))
        mentions = [m for m in self.store.record_names(name).find(text)
                    if m.score > SHARED_SCORE or not self._words(text[m.start:m.end]) <= values][:RESULT_LIMIT]
        for mention in reversed(mentions):  # "the hours of Osteria Alba and Cucina Rosso": both
            column = mention.by or kb.primary_key  # a name shared by several records names them all
            if column is not None and column not in answer.params:
                filters[column] = [mention.record[column], *filters.get(column, [])]
            text = text[:mention.start] + " " + text[mention.end:]  # its words name that record, nothing else
        filters = {c: v[0] if isinstance(v, list) and len(v) == 1 else v for c, v in filters.items()}
        filters.update(self.store.column_values(name).find(text, skip=set(filters)))
        words = self._words(text) - common  # words every table uses tell them apart no better than none
        index = self.index[name]
        about_columns = words - self._words(f"{name} {kb.description}")  # "offered" picks offerings, not a column of it
        strength = {c: _asks_about(text, about_columns, index.column_words[c], index.kinds[c]) for c in table.c.keys()}
        asked = [c for c, n in strength.items() if n]
        filters.update(_flags_named(text, {c: index.column_words[c] & words for c in table.c.keys()
                                           if words & index.column_words[c] and c not in filters},
                                    self.store.column_values(name).columns))
        named_columns = sum(n == 2 for n in strength.values())  # a wh-word alone counts once, however many columns it fits
        relevance = (len(words & index.vocabulary) + 2 * len(words & self._words(name)) + 2 * named_columns
                     + int(any(n == 1 for n in strength.values())))  # "offered" names the offerings
        named = self._words(" ".join(str(v) for v in filters.values()))
        columns_named = set().union(*(index.column_words[c] for c in table.c.keys() if c not in index.free_text_columns))
        ranking = self._words(" ".join(_RANKING_WORDS.findall(text)))
        described = sorted(words - columns_named - self._words(name) - named - ranking) if index.free_text_columns else []
        return _Reading(name, filters, relevance, asked, described)

    def _select(self, reading: _Reading, ranked: bool) -> Select:
        table = self.store.tables[reading.table]
        kb = self.store.spec.knowledge[reading.table]
        record_keys = {k.primary_key for k in self.store.spec.knowledge.values() if k.primary_key}
        shown = _shown_columns(table, kb, reading, record_keys) or list(table.c.keys())
        statement = select(*(table.c[c] for c in shown))
        for column, value in reading.filters.items():
            col = table.c[column]
            if isinstance(value, list):
                statement = statement.where(col.in_(value))
            else:  # lower() on both sides: the lowered categorical columns are indexed
                statement = statement.where(func.lower(col) == func.lower(value) if isinstance(value, str)
                                            else col == value)
        rating = self.index[reading.table].rating_column if ranked else None
        free_text = [table.c[c] for c in self.index[reading.table].free_text_columns]
        terms = _distinctive(reading.described)
        if not (terms and free_text):
            return (statement.order_by(table.c[rating].desc()) if rating else statement).limit(RESULT_LIMIT)
        return _described_first(statement, table, shown, rating, terms, free_text,
                                _contains(self.store.engine_for(reading.table).dialect.name))


def _described_first(statement: Select, table: NamedFromClause, shown: list[str], rating: str | None,
                     terms: list[str], free_text: Sequence[ColumnElement[Any]],
                     contains: Callable[[ColumnElement[Any], str], ColumnElement[bool]]) -> Select:
    """``statement``'s rows whose texts use the ``terms`` first, those that say the opposite ("not
    quiet") last. Bounded whatever the table's size: at most :data:`CANDIDATES` rows that use a
    term are ranked (the first the filters give), and the rest of the page is the first rows
    that use none."""
    scores = [case((or_(*(contains(column, f"%{negation} {word}%") for negation in _NEGATIONS)), -1),
                   (contains(column, f"%{word}%"), 1), else_=0)
              for word in terms for column in free_text]
    uses = or_(*(contains(func.coalesce(column, ""), f"%{word}%") for word in terms for column in free_text))
    extra = [table.c[rating]] if rating and rating not in shown else []
    using = statement.add_columns(*extra, sum(scores[1:], scores[0]).label(RELEVANCE)).where(uses).limit(CANDIDATES)
    others = statement.add_columns(*extra, literal(0).label(RELEVANCE)).where(~uses).limit(RESULT_LIMIT)
    rows = union_all(*(select(arm.subquery()) for arm in (using, others))).subquery("described")
    order = [rows.c[RELEVANCE].desc(), *([rows.c[rating].desc()] if rating else [])]
    return select(*(rows.c[c] for c in shown)).order_by(*order).limit(RESULT_LIMIT)


def _distinctive(words: list[str]) -> list[str]:
    """The words a search ranks rows by: the :data:`MAX_TERMS` longest (the most telling), so a long
    message makes a query no longer than a short one."""
    return sorted(sorted(words, key=len, reverse=True)[:MAX_TERMS])


def _contains(dialect: str) -> Callable[[ColumnElement[Any], str], ColumnElement[bool]]:
    """``column LIKE pattern`` ignoring case: SQLite's LIKE does already (for ASCII, as its lower() does)."""
    if dialect == "sqlite":
        return lambda column, pattern: column.like(pattern)
    return lambda column, pattern: column.ilike(pattern)


def _stem(word: str) -> str:
    """The word without an ending, as texts are searched for it (a prefix, which LIKE finds)."""
    for suffix in english.INFLECTIONS:
        if len(word) > len(suffix) + 3 and word.endswith(suffix):
            return word[: -len(suffix)]
    return word


def _task_words(spec: AgentSpec) -> set[str]:
    """The words of the agent's tasks that its tables never use ("book a table" for restaurants):
    they ask for a task, not for records. (Examples are left out: they hold values.)"""
    nested = {f.type.referenced() for ws in spec.tasks.values() for f in ws.fields.values()}
    asked = " ".join(ws.description for ws in spec.tasks.values() if ws.name not in nested or ws.name == spec.start)
    held = " ".join(f"{kb.name} {kb.description} {' '.join(f'{c} {col.description}' for c, col in kb.columns.items())}"
                    for kb in spec.knowledge.values())
    return set(_WORD.findall(asked.lower())) - set(_WORD.findall(held.lower().replace("_", " ")))


def _flags_named(text: str, columns: dict[str, set[str]], values: dict[str, list[str]]) -> dict[str, str]:
    """A yes/no column the question names (by one of ``columns``' words) is a filter: its yes, or its no when a
    negation comes just before the word ("what do u have thats vegetarian?": vegetarian = yes; "indoor plants
    that are not toxic": indoor = yes, toxic = no)."""
    out = {}
    lowered = text.lower()
    for column, words in columns.items():
        held = {str(v).lower(): v for v in values.get(column, ())}
        yes = next((v for k, v in held.items() if k in english.YES_PHRASES), None)
        no = next((v for k, v in held.items() if k in english.NO_PHRASES), None)
        if len(held) != 2 or yes is None or no is None:
            continue
        said = [m.start() for w in words for m in re.finditer(rf"\b{re.escape(w)}", lowered)]
        negated = any(_NEGATED.search(lowered, max(0, at - NEGATION_REACH), at) for at in said)
        out[column] = no if negated else yes
    return out


_NEGATED = re.compile(phrase_pattern(english.NEGATIONS) + r"\W+(?:\w+\W+)?$", re.I)
NEGATION_REACH = 24
"""Characters before a column's word in which a negation (and at most one word after it) negates it."""


def _kinds(kb: KnowledgeWorksheet, column: str, sql_type: Any, described: set[str]) -> set[str]:
    """What a column holds, as question cues name it: someone's name (described as a name, and not
    the record's own), a whole number (not the record's key)."""
    kinds = set()
    if "name" in described and column not in ("name", "title", kb.primary_key):
        kinds.add(english.PERSON)
    if isinstance(sql_type, Integer) and column != kb.primary_key:
        kinds.add(english.COUNT)
    return kinds


def _asks_about(text: str, words: set[str], column_words: set[str], kinds: set[str]) -> int:
    """How plainly the question asks for a column: 2 when it uses one of the column's distinctive
    words, 1 for a question cue that points at columns of its kind ("who" -> the instructor's name), else 0."""
    if words & column_words:
        return 2
    lowered = text.lower()
    return int(any(re.search(rf"\b{cue}\b", lowered) and (column_words | kinds) & {_stem(h) for h in hints}
                   for cue, hints in english.QUESTION_CUES.items()))


def _shown_columns(table: NamedFromClause, kb: KnowledgeWorksheet, reading: _Reading, record_keys: set[str]) -> list[str]:
    """The columns the answer shows: what names the record (or the record of another table it is
    about: an offering's course_id), the filters, and what was asked. Every column when nothing in
    particular was asked."""
    asked = [c for c in reading.asked if c not in reading.filters]  # "italian places": cuisine is the filter
    if not asked:
        return []
    naming = [c for c in (kb.primary_key, "name", "title", *sorted(record_keys)) if c and c in table.c]
    wanted = [*naming, *reading.filters, *asked]
    return list(dict.fromkeys(c for c in wanted if c in table.c))
