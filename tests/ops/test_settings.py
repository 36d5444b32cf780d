"""The operator settings of genie.yaml: LLM prices, metrics, turn-log content."""

from __future__ import annotations

import pytest

from genie_bot.config import ConfigInvalid, ModelPrice, load_config

from .conftest import TICKETS


def test_prices_metrics_and_content_settings(tmp_path):
    path = tmp_path / "genie.yaml"
    path.write_text(f"agents: {{tickets: {TICKETS}}}\n"
                    "llm: {prices: {gpt-4o: {prompt: 2.5, completion: 10}}}\n"
                    "metrics: {host: 0.0.0.0, port: 9100}\nlogging: {include_content: true}\n", encoding="utf-8")
    config = load_config(path, environ={})
    assert config.llm.prices == {"gpt-4o": ModelPrice(2.5, 10.0)}
    assert config.llm.cost("gpt-4o", 1000, 100) == pytest.approx(0.0035) and config.llm.cost("other", 1000, 100) == 0
    assert (config.metrics.enabled, config.metrics.host, config.metrics.port) == (True, "0.0.0.0", 9100)
    assert config.logging.include_content is True


def test_bad_prices_are_reported_with_their_position(tmp_path):
    path = tmp_path / "genie.yaml"
    path.write_text(f"agents: {{tickets: {TICKETS}}}\n"
                    "llm: {prices: {gpt-4o: {prompt: cheap, completon: 1}, mini: 3}}\n", encoding="utf-8")
    with pytest.raises(ConfigInvalid) as raised:
        load_config(path, environ={})
    assert [e.message for e in raised.value.errors] == [
        "'prompt' must be a number >= 0",
        "unknown key 'completon' in llm.prices.gpt-4o (did you mean 'completion'?)",
        "llm.prices.mini must be {prompt: USD, completion: USD} per million tokens",
    ]
