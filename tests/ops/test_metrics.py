"""``GET /metrics`` after a few turns: turns, stage latencies, LLM calls, tokens, cost, errors, fallbacks, gauges."""

from __future__ import annotations

import asyncio
from collections.abc import Iterator

import aiohttp
import pytest
from prometheus_client.parser import text_string_to_metric_families

from genie_bot.config import AgentConfig, Config, LlmConfig, ModelPrice, SchedulerSettings
from genie_bot.engine import Engine, SessionKey
from genie_bot.engine.metrics_server import MetricsServer
from genie_bot.store import traces
from tests.engine.support import prepare_database, write_shop
from tests.fakes.openai_server import ScriptedOpenAIServer

PARSER_PROMPT = "You are the semantic parser"
KEY = SessionKey("slack", "T1", "C1", "1")


class ScriptedLlm:
    """The parser's first call gives a statement, later ones fail (HTTP 400); the responder always fails."""

    def __init__(self) -> None:
        self.parser_calls = 0

    def __call__(self, body: dict) -> dict | str:
        if PARSER_PROMPT not in body["messages"][0]["content"]:
            return {"status": 400}
        self.parser_calls += 1
        return "```python\norder_0.dish = 'Pizza'\n```" if self.parser_calls == 1 else {"status": 400}


@pytest.fixture
def llm_server() -> Iterator[ScriptedOpenAIServer]:
    with ScriptedOpenAIServer(responder=ScriptedLlm()) as server:
        yield server


def samples(text: str) -> dict[tuple[str, tuple], float]:
    return {(s.name, tuple(sorted(s.labels.items()))): s.value
            for family in text_string_to_metric_families(text) for s in family.samples}


def test_metrics_after_a_few_turns(tmp_path, llm_server):
    url = f"sqlite:///{tmp_path / 'metrics.sqlite3'}"
    prepare_database(url)
    llm = LlmConfig(parser="auto", responder="auto",
                    model="gpt-4o-mini", base_url=llm_server.base_url, api_key="sk-test",
                    prices={"gpt-4o-mini": ModelPrice(prompt=0.15, completion=0.60)},
                    options={"template_replies": False})  # every reply phrased: each turn calls the responder
    config = Config(agents={"shop": AgentConfig("shop", write_shop(tmp_path / "shop"))}, default_agent="shop",
                    database_url=url, llm=llm, scheduler=SchedulerSettings(enabled=False))

    async def scenario() -> str:
        async with Engine(config) as engine:
            server = MetricsServer(engine, "127.0.0.1", 0)
            await server.start()
            try:
                for index, text in enumerate(["what would you recommend tonight?", "2", "Ann",
                                              "hmm, I am still thinking about it"]):
                    assert await engine.handle_message(KEY, "U1", text, f"m{index}")
                host, port = server.address
                with engine.db.read() as conn:  # each trace counts every role's calls of its turn
                    assert [t.llm_calls for t in traces.for_session(conn, str(KEY))] == [2, 1, 1, 2]
                async with aiohttp.ClientSession() as http, http.get(f"http://{host}:{port}/metrics") as response:
                    assert response.status == 200 and response.headers["Content-Type"].startswith("text/plain")
                    return await response.text()
            finally:
                await server.stop()

    got = samples(asyncio.run(scenario()))
    assert got[("genie_turns_total", (("agent", "shop"), ("kind", "message"), ("outcome", "ok")))] == 4
    assert got[("genie_turn_stage_seconds_count", (("stage", "total"),))] == 4
    assert got[("genie_turn_stage_seconds_count", (("stage", "parse"),))] == 4
    assert got[("genie_parses_total", (("source", "llm"),))] == 1
    assert got[("genie_parses_total", (("source", "fast-path"),))] == 2
    assert got[("genie_parses_total", (("source", "fallback"),))] == 1

    parser_ok = (("model", "gpt-4o-mini"), ("result", "ok"), ("role", "parser"))
    assert got[("genie_llm_calls_total", parser_ok)] == 1
    assert got[("genie_llm_calls_total", (("model", "gpt-4o-mini"), ("result", "status"), ("role", "parser")))] == 1
    assert got[("genie_llm_calls_total", (("model", "gpt-4o-mini"), ("result", "status"), ("role", "responder")))] == 4
    prompt = got[("genie_llm_tokens_total", (("direction", "prompt"), ("model", "gpt-4o-mini"), ("role", "parser")))]
    completion = got[("genie_llm_tokens_total", (("direction", "completion"), ("model", "gpt-4o-mini"),
                                                 ("role", "parser")))]
    assert prompt > 500 and completion > 0
    cost = got[("genie_llm_cost_usd_total", (("model", "gpt-4o-mini"), ("role", "parser")))]
    assert cost == pytest.approx((prompt * 0.15 + completion * 0.60) / 1e6)
    assert got[("genie_llm_call_seconds_count", (("role", "responder"),))] == 4

    assert got[("genie_errors_total", (("kind", "llm_status"),))] == 5
    assert got[("genie_fallbacks_total", (("component", "parser"),))] == 1
    assert got[("genie_fallbacks_total", (("component", "responder"),))] == 4
    assert got[("genie_pending_actions", (("status", "pending"),))] == 1
    assert got[("genie_active_sessions", (("agent", "shop"),))] == 1
