"""genie.yaml: defaults, environment overrides, routing, and problems reported with file:line."""

from __future__ import annotations

import textwrap
from pathlib import Path

import pytest

from genie_bot.config import ConfigInvalid, load_config

from tests.conftest import copied_example


def write(tmp_path: Path, text: str) -> Path:
    path = tmp_path / "genie.yaml"
    path.write_text(textwrap.dedent(text).lstrip("\n"), encoding="utf-8")
    return path


def test_the_example_configuration_loads(tmp_path):
    config = load_config(copied_example(tmp_path), environ={})
    assert set(config.agents) == {"tickets", "courses", "restaurants"} and config.default_agent == "tickets"
    assert config.database_url == f"sqlite:///{tmp_path / 'var' / 'genie.sqlite3'}"
    assert config.agents["tickets"].path == (tmp_path / "worksheets" / "ticket_submission").resolve()
    assert set(config.platforms) == {"slack", "discord"} and config.admins["slack"] == frozenset({"U0ADMIN"})
    assert config.agent_for("slack", "T1", "C0COURSES") == "courses"
    assert config.agent_for("discord", "112233445566778899", "998877665544332211") == "restaurants"
    assert config.agent_for("discord", "another-guild", "998877665544332211") == "tickets"


def test_minimal_file_and_defaults(tmp_path, shop):
    config = load_config(write(tmp_path, f"agents: {{shop: {shop}}}"), environ={})
    assert config.default_agent == "shop" and config.database_url == f"sqlite:///{tmp_path / 'var/genie.sqlite3'}"
    assert config.engine.lease_seconds == 30 and config.confirmation.owner_only
    assert config.scheduler.idle_session_minutes == 1440 and config.scheduler.reminder_after_minutes is None


def test_environment_overrides_secrets(tmp_path, shop):
    path = write(tmp_path, f"""
        database: {{url: "sqlite:///from-file.sqlite3"}}
        agents: {{shop: {shop}}}
        platforms:
          slack: {{bot_token: from-file}}
    """)
    config = load_config(path, environ={"DATABASE_URL": "postgresql://genie@db/genie", "SLACK_BOT_TOKEN": "xoxb-env",
                                        "DISCORD_BOT_TOKEN": "not-enabled", "OPENAI_API_KEY": "sk-1",
                                        "GENIE_LLM_API_KEY": "sk-2"})
    assert config.database_url == "postgresql+psycopg://genie@db/genie"
    assert config.platforms == {"slack": {"bot_token": "xoxb-env"}}  # a platform is enabled by the file only
    assert config.llm.api_key == "sk-2"


def test_every_problem_is_reported_with_its_position(tmp_path, shop):
    path = write(tmp_path, f"""
        database: {{url: mysql://somewhere}}
        agents:
          shop: {shop}
          ghost: does/not/exist
        default_agent: shpo
        routing:
          - {{platform: slak, channel: C1, agent: shop}}
          - {{channel: C2}}
        engine: {{lease_secnds: 3, turn_threads: 0}}
        confirmation: {{owner_only: "yes"}}
        scheduler: {{retention_days: -1}}
        logging: {{level: LOUD}}
        colour: blue
    """)
    with pytest.raises(ConfigInvalid) as raised:
        load_config(path, environ={})
    messages = [str(e).replace(str(path), "genie.yaml") for e in raised.value.errors]
    assert messages == [
        "genie.yaml:1:17: only SQLite (sqlite:///path) and PostgreSQL (postgresql+psycopg://...) databases are supported",
        f"genie.yaml:4:10: agent 'ghost': no agent.yaml in {tmp_path / 'does/not/exist'}",
        "genie.yaml:5:16: unknown agent 'shpo' (did you mean 'shop'?)",
        "genie.yaml:7:16: unknown platform 'slak' (expected one of: slack, discord, console)",
        "genie.yaml:8:5: route needs platform, agent",
        "genie.yaml:9:10: unknown key 'lease_secnds' in engine (did you mean 'lease_seconds'?)",
        "genie.yaml:9:41: 'turn_threads' must be greater than 0",
        "genie.yaml:10:28: 'owner_only' must be true or false",
        "genie.yaml:11:29: 'retention_days' must be a number >= 0",
        "genie.yaml:12:18: unknown log level 'LOUD'",
        "genie.yaml:13:1: unknown key 'colour' in configuration; expected one of: database, llm, agents, "
        "default_agent, routing, admins, workspaces, platforms, engine, confirmation, scheduler, logging, metrics, "
        "knowledge",
    ]


def test_a_missing_or_broken_file_is_reported(tmp_path):
    with pytest.raises(ConfigInvalid, match="configuration file not found"):
        load_config(tmp_path / "nope.yaml", environ={})
    with pytest.raises(ConfigInvalid, match=r"genie\.yaml:2:\d+: YAML syntax error"):
        load_config(write(tmp_path, "agents: [\n  : :\n"), environ={})
