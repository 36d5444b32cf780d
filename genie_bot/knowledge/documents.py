"""Document collections: chunked, indexed with SQLite FTS5 (BM25), answered with citations.

A knowledge worksheet with ``documents: docs/*.md`` becomes a collection. Each file is cut
into passages at paragraph boundaries (about ``CHUNK_CHARS`` characters, long paragraphs cut
at sentence ends), indexed in an in-memory FTS5 table, and searched with BM25. The LLM then
answers from the retrieved passages only, citing them as [1], [2]...
"""

from __future__ import annotations

import re
import sqlite3
import threading
from dataclasses import dataclass
from pathlib import Path

from ..language import english
from ..spec import AgentSpec

CHUNK_CHARS = 900
_WORD = re.compile(r"\w+", re.UNICODE)


@dataclass(frozen=True)
class Passage:
    collection: str
    document: str
    number: int
    """The passage's position in its document, from 1."""
    text: str

    @property
    def citation(self) -> str:
        return f"{self.document} §{self.number}"


def chunk(text: str, size: int = CHUNK_CHARS) -> list[str]:
    """Paragraph-aligned passages of at most about ``size`` characters."""
    pieces: list[str] = []
    for paragraph in re.split(r"\n\s*\n", text):
        paragraph = " ".join(paragraph.split())
        while len(paragraph) > size:
            cut = paragraph.rfind(". ", 0, size)
            cut = cut + 1 if cut > size // 3 else size
            pieces.append(paragraph[:cut].strip())
            paragraph = paragraph[cut:].strip()
        if paragraph:
            pieces.append(paragraph)
    out: list[str] = []
    for piece in pieces:
        if out and len(out[-1]) + len(piece) + 2 <= size and not piece.startswith("#"):
            out[-1] = f"{out[-1]}\n\n{piece}"
        else:
            out.append(piece)
    return out


class DocumentIndex:
    """Every document collection of an agent, in one FTS5 table."""

    def __init__(self, spec: AgentSpec):
        self.collections = {kb.name: kb for kb in spec.knowledge.values() if kb.source == "documents"}
        self._db = sqlite3.connect(":memory:", check_same_thread=False)
        self._lock = threading.Lock()
        self._db.execute("CREATE VIRTUAL TABLE passages USING fts5(collection UNINDEXED, document UNINDEXED, "
                         "number UNINDEXED, text, tokenize='porter unicode61')")
        rows = [(kb.name, path.name, number, text)
                for kb in self.collections.values() for path in kb.documents
                for number, text in enumerate(chunk(_read(path)), 1)]
        self._db.executemany("INSERT INTO passages (collection, document, number, text) VALUES (?, ?, ?, ?)", rows)

    def search(self, collection: str, query: str, k: int = 4) -> list[Passage]:
        """The ``k`` best passages of ``collection`` for ``query`` by BM25 (any query word may match)."""
        words = [w for w in _WORD.findall(query.lower()) if w not in english.STOP_WORDS] or _WORD.findall(query.lower())
        if not words:
            return []
        match = " OR ".join(f'"{w}"' for w in dict.fromkeys(words))  # quoted: user text is never FTS syntax
        with self._lock:
            rows = self._db.execute("SELECT collection, document, number, text FROM passages WHERE passages MATCH ? "
                                    "AND collection = ? ORDER BY bm25(passages) LIMIT ?", (match, collection, k))
            return [Passage(c, d, int(n), t) for c, d, n, t in rows.fetchall()]


def _read(path: Path) -> str:
    return path.read_text(encoding="utf-8", errors="replace")
