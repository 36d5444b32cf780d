"""The LLM-calls benchmark runs cleanly, the fast path saves calls, and prompts stay flat."""

from __future__ import annotations

from tests.benchmarks.llm_calls import benchmark


def test_benchmark_figures():
    figures = benchmark()
    rows = {(row["agent"], row["fast_path"]): row for row in figures["scenarios"]}
    for (agent, fast_path), row in rows.items():
        assert row["responder_calls_per_turn"] == 1.0
        if not fast_path:  # with the fast path, some turns use the rule-based parse instead of the script
            assert row["error_turns"] == 0, agent
            assert row["parser_calls_per_turn"] == 1.0 and row["fast_path_turns"] == 0
            assert 2.0 <= row["calls_per_turn"] <= 2.5  # the paper's two calls, plus knowledge queries
        else:
            assert row["calls_per_turn"] < rows[(agent, False)]["calls_per_turn"]
            assert row["prompt_tokens_per_turn"] < rows[(agent, False)]["prompt_tokens_per_turn"]
    growth = figures["long_conversation"]
    assert growth["turns"] == 30 and growth["error_turns"] == 0
    assert growth["ratio"] <= 1.2 and growth["max_ratio"] <= 1.2
