"""Proves MockSlackWebAPI works with the real slack_sdk and slack_bolt clients."""

from __future__ import annotations

import json
import re
import threading
import time
from collections.abc import Iterator

import pytest
from slack_bolt import App
from slack_bolt.adapter.socket_mode import SocketModeHandler
from slack_sdk import WebClient
from slack_sdk.errors import SlackApiError
from slack_sdk.http_retry.builtin_handlers import RateLimitErrorRetryHandler
from slack_sdk.models.blocks import SectionBlock
from slack_sdk.socket_mode import SocketModeClient
from slack_sdk.webhook import WebhookClient

from tests.fakes.slack_api import (
    BOT_USER_ID,
    MockSlackWebAPI,
    close_socket_mode_client,
    event_callback,
    slash_command,
)

BLOCKS = [{"type": "section", "text": {"type": "mrkdwn", "text": "*Task* created"}}]


@pytest.fixture
def slack() -> Iterator[MockSlackWebAPI]:
    with MockSlackWebAPI(admins={"UADMIN": True}) as mock:
        yield mock


@pytest.fixture
def web(slack: MockSlackWebAPI) -> WebClient:
    return WebClient(token="xoxb-test", base_url=slack.base_url)


# -- Web API -------------------------------------------------------------------


def test_base_url_form(slack: MockSlackWebAPI) -> None:
    assert re.fullmatch(r"http://127\.0\.0\.1:\d+/api/", slack.base_url)
    # WebClient appends the slash itself when it is missing.
    client = WebClient(token="xoxb-test", base_url=slack.base_url.rstrip("/"))
    assert client.auth_test()["user_id"] == BOT_USER_ID


def test_auth_test(web: WebClient) -> None:
    response = web.auth_test()
    assert (response["user_id"], response["bot_id"], response["team_id"], response["user"]) == (
        "UBOT", "BBOT", "T1", "genie",
    )


def test_post_message_records_decoded_blocks(slack: MockSlackWebAPI, web: WebClient) -> None:
    response = web.chat_postMessage(channel="C1", text="Task created", blocks=BLOCKS, thread_ts="1700000000.000001")

    assert re.fullmatch(r"\d{10}\.\d{6}", response["ts"])
    assert response["channel"] == "C1"
    assert response["message"]["blocks"] == BLOCKS
    assert response["message"]["thread_ts"] == "1700000000.000001"
    [call] = slack.calls_to("chat.postMessage")
    assert call.params == {"channel": "C1", "text": "Task created", "blocks": BLOCKS, "thread_ts": "1700000000.000001"}
    assert call.headers["content-type"].startswith("application/json")
    assert call.token == "xoxb-test"


def test_block_objects_are_serialised_to_dicts(slack: MockSlackWebAPI, web: WebClient) -> None:
    web.chat_postMessage(channel="C1", text="fallback", blocks=[SectionBlock(text="*hi*")])
    blocks = slack.calls_to("chat.postMessage")[0].params["blocks"]
    assert blocks == [{"type": "section", "text": {"type": "mrkdwn", "text": "*hi*"}}]


def test_form_encoded_json_fields_are_decoded(slack: MockSlackWebAPI, web: WebClient) -> None:
    web.api_call("chat.postMessage", params={"channel": "C1", "text": "t", "blocks": json.dumps(BLOCKS)})
    [call] = slack.calls_to("chat.postMessage")
    assert call.headers["content-type"] == "application/x-www-form-urlencoded"
    assert call.params["blocks"] == BLOCKS


def test_timestamps_are_unique_and_increasing(web: WebClient) -> None:
    stamps = [web.chat_postMessage(channel="C1", text=str(i))["ts"] for i in range(3)]
    assert stamps[0] == "1700000000.000100"
    assert stamps == sorted(set(stamps), key=float)
    assert len(set(stamps)) == 3


def test_chat_update_and_delete(slack: MockSlackWebAPI, web: WebClient) -> None:
    ts = web.chat_postMessage(channel="C1", text="draft")["ts"]

    updated = web.chat_update(channel="C1", ts=ts, text="final", blocks=BLOCKS)
    assert (updated["channel"], updated["ts"], updated["text"]) == ("C1", ts, "final")
    assert slack.calls_to("chat.update")[0].params["blocks"] == BLOCKS

    assert web.chat_delete(channel="C1", ts=ts)["ok"]
    with pytest.raises(SlackApiError) as excinfo:
        web.chat_update(channel="C1", ts=ts, text="gone")
    assert excinfo.value.response["error"] == "message_not_found"


def test_users_info_admin_flag(slack: MockSlackWebAPI, web: WebClient) -> None:
    assert web.users_info(user="UADMIN")["user"]["is_admin"] is True
    assert web.users_info(user="U2")["user"]["is_admin"] is False
    slack.admins["U2"] = True
    assert web.users_info(user="U2")["user"]["is_admin"] is True


def test_thread_replies_reflect_seeded_and_posted_messages(slack: MockSlackWebAPI, web: WebClient) -> None:
    parent = slack.add_message("C1", "can you book a room?", user="U1")
    reply = web.chat_postMessage(channel="C1", text="Which day?", thread_ts=parent)["ts"]

    messages = web.conversations_replies(channel="C1", ts=parent)["messages"]

    assert [(m["user"], m["text"]) for m in messages] == [("U1", "can you book a room?"), (BOT_USER_ID, "Which day?")]
    assert messages[0]["reply_count"] == 1
    assert messages[1]["ts"] == reply


def test_other_methods(slack: MockSlackWebAPI, web: WebClient) -> None:
    assert re.fullmatch(r"\d{10}\.\d{6}", web.chat_postEphemeral(channel="C1", user="U1", text="psst")["message_ts"])
    assert web.reactions_add(channel="C1", timestamp="1.2", name="eyes")["ok"]
    assert web.reactions_remove(channel="C1", timestamp="1.2", name="eyes")["ok"]
    assert web.conversations_info(channel="D42")["channel"]["is_im"] is True
    assert web.api_call("made.up.method", params={"x": "1"})["ok"]
    assert slack.calls_to("made.up.method")[0].params == {"x": "1"}


def test_injected_failures_and_token_checks(slack: MockSlackWebAPI, web: WebClient) -> None:
    slack.fail("chat.postMessage", "not_in_channel")
    with pytest.raises(SlackApiError, match="not_in_channel"):
        web.chat_postMessage(channel="C1", text="x")
    assert web.chat_postMessage(channel="C1", text="x")["ok"]

    with pytest.raises(SlackApiError, match="not_authed"):
        WebClient(base_url=slack.base_url).auth_test()
    with pytest.raises(SlackApiError, match="not_allowed_token_type"):
        WebClient(token="xapp-test", base_url=slack.base_url).chat_postMessage(channel="C1", text="x")



def test_a_rate_limited_method_answers_429_with_retry_after(slack: MockSlackWebAPI, web: WebClient) -> None:
    slack.rate_limit("chat.postMessage", retry_after=7)
    with pytest.raises(SlackApiError) as refused:
        web.chat_postMessage(channel="C1", text="x")
    assert refused.value.response.status_code == 429 and refused.value.response["error"] == "ratelimited"
    assert refused.value.response.headers["Retry-After"] == "7"
    assert web.chat_postMessage(channel="C1", text="x")["ok"]
    assert [c.status for c in slack.calls_to("chat.postMessage")] == [429, 200]
    assert [m["text"] for m in slack.messages("C1")] == ["x"]  # the refused call stored nothing


def test_slack_sdks_rate_limit_handler_waits_as_long_as_retry_after_says(slack: MockSlackWebAPI) -> None:
    web = WebClient(token="xoxb-test", base_url=slack.base_url, retry_handlers=[RateLimitErrorRetryHandler()])
    slack.rate_limit("chat.update", retry_after=1)
    ts = web.chat_postMessage(channel="C1", text="x")["ts"]
    started = time.monotonic()
    assert web.chat_update(channel="C1", ts=ts, text="y")["ok"]
    assert time.monotonic() - started >= 1  # a lower bound: the handler sleeps Retry-After plus jitter
    assert [c.status for c in slack.calls_to("chat.update")] == [429, 200]


def test_a_held_method_answers_once_released(slack: MockSlackWebAPI, web: WebClient) -> None:
    ts = slack.add_message("C1", "a thread")
    release = slack.hold("conversations.replies")
    answered = threading.Event()
    threading.Thread(target=lambda: (web.conversations_replies(channel="C1", ts=ts), answered.set())).start()
    assert not answered.wait(0.2)
    release()
    assert answered.wait(5)

def test_wait_for_returns_calls_made_from_another_thread(slack: MockSlackWebAPI, web: WebClient) -> None:
    threading.Timer(0.1, lambda: web.chat_postMessage(channel="C1", text="later")).start()
    [call] = slack.wait_for("chat.postMessage", timeout=2)
    assert call.params["text"] == "later"


def test_wait_for_times_out_with_clear_message(slack: MockSlackWebAPI, web: WebClient) -> None:
    web.auth_test()
    started = time.monotonic()
    with pytest.raises(AssertionError, match=r"expected 1 call\(s\) to chat\.update within 0\.2s, got 0.*auth\.test"):
        slack.wait_for("chat.update", timeout=0.2)
    assert time.monotonic() - started < 1


def test_response_url_records_posts(slack: MockSlackWebAPI) -> None:
    WebhookClient(slack.response_url("cmd")).send(text="done", response_type="ephemeral")
    assert slack.responses("cmd") == [{"text": "done", "response_type": "ephemeral"}]
    assert slack.responses("other") == []


# -- Socket Mode -----------------------------------------------------------------


@pytest.fixture
def app(slack: MockSlackWebAPI) -> App:
    return App(client=WebClient(token="xoxb-test", base_url=slack.base_url), signing_secret="secret")


@pytest.fixture
def socket_handler(app: App) -> Iterator[SocketModeHandler]:
    handler = SocketModeHandler(app, app_token="xapp-test")
    handler.connect()
    yield handler
    close_socket_mode_client(handler.client)


def test_app_mention_is_answered_with_say(slack: MockSlackWebAPI, app: App, socket_handler: SocketModeHandler) -> None:
    @app.event("app_mention")
    def on_mention(event: dict, say) -> None:
        say(text=f"Hi <@{event['user']}>!", thread_ts=event["ts"])

    mention = {"type": "app_mention", "user": "U1", "text": f"<@{BOT_USER_ID}> hello", "ts": "1700000000.000001",
               "channel": "C1", "event_ts": "1700000000.000001"}
    envelope_id = slack.push_envelope("events_api", event_callback(mention))

    assert slack.wait_for_ack(envelope_id) == {"envelope_id": envelope_id}
    [post] = slack.wait_for("chat.postMessage")
    assert post.params["channel"] == "C1"
    assert post.params["text"] == "Hi <@U1>!"
    assert post.params["thread_ts"] == "1700000000.000001"
    assert post.token == "xoxb-test"
    assert slack.calls_to("apps.connections.open")[0].token == "xapp-test"


def test_slash_command_ack_payload_and_respond(
    slack: MockSlackWebAPI, app: App, socket_handler: SocketModeHandler
) -> None:
    @app.command("/genie")
    def on_command(ack, respond, command: dict) -> None:
        ack(f"Working on: {command['text']}")
        respond("Done.")

    envelope_id = slack.push_envelope(
        "slash_commands", slash_command("/genie", "book a room", response_url=slack.response_url("genie"))
    )

    ack = slack.wait_for_ack(envelope_id)
    assert ack["payload"]["text"] == "Working on: book a room"
    assert slack.wait_for_response("genie")[0]["text"] == "Done."


def test_interactive_block_action_is_acked(slack: MockSlackWebAPI, app: App, socket_handler: SocketModeHandler) -> None:
    @app.action("approve")
    def on_approve(ack, body: dict, client: WebClient) -> None:
        ack()
        client.chat_update(channel=body["channel"]["id"], ts=body["message"]["ts"], text="Approved")

    ts = slack.add_message("C1", "Approve?", user=BOT_USER_ID)
    payload = {
        "type": "block_actions",
        "user": {"id": "U1", "team_id": "T1"},
        "team": {"id": "T1"},
        "api_app_id": "A1",
        "channel": {"id": "C1"},
        "container": {"type": "message", "message_ts": ts, "channel_id": "C1"},
        "message": {"ts": ts, "text": "Approve?"},
        "trigger_id": "1.2",
        "response_url": slack.response_url("approve"),
        "actions": [{"type": "button", "action_id": "approve", "block_id": "b1", "value": "yes"}],
    }
    envelope_id = slack.push_envelope("interactive", payload)

    assert slack.wait_for_ack(envelope_id) == {"envelope_id": envelope_id}
    assert slack.wait_for("chat.update")[0].params["text"] == "Approved"


def test_hello_is_sent_on_connect(slack: MockSlackWebAPI) -> None:
    received: list[str] = []
    got_message = threading.Event()
    client = SocketModeClient(
        app_token="xapp-test",
        web_client=WebClient(base_url=slack.base_url),
        on_message_listeners=[lambda message: (received.append(message), got_message.set())],
    )
    try:
        client.connect()
        assert got_message.wait(timeout=2)
    finally:
        close_socket_mode_client(client)
    assert json.loads(received[0])["type"] == "hello"


def test_push_without_a_connected_client_fails_fast(slack: MockSlackWebAPI) -> None:
    with pytest.raises(AssertionError, match="no Socket Mode client connected"):
        slack.push_envelope("events_api", event_callback({"type": "app_mention"}), timeout=0.2)
    with pytest.raises(ValueError, match="envelope type"):
        slack.push_envelope("event", {})


def test_wait_for_ack_times_out_with_clear_message(slack: MockSlackWebAPI) -> None:
    with pytest.raises(AssertionError, match="'envelope-9' was not acked within 0.1s"):
        slack.wait_for_ack("envelope-9", timeout=0.1)
