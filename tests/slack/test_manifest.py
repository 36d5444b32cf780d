"""The app manifest asks Slack for what the adapter listens to and uses, and nothing else."""

from __future__ import annotations

from pathlib import Path

import yaml

from genie_bot.adapters.slack.settings import SlackSettings

MANIFEST = Path(__file__).resolve().parents[2] / "deploy" / "slack" / "manifest.yaml"


def test_the_manifest_matches_the_adapter():
    manifest = yaml.safe_load(MANIFEST.read_text(encoding="utf-8"))
    settings, features = manifest["settings"], manifest["features"]
    assert set(settings["event_subscriptions"]["bot_events"]) == {
        "app_mention", "message.channels", "message.groups", "message.im"}
    assert set(manifest["oauth_config"]["scopes"]["bot"]) == {
        "app_mentions:read", "channels:history", "groups:history", "im:history", "chat:write", "commands", "users:read"}
    assert [c["command"] for c in features["slash_commands"]] == [SlackSettings.command]
    assert settings["interactivity"]["is_enabled"] and settings["socket_mode_enabled"]
    assert features["app_home"]["messages_tab_enabled"] and not features["app_home"]["messages_tab_read_only_enabled"]
