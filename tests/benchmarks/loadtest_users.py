"""The load test's simulated users: real ticket conversations over Slack, ending with a Confirm click.

Each user opens a thread in a channel with an @mention and files one ticket in the style of
``worksheets/ticket_submission/tests/*.yaml`` (four kinds of request, the user's own name and
email), waiting for each reply and thinking a moment before the next message, then clicks
Confirm on the card. Some deliveries are repeated the way Slack does (the same event id with
``X-Slack-Retry-Num``) and some users click Confirm twice.

A :class:`HostileUser` meanwhile sends, over and over until the others are done, the most
expensive parser output known (statements the interpreter must refuse, each costing as much
as it may, in a source never seen before) and the longest message Slack allows.
"""

from __future__ import annotations

import asyncio
import json
import random
import time
import uuid
from dataclasses import dataclass, field
from typing import Any
from urllib.parse import urlencode

from genie_bot.adapters.slack.blocks import BUTTONS_BLOCK
from tests.fakes.slack_api import BOT_ID, BOT_USER_ID, TEAM_ID

from .loadtest_llm import STATEMENTS
from .loadtest_slack import Deliveries, RecordingSlack, Reply, event_body

FIRST = ["Ann", "Omar", "Li", "Sara", "Maya", "Ravi", "Ines", "Tom", "Yuki", "Ada", "Noor", "Ben", "Eva", "Kofi",
         "Lena", "Marco", "Priya", "Sam", "Zoe", "Ivan"]
LAST = ["Lee", "Diaz", "Wei", "Kim", "Chen", "Patel", "Garcia", "Novak", "Sato", "Okafor", "Haddad", "Rossi",
        "Berg", "Moreau", "Silva", "Khan", "Nguyen", "Adams", "Fischer", "Costa"]


def conversation(user: int) -> list[str]:
    """The messages of user number ``user``: one of four requests, then their name and email."""
    name = f"{FIRST[user % len(FIRST)]} {LAST[user // len(FIRST) % len(LAST)]}"
    email = f"student{user}@stanford.edu"
    kind = user % 4
    if kind == 0:
        opening = ["I need help with joining a waitlist", "join the waitlist", f"CS {100 + user % 300}", "winter",
                   "the class is required for my major"]
    elif kind == 1:
        opening = ["I want to change a course", "change course", "CS 106A", "CS 106B", "skip", "nothing else"]
    elif kind == 2:
        opening = ["I want a leave of absence", "not submitted yet", "spring", "skip"]
    else:
        opening = ["my AP credits are missing", "AP", "the credits do not show up", "2026-09-01", "skip"]
    return [*opening, f"my name is {name}", email]


@dataclass
class Figures:
    ack_seconds: list[float] = field(default_factory=list)
    reply_seconds: list[float] = field(default_factory=list)
    turns_sent: int = 0
    """Distinct messages and clicks sent (duplicates and retries not counted)."""
    replies: int = 0
    no_reply: int = 0
    """Turns whose reply did not come within the timeout (the user moved on)."""
    never_acked: int = 0
    duplicates_sent: int = 0
    double_clicks: int = 0
    confirmed: int = 0
    """Users who got the answer to their Confirm click."""
    first_sent: float = 0.0
    last_reply: float = 0.0


@dataclass
class UserSettings:
    channels: int
    think_s: float
    ramp_s: float
    duplicate_share: float
    double_click_share: float
    reply_timeout_s: float


class SimulatedUser:
    def __init__(self, number: int, slack: RecordingSlack, deliveries: Deliveries, settings: UserSettings,
                 figures: Figures, seed: int):
        self.number = number
        self.slack = slack
        self.deliveries = deliveries
        self.settings = settings
        self.figures = figures
        self.rng = random.Random(seed * 1_000_003 + number)
        self.id = f"U{number:05d}"
        self.channel = f"C{number % settings.channels:03d}"
        self.thread_ts = ""
        self.answered = 0
        self.sent = 0
        """Distinct messages and clicks this user sent: the replies their thread should get."""
        self.background: list[asyncio.Task] = []

    async def run(self) -> None:
        await asyncio.sleep(self.rng.uniform(0, self.settings.ramp_s))
        card = None
        for index, text in enumerate(conversation(self.number)):
            reply = await self._turn(self._message_body(index, text), "application/json")
            if reply is not None and _has_buttons(reply):
                card = reply
            await asyncio.sleep(self.rng.uniform(0.5, 1.5) * self.settings.think_s)
        if card is None:
            return
        double = self.rng.random() < self.settings.double_click_share
        if double:
            self.figures.double_clicks += 1
            self.background.append(asyncio.create_task(self._click_again(card)))
        if await self._turn(self._click_body(card), "application/x-www-form-urlencoded", duplicate=False):
            self.figures.confirmed += 1
        await asyncio.gather(*self.background)

    def _message_body(self, index: int, text: str) -> str:
        if index == 0:
            text = f"<@{BOT_USER_ID}> {text}"
            ts = self.thread_ts = self.slack.add_message(self.channel, text, user=self.id)
            self.slack.thread(self.channel, ts)  # watched from now on
            event = {"type": "app_mention", "user": self.id, "text": text, "ts": ts, "channel": self.channel,
                     "event_ts": ts, "team": TEAM_ID}
        else:
            ts = self.slack.add_message(self.channel, text, user=self.id, thread_ts=self.thread_ts)
            event = {"type": "message", "user": self.id, "text": text, "ts": ts, "channel": self.channel,
                     "event_ts": ts, "team": TEAM_ID, "channel_type": "channel", "thread_ts": self.thread_ts}
        return event_body(event, f"Ev{self.number:05d}x{index:02d}", TEAM_ID)

    async def _turn(self, body: str, content_type: str, duplicate: bool = True) -> Reply | None:
        """Deliver one message or click (maybe twice, as a Slack retry) and wait for its reply."""
        figures = self.figures
        figures.turns_sent += 1
        self.sent += 1
        sent = time.monotonic()
        figures.first_sent = figures.first_sent or sent
        delivery = await self.deliveries.send(body, content_type)
        if delivery.ack_seconds is None:
            figures.never_acked += 1
        else:
            figures.ack_seconds.append(delivery.ack_seconds)
        if duplicate and self.rng.random() < self.settings.duplicate_share:
            figures.duplicates_sent += 1
            self.background.append(asyncio.create_task(self._redeliver(body, content_type)))
        reply = await self.slack.next_reply(self.channel, self.thread_ts, self.answered, self.settings.reply_timeout_s)
        if reply is None:
            figures.no_reply += 1
            return None
        self.answered += 1
        figures.replies += 1
        figures.reply_seconds.append(reply.at - sent)
        figures.last_reply = max(figures.last_reply, reply.at)
        return reply

    async def _redeliver(self, body: str, content_type: str) -> None:
        """Slack delivering the same event again (it missed the ack), to whichever process is next."""
        await asyncio.sleep(self.rng.uniform(0, 0.05))
        delivery = await self.deliveries.send(body, content_type, retry_num=1)
        if delivery.ack_seconds is not None:
            self.figures.ack_seconds.append(delivery.ack_seconds)

    async def _click_again(self, card: Reply) -> None:
        """An impatient second click on Confirm (a new click: Slack gives it its own trigger id)."""
        await asyncio.sleep(self.rng.uniform(0, 0.2))
        self.sent += 1  # answered in the thread or, when refused, privately (ephemeral)
        await self.deliveries.send(self._click_body(card), "application/x-www-form-urlencoded")

    def _click_body(self, card: Reply) -> str:
        button = next(e for b in card.blocks or [] if b.get("block_id") == BUTTONS_BLOCK for e in b["elements"]
                      if e["action_id"].startswith("genie_confirm:"))
        payload: dict[str, Any] = {
            "type": "block_actions", "api_app_id": "A1",
            "user": {"id": self.id, "username": self.id.lower(), "team_id": TEAM_ID},
            "team": {"id": TEAM_ID, "domain": "loadtest"},
            "container": {"type": "message", "message_ts": card.ts, "channel_id": self.channel,
                          "is_ephemeral": False, "thread_ts": self.thread_ts},
            "trigger_id": f"{self.number}.{uuid.uuid4().int % 10**12}",
            "channel": {"id": self.channel, "name": self.channel.lower()},
            "message": {"type": "message", "user": BOT_USER_ID, "bot_id": BOT_ID, "text": card.text, "ts": card.ts,
                        "blocks": card.blocks, "thread_ts": self.thread_ts},
            "response_url": self.slack.response_url(f"click-{self.number}"),
            "actions": [{**button, "block_id": BUTTONS_BLOCK, "action_ts": f"{time.time():.6f}"}],
        }
        return urlencode({"payload": json.dumps(payload)})


def _has_buttons(reply: Reply) -> bool:
    return any(b.get("block_id") == BUTTONS_BLOCK for b in reply.blocks or [])


LONGEST_MESSAGE = ("I need help with joining a waitlist for the class that is required for my major " * 500)[:40_000]
"""Slack's longest message: 40,000 characters."""
WORST_LINE = "str([['\ufb03'] * 1000] * 1000)"
"""Refused after the most work one measurement may do (the slowest statement found per character)."""


def worst_statements(n: int) -> str:
    """A parser output of up to 20,000 characters (the interpreter's limit) of :data:`WORST_LINE`,
    new each time (a numbered comment), so that it is parsed and checked, never a cached tree."""
    head = f"{STATEMENTS}# {n}\n"
    return head + "\n".join([WORST_LINE] * ((20_000 - len(head)) // (len(WORST_LINE) + 1)))


class HostileUser(SimulatedUser):
    """Sends the worst statements and the longest message in turns, waiting for each reply, until ``stop``."""

    def __init__(self, *args: Any, stop: asyncio.Event, **kwargs: Any):
        super().__init__(*args, **kwargs)
        self.stop = stop

    async def run(self) -> None:
        index = 0
        while not self.stop.is_set():
            text = "hello" if index == 0 else worst_statements(index) if index % 2 else LONGEST_MESSAGE
            await self._turn(self._message_body(index, text), "application/json", duplicate=False)
            index += 1
