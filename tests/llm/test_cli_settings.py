"""LLM settings for every command: a config file, flags (per role or for all) and the environment."""

from __future__ import annotations

import argparse
import os

import pytest

from genie_bot.agent import settings_from_config
from genie_bot.cli.llm_options import add_llm_arguments, llm_overrides, llm_settings
from genie_bot.cli.deployment import _config
from genie_bot.config import load_config
from genie_bot.llm.settings import LLMSettingsInvalid, load_settings
from tests.conftest import WORKSHEETS


def _args(*argv: str) -> argparse.Namespace:
    parser = argparse.ArgumentParser()
    add_llm_arguments(parser)
    return parser.parse_args(argv)


def test_flags_per_role_and_for_every_role(tmp_path, monkeypatch):
    monkeypatch.delenv("GENIE_LLM_CONFIG", raising=False)
    file = tmp_path / "llm.yaml"
    file.write_text("llm:\n  base_url: http://127.0.0.1:8080/v1\n  models: {knowledge: from-file}\n"
                    "  max_retries: 3\n")
    args = _args("--llm-config", str(file), "--llm-model", "small", "--llm-model", "parser=big",
                 "--llm-base-url", "responder=http://127.0.0.1:9090/v1", "--llm-timeout", "120",
                 "--llm-timeout", "parser=300", "--llm-retries", "responder=0", "--llm-constrained", "llama_cpp")
    settings = llm_settings(args)
    assert (settings.parser.model, settings.knowledge.model, settings.responder.model) == ("big", "from-file", "small")
    assert (settings.parser.base_url, settings.responder.base_url) == \
        ("http://127.0.0.1:8080/v1", "http://127.0.0.1:9090/v1")
    assert (settings.parser.timeout, settings.knowledge.timeout, settings.responder.timeout) == (300, 120, 120)
    assert (settings.parser.max_retries, settings.responder.max_retries) == (3, 0)
    assert settings.constrained == "llama_cpp" and settings.enabled
    assert "deadline" in settings.describe() and "http://127.0.0.1:9090/v1" in settings.describe()


def test_the_environment_names_the_file_and_each_setting(tmp_path):
    file = tmp_path / "llm.yaml"
    file.write_text("llm:\n  base_url: http://127.0.0.1:8080/v1\n")
    settings = load_settings(environ={"GENIE_LLM_CONFIG": str(file), "GENIE_LLM_TIMEOUT": "90",
                                      "GENIE_LLM_MAX_RETRIES": "0", "GENIE_LLM_PARSER_MODEL": "qwen",
                                      "GENIE_LLM_RESPONDER_BASE_URL": "http://127.0.0.1:1/v1"})
    assert settings.parser.model == "qwen" and settings.parser.timeout == 90 and settings.knowledge.max_retries == 0
    assert settings.responder.base_url == "http://127.0.0.1:1/v1" and settings.parser.base_url == \
        "http://127.0.0.1:8080/v1"


def test_a_bad_flag_value_exits():
    with pytest.raises(SystemExit):
        llm_overrides(_args("--llm-timeout", "parser=soon"))


def test_genie_yaml_takes_every_llm_setting_and_run_reports_their_problems(tmp_path, capsys):
    config = tmp_path / "genie.yaml"
    config.write_text(f"llm:\n  base_url: http://127.0.0.1:8080/v1\n  timeout: {{parser: 120}}\n"
                      f"  models: {{parser: p, responder: r}}\n  constrained: vllm\n"
                      f"agents:\n  tickets: {WORKSHEETS / 'ticket_submission'}\n")
    settings = settings_from_config(load_config(config, environ={}).llm, environ={})
    assert (settings.parser.timeout, settings.parser.model, settings.responder.model) == (120, "p", "r")
    assert settings.constrained == "vllm"
    flagged = load_config(config, environ={}, llm_overrides=llm_overrides(_args("--llm-model", "parser=q")))
    assert settings_from_config(flagged.llm, environ={}).parser.model == "q"

    config.write_text(config.read_text().replace("constrained: vllm", "constrained: grammar\n  timout: 3"))
    with pytest.raises(LLMSettingsInvalid):
        settings_from_config(load_config(config, environ={}).llm, environ={})
    assert _config(config) is None
    err = capsys.readouterr().err
    assert "constrained" in err and "timout" in err


def test_chat_takes_the_flags(server, script, genie, monkeypatch):
    for name in [n for n in os.environ if n.startswith(("OPENAI_", "AZURE_OPENAI_", "GENIE_LLM_"))]:
        monkeypatch.delenv(name)
    script.add("parser", "```python\nmain_0 = Main(student_task='Leave of Absence')\n```")

    result = genie("chat", WORKSHEETS / "ticket_submission", "--llm-base-url", server.base_url,
                   "--llm-model", "parser=test-parser", "--llm-model", "responder=test-responder",
                   "--llm-model", "knowledge=test-knowledge", "--llm-timeout", "4", "--llm-retries", "0",
                   stdin="I would like to take some time off from school this spring please\n")
    assert result.returncode == 0, result.stderr
    assert "Have you already submitted the leave of absence form, or not yet?" in result.stdout  # the ask: as written
    assert script.calls("parser") == 1 and script.requests["parser"][0]["model"] == "test-parser"
    assert "deadline 4 s, 0 retries" in result.stderr
