"""The app manifests ask Slack for what the adapter listens to and uses, and nothing else: one for a
single workspace (Socket Mode), one for "Add to Slack" (HTTP, OAuth, token rotation)."""

from __future__ import annotations

from pathlib import Path

import yaml

from genie_bot.adapters.slack.settings import BOT_SCOPES, SlackOAuthSettings, SlackSettings

SLACK = Path(__file__).resolve().parents[2] / "deploy" / "slack"
MESSAGE_EVENTS = {"app_mention", "message.channels", "message.groups", "message.im"}


def manifest(name: str) -> dict:
    return yaml.safe_load((SLACK / name).read_text(encoding="utf-8"))


def test_the_manifest_matches_the_adapter():
    one = manifest("manifest.yaml")
    settings, features = one["settings"], one["features"]
    assert set(settings["event_subscriptions"]["bot_events"]) == MESSAGE_EVENTS
    assert one["oauth_config"]["scopes"]["bot"] == list(BOT_SCOPES)
    assert [c["command"] for c in features["slash_commands"]] == [SlackSettings.command]
    assert settings["interactivity"]["is_enabled"] and settings["socket_mode_enabled"]
    assert features["app_home"]["messages_tab_enabled"] and not features["app_home"]["messages_tab_read_only_enabled"]


def test_the_add_to_slack_manifest_is_the_same_app_over_http_with_oauth():
    one, many = manifest("manifest.yaml"), manifest("manifest.oauth.yaml")
    assert many["oauth_config"]["scopes"] == one["oauth_config"]["scopes"]
    assert many["display_information"] == one["display_information"]
    assert set(many["settings"]["event_subscriptions"]["bot_events"]) == MESSAGE_EVENTS | {"app_uninstalled",
                                                                                          "tokens_revoked"}
    events_url = many["settings"]["event_subscriptions"]["request_url"]
    assert events_url.endswith(SlackSettings.path) and many["settings"]["interactivity"]["request_url"] == events_url
    assert [c["url"] for c in many["features"]["slash_commands"]] == [events_url]
    assert [url.removeprefix(events_url.removesuffix(SlackSettings.path)) for url in
            many["oauth_config"]["redirect_urls"]] == [SlackOAuthSettings.redirect_uri_path]
    assert not many["settings"]["socket_mode_enabled"] and many["settings"]["token_rotation_enabled"]
    assert not many["settings"]["org_deploy_enabled"]
