"""LLM settings: environment defaults, config files, per-role models, providers, offline mode."""

from __future__ import annotations

import openai
import pytest

from genie_bot.llm import LLMSettings, load_settings
from genie_bot.llm.settings import DEFAULT_MODEL, LOCAL_SERVER_KEY
from genie_bot.llm.transport import make_openai_client


def test_no_configuration_means_offline():
    settings = LLMSettings.from_env({})
    assert not settings.enabled
    assert settings.parser.model == DEFAULT_MODEL


def test_openai_api_key_alone_enables_the_llm_with_the_default_model():
    settings = LLMSettings.from_env({"OPENAI_API_KEY": "sk-test"})
    assert settings.enabled and settings.api_key == "sk-test" and settings.base_url is None
    assert {settings.role(r).model for r in ("parser", "knowledge", "responder")} == {DEFAULT_MODEL}
    assert "sk-test" not in repr(settings)


def test_base_url_alone_is_a_local_server_with_a_placeholder_key():
    settings = LLMSettings.from_env({"OPENAI_BASE_URL": "http://localhost:11434/v1", "GENIE_LLM_MODEL": "llama3.1"})
    assert settings.enabled and settings.api_key == LOCAL_SERVER_KEY
    assert settings.responder.model == "llama3.1"
    client = make_openai_client(settings)
    assert isinstance(client, openai.AsyncOpenAI) and str(client.base_url).startswith("http://localhost:11434/v1")


def test_config_mapping_per_role_models_temperatures_and_switches():
    settings = LLMSettings.from_mapping(
        {"model": "gpt-4o", "models": {"parser": "gpt-4o-mini"}, "temperature": {"responder": 0.9},
         "timeout": 5, "max_retries": 4, "fast_path": False, "max_worksheets": 8, "api_key_env": "MY_KEY"},
        environ={"MY_KEY": "k", "GENIE_LLM_MODEL": "ignored"})
    assert (settings.parser.model, settings.knowledge.model, settings.responder.model) == \
        ("gpt-4o-mini", "gpt-4o", "gpt-4o")
    assert settings.responder.temperature == 0.9 and settings.parser.temperature == 0.0
    assert (settings.timeout, settings.max_retries, settings.fast_path, settings.max_worksheets) == (5, 4, False, 8)
    assert settings.api_key == "k" and settings.enabled


def test_a_plain_temperature_is_the_responders():
    assert LLMSettings.from_mapping({"temperature": 0.5}, environ={}).responder.temperature == 0.5


@pytest.mark.parametrize("config, message", [
    ({"modle": "x"}, "unknown key 'modle' in llm"),
    ({"models": {"writer": "x"}}, "unknown key 'writer' in llm.models"),
    ({"provider": "anthropic"}, "provider"),
])
def test_bad_configuration_is_reported(config, message):
    with pytest.raises(ValueError, match=message):
        LLMSettings.from_mapping(config, environ={})


def test_azure_from_its_environment_variables():
    env = {"AZURE_OPENAI_ENDPOINT": "https://example.openai.azure.com", "AZURE_OPENAI_API_KEY": "az",
           "OPENAI_API_VERSION": "2024-10-21", "GENIE_LLM_MODEL": "my-deployment"}
    settings = LLMSettings.from_env(env)
    assert settings.provider == "azure" and settings.api_key == "az" and settings.enabled
    assert isinstance(make_openai_client(settings), openai.AsyncAzureOpenAI)
    assert "example.openai.azure.com" in settings.describe()


def test_azure_v1_api_is_a_plain_openai_base_url():
    settings = LLMSettings.from_env({"OPENAI_BASE_URL": "https://example.openai.azure.com/openai/v1/",
                                     "OPENAI_API_KEY": "az"})
    assert settings.provider == "openai" and settings.api_key == "az"


def test_record_and_replay_directories(tmp_path):
    settings = LLMSettings.from_env({"GENIE_LLM_REPLAY": str(tmp_path)})
    assert settings.replay_dir == tmp_path and settings.enabled  # replay needs no endpoint
    assert LLMSettings.from_env({"GENIE_LLM_RECORD": str(tmp_path)}).record_dir == tmp_path


def test_load_settings_reads_the_llm_section_of_a_yaml_file(tmp_path):
    path = tmp_path / "genie.yaml"
    path.write_text("llm:\n  base_url: http://127.0.0.1:8000/v1\n  model: qwen2.5\n  fast_path: false\n")
    settings = load_settings(path, environ={})
    assert settings.base_url == "http://127.0.0.1:8000/v1" and settings.parser.model == "qwen2.5"
    assert not settings.fast_path and settings.enabled
    assert load_settings(None, environ={}).enabled is False
