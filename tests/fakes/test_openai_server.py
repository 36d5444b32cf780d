"""Proves ScriptedOpenAIServer behaves like the OpenAI API for the real client."""

from __future__ import annotations

import asyncio
import json
import threading
import time
from collections.abc import Iterator
from concurrent.futures import ThreadPoolExecutor

import openai
import pytest

from tests.fakes.openai_server import ScriptedOpenAIServer

MODEL = "gpt-4o-mini"


@pytest.fixture
def server() -> Iterator[ScriptedOpenAIServer]:
    with ScriptedOpenAIServer() as srv:
        yield srv


def make_client(server: ScriptedOpenAIServer, **kwargs: object) -> openai.OpenAI:
    """A real client; retries are off unless a test opts in, to keep failures fast."""
    options: dict = {"max_retries": 0, "timeout": 5.0, **kwargs}
    return openai.OpenAI(base_url=server.base_url, api_key="test", **options)


def ask(client: openai.OpenAI, text: str = "hi", **kwargs: object):
    return client.chat.completions.create(model=MODEL, messages=[{"role": "user", "content": text}], **kwargs)


def test_content_round_trip_and_request_recording(server: ScriptedOpenAIServer) -> None:
    server.enqueue("Hello there!")
    client = make_client(server)

    completion = client.chat.completions.create(
        model="gpt-4o",
        messages=[{"role": "system", "content": "You are terse."}, {"role": "user", "content": "Say hello"}],
        temperature=0,
    )

    assert completion.object == "chat.completion"
    assert completion.model == "gpt-4o"
    assert completion.choices[0].message.role == "assistant"
    assert completion.choices[0].message.content == "Hello there!"
    assert completion.choices[0].finish_reason == "stop"
    # "You are terse." + "Say hello" = 23 characters -> ~6 tokens.
    assert completion.usage is not None
    assert completion.usage.prompt_tokens == 6
    assert completion.usage.completion_tokens == 3
    assert completion.usage.total_tokens == 9
    assert server.requests == [
        {
            "model": "gpt-4o",
            "messages": [
                {"role": "system", "content": "You are terse."},
                {"role": "user", "content": "Say hello"},
            ],
            "temperature": 0,
        }
    ]
    assert server.last_messages()[-1] == {"role": "user", "content": "Say hello"}
    assert server.pending == 0


def test_empty_content(server: ScriptedOpenAIServer) -> None:
    server.enqueue({"content": ""})
    assert ask(make_client(server)).choices[0].message.content == ""


def test_rate_limit_then_success_uses_client_retries(server: ScriptedOpenAIServer) -> None:
    server.enqueue({"status": 429}, "after retry")
    client = make_client(server, max_retries=2)

    started = time.monotonic()
    completion = ask(client)

    assert completion.choices[0].message.content == "after retry"
    assert len(server.requests) == 2
    # retry-after-ms lets the client retry at once instead of backing off ~0.5 s.
    assert time.monotonic() - started < 0.35


def test_rate_limit_error_body_and_headers(server: ScriptedOpenAIServer) -> None:
    server.enqueue({"status": 429})
    with pytest.raises(openai.RateLimitError) as excinfo:
        ask(make_client(server))
    error = excinfo.value
    assert error.status_code == 429
    assert error.code == "rate_limit_exceeded"
    assert error.response.headers["retry-after"] == "0"


def test_server_error(server: ScriptedOpenAIServer) -> None:
    server.enqueue({"status": 500, "message": "boom"})
    with pytest.raises(openai.InternalServerError) as excinfo:
        ask(make_client(server))
    assert excinfo.value.status_code == 500
    assert excinfo.value.body == {"message": "boom", "type": "server_error", "param": None, "code": None}


def test_delay_beyond_client_timeout_raises_timeout(server: ScriptedOpenAIServer) -> None:
    server.enqueue({"delay": 3, "content": "too late"}, "on time")
    client = make_client(server, timeout=0.2)

    started = time.monotonic()
    with pytest.raises(openai.APITimeoutError):
        ask(client)
    assert time.monotonic() - started < 1.5
    # The server keeps serving other requests while the slow one sleeps.
    assert ask(client).choices[0].message.content == "on time"


def test_delay_within_client_timeout_succeeds(server: ScriptedOpenAIServer) -> None:
    server.enqueue({"delay": 0.1, "content": "slow but fine"})
    assert ask(make_client(server, timeout=2)).choices[0].message.content == "slow but fine"


def test_garbage_json_body_raises_decode_error(server: ScriptedOpenAIServer) -> None:
    server.enqueue({"garbage": True})
    with pytest.raises(json.JSONDecodeError):
        ask(make_client(server))


def test_garbage_html_body_is_returned_as_text(server: ScriptedOpenAIServer) -> None:
    """A surprising client behaviour callers must guard against: no exception."""
    server.enqueue({"garbage": True, "content_type": "text/html"})
    result = ask(make_client(server))
    assert isinstance(result, str)
    assert "not JSON" in result


def test_streaming(server: ScriptedOpenAIServer) -> None:
    server.enqueue("Hello streaming world")
    stream = ask(make_client(server), stream=True, stream_options={"include_usage": True})

    chunks = list(stream)

    text = "".join(c.choices[0].delta.content or "" for c in chunks if c.choices)
    assert text == "Hello streaming world"
    assert chunks[0].choices[0].delta.role == "assistant"
    assert [c.choices[0].finish_reason for c in chunks if c.choices][-1] == "stop"
    assert chunks[-1].choices == [] and chunks[-1].usage is not None
    assert chunks[-1].usage.completion_tokens == 6
    assert server.requests[0]["stream"] is True


def test_responder_routes_by_system_prompt(server: ScriptedOpenAIServer) -> None:
    def responder(request: dict) -> str:
        system = request["messages"][0]["content"]
        return "parsed" if "parser" in system else "phrased"

    server.responder = responder
    server.enqueue("queued first")
    client = make_client(server)

    def call(system: str) -> str | None:
        messages = [{"role": "system", "content": system}, {"role": "user", "content": "x"}]
        return client.chat.completions.create(model=MODEL, messages=messages).choices[0].message.content

    assert call("You are a parser") == "queued first"
    assert call("You are a parser") == "parsed"
    assert call("You are a writer") == "phrased"


def test_exhausted_script_fails_loudly_without_retries(server: ScriptedOpenAIServer) -> None:
    with pytest.raises(openai.InternalServerError, match="script ran out"):
        ask(make_client(server, max_retries=2))
    assert len(server.requests) == 1  # x-should-retry: false stops the client retrying


def test_invalid_script_item_is_rejected_at_enqueue(server: ScriptedOpenAIServer) -> None:
    with pytest.raises(ValueError, match="stauts"):
        server.enqueue({"stauts": 429})


def test_models_list(server: ScriptedOpenAIServer) -> None:
    assert [m.id for m in make_client(server).models.list()] == ["gpt-4o-mini", "gpt-4o"]


def test_unknown_path_is_404(server: ScriptedOpenAIServer) -> None:
    with pytest.raises(openai.NotFoundError):
        make_client(server).embeddings.create(model="text-embedding-3-small", input="x")


def test_concurrent_requests_each_get_one_item(server: ScriptedOpenAIServer) -> None:
    answers = [f"answer {i}" for i in range(8)]
    server.enqueue(*answers)
    client = make_client(server)
    with ThreadPoolExecutor(max_workers=8) as pool:
        results = list(pool.map(lambda _: ask(client).choices[0].message.content, range(8)))
    assert sorted(results) == sorted(answers)
    assert len(server.requests) == 8


def test_close_does_not_wait_for_delayed_reply() -> None:
    server = ScriptedOpenAIServer().start()
    server.enqueue({"delay": 30, "content": "never"})
    client = make_client(server, timeout=10)
    errors: list[Exception] = []

    def slow_call() -> None:
        try:
            ask(client)
        except Exception as exc:
            errors.append(exc)

    caller = threading.Thread(target=slow_call)
    caller.start()
    deadline = time.monotonic() + 2
    while not server.requests and time.monotonic() < deadline:
        time.sleep(0.01)

    started = time.monotonic()
    server.close()
    caller.join(timeout=5)

    assert time.monotonic() - started < 2
    assert not caller.is_alive()
    assert len(errors) == 1 and isinstance(errors[0], openai.APIConnectionError)


def test_restart_serves_on_a_fresh_port_and_keeps_the_script() -> None:
    server = ScriptedOpenAIServer()
    with server:
        server.enqueue("first", "second")
        assert ask(make_client(server)).choices[0].message.content == "first"
    with pytest.raises(RuntimeError, match="not running"):
        server.base_url
    with server:
        assert ask(make_client(server)).choices[0].message.content == "second"
        assert len(server.requests) == 2


def test_async_client_round_trip_and_streaming(server: ScriptedOpenAIServer) -> None:
    server.enqueue("async hello", "async streamed reply")

    async def run() -> tuple[str | None, str]:
        client = openai.AsyncOpenAI(base_url=server.base_url, api_key="test", max_retries=0, timeout=5)
        async with client:
            messages = [{"role": "user", "content": "hi"}]
            completion = await client.chat.completions.create(model=MODEL, messages=messages)
            stream = await client.chat.completions.create(model=MODEL, messages=messages, stream=True)
            streamed = "".join([chunk.choices[0].delta.content or "" async for chunk in stream])
        return completion.choices[0].message.content, streamed

    assert asyncio.run(run()) == ("async hello", "async streamed reply")
