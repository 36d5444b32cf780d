"""Chat completions over HTTP with the ``openai`` package (OpenAI, Azure, local servers).

Retries with exponential backoff on 408/409/429/5xx and timeouts are the client's own
(``max_retries``; it honours ``retry-after``). This module turns everything that can still go
wrong into an :class:`LLMError`: exceptions, and also replies that are not completions at
all (a proxy's HTML page comes back from the client as a plain ``str``).
"""

from __future__ import annotations

import time
from typing import Any

import openai
from openai.types.chat import ChatCompletion

from .client import ChatRequest, Completion, LLMError
from .settings import LLMSettings


def make_openai_client(settings: LLMSettings) -> openai.OpenAI:
    """The synchronous client for the settings' provider."""
    common: dict[str, Any] = {"timeout": settings.timeout, "max_retries": settings.max_retries}
    if settings.provider == "azure":
        common["azure_endpoint"] = settings.azure_endpoint  # None: AZURE_OPENAI_ENDPOINT
        return openai.AzureOpenAI(api_version=settings.api_version, api_key=settings.api_key, **common)
    return openai.OpenAI(base_url=settings.base_url, api_key=settings.api_key, **common)


class OpenAITransport:
    def __init__(self, client: openai.OpenAI):
        self.client = client

    def send(self, request: ChatRequest) -> Completion:
        started = time.perf_counter()
        try:
            raw = self.client.chat.completions.with_raw_response.create(**_arguments(request))
            completion = raw.parse()
        except openai.APITimeoutError as exc:
            raise LLMError("timeout", str(exc)) from exc
        except openai.APIConnectionError as exc:
            raise LLMError("connection", str(exc)) from exc
        except openai.APIStatusError as exc:
            kind = "rate_limit" if exc.status_code == 429 else "status"
            raise LLMError(kind, f"HTTP {exc.status_code}: {exc}") from exc
        except (openai.OpenAIError, ValueError) as exc:  # ValueError: a body that is not JSON
            raise LLMError("malformed", f"{type(exc).__name__}: {exc}") from exc
        latency_ms = (time.perf_counter() - started) * 1000
        return _completion(completion, latency_ms, raw.retries_taken)


def _arguments(request: ChatRequest) -> dict[str, Any]:
    arguments: dict[str, Any] = {"model": request.model, "messages": list(request.messages),
                                 "temperature": request.temperature}
    if request.max_tokens > 0:  # 0 leaves it out, for models that only take max_completion_tokens
        arguments["max_tokens"] = request.max_tokens
    return arguments


def _completion(completion: Any, latency_ms: float, retries: int) -> Completion:
    if not isinstance(completion, ChatCompletion) or not completion.choices:
        raise LLMError("malformed", f"expected a chat completion, got {type(completion).__name__}")
    usage = completion.usage
    return Completion(
        text=completion.choices[0].message.content or "",
        prompt_tokens=usage.prompt_tokens if usage else 0,
        completion_tokens=usage.completion_tokens if usage else 0,
        latency_ms=latency_ms,
        retries=retries,
    )
