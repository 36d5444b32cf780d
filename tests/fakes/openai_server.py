"""A scripted, OpenAI-compatible chat completions server for tests.

Tests point the real ``openai.OpenAI`` client at this server instead of
mocking the client, so retries, timeouts, streaming and response parsing are
exercised exactly as in production, while every answer is fully scripted.

Script items (served in order to ``POST /v1/chat/completions``):

* ``"text"``                        -- a normal completion with that content
* ``{"content": ""}``               -- same, via a dict (here: empty content)
* ``{"delay": 1.5, "content": "x"}`` -- answer only after sleeping (timeouts)
* ``{"status": 429}`` / ``{"status": 500}`` -- an OpenAI-style error body;
  an optional ``"message"`` overrides the error message. 429s carry
  ``retry-after: 0`` plus ``retry-after-ms: 1``, so client retries are instant
* ``{"trickle": 0.05, "content": "x"}`` -- the whole body, one byte every 0.05 s (a
  slow or stuck endpoint: each network read succeeds, the call never ends in time);
  ``trickle_ended`` is set when the server stops, ``client_hung_up`` when the client closed
* ``{"garbage": True}``             -- HTTP 200 with a body that is not JSON,
  labelled ``application/json`` (the client raises ``json.JSONDecodeError``);
  add ``"content_type": "text/html"`` to mimic a proxy page, for which the
  client *returns the raw text as a str* instead of raising

Note that the openai client retries 408/409/429/5xx responses *and* timeouts
(``max_retries=2`` by default), and each retry consumes the next script item.

Connections are kept alive (HTTP/1.1), as OpenAI's and local servers' are, so a client that
reuses its connections does so here too: ``connections`` counts those accepted.
"""

from __future__ import annotations

import json
import re
import socket
import sys
import threading
import time
from collections import deque
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from types import TracebackType
from typing import Any

ScriptItem = str | dict[str, Any]
Responder = Callable[[dict[str, Any]], ScriptItem]

_ALLOWED_KEYS = frozenset({"content", "status", "message", "delay", "garbage", "content_type", "trickle"})
_GARBAGE_BODY = b"<html><body>502 Bad Gateway (not JSON)</body></html>"
_DEFAULT_ERRORS = {
    429: ("rate_limit_exceeded", "requests", "Rate limit reached for requests (scripted)."),
    500: (None, "server_error", "The server had an error while processing your request. Sorry about that!"),
}


@dataclass(frozen=True)
class _Reply:
    """One normalised script item."""

    content: str = ""
    status: int = 200
    message: str | None = None
    delay: float = 0.0
    garbage: bool = False
    content_type: str = "application/json"
    trickle: float = 0.0
    retryable: bool = True  # False only for the fake's own "script error" replies


def _to_reply(item: ScriptItem) -> _Reply:
    """Validate a script item eagerly so typos fail in the test, not the server."""
    if isinstance(item, str):
        return _Reply(content=item)
    if not isinstance(item, dict):
        raise TypeError(f"script item must be str or dict, got {type(item).__name__}: {item!r}")
    unknown = set(item) - _ALLOWED_KEYS
    if unknown:
        raise ValueError(f"unknown script keys {sorted(unknown)} in {item!r}; allowed: {sorted(_ALLOWED_KEYS)}")
    content = item.get("content", "")
    if not isinstance(content, str):
        raise TypeError(f"'content' must be a str in {item!r}")
    return _Reply(
        content=content,
        status=int(item.get("status", 200)),
        message=item.get("message"),
        delay=float(item.get("delay", 0.0)),
        garbage=bool(item.get("garbage", False)),
        content_type=item.get("content_type", "application/json"),
        trickle=float(item.get("trickle", 0.0)),
    )


def _message_text(message: dict[str, Any]) -> str:
    """Text of a message whose content is a string or a list of content parts."""
    content = message.get("content")
    if isinstance(content, str):
        return content
    if isinstance(content, list):
        return "".join(part.get("text", "") for part in content if isinstance(part, dict))
    return ""


def _approx_tokens(chars: int) -> int:
    return (chars + 3) // 4


def _error_body(status: int, message: str | None) -> dict[str, Any]:
    code, err_type, default_message = _DEFAULT_ERRORS.get(
        status,
        (None, "invalid_request_error" if status < 500 else "server_error", f"Scripted HTTP {status} error."),
    )
    return {"error": {"message": message or default_message, "type": err_type, "param": None, "code": code}}


def _error_headers(reply: _Reply) -> dict[str, str]:
    """Retry hints: the openai client ignores ``retry-after: 0`` (falls back to
    ~0.5 s exponential backoff) but honours ``retry-after-ms``, and never retries
    when told ``x-should-retry: false``."""
    if not reply.retryable:
        return {"x-should-retry": "false"}
    if reply.status == 429:
        return {"retry-after": "0", "retry-after-ms": "1"}
    return {}


class _Handler(BaseHTTPRequestHandler):
    """Routes requests to the owning ``ScriptedOpenAIServer``."""

    server: _HTTPServer
    protocol_version = "HTTP/1.1"  # keep-alive, as real servers
    disable_nagle_algorithm = True  # headers and body are two writes: no 40 ms wait for a delayed ACK between them
    timeout = 60  # an idle kept-alive connection is closed after this (longer than clients keep them)

    def log_message(self, format: str, *args: Any) -> None:  # noqa: A002 - stdlib signature
        """Keep test output quiet; the fake records requests instead."""

    def do_GET(self) -> None:
        if self.path.rstrip("/") == "/v1/models":
            self.send_json(200, self.server.owner._models_payload())
        else:
            self._send_not_found()

    def do_POST(self) -> None:
        if self.path.rstrip("/") != "/v1/chat/completions":
            self._send_not_found()
            return
        length = int(self.headers.get("Content-Length") or 0)
        try:
            body = json.loads(self.rfile.read(length) or b"null")
        except ValueError:
            body = None
        if not isinstance(body, dict):
            self.send_json(400, _error_body(400, "We could not parse the JSON body of your request."))
            return
        self.server.owner._serve_completion(self, body)

    def _send_not_found(self) -> None:
        message = f"Invalid URL ({self.command} {self.path})"
        self.send_json(404, _error_body(404, message))

    def send_json(self, status: int, payload: dict[str, Any], headers: dict[str, str] | None = None) -> None:
        self.send_bytes(status, json.dumps(payload).encode(), "application/json", headers)

    def send_bytes(self, status: int, body: bytes, content_type: str, headers: dict[str, str] | None = None) -> None:
        self.send_response(status)
        self.send_header("Content-Type", content_type)
        self.send_header("Content-Length", str(len(body)))
        for name, value in (headers or {}).items():
            self.send_header(name, value)
        self.end_headers()
        self.wfile.write(body)


class _HTTPServer(ThreadingHTTPServer):
    """Joins handler threads on close (hanging up kept-alive connections first) and ignores clients
    that hung up."""

    daemon_threads = False
    block_on_close = True

    def __init__(self, owner: ScriptedOpenAIServer) -> None:
        self.owner = owner
        self.accepted = 0
        self._open: set[socket.socket] = set()
        self._open_lock = threading.Lock()
        super().__init__(("127.0.0.1", 0), _Handler)

    def get_request(self) -> tuple[socket.socket, Any]:
        connection, address = super().get_request()
        with self._open_lock:
            self.accepted += 1
            self._open.add(connection)
        return connection, address

    def shutdown_request(self, request: Any) -> None:
        with self._open_lock:
            self._open.discard(request)
        super().shutdown_request(request)

    def hang_up(self) -> None:
        """End every open connection, so handlers waiting for a next request on one return at once."""
        with self._open_lock:
            connections = list(self._open)
        for connection in connections:
            try:
                connection.shutdown(socket.SHUT_RDWR)
            except OSError:
                pass

    def handle_error(self, request: Any, client_address: Any) -> None:
        # A client that timed out closes its socket before a delayed reply is
        # written; that is the expected outcome of a timeout test, not an error.
        if isinstance(sys.exc_info()[1], ConnectionError):
            return
        super().handle_error(request, client_address)


class ScriptedOpenAIServer:
    """OpenAI-compatible server on 127.0.0.1 answering from a script.

    Use as a context manager; ``base_url`` goes to ``openai.OpenAI(base_url=...)``.
    When the queue is empty, ``responder`` (if set) is asked for a script item
    given the request JSON; otherwise the server answers HTTP 500 with
    ``x-should-retry: false`` so the client fails at once and loudly.
    """

    def __init__(
        self,
        responder: Responder | None = None,
        models: Sequence[str] = ("gpt-4o-mini", "gpt-4o"),
    ) -> None:
        self.responder = responder
        self.models = tuple(models)
        self._lock = threading.Lock()
        self._queue: deque[_Reply] = deque()
        self._requests: list[dict[str, Any]] = []
        self._closing = threading.Event()
        self.trickle_ended = threading.Event()
        self.client_hung_up = threading.Event()
        self._httpd: _HTTPServer | None = None
        self._thread: threading.Thread | None = None

    # -- lifecycle -------------------------------------------------------

    def start(self) -> ScriptedOpenAIServer:
        """Bind a free loopback port and serve in a background thread."""
        if self._httpd is not None:
            raise RuntimeError("ScriptedOpenAIServer is already running")
        self._closing.clear()
        self._httpd = _HTTPServer(self)
        self._thread = threading.Thread(
            target=self._httpd.serve_forever, kwargs={"poll_interval": 0.05}, name="scripted-openai", daemon=True
        )
        self._thread.start()
        return self

    def close(self) -> None:
        """Stop serving, wake delayed replies and join all threads. Idempotent."""
        if self._httpd is None:
            return
        self._closing.set()
        self._httpd.shutdown()
        self._httpd.hang_up()
        self._httpd.server_close()
        assert self._thread is not None
        self._thread.join(timeout=10)
        self._httpd = None
        self._thread = None

    def __enter__(self) -> ScriptedOpenAIServer:
        return self.start()

    def __exit__(
        self, exc_type: type[BaseException] | None, exc: BaseException | None, tb: TracebackType | None
    ) -> None:
        self.close()

    @property
    def base_url(self) -> str:
        """``http://127.0.0.1:PORT/v1`` -- the value for ``OpenAI(base_url=...)``."""
        if self._httpd is None:
            raise RuntimeError("ScriptedOpenAIServer is not running; use it as a context manager or call start()")
        return f"http://127.0.0.1:{self._httpd.server_address[1]}/v1"

    # -- scripting and inspection ---------------------------------------

    def enqueue(self, *items: ScriptItem) -> None:
        """Append script items; they are validated now and served in order."""
        replies = [_to_reply(item) for item in items]
        with self._lock:
            self._queue.extend(replies)

    @property
    def connections(self) -> int:
        """Connections accepted so far (a client reusing its connections opens few)."""
        assert self._httpd is not None, "ScriptedOpenAIServer is not running"
        return self._httpd.accepted

    @property
    def pending(self) -> int:
        """Number of queued script items not yet served."""
        with self._lock:
            return len(self._queue)

    @property
    def requests(self) -> list[dict[str, Any]]:
        """Snapshot of every chat completion request body received, in order."""
        with self._lock:
            return list(self._requests)

    def last_messages(self) -> list[dict[str, Any]]:
        """The ``messages`` list of the most recent chat completion request."""
        with self._lock:
            if not self._requests:
                raise AssertionError("ScriptedOpenAIServer has not received any chat completion request")
            return self._requests[-1].get("messages", [])

    # -- request handling (called from handler threads) -----------------

    def _models_payload(self) -> dict[str, Any]:
        data = [{"id": m, "object": "model", "created": 1700000000, "owned_by": "scripted"} for m in self.models]
        return {"object": "list", "data": data}

    def _serve_completion(self, handler: _Handler, body: dict[str, Any]) -> None:
        with self._lock:
            self._requests.append(body)
            number = len(self._requests)
            reply = self._queue.popleft() if self._queue else None
        if reply is None:
            reply = self._ask_responder(body, number)
        if reply.delay and self._closing.wait(reply.delay):
            handler.close_connection = True
            return  # shutting down: drop the connection instead of answering
        if reply.garbage:
            handler.send_bytes(200, _GARBAGE_BODY, reply.content_type)
        elif reply.status != 200:
            handler.send_json(reply.status, _error_body(reply.status, reply.message), _error_headers(reply))
        elif reply.trickle:
            self._trickle(handler, json.dumps(self._completion(body, reply.content, number)).encode(), reply.trickle)
        elif body.get("stream"):
            self._stream(handler, body, reply.content, number)
        else:
            handler.send_json(200, self._completion(body, reply.content, number))

    def _trickle(self, handler: _Handler, body: bytes, interval: float) -> None:
        handler.close_connection = True  # the body may stop half-way
        handler.send_response(200)
        handler.send_header("Content-Type", "application/json")
        handler.send_header("Content-Length", str(len(body)))
        handler.end_headers()
        try:
            for i in range(len(body)):
                handler.wfile.write(body[i:i + 1])
                handler.wfile.flush()
                if self._closing.wait(interval):
                    return
        except ConnectionError:
            self.client_hung_up.set()
        finally:
            self.trickle_ended.set()

    def _ask_responder(self, body: dict[str, Any], number: int) -> _Reply:
        if self.responder is None:
            message = (
                f"ScriptedOpenAIServer: script ran out at request #{number} "
                f"(no queued response and no responder); messages: {body.get('messages')!r}"
            )
            return _Reply(status=500, message=message, retryable=False)
        try:
            return _to_reply(self.responder(body))
        except Exception as exc:  # surface responder bugs in the failing test
            return _Reply(status=500, message=f"ScriptedOpenAIServer responder failed: {exc!r}", retryable=False)

    def _completion(self, body: dict[str, Any], content: str, number: int) -> dict[str, Any]:
        prompt_tokens = _approx_tokens(sum(len(_message_text(m)) for m in body.get("messages", [])))
        completion_tokens = _approx_tokens(len(content))
        return {
            "id": f"chatcmpl-scripted-{number}",
            "object": "chat.completion",
            "created": int(time.time()),
            "model": body.get("model", "unknown"),
            "choices": [
                {
                    "index": 0,
                    "message": {"role": "assistant", "content": content, "refusal": None},
                    "logprobs": None,
                    "finish_reason": "stop",
                }
            ],
            "usage": {
                "prompt_tokens": prompt_tokens,
                "completion_tokens": completion_tokens,
                "total_tokens": prompt_tokens + completion_tokens,
            },
        }

    def _stream(self, handler: _Handler, body: dict[str, Any], content: str, number: int) -> None:
        """Send server-sent events; closing the connection ends the body."""
        handler.close_connection = True
        handler.send_response(200)
        handler.send_header("Content-Type", "text/event-stream")
        handler.send_header("Connection", "close")
        handler.end_headers()
        for chunk in self._chunks(body, content, number):
            handler.wfile.write(f"data: {json.dumps(chunk)}\n\n".encode())
            handler.wfile.flush()
        handler.wfile.write(b"data: [DONE]\n\n")

    def _chunks(self, body: dict[str, Any], content: str, number: int) -> Iterator[dict[str, Any]]:
        full = self._completion(body, content, number)
        include_usage = bool((body.get("stream_options") or {}).get("include_usage"))
        base = {"id": full["id"], "object": "chat.completion.chunk", "created": full["created"], "model": full["model"]}
        if include_usage:
            base["usage"] = None
        pieces = re.findall(r"\S+\s*|\s+", content) or [""]
        deltas = [{"role": "assistant", "content": ""}] + [{"content": piece} for piece in pieces] + [{}]
        for i, delta in enumerate(deltas):
            finish_reason = "stop" if i == len(deltas) - 1 else None
            yield {**base, "choices": [{"index": 0, "delta": delta, "logprobs": None, "finish_reason": finish_reason}]}
        if include_usage:
            yield {**base, "choices": [], "usage": full["usage"]}
