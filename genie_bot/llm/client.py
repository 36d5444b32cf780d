"""The LLM client every role uses: one synchronous chat completion, accounted, or an LLMError.

Callers never see the ``openai`` package's exceptions or odd return values: any failure
(timeout, HTTP error after retries, a body that is not a completion, empty text) becomes an
:class:`LLMError` with a ``kind``, so each role can fall back to its offline counterpart.
"""

from __future__ import annotations

import hashlib
import json
import logging
import threading
import time
from dataclasses import dataclass, field
from typing import Any, Protocol

from ..errors import GenieError
from .account import Account, CallRecord
from .settings import LLMSettings
from .waiting import waiting

Message = dict[str, str]

log = logging.getLogger(__name__)


@dataclass(frozen=True)
class ChatRequest:
    role: str
    model: str
    messages: tuple[Message, ...]
    temperature: float
    max_tokens: int
    base_url: str | None = None
    timeout: float = 0.0
    """Seconds for the whole call, retries included; 0: no deadline."""
    max_retries: int = 0
    extra: dict[str, Any] = field(default_factory=dict)
    """Further arguments of the chat completion (constrained output: ``response_format``, ``extra_body``)."""

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
        self._reported: set[tuple[str, str]] = set()
        self._lock = threading.Lock()

    def complete(self, role: str, messages: list[Message], *, temperature: float | None = None,
                 max_tokens: int | None = None, extra: dict[str, Any] | None = None) -> Completion:
        """One completion for ``role`` (its model, endpoint, deadline and sampling from the settings);
        ``extra`` adds arguments (constrained output). Raises LLMError."""
        config = self.settings.role(role)
        request = ChatRequest(role, config.model, tuple(messages),
                              config.temperature if temperature is None else temperature,
                              config.max_tokens if max_tokens is None else max_tokens,
                              config.base_url, config.timeout, config.max_retries, dict(extra or {}))
        started = time.perf_counter()
        try:
            with waiting():
                completion = self.transport.send(request)
            if not completion.text.strip():
                raise LLMError("empty", "the completion has no text")
        except LLMError as exc:
            self.account.add(CallRecord(role, request.model, 0, 0, _ms_since(started), error=exc.kind))
            if exc.kind == "context_length":
                self._report_context_length(request, exc)
            raise
        self.account.add(CallRecord(role, request.model, completion.prompt_tokens, completion.completion_tokens,
                                    completion.latency_ms or _ms_since(started), completion.retries))
        return completion

    def _report_context_length(self, request: ChatRequest, exc: LLMError) -> None:
        """Said once per role and model, loudly: every such call falls back to the offline part."""
        with self._lock:
            if (request.role, request.model) in self._reported:
                return
            self._reported.add((request.role, request.model))
        log.error("The %s prompt does not fit the context of model %s (%s). The %s falls back to its offline "
                  "counterpart on every such turn until the server's context is raised (llama.cpp: --ctx-size / "
                  "n_ctx 8192; vLLM: --max-model-len; Ollama: num_ctx) or a model with a longer context is used.",
                  request.role, request.model, exc.detail[:300], request.role)


def _ms_since(started: float) -> float:
    return (time.perf_counter() - started) * 1000
