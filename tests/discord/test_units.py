"""The adapter's pure parts: loading it, its settings, and how replies are laid out."""

from __future__ import annotations

import datetime as dt
import importlib

import discord
import pytest

from genie_bot.adapters.platforms import create_adapter
from genie_bot.adapters.discord import DiscordAdapter, DiscordSettings, DiscordSettingsInvalid
from genie_bot.adapters.discord.render import outgoing
from genie_bot.adapters.discord.sessions import thread_name, without_mention
from genie_bot.config import AgentConfig, Config
from genie_bot.engine import PendingActionView, Reply
from tests.conftest import WORKSHEETS


def test_genie_bot_run_loads_the_adapter_and_discord_is_still_the_library() -> None:
    config = Config(agents={"courses": AgentConfig("courses", WORKSHEETS / "course_enrollment")},
                    default_agent="courses", platforms={"discord": {"bot_token": "token"}})
    adapter = create_adapter("discord", config)
    assert isinstance(adapter, DiscordAdapter) and adapter.platform == "discord"
    assert importlib.import_module("genie_bot.adapters.discord.client").discord is discord
    assert discord.Client.__module__ == "discord.client"


def test_settings_defaults_and_every_problem_at_once() -> None:
    assert DiscordSettings.parse({"bot_token": "t"}) == DiscordSettings(bot_token="t")
    parsed = DiscordSettings.parse({"bot_token": "t", "command_guilds": ["112233445566778899", 5],
                                    "shard_count": 4, "shard_ids": [0, 1]})
    assert (parsed.command_guilds, parsed.shard_count, parsed.shard_ids) == ((112233445566778899, 5), 4, (0, 1))

    with pytest.raises(DiscordSettingsInvalid) as raised:
        DiscordSettings.parse({"bot_token": None, "use_threads": "yes", "command_guilds": "123",
                               "shard_count": "many", "shard_ids": [0], "threads": True})
    assert [str(problem).split(":")[0] for problem in raised.value.errors] == [
        "platforms.discord.bot_token", "platforms.discord.use_threads", "platforms.discord.command_guilds",
        "platforms.discord.shard_count", "platforms.discord.shard_ids", "platforms.discord.threads"]

    with pytest.raises(DiscordSettingsInvalid, match=r"shard_ids: each shard id must be between 0 and 1"):
        DiscordSettings.parse({"bot_token": "t", "shard_count": 2, "shard_ids": [2]})


def test_long_replies_are_split_and_the_buttons_ride_on_the_last_message() -> None:
    action = PendingActionView(id="abc123", title="Book a table", summary=[("party size", "4"), ("time", "19:00")],
                               destructive=True, expires_at=dt.datetime(2026, 11, 21, 12, 0))
    text = "\n\n".join("word " * 150 for _ in range(5))  # ~3750 characters

    *plain, last = outgoing(Reply(text, action))

    assert plain and all(m.embed is None and m.view is None for m in plain)
    assert all(len(m.content) <= 2000 for m in (*plain, last))
    assert " ".join(m.content for m in (*plain, last)).split() == text.split()
    assert last.embed.title == "Book a table" and last.embed.colour == discord.Colour.red()
    assert last.embed.description.splitlines() == ["**party size**: 4", "**time**: 19:00",
                                                   "Expires <t:1795262400:R>."]
    assert [(b.custom_id, b.item.style) for b in last.view.children] == [
        ("genie:confirm:abc123", discord.ButtonStyle.danger), ("genie:cancel:abc123", discord.ButtonStyle.secondary)]
    assert [(m.content, m.embed is not None) for m in outgoing(Reply("", action))] == [(None, True)]
    assert outgoing(Reply("")) == []


def test_mentions_are_stripped_and_threads_are_named_after_the_message() -> None:
    assert without_mention("<@42> enroll me <@!42>", 42) == "enroll me"
    assert without_mention("ask <@7> about it", 42) == "ask <@7> about it"
    assert thread_name("  I want\nto enroll ") == "I want to enroll"
    assert thread_name("") == "Conversation with genie"
    assert len(thread_name("x" * 300)) == 100
