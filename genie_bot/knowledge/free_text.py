"""SUQL-style ``answer(column, 'question')`` over free-text columns, evaluated by the LLM.

The knowledge parser may write ``WHERE city = 'Seattle' AND answer(review, 'is it good for
kids?') = 'Yes'``. SQLite calls the function row by row, after the cheaper conditions
written before it have filtered the rows, so the LLM reads only the reviews of the rows
still in play. Answers are cached by (question, text), and one query may ask the LLM about
at most ``budget`` uncached texts; beyond that (and whenever the LLM fails) the function
returns NULL, which no ``= 'Yes'`` matches, so a query never silently includes a row nobody read.
"""

from __future__ import annotations

import threading
from collections import OrderedDict

from ..llm.client import LLMClient, LLMError
from ..llm.prompts import PromptLibrary

FREE_TEXT_FUNCTION_ARITY = 2
"""``answer(column, question)``."""
CACHE_SIZE = 4096
MAX_TEXT_CHARS = 2000


class FreeTextAnswers:
    """The LLM's short answers to questions about texts, cached across queries."""

    def __init__(self, client: LLMClient, prompts: PromptLibrary, cache_size: int = CACHE_SIZE):
        self.client = client
        self.prompts = prompts
        self.cache_size = cache_size
        self._cache: OrderedDict[tuple[str, str], str | None] = OrderedDict()
        self._lock = threading.Lock()

    def function(self, budget: int) -> "_QueryFunction":
        """The SQL function for one query, with its own budget of LLM calls."""
        return _QueryFunction(self, budget)

    def cached(self, question: str, text: str) -> tuple[bool, str | None]:
        with self._lock:
            key = (question, text)
            if key in self._cache:
                self._cache.move_to_end(key)
                return True, self._cache[key]
            return False, None

    def ask(self, question: str, text: str) -> str | None:
        messages = self.prompts.messages("free_text", question=question, text=text[:MAX_TEXT_CHARS])
        try:
            reply = self.client.complete("knowledge", messages, max_tokens=30).text
        except LLMError:
            return None  # not cached: a later query may try again
        answer = normalise(reply)
        with self._lock:
            self._cache[(question, text)] = answer
            while len(self._cache) > self.cache_size:
                self._cache.popitem(last=False)
        return answer


class _QueryFunction:
    def __init__(self, answers: FreeTextAnswers, budget: int):
        self.answers = answers
        self.budget = budget
        self.llm_calls = 0

    def __call__(self, text: object, question: object) -> str | None:
        if text is None or not str(text).strip():
            return None
        hit, answer = self.answers.cached(str(question), str(text))
        if hit:
            return answer
        if self.llm_calls >= self.budget:
            return None
        self.llm_calls += 1
        return self.answers.ask(str(question), str(text))


def normalise(reply: str) -> str:
    """'Yes.' / 'yes, it is' -> 'Yes'; 'No' likewise; other answers trimmed."""
    text = reply.strip().strip("\"'` ")
    first = text.split(None, 1)[0].strip(".,!:;").lower() if text else ""
    if first in ("yes", "no"):
        return first.capitalize()
    return text.rstrip(".")
