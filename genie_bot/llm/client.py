"""The LLM client every role uses: one synchronous chat completion, accounted, or an LLMError.

Callers never see the ``openai`` package's exceptions or odd return values: any failure
(timeout, HTTP error after retries, a body that is not a completion, empty text) becomes an
:class:`LLMError` with a ``kind``, so each role can fall back to its offline counterpart.
"""

from __future__ import annotations

import hashlib
import json
import time
from dataclasses import dataclass
from typing import Protocol

from ..errors import GenieError
from .account import Account, CallRecord
from .settings import LLMSettings

Message = dict[str, str]


@dataclass(frozen=True)
class ChatRequest:
    role: str
    model: str
    messages: tuple[Message, ...]
    temperature: float
    max_tokens: int

    def key(self) -> str:
        """Identifies the prompt (role and messages) for recording and replay; the model is not part of it."""
        text = json.dumps({"role": self.role, "messages": list(self.messages)}, ensure_ascii=False, sort_keys=True)
        return hashlib.sha256(text.encode()).hexdigest()[:20]


@dataclass(frozen=True)
class Completion:
    text: str
    prompt_tokens: int = 0
    completion_tokens: int = 0
    latency_ms: float = 0.0
    retries: int = 0


class LLMError(GenieError):
    """The LLM gave no usable completion; ``kind`` says why (timeout, status, malformed, empty...)."""

    def __init__(self, kind: str, detail: str):
        super().__init__(f"{kind}: {detail}")
        self.kind = kind
        self.detail = detail


class Transport(Protocol):
    """Sends one request: to the API, or to a directory of recorded completions."""

    def send(self, request: ChatRequest) -> Completion: ...


class LLMClient:
    def __init__(self, settings: LLMSettings, transport: Transport, account: Account | None = None):
        self.settings = settings
        self.transport = transport
        self.account = account or Account()

    def complete(self, role: str, messages: list[Message], *, temperature: float | None = None,
                 max_tokens: int | None = None) -> Completion:
        """One completion for ``role`` (its model and sampling from the settings); raises LLMError."""
        config = self.settings.role(role)
        request = ChatRequest(role, config.model, tuple(messages),
                              config.temperature if temperature is None else temperature,
                              config.max_tokens if max_tokens is None else max_tokens)
        started = time.perf_counter()
        try:
            completion = self.transport.send(request)
            if not completion.text.strip():
                raise LLMError("empty", "the completion has no text")
        except LLMError as exc:
            self.account.add(CallRecord(role, request.model, 0, 0, _ms_since(started), error=exc.kind))
            raise
        self.account.add(CallRecord(role, request.model, completion.prompt_tokens, completion.completion_tokens,
                                    completion.latency_ms or _ms_since(started), completion.retries))
        return completion


def _ms_since(started: float) -> float:
    return (time.perf_counter() - started) * 1000
