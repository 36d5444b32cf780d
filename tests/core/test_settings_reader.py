"""One configuration reader: typed reads, every problem at once, located when read from a file."""

import pytest

from genie_bot.adapters.discord.settings import DiscordSettings, DiscordSettingsInvalid
from genie_bot.config import load_config
from genie_bot.llm.settings import LLMSettingsInvalid, load_settings
from genie_bot.settings_reader import SettingsReader
from tests.conftest import WORKSHEETS


def test_every_problem_of_an_llm_file_at_once_with_its_position(tmp_path):
    path = tmp_path / "llm.yaml"
    path.write_text("llm:\n  fast_path: sometimes\n  timeout: -3\n  modle: x\n", encoding="utf-8")
    with pytest.raises(LLMSettingsInvalid) as raised:
        load_settings(path, environ={})
    assert [str(e).replace(str(path), "llm.yaml") for e in raised.value.errors] == [
        "llm.yaml:2:14: 'fast_path' must be true or false",
        "llm.yaml:3:12: 'timeout' must be a number >= 0",
        "llm.yaml:4:3: unknown key 'modle' in llm (did you mean 'model'?)",
    ]


def test_platform_settings_read_from_genie_yaml_say_where(tmp_path):
    path = tmp_path / "genie.yaml"
    path.write_text(f"agents: {{tickets: {WORKSHEETS / 'ticket_submission'}}}\n"
                    "platforms:\n  discord:\n    bot_token: t\n    use_threads: maybe\n", encoding="utf-8")
    config = load_config(path, environ={})
    with pytest.raises(DiscordSettingsInvalid) as raised:
        DiscordSettings.parse(config.platforms["discord"])
    assert str(raised.value) == f"{path}:5:18: 'use_threads' must be true or false"


def test_without_a_file_problems_name_the_setting():
    reader = SettingsReader({"port": "eighty", "hots": "x"}, "platforms.slack")
    assert reader.number("port", 3000, int) == 3000
    reader.check_keys(("host", "port"))
    assert [str(p) for p in reader.problems] == [
        "platforms.slack.port: 'port' must be a number >= 0",
        "platforms.slack.hots: unknown key 'hots' in platforms.slack (did you mean 'host'?)",
    ]


def test_null_leaves_a_setting_at_its_default_or_none_where_allowed():
    reader = SettingsReader({"port": None, "closing": None})
    assert reader.number("port", 3000, int) == 3000
    assert reader.value("closing", str | None, "bye") is None
    assert reader.problems == []
