"""The adapter's pure parts: Slack text formats, session mapping, settings, splitting, click outcomes."""

from __future__ import annotations

import pytest

from genie_bot.adapters.slack import SlackSettingsInvalid, create_adapter
from genie_bot.adapters.slack.blocks import SECTION_LIMIT, reply_messages
from genie_bot.adapters.slack.commands import conversation
from genie_bot.adapters.slack.mrkdwn import mentioned_users, to_mrkdwn, to_plain
from genie_bot.adapters.outcomes import ClickResult
from genie_bot.adapters.slack.outcomes import card_line
from genie_bot.adapters.slack.sessions import Place, sequence, session_key
from genie_bot.engine import ClickOutcome, PendingActionView, Reply, SessionKey


@pytest.mark.parametrize("markdown, mrkdwn", [
    ("**Pizza** and *thin* crust, ~~no~~ __olives__", "*Pizza* and _thin_ crust, ~no~ *olives*"),
    ("# Your order\n- one\n  * two", "*Your order*\n• one\n  • two"),
    # no link hides its target behind a label: a reply may quote what a user typed
    ("[the menu](https://x.test/a?b=1|2) or <https://x.test>", "[the menu](https://x.test/a?b=1|2) or <https://x.test>"),
    ("<https://evil.example|free_pizza> <https://evil.example|free pizza>",
     "<https://evil.example%7Cfree_pizza> &lt;https://evil.example|free pizza&gt;"),
    ("1 < 2 & 3 > 2, 2 * 3 * 4, snake_case_name", "1 &lt; 2 &amp; 3 &gt; 2, 2 * 3 * 4, snake_case_name"),
    ("`**kept** <x>` then\n```python\nif a < b: **c**\n```", "`**kept** &lt;x&gt;` then\n```\nif a &lt; b: **c**\n```"),
])
def test_markdown_becomes_slack_mrkdwn(markdown, mrkdwn):
    assert to_mrkdwn(markdown) == mrkdwn


def test_slack_text_becomes_what_the_user_wrote():
    text = ("<@UBOT> mail <mailto:ann@x.edu|ann@x.edu> in <#C1|general>, see <https://x.test|the site> "
            "or <https://y.test>, ask <@U2> <!here> &lt;3 &amp; more")
    assert to_plain(text, "UBOT") == "mail ann@x.edu in #general, see the site or https://y.test, ask @U2 @here <3 & more"
    assert to_plain("ask <@U2> and <@W3|bo>", "UBOT", {"U2": "Ann"}) == "ask @Ann and @bo"
    assert mentioned_users("<@UBOT> ask <@U2>, <@W3|bo> and <@U2> <#C1>") == ["UBOT", "U2", "W3"]


def test_threads_and_direct_messages_map_to_sessions():
    assert session_key("T1", "C1", "1.000200") == SessionKey("slack", "T1", "C1", "1.000200")  # starts a thread
    assert session_key("T1", "C1", "1.000300", "1.000200") == SessionKey("slack", "T1", "C1", "1.000200")
    assert session_key("T1", "D1", "1.000300") == SessionKey("slack", "T1", "D1", "")  # the whole DM
    assert session_key("T1", "D1", "1.000300", "1.000200") == SessionKey("slack", "T1", "D1", "1.000200")
    assert Place.of(SessionKey("slack", "T1", "D1")) == Place("T1", "D1", None)
    assert sequence("1700000000.000100") == 1_700_000_000_000_100 and sequence("1700000000.5") == 1_700_000_000_500_000


@pytest.mark.parametrize("text, channel, thread", [
    ("reset https://w.slack.com/archives/C9/p1700000000000200", "C1", ("C9", "1700000000.000200")),
    ("state <https://w.slack.com/archives/C9/p1700000000000300?thread_ts=1700000000.000200&cid=C9>", "C1",
     ("C9", "1700000000.000200")),
    ("reset", "D1", ("D1", "")),
    ("agents", "C1", ("C1", "")),
    ("reset", "C1", None),
])
def test_a_command_names_its_conversation(text, channel, thread):
    key = conversation({"team_id": "T1", "channel_id": channel, "text": text})
    assert (key and (key.channel, key.thread)) == thread


def test_long_replies_are_split_and_the_card_comes_last():
    view = PendingActionView("a1", "order food", [(f"line {i}", "x" * 10) for i in range(12)])
    messages = reply_messages(Reply("\n\n".join(["word " * 400] * 4), view))
    assert len(messages) > 1 and all(len(m.text) <= SECTION_LIMIT for m in messages)
    assert [m.blocks is None for m in messages] == [True] * (len(messages) - 1) + [False]
    card = messages[-1].blocks
    assert [b["type"] for b in card] == ["section", "section", "section", "actions"]  # 12 fields: 10 + 2
    assert [len(b.get("fields", [])) for b in card[1:3]] == [10, 2]
    assert reply_messages(Reply("")) == []


@pytest.mark.parametrize("outcome, settles, line", [
    (ClickOutcome.DONE, True, ":white_check_mark: *Done* (confirmed by <@U1>)\n>Done. order id: 1"),
    (ClickOutcome.ERROR, True, ":x: *Failed* (confirmed by <@U1>); nothing was done\n>Done. order id: 1"),
    (ClickOutcome.CANCELLED, True, ":heavy_multiplication_x: *Cancelled* by <@U1>"),
    (ClickOutcome.STALE, True, ":hourglass: *No longer valid* (it expired)"),
    (ClickOutcome.REFUSED, False, None),
    (ClickOutcome.FAILED, False, None),
    (ClickOutcome.DEFERRED, False, None),
])
def test_click_outcomes_decide_the_card(outcome, settles, line):
    result = ClickResult.of([Reply("Done. order id: 1\n\nAnything else?", outcome=outcome,
                                   outcome_detail="it expired")])
    assert result.settles_card is settles
    if line:
        assert card_line(result, "U1") == line


def test_settings_are_checked_when_the_adapter_is_created():
    with pytest.raises(SlackSettingsInvalid) as problems:
        create_adapter(None, {"bot_token": "xoxb-1", "prot": 80, "ignore_bots": "no"})
    assert str(problems.value) == (
        "platforms.slack.prot: unknown key 'prot' in platforms.slack (did you mean 'port'?)\n"
        "platforms.slack.ignore_bots: 'ignore_bots' must be true or false\n"
        "platforms.slack: HTTP mode needs 'signing_secret' (or set SLACK_SIGNING_SECRET), or give an 'app_token' "
        "for Socket Mode")
    assert create_adapter(None, {"bot_token": "xoxb-1", "app_token": "xapp-1"}).settings.mode == "socket"
    assert create_adapter(None, {"bot_token": "xoxb-1", "signing_secret": "s"}).settings.mode == "http"


def test_add_to_slack_settings_are_checked_too():
    with pytest.raises(SlackSettingsInvalid) as problems:
        create_adapter(None, {"bot_token": "xoxb-1", "app_token": "xapp-1", "mode": "socket",
                              "oauth": {"client_id": "1.2", "scopes": "chat:write", "install_path": "install",
                                        "uninstalled_sessions": "forget", "token_rotation_minute": 5}})
    assert str(problems.value).splitlines() == [
        "platforms.slack.oauth.token_rotation_minute: unknown key 'token_rotation_minute' in platforms.slack.oauth "
        "(did you mean 'token_rotation_minutes'?)",
        "platforms.slack.oauth.client_secret: 'client_secret' is required (or set SLACK_CLIENT_SECRET)",
        "platforms.slack.oauth.scopes: 'scopes' must be a list of Slack scopes, e.g. [chat:write, commands]",
        "platforms.slack.oauth.install_path: 'install_path' must be a path starting with /",
        "platforms.slack.oauth.uninstalled_sessions: 'uninstalled_sessions' must be one of: keep, purge",
        "platforms.slack.bot_token: 'bot_token' is not used with 'oauth': each workspace's token comes from its "
        "installation (remove it, or unset SLACK_BOT_TOKEN)",
        "platforms.slack.mode: 'oauth' needs HTTP mode: Slack redirects installers to this server"]
    settings = create_adapter(None, {"signing_secret": "s", "app_token": "xapp-1",
                                     "oauth": {"client_id": "1.2", "client_secret": "c"}}).settings
    assert settings.mode == "http" and settings.oauth.scopes[0] == "app_mentions:read"
    assert settings.oauth.uninstalled_sessions == "keep" and settings.bot_token is None
