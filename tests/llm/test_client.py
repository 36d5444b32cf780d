"""The LLM client against the scripted server: completions, accounting, retries and every failure kind."""

from __future__ import annotations

from concurrent.futures import ThreadPoolExecutor

import pytest

from genie_bot.llm import Account, CallRecord, LLMError
from genie_bot.llm import make_client
from tests.fakes.openai_server import ScriptedOpenAIServer

from .conftest import MODELS, make_settings

HELLO = [{"role": "user", "content": "Say hello"}]


def test_completion_text_usage_and_account(server, script):
    script.add("parser", "hello there")
    client = make_client(make_settings(server))

    completion = client.complete("parser", HELLO)

    assert completion.text == "hello there"
    assert (completion.prompt_tokens, completion.completion_tokens) == (3, 3)  # the fake counts chars / 4
    (record,) = client.account.records
    assert (record.role, record.model, record.prompt_tokens, record.completion_tokens, record.error) == \
        ("parser", MODELS["parser"], 3, 3, None)
    assert record.latency_ms > 0
    body = script.requests["parser"][0]
    assert body["messages"] == HELLO and body["temperature"] == 0.0 and body["max_tokens"] == 600


def test_role_sampling_comes_from_the_settings(server, script):
    script.add("responder", "hi")
    make_client(make_settings(server, temperature={"responder": 0.7})).complete("responder", HELLO)
    assert script.requests["responder"][0]["temperature"] == 0.7


def test_rate_limit_is_retried_with_backoff(server, script):
    script.add("parser", {"status": 429}, "after the retry")
    client = make_client(make_settings(server, max_retries=2))
    assert client.complete("parser", HELLO).text == "after the retry"
    assert client.account.records[0].retries == 1


def test_server_error_is_retried(server, script):
    script.add("parser", {"status": 503}, "recovered")
    client = make_client(make_settings(server, max_retries=1))
    assert client.complete("parser", HELLO).text == "recovered"
    assert script.calls("parser") == 2


@pytest.mark.parametrize("item, kind", [
    ({"status": 500}, "status"),
    ({"status": 429}, "rate_limit"),
    ({"status": 400, "message": "bad request"}, "status"),
    ({"garbage": True}, "malformed"),
    ({"garbage": True, "content_type": "text/html"}, "malformed"),
    ({"content": ""}, "empty"),
    ({"content": "   \n"}, "empty"),
])
def test_failures_become_llm_errors_and_are_accounted(server, script, item, kind):
    script.add("parser", item)
    client = make_client(make_settings(server))
    with pytest.raises(LLMError) as excinfo:
        client.complete("parser", HELLO)
    assert excinfo.value.kind == kind
    (record,) = client.account.records
    assert record.error == kind and record.prompt_tokens == 0


def test_timeout(server, script):
    script.add("parser", {"delay": 2, "content": "too late"})
    client = make_client(make_settings(server, timeout=0.2))
    with pytest.raises(LLMError) as excinfo:
        client.complete("parser", HELLO)
    assert excinfo.value.kind == "timeout"


def test_unreachable_server():
    with ScriptedOpenAIServer() as gone:
        settings = make_settings(gone)
    with pytest.raises(LLMError) as excinfo:
        make_client(settings).complete("parser", HELLO)
    assert excinfo.value.kind == "connection"


def test_account_totals_and_marks(server, script):
    script.add("parser", "one")
    script.add("responder", "two", {"status": 500})
    client = make_client(make_settings(server))
    client.complete("parser", HELLO)
    mark = client.account.mark()
    client.complete("responder", HELLO)
    with pytest.raises(LLMError):
        client.complete("responder", HELLO)
    assert [r.role for r in client.account.since(mark)] == ["responder", "responder"]
    assert client.account.totals("responder")["calls"] == 2
    assert client.account.totals("responder")["errors"] == 1
    assert client.account.totals()["prompt_tokens"] == 6


def test_max_tokens_zero_leaves_the_parameter_out(server, script):
    script.add("parser", "ok")
    make_client(make_settings(server, max_tokens={"parser": 0})).complete("parser", HELLO)
    assert "max_tokens" not in script.requests["parser"][0]


def test_account_keeps_the_latest_records_and_all_totals():
    account = Account(keep=3)
    for i in range(5):
        account.add(CallRecord("parser", "m", i, 1, 2.0))
    mark = account.mark()
    account.add(CallRecord("responder", "m", 10, 1, 2.0, error="timeout"))
    assert [r.prompt_tokens for r in account.records] == [3, 4, 10]
    assert [r.role for r in account.since(mark)] == ["responder"] and account.since(mark + 1) == []
    assert account.totals() == {"calls": 6, "errors": 1, "prompt_tokens": 20, "completion_tokens": 6,
                                "latency_ms": 12.0}


def test_the_timeout_is_a_deadline_for_the_whole_call_not_per_read(server, script):
    # each byte comes well within the per-read timeout; the whole body would take minutes
    script.add("parser", {"trickle": 0.05, "content": "x" * 2000})
    client = make_client(make_settings(server, timeout=0.5, max_retries=0))
    with pytest.raises(LLMError) as excinfo:
        client.complete("parser", HELLO)
    assert excinfo.value.kind == "timeout"
    assert server.trickle_ended.wait(10), "the client kept the connection open after its deadline"
    assert server.client_hung_up.is_set()


def test_the_deadline_covers_the_retries(server, script):
    script.add("parser", *[{"trickle": 0.05, "content": "x" * 2000}] * 3)
    client = make_client(make_settings(server, timeout=0.5, max_retries=2))
    with pytest.raises(LLMError) as excinfo:
        client.complete("parser", HELLO)
    assert excinfo.value.kind == "timeout"
    assert script.calls("parser") == 1  # no retry starts after the deadline


CONTEXT_ERRORS = [
    "This model's maximum context length is 2048 tokens. However, you requested 2950 tokens.",  # OpenAI, vLLM
    "the request exceeds the available context size, try increasing it",  # llama.cpp
]


@pytest.mark.parametrize("message", CONTEXT_ERRORS)
def test_a_context_length_error_is_its_own_kind_and_reported_once(server, script, caplog, message):
    script.add("parser", *[{"status": 400, "message": message}] * 2)
    client = make_client(make_settings(server))
    for _ in range(2):
        with pytest.raises(LLMError) as excinfo:
            client.complete("parser", HELLO)
        assert excinfo.value.kind == "context_length"
    reports = [r for r in caplog.records if "does not fit the context" in r.getMessage()]
    assert len(reports) == 1 and reports[0].levelname == "ERROR"
    assert "test-parser" in reports[0].getMessage() and "ctx" in reports[0].getMessage()


def test_each_role_has_its_own_endpoint_deadline_and_retries(server, script):
    with ScriptedOpenAIServer() as other:
        other.enqueue({"status": 503}, "from the other server")
        script.add("parser", {"status": 503})
        settings = make_settings(server, base_urls={"responder": other.base_url}, max_retries={"parser": 0, "responder": 1},
                                 timeout={"parser": 7, "responder": 5})
        client = make_client(settings)
        assert client.complete("responder", HELLO).text == "from the other server"
        with pytest.raises(LLMError):
            client.complete("parser", HELLO)
        assert len(other.requests) == 2 and script.calls("parser") == 1 and script.calls("responder") == 0
    assert (settings.parser.timeout, settings.responder.timeout, settings.responder.max_retries) == (7, 5, 1)


def test_calls_reuse_their_connections_across_roles_threads_and_timeouts(server, script):
    """One kept-alive connection per call in flight, not one per call: every role, endpoint variant and
    thread shares the client's pool (the load test once saw a socket opened and closed per call)."""
    for role in ("parser", "responder", "knowledge"):
        script.add(role, *["ok"] * 20)
    client = make_client(make_settings(server, timeout={"responder": 9}))
    for _ in range(10):
        for role in ("parser", "responder", "knowledge"):
            client.complete(role, HELLO)
    assert server.connections == 1
    with ThreadPoolExecutor(4) as pool:
        list(pool.map(lambda role: client.complete(role, HELLO), ["parser", "responder", "knowledge"] * 10))
    assert server.connections <= 1 + 4
