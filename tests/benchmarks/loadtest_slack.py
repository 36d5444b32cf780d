"""The load test's Slack: the mock Web API recording each thread's replies, and Slack's deliveries.

:class:`RecordingSlack` is the tests' MockSlackWebAPI that also notes, per thread, every reply
the bots post: the "thinking" placeholder being replaced by a turn's first message
(``chat.update``) and any message posted without one (a retry's answer, a recovered reply).

:class:`Deliveries` is Slack's side of HTTP mode: signed requests to the bot processes,
alternating between them as a load balancer would, with Slack's retries (``X-Slack-Retry-Num``)
after a failed or slow delivery, sent to the next live process.
"""

from __future__ import annotations

import asyncio
import itertools
import json
import time
from collections import defaultdict
from dataclasses import dataclass, field
from typing import Any

import aiohttp
from slack_sdk.signature import SignatureVerifier

from genie_bot.adapters.slack.poster import THINKING
from tests.fakes.slack_api import MockSlackWebAPI, SlackCall

SECRET = "loadtest-signing-secret"
ACK_TIMEOUT_S = 3.0
"""Slack gives up on a delivery not acknowledged within 3 s and retries it."""
RETRY_DELAYS_S = (0.5, 1.0, 2.0)
"""Slack retries at once, after 1 minute and after 5 minutes; compressed here."""
DOWN_FOR_S = 5.0
"""A process that failed a delivery gets no new ones for this long (the load balancer's health check)."""


@dataclass
class Reply:
    at: float
    text: str
    blocks: list[dict] | None
    ts: str


@dataclass
class Thread:
    replies: list[Reply] = field(default_factory=list)
    changed: asyncio.Event = field(default_factory=asyncio.Event)


class RecordingSlack(MockSlackWebAPI):
    def __init__(self, loop: asyncio.AbstractEventLoop):
        super().__init__()
        self.loop = loop
        self.threads: dict[tuple[str, str], Thread] = defaultdict(Thread)
        self.placeholders: dict[tuple[str, str], str] = {}
        """(channel, ts) of a "thinking" message -> its thread's ts."""
        self.discarded = 0

    def thread(self, channel: str, thread_ts: str) -> Thread:
        with self._cond:  # the mock's thread adds replies under the same lock
            return self.threads[(channel, thread_ts)]

    def _respond(self, call: SlackCall) -> dict[str, Any]:  # runs in the mock's thread, its lock held
        body = super()._respond(call)
        if body.get("ok"):
            self._note(call, body)
        return body

    def _note(self, call: SlackCall, body: dict[str, Any]) -> None:
        params, now = call.params, time.monotonic()
        channel = params.get("channel", "")
        if call.method == "chat.postMessage" and params.get("thread_ts"):
            if params.get("text") == THINKING:
                self.placeholders[(channel, body["ts"])] = params["thread_ts"]
            else:
                self._reply(channel, params["thread_ts"], Reply(now, params["text"], params.get("blocks"), body["ts"]))
        elif call.method == "chat.update" and (channel, params["ts"]) in self.placeholders:
            thread_ts = self.placeholders.pop((channel, params["ts"]))
            self._reply(channel, thread_ts, Reply(now, params.get("text", ""), params.get("blocks"), params["ts"]))
        elif call.method == "chat.delete" and self.placeholders.pop((channel, params.get("ts")), None):
            self.discarded += 1

    def _reply(self, channel: str, thread_ts: str, reply: Reply) -> None:
        thread = self.threads[(channel, thread_ts)]
        thread.replies.append(reply)
        self.loop.call_soon_threadsafe(thread.changed.set)

    async def next_reply(self, channel: str, thread_ts: str, index: int, timeout: float) -> Reply | None:
        """The thread's ``index``-th reply (0-based), waiting up to ``timeout`` seconds for it."""
        thread = self.thread(channel, thread_ts)
        deadline = time.monotonic() + timeout
        while len(thread.replies) <= index:
            thread.changed.clear()
            remaining = deadline - time.monotonic()
            if remaining <= 0:
                return None
            try:
                await asyncio.wait_for(thread.changed.wait(), remaining)
            except asyncio.TimeoutError:
                return None
        return thread.replies[index]


@dataclass
class Delivery:
    ack_seconds: float | None
    """Time to the first acknowledgement (any attempt); None if never acknowledged."""
    attempts: int


class Deliveries:
    def __init__(self, targets: list[str], http: aiohttp.ClientSession):
        self.targets = targets
        self.http = http
        self.verifier = SignatureVerifier(SECRET)
        self._next = itertools.count()
        self._down_until: dict[str, float] = {}
        self.failed_attempts = 0

    def pick(self, avoid: str | None = None) -> str:
        """The next process in turn, skipping those that failed a moment ago (and ``avoid``)."""
        now = time.monotonic()
        live = [t for t in self.targets if self._down_until.get(t, 0) <= now and t != avoid] or \
            [t for t in self.targets if t != avoid] or self.targets
        return live[next(self._next) % len(live)]

    async def send(self, body: str, content_type: str, *, retry_num: int = 0, target: str | None = None) -> Delivery:
        """Deliver until acknowledged, as Slack does: on failure, retry (retry_num + 1) on the next process."""
        started, attempts = time.monotonic(), 0
        target = target or self.pick()
        while True:
            attempts += 1
            if await self._post(target, body, content_type, retry_num):
                return Delivery(time.monotonic() - started, attempts)
            self.failed_attempts += 1
            self._down_until[target] = time.monotonic() + DOWN_FOR_S
            if retry_num >= len(RETRY_DELAYS_S):
                return Delivery(None, attempts)
            await asyncio.sleep(RETRY_DELAYS_S[retry_num])
            retry_num += 1
            target = self.pick(avoid=target)

    async def _post(self, target: str, body: str, content_type: str, retry_num: int) -> bool:
        timestamp = str(int(time.time()))
        headers = {"X-Slack-Request-Timestamp": timestamp, "Content-Type": content_type,
                   "X-Slack-Signature": self.verifier.generate_signature(timestamp=timestamp, body=body)}
        if retry_num:
            headers |= {"X-Slack-Retry-Num": str(retry_num), "X-Slack-Retry-Reason": "http_timeout"}
        try:
            async with self.http.post(f"{target}/slack/events", data=body.encode(), headers=headers,
                                      timeout=aiohttp.ClientTimeout(total=ACK_TIMEOUT_S)) as response:
                await response.read()
                return response.status == 200
        except (aiohttp.ClientError, asyncio.TimeoutError):
            return False


def event_body(event: dict[str, Any], event_id: str, team: str) -> str:
    return json.dumps({"token": "verification-token", "team_id": team, "api_app_id": "A1", "event": event,
                       "type": "event_callback", "event_id": event_id, "event_time": int(time.time()),
                       "authorizations": [{"team_id": team, "user_id": "UBOT", "is_bot": True}]})
