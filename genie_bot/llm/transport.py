"""Chat completions over HTTP with the ``openai`` package (OpenAI, Azure, local servers).

Each role's ``timeout`` is a deadline for the whole call, retries included. The HTTP
library's timeouts bound each network read, so an endpoint trickling its body a byte at a
time would hold the call open indefinitely; the request therefore runs on the async client,
on one event loop thread shared by every transport, under ``asyncio.wait_for``, which
cancels it (closing its connection) when the deadline passes. The calling thread just waits.

Every client of the process sends through one HTTP client on that thread, the ``openai``
package's aiohttp transport (``openai.DefaultAioHttpClient``): its connection pool is shared by
every role, endpoint and agent (reloads included), and taking a kept-alive connection from it
costs the same however many are open. httpx's own pool checks every idle connection on each
request and each response, so a call cost more the more calls were in flight (a turn thread
each, while users wait): ``python -m tests.benchmarks.llm_client`` measured 5.1-5.8 ms of CPU per
call with 48 in flight through httpx, 3.5 ms through aiohttp, on the same busy machine.

Retries with exponential backoff on 408/409/429/5xx and timeouts are the client's own
(``max_retries``; it honours ``retry-after``). This module turns everything that can still go
wrong into an :class:`LLMError`: exceptions, and also replies that are not completions at
all (a proxy's HTML page comes back from the client as a plain ``str``). A 400 saying the
prompt exceeds the model's context is its own kind, ``context_length``.
"""

from __future__ import annotations

import asyncio
import atexit
import re
import threading
import time
from collections.abc import Coroutine
from typing import Any, TypeVar

import openai
from openai.types.chat import ChatCompletion

from .client import ChatRequest, Completion, LLMError
from .settings import LLMSettings

T = TypeVar("T")

_CONTEXT_LENGTH = re.compile(r"context[ _](length|size|window)|maximum context|too many tokens|exceeds? the "
                             r"(available )?context|n_ctx|prompt is too long", re.I)
"""How OpenAI, vLLM, llama.cpp and Ollama word a prompt longer than the model's context."""


def make_openai_client(settings: LLMSettings) -> openai.AsyncOpenAI:
    """The async client for the settings' provider (per-role endpoints and deadlines are applied per call)."""
    common: dict[str, Any] = {"timeout": settings.timeout, "max_retries": settings.max_retries,
                              "http_client": _LoopThread.http_client()}
    if settings.provider == "azure":
        common["azure_endpoint"] = settings.azure_endpoint  # None: AZURE_OPENAI_ENDPOINT
        return openai.AsyncAzureOpenAI(api_version=settings.api_version, api_key=settings.api_key, **common)
    return openai.AsyncOpenAI(base_url=settings.base_url, api_key=settings.api_key, **common)


class _LoopThread:
    """One event loop in a daemon thread, running the LLM calls of every transport through one HTTP client."""

    _lock = threading.Lock()
    _loop: asyncio.AbstractEventLoop | None = None
    _http: openai.DefaultAioHttpClient | None = None

    @classmethod
    def run(cls, coroutine: Coroutine[Any, Any, T]) -> T:
        return asyncio.run_coroutine_threadsafe(coroutine, cls._get()).result()

    @classmethod
    def http_client(cls) -> openai.DefaultAioHttpClient:
        """The process's HTTP client for LLM calls (its aiohttp session is opened by the first call, on
        the loop thread), closed when the interpreter exits."""
        with cls._lock:
            if cls._http is None:
                cls._http = openai.DefaultAioHttpClient()
                atexit.register(cls._close)
            return cls._http

    @classmethod
    def _close(cls) -> None:
        loop, http = cls._loop, cls._http
        if loop is not None and http is not None and loop.is_running():
            try:
                asyncio.run_coroutine_threadsafe(http.aclose(), loop).result(timeout=5)
            except Exception:  # noqa: BLE001 - exiting anyway; the connections close with the process
                pass

    @classmethod
    def _get(cls) -> asyncio.AbstractEventLoop:
        with cls._lock:
            if cls._loop is None:
                loop = asyncio.new_event_loop()
                threading.Thread(target=loop.run_forever, name="genie-llm-calls", daemon=True).start()
                cls._loop = loop
            return cls._loop


class OpenAITransport:
    def __init__(self, client: openai.AsyncOpenAI):
        self.client = client
        self._variants: dict[tuple[str | None, int, float], openai.AsyncOpenAI] = {}
        self._lock = threading.Lock()

    def send(self, request: ChatRequest) -> Completion:
        started = time.perf_counter()
        try:
            completion, retries = _LoopThread.run(self._call(request))
        except asyncio.TimeoutError as exc:  # the whole-call deadline
            raise LLMError("timeout", f"no completion within {request.timeout:g} s") from exc
        except openai.APITimeoutError as exc:
            raise LLMError("connection" if _refused(exc) else "timeout", str(exc)) from exc
        except openai.APIConnectionError as exc:
            raise LLMError("connection", str(exc)) from exc
        except openai.APIStatusError as exc:
            raise LLMError(_status_kind(exc), f"HTTP {exc.status_code}: {exc}") from exc
        except (openai.OpenAIError, ValueError) as exc:  # ValueError: a body that is not JSON
            raise LLMError("malformed", f"{type(exc).__name__}: {exc}") from exc
        latency_ms = (time.perf_counter() - started) * 1000
        return _completion(completion, latency_ms, retries)

    async def _call(self, request: ChatRequest) -> tuple[Any, int]:
        client = self._client_for(request)
        deadline = request.timeout if request.timeout > 0 else None

        async def call() -> tuple[Any, int]:
            raw = await client.chat.completions.with_raw_response.create(**_arguments(request))
            return raw.parse(), raw.retries_taken  # the body was read (asynchronously) by create

        return await asyncio.wait_for(call(), deadline)

    def _client_for(self, request: ChatRequest) -> openai.AsyncOpenAI:
        """The client with the request's endpoint, retries and per-attempt timeout (the deadline)."""
        key = (request.base_url, request.max_retries, request.timeout)
        with self._lock:
            if key not in self._variants:
                options: dict[str, Any] = {"max_retries": request.max_retries}
                if request.base_url:
                    options["base_url"] = request.base_url
                if request.timeout > 0:
                    options["timeout"] = request.timeout
                self._variants[key] = self.client.with_options(**options)
            return self._variants[key]


def _refused(exc: BaseException) -> bool:
    """A connection that failed (refused, unreachable) rather than timed out: the aiohttp transport's
    exception map reports both as a connect timeout, so the kind is read from the cause, an
    ``OSError`` that is no ``TimeoutError``."""
    cause = exc.__cause__
    while cause is not None:
        if isinstance(cause, OSError) and not isinstance(cause, TimeoutError):
            return True
        cause = cause.__cause__
    return False


def _status_kind(exc: openai.APIStatusError) -> str:
    if exc.status_code == 429:
        return "rate_limit"
    if exc.status_code in (400, 413) and _CONTEXT_LENGTH.search(str(exc)):
        return "context_length"
    return "status"


def _arguments(request: ChatRequest) -> dict[str, Any]:
    arguments: dict[str, Any] = {"model": request.model, "messages": list(request.messages),
                                 "temperature": request.temperature, **request.extra}
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
