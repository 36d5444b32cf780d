"""A knowledge query's result in words: a short list, one record's details, or what was not found.

The query itself (SQL) stays in the trace; the user reads what was looked for, from the
conditions the knowledge back-end kept with the query ("I couldn't find any restaurants with
cuisine Ethiopian and city Boston"; read from the SQL only for a back-end that kept none), the
records by the table's ``noun:`` ("items" without one), and the rows by name with a few details.
"""

from __future__ import annotations

import re
from typing import Any

from ..spec import AgentSpec, KnowledgeWorksheet
from ..state import KnowledgeAnswer, Searched
from .display import display_value, record_name
from .wording import records

MAX_LISTED = 5
MAX_DETAILS = 4
MAX_DETAIL_CHARS = 60
MAX_QUOTED_CHARS = 160


def knowledge_report(spec: AgentSpec, answer: KnowledgeAnswer | None, result: Any) -> str:
    searched = _searched(answer)
    kb = _table(spec, answer, searched)
    if isinstance(result, dict) and isinstance(result.get("answer"), str):
        return _document_answer(result)
    rows = result if isinstance(result, list) else [] if result is None else [result]
    looked_for = " and ".join(f"{c.replace('_', ' ')} {v}" for c, v in searched.conditions) if searched else ""
    with_what = f" with {looked_for}" if looked_for else ""
    if not rows:
        return f"I couldn't find any {records(kb)}" + (f"{with_what}." if with_what else " matching that.")
    if len(rows) == 1 and isinstance(rows[0], dict):
        return _one_record(kb, _naming_key(spec, kb), rows[0], answer.question if answer else "")
    question = answer.question if answer else ""
    key = _naming_key(spec, kb)
    listed = "\n".join(f"{i}. {_record_line(kb, key, r, question)}" for i, r in enumerate(rows[:MAX_LISTED], 1))
    more = f"\n…and {len(rows) - MAX_LISTED} more." if len(rows) > MAX_LISTED else ""
    return f"I found {len(rows)} {records(kb, len(rows))}{with_what}:\n{listed}{more}"


def _searched(answer: KnowledgeAnswer | None) -> Searched | None:
    if answer is None or not answer.query:
        return None
    if answer.searched is not None:
        return answer.searched
    from ..runtime.searched import searched_in  # SQL kept without what it looked for: read once here

    return searched_in(answer.query)


def _table(spec: AgentSpec, answer: KnowledgeAnswer | None, searched: Searched | None) -> KnowledgeWorksheet | None:
    if answer is not None and answer.table in spec.knowledge:
        return spec.knowledge[answer.table]
    if searched is not None:
        found = [kb for kb in spec.knowledge.values() if kb.table in searched.tables or kb.name in searched.tables]
        if len(found) == 1:
            return found[0]
    return next(iter(spec.knowledge.values())) if len(spec.knowledge) == 1 else None


def _free_text_columns(kb: KnowledgeWorksheet | None) -> set[str]:
    return {c.name for c in kb.columns.values() if c.free_text} if kb else set()


def _naming_key(spec: AgentSpec, kb: KnowledgeWorksheet | None) -> str | None:
    """The column whose code names a record: the table's key, else the key of the record of another
    table it is about (an offering's course_id)."""
    if kb is None or kb.primary_key:
        return kb.primary_key if kb else None
    keys = {k.primary_key for k in spec.knowledge.values() if k.primary_key}
    return next((c for c in kb.columns if c in keys), None)


def _title(key: str | None, record: dict[str, Any]) -> str | None:
    """What a record is called: its name or title, after its key when the key is a code ("CS161 Data Structures")."""
    name = record_name(record)
    code = record.get(key) if key else None
    code = code if isinstance(code, str) and code and code != name else None
    return " ".join(str(p) for p in (code, name) if p) or None


def _details(kb: KnowledgeWorksheet | None, key: str | None, record: dict[str, Any]) -> list[tuple[str, str]]:
    """Short columns of a record as (label, value), leaving out what names it and long texts."""
    hidden = {"name", "title", "id"} | _free_text_columns(kb) | ({key} if key else set())
    return [(k.replace("_", " "), display_value(v)) for k, v in record.items()
            if k not in hidden and v not in (None, "") and not isinstance(v, (dict, list))
            and len(str(v)) <= MAX_DETAIL_CHARS]


def _record_line(kb: KnowledgeWorksheet | None, key: str | None, record: Any, question: str) -> str:
    """A record in a list: its name and a few details, and what its long texts say about the
    question ("quiet places in Seattle": the sentence of the review about the noise)."""
    if not isinstance(record, dict):
        return display_value(record)
    details = ", ".join(f"{k}: {v}" for k, v in _details(kb, key, record)[:MAX_DETAILS])
    name = _title(key, record)
    line = f"**{name}** ({details})" if name and details else name or details
    asked = content_words(question)
    said = [_relevant(str(record[c]), question) for c in sorted(_free_text_columns(kb)) if record.get(c)]
    quotes = [f"“{s}”" for s in said if content_words(s) & asked]
    return " ".join([line, *quotes[:1]])


def _one_record(kb: KnowledgeWorksheet | None, key: str | None, record: dict[str, Any], question: str) -> str:
    """One record: its details as lines, and what its long texts say about the question (the
    sentences of a review about kids answer "is it good for kids?")."""
    name = _title(key, record)
    lines = [f"• {k}: {v}" for k, v in _details(kb, key, record)]
    quotes = [f"“{_relevant(str(record[c]), question)}”" for c in sorted(_free_text_columns(kb)) if record.get(c)]
    head = f"Here is what I have on **{name}**:" if name else "Here is what I found:"
    return "\n".join([head, *lines, *quotes])


def _document_answer(result: dict[str, Any]) -> str:
    sources = result.get("sources")
    cited = f" (sources: {', '.join(map(str, sources))})" if isinstance(sources, list) and sources else ""
    return result["answer"] + cited


_COMMON = {"the", "and", "for", "are", "was", "with", "that", "this", "they", "there", "have", "has", "its", "it's",
           "what", "which", "who", "how", "does", "good", "you", "your", "not", "but", "very", "too", "any"}


def content_words(text: str) -> set[str]:
    """Words that carry meaning, plurals folded ("kids" and "kid" alike)."""
    return {w.rstrip("s") for w in re.findall(r"[a-z']{3,}", text.lower()) if w not in _COMMON}


def _relevant(text: str, question: str) -> str:
    """The sentences of ``text`` sharing the most words with the question (else the first), shortened."""
    sentences = [s.strip() for s in re.split(r"(?<=[.!?])\s+", text) if s.strip()] or [text]
    asked = content_words(question)
    best = max(sentences, key=lambda s: len(content_words(s) & asked))
    chosen = best if content_words(best) & asked else sentences[0]
    return chosen if len(chosen) <= MAX_QUOTED_CHARS else chosen[:MAX_QUOTED_CHARS].rsplit(" ", 1)[0] + "…"
