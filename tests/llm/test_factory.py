"""Wiring agents: offline mode says so; LLM mode gets the LLM parser, responder and knowledge backend."""

from __future__ import annotations

import logging

from genie_bot.agent import (OFFLINE_MESSAGE, Agent, agent_builder, agent_components, build_agent,
                             settings_from_config)
from genie_bot.config import LlmConfig
from genie_bot.knowledge import KeywordQuery
from genie_bot.knowledge.llm_query import LLMKnowledge
from genie_bot.llm import LLMSettings
from genie_bot.parsers import RuleParser
from genie_bot.parsers.llm import LLMParser
from genie_bot.responders import TemplateResponder
from genie_bot.responders.llm import LLMResponder

from .conftest import NOW, Chat


def test_without_an_llm_the_bot_runs_offline_and_says_so(restaurant_spec, caplog):
    with caplog.at_level(logging.WARNING, logger="genie_bot.agent.assembly"):
        components = agent_components(restaurant_spec, LLMSettings.from_env({}))
    assert components.offline and components.message == OFFLINE_MESSAGE
    assert "Offline mode" in caplog.text and "OPENAI_API_KEY" in caplog.text
    assert isinstance(components.parser, RuleParser) and isinstance(components.responder, TemplateResponder)
    assert isinstance(components.knowledge, KeywordQuery)


def test_offline_agent_works_end_to_end(restaurant_spec):
    chat = Chat(build_agent(restaurant_spec, LLMSettings.from_env({}), clock=lambda: NOW))
    reply = chat.say("find me a cheap Thai place in Seattle")
    assert reply.acts[0].formal().startswith("Report(answer(") and "Thai" in reply.text and "SELECT" not in reply.text


def test_llm_mode_components_and_start_up_message(settings, restaurant_spec, ticket_spec):
    components = agent_components(restaurant_spec, settings)
    assert not components.offline
    assert isinstance(components.parser, LLMParser) and isinstance(components.responder, LLMResponder)
    assert isinstance(components.knowledge, LLMKnowledge)
    assert components.message.startswith("LLM mode: parser test-parser, knowledge test-knowledge, "
                                         "responder test-responder via http://127.0.0.1:")
    assert agent_components(ticket_spec, settings).knowledge is None  # no knowledge sources


def test_llm_agent_end_to_end_with_one_shared_account(server, script, restaurant_spec, settings):
    components = agent_components(restaurant_spec, settings, clock=lambda: NOW)
    agent = Agent.from_components(components)
    assert agent.runtime.executor.knowledge is components.knowledge
    script.add("parser", "book_restaurant_0 = BookRestaurant(num_people=2, date='2026-11-27')")
    script.add("responder", "Which restaurant would you like to book?")
    reply = Chat(agent).say("a table for two next Friday please")
    assert reply.text == ("Got it: the number of people is 2 and the date of the reservation is Friday, "
                          "November 27, 2026.\n\nWhich restaurant would you like to book?")
    assert [r.role for r in components.client.account.records] == ["parser", "responder"]


def test_config_hooks_for_the_engine(server, script, restaurant_spec):
    llm = LlmConfig(model="test-parser", base_url=server.base_url, api_key="k", timeout_seconds=2.0)
    settings = settings_from_config(llm, environ={})
    assert (settings.base_url, settings.api_key, settings.timeout, settings.parser.model) == \
        (server.base_url, "k", 2.0, "test-parser")
    agent = agent_builder(llm, clock=lambda: NOW)(restaurant_spec)
    assert isinstance(agent.parser, LLMParser) and isinstance(agent.responder, LLMResponder)
    assert isinstance(agent.runtime.executor.knowledge, LLMKnowledge)


def test_config_hooks_without_an_llm_stay_offline(restaurant_spec, monkeypatch):
    for name in ("OPENAI_API_KEY", "OPENAI_BASE_URL", "AZURE_OPENAI_ENDPOINT", "GENIE_LLM_REPLAY"):
        monkeypatch.delenv(name, raising=False)
    offline = LlmConfig(model=None, base_url=None, api_key=None, timeout_seconds=30.0)
    agent = agent_builder(offline, clock=lambda: NOW)(restaurant_spec)
    assert isinstance(agent.parser, RuleParser)
    assert isinstance(agent.responder, TemplateResponder)
    assert isinstance(agent.runtime.executor.knowledge, KeywordQuery)


class WrappingParser:
    """A bot builder's parser hook: wraps the agent's offline parser."""

    def __init__(self, agent: Agent, llm: LlmConfig):
        self.inner, self.llm = agent.parser, llm

    def parse(self, spec, state, text, today):
        return self.inner.parse(spec, state, text, today)


def test_a_bot_builders_hook_named_in_the_config_builds_the_parser(restaurant_spec):
    llm = LlmConfig(parser=f"{__name__}:WrappingParser", responder="templates")
    agent = agent_builder(llm, clock=lambda: NOW)(restaurant_spec)
    assert isinstance(agent.parser, WrappingParser) and isinstance(agent.parser.inner, RuleParser)
    assert agent.parser.llm is llm and isinstance(agent.responder, TemplateResponder)
    assert isinstance(agent.runtime.executor.knowledge, KeywordQuery)
