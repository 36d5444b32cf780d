"""Socket Mode against the mock's WebSocket: envelopes acknowledged at once, then answered."""

from __future__ import annotations

import asyncio
import time

from tests.engine.support import ORDER, calls, run
from tests.fakes.slack_api import BOT_USER_ID, event_callback, slash_command

from .harness import SlackHarness, make_config, slow_agent


def test_events_clicks_and_commands_over_socket_mode(slack, store_url, shop):
    settings = {"bot_token": "xoxb-test", "app_token": "xapp-test", "api_base_url": slack.base_url,
                "shutdown_grace_seconds": 5}

    async def push(kind: str, payload: dict) -> float:
        """Send an envelope; return how long its ack took."""
        started = time.monotonic()
        envelope = await asyncio.to_thread(slack.push_envelope, kind, payload)
        ack = await asyncio.to_thread(slack.wait_for_ack, envelope)
        assert ack == {"envelope_id": envelope}
        return time.monotonic() - started

    async def scenario():
        async with SlackHarness(slack, make_config(store_url, shop, settings), build_agent=slow_agent) as h:
            thread = slack.add_message("C1", "order")
            acks = [await push("events_api", event_callback({
                "type": "app_mention", "user": "U1", "channel": "C1", "ts": thread,
                "text": f"<@{BOT_USER_ID}> {ORDER[0]} # slowly"}))]
            for text in ORDER[1:]:
                ts = slack.add_message("C1", text, thread_ts=thread)
                acks.append(await push("events_api", event_callback({
                    "type": "message", "channel_type": "channel", "user": "U1", "channel": "C1", "ts": ts,
                    "thread_ts": thread, "text": text})))
            await h.settle()
            acks.append(await push("interactive", h.click_payload(await h.card(thread), "confirm")))
            acks.append(await push("slash_commands", slash_command(
                "/genie", "agents", response_url=slack.response_url("agents"))))
            await h.settle()
            return acks, await h.texts(thread), slack.responses("agents")

    acks, texts, responses = run(scenario())
    assert max(acks) < 0.9  # the first turn alone takes a second
    assert texts[0] == "Hi! Orders food.\n\nHow many?" and texts[-1] == "Order Pizza-2-Ann placed"
    assert len(calls()) == 1 and responses[0]["text"].startswith("Agents:\n• shop")
    assert slack.calls_to("apps.connections.open")[0].token == "xapp-test"
