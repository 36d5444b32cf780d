"""The knowledge parser: ``answer("question")`` -> validated read-only SQL, or a document search.

The LLM sees the table schemas with column descriptions, the document collections, the
agent's few-shot examples (``prompts/knowledge_examples.txt``) and the question with any
parameters the user gave. It answers with one SQL query, which is validated
(:mod:`.sql`) and run with a row limit and a timeout, or with ``search(collection,
'keywords')``, which retrieves passages the LLM then answers from with citations. A query
that is rejected or fails is re-asked once with the reason; a second failure is reported to
the user as an error. When the LLM cannot be reached, the offline keyword matcher answers.
The query that ran is returned with the result, so the reply can say what was searched.
"""

from __future__ import annotations

import datetime as dt
import re
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from sqlalchemy.exc import DBAPIError

from ..acts import formal_value
from ..llm.client import LLMClient, LLMError, Message
from ..llm.prompts import prompts_for
from ..runtime.executor import KnowledgeResult
from ..spec import AgentSpec
from ..state import KnowledgeAnswer, Searched
from .documents import DocumentIndex, Passage
from .free_text import FREE_TEXT_FUNCTION_ARITY, FreeTextAnswers
from .keyword_query import KeywordQuery
from .schema import table_schemas
from .sql import (FREE_TEXT_FUNCTION, QueryBudget, QueryTimeout, ResultTooLarge, UnsafeQuery, run_select,
                  validate_select)
from .store import KnowledgeStore

ROW_LIMIT = 20
QUERY_TIMEOUT = 3.0
FREE_TEXT_BUDGET = 25
PASSAGES = 4
_SEARCH = re.compile(r"^\s*search\(\s*([A-Za-z_]\w*)\s*,\s*(['\"])(.*?)\2\s*\)\s*;?\s*$", re.S)
_SQL_BLOCK = re.compile(r"```[ \t]*(?:sql|sqlite)?[ \t]*\n(.*?)```", re.S | re.I)
_CITATION = re.compile(r"\[(\d+)\]")


class LLMKnowledge:
    """Implements the executor's knowledge interface: ``query(answer) -> KnowledgeResult``."""

    def __init__(self, spec: AgentSpec, client: LLMClient, store: KnowledgeStore | None, *,
                 documents: DocumentIndex | None = None, row_limit: int = ROW_LIMIT, timeout: float = QUERY_TIMEOUT,
                 free_text_budget: int = FREE_TEXT_BUDGET, today: Callable[[], dt.date] = dt.date.today):
        self.spec = spec
        self.client = client
        self.store = store if store is not None and store.tables else None
        self.documents = documents if documents is not None and documents.collections else None
        self.row_limit = row_limit
        self.timeout = timeout
        self.free_text_budget = free_text_budget
        self.today = today
        self.prompts = prompts_for(spec.directory)
        self.free_text = FreeTextAnswers(client, self.prompts)
        self.fallback = KeywordQuery(self.store) if self.store else None
        self.schemas = table_schemas(spec, self.store) if self.store else ""
        self.sql_tables = [t.name for t in self.store.tables.values()] if self.store else []

    def query(self, answer: KnowledgeAnswer) -> KnowledgeResult:
        collection = self._collection_for(answer)
        if collection is not None:
            return self._search(collection, answer.question, answer.question)
        if self.store is None and self.documents is None:
            return KnowledgeResult(None, {"error": "there is nothing to search"})
        messages = self.prompt(answer)
        try:
            reply = self.client.complete("knowledge", messages).text
        except LLMError as exc:
            if self.fallback is None:
                return KnowledgeResult(None, {"error": f"the search is unavailable right now ({exc.kind})"})
            return self.fallback.query(answer)
        budget = QueryBudget(self.timeout)  # one for the query and its repair
        outcome = self._run(reply, answer, budget)
        if not isinstance(outcome, _Failure):
            return outcome
        if budget.left <= 0:
            return outcome.result()  # no time left to run a repaired query
        repair = self.prompts.messages("knowledge_repair", error=outcome.reason)
        try:
            conversation = [*messages, {"role": "assistant", "content": reply}, *repair]
            reply = self.client.complete("knowledge", conversation).text
        except LLMError:
            return outcome.result()
        second = self._run(reply, answer, budget)
        return second.result() if isinstance(second, _Failure) else second

    # -- routing and prompts ------------------------------------------------------------------------
    def _collection_for(self, answer: KnowledgeAnswer) -> str | None:
        """A document collection the question must go to without asking the LLM, if any."""
        if self.documents is None:
            return None
        if answer.table in self.documents.collections:
            return answer.table
        if self.store is None and len(self.documents.collections) == 1:
            return next(iter(self.documents.collections))
        return None

    def prompt(self, answer: KnowledgeAnswer) -> list[Message]:
        """The chat messages asking for a query (public so bot builders can inspect their prompts)."""
        collections = self.documents.collections.values() if self.documents else []
        return self.prompts.messages(
            "knowledge", agent=self.spec, schemas=self.schemas, collections=list(collections),
            examples=self.prompts.examples("knowledge"), row_limit=self.row_limit, today=self.today().isoformat(),
            question=answer.question, params=[f"{k} = {formal_value(v)}" for k, v in answer.params.items()],
            table=answer.table)

    # -- running the LLM's answer ----------------------------------------------------------------------
    def _run(self, reply: str, answer: KnowledgeAnswer, budget: QueryBudget) -> "KnowledgeResult | _Failure":
        text = _unfenced(reply)
        search = _SEARCH.match(text)
        if search:
            collection = search.group(1)
            if self.documents is None or collection not in self.documents.collections:
                return _Failure(None, f"there is no document collection '{collection}'")
            return self._search(collection, answer.question, search.group(3))
        if self.store is None:
            return _Failure(None, "there are no tables: answer with search(collection, 'keywords')")
        try:
            query = validate_select(text, self.sql_tables, self.row_limit)
        except UnsafeQuery as exc:
            return _Failure(text, str(exc))
        engine = self.store.engine_for_tables(query.tables)
        if engine is None:
            return _Failure(query.sql, f"the tables {', '.join(sorted(query.tables))} live in different databases; "
                                       "query one of them at a time")
        dialect = engine.dialect.name
        query = query.stored_in(self.store.physical_names(), dialect, self.store.trigram_tables())
        functions: dict[str, tuple[int, Callable[..., Any]]] = {}
        if query.uses_free_text and dialect != "sqlite":
            return _Failure(query.sql, f"{FREE_TEXT_FUNCTION}() is not available with this knowledge database; "
                                       "filter the column with LIKE instead")
        if query.uses_free_text:
            functions[FREE_TEXT_FUNCTION] = (FREE_TEXT_FUNCTION_ARITY, self.free_text.function(self.free_text_budget))
        try:
            rows = run_select(engine, query, budget, functions)
        except (QueryTimeout, ResultTooLarge) as exc:
            return _Failure(query.sql, str(exc))
        except DBAPIError as exc:
            return _Failure(query.sql, f"the database rejected it: {exc.orig}")
        return KnowledgeResult(query.sql, rows, query.searched,
                               self.store.whole_records(rows, self.store.worksheets_of(query.tables)))

    def _search(self, collection: str, question: str, keywords: str) -> KnowledgeResult:
        assert self.documents is not None, "asked only when the agent has document collections"
        label, looked = f"search({collection}, {keywords!r})", Searched((collection,))
        passages = self.documents.search(collection, keywords, PASSAGES)
        if not passages:
            return KnowledgeResult(label, [], looked)
        messages = self.prompts.messages("documents", question=question, passages=passages)
        try:
            text = self.client.complete("knowledge", messages).text.strip()
        except LLMError:
            return KnowledgeResult(label, [{"passage": p.text, "source": p.citation} for p in passages], looked)
        return KnowledgeResult(label, [{"answer": text, "sources": _cited(text, passages)}], looked)


@dataclass(frozen=True)
class _Failure:
    """A query the LLM wrote that could not be used, and why."""

    sql: str | None
    reason: str

    def result(self) -> KnowledgeResult:
        return KnowledgeResult(self.sql, {"error": f"I could not turn that into a safe search ({self.reason})"},
                               Searched())


def _unfenced(reply: str) -> str:
    blocks = _SQL_BLOCK.findall(reply)
    return (blocks[0] if blocks else reply.replace("```", "")).strip()


def _cited(text: str, passages: list[Passage]) -> list[str]:
    """The passages the answer cites as [n], or all of them when it cites none."""
    numbers = [int(n) for n in dict.fromkeys(_CITATION.findall(text)) if 1 <= int(n) <= len(passages)]
    return [f"[{n}] {passages[n - 1].citation}" for n in numbers] or \
        [f"[{i}] {p.citation}" for i, p in enumerate(passages, 1)]
