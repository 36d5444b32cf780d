"""The Discord adapter against FakeDiscord, with a real engine on a temporary SQLite store.

``serving(config)`` starts what ``genie-bot run`` starts for Discord (engine, sink, adapter)
while a ``FakeDiscord`` is open; ``Chat`` plays a user in one channel, thread or DM and
reads the bot's answers there from the fake's recorded REST calls.
"""

from __future__ import annotations

import asyncio
import functools
import re
import shutil
from collections.abc import AsyncIterator, Awaitable, Callable
from contextlib import asynccontextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from genie_bot.adapters.discord import DiscordAdapter, DiscordSettings
from genie_bot.config import AgentConfig, Config, SchedulerSettings
from genie_bot.engine import Engine
from tests.conftest import WORKSHEETS
from tests.engine.support import prepare_database, write_shop
from tests.fakes.discord_server import FakeDiscord
from tests.fakes.discord_state import FakeUser, Payload

TEST_TIMEOUT = 30.0
ENROLMENT = ["I want to enroll in courses", "CS 224V", "letter", "3 units", "CS 229", "credit/no credit", "four",
             "no", "yes", "Ann Lee", "12345678", "ann@stanford.edu", "no"]
"""A course enrollment (worksheets/course_enrollment) whose last answer asks for confirmation."""


def async_test(test: Callable[..., Awaitable[None]]) -> Callable[..., None]:
    """Run an async test (fixtures as usual) in a fresh loop with a hard timeout."""

    @functools.wraps(test)
    def run(*args: Any, **kwargs: Any) -> None:
        asyncio.run(asyncio.wait_for(test(*args, **kwargs), TEST_TIMEOUT))

    return run


async def eventually(condition: Callable[[], bool], timeout: float = 5.0) -> None:
    async with asyncio.timeout(timeout):
        while not condition():
            await asyncio.sleep(0.01)


@dataclass(frozen=True)
class Deployment:
    """A course-enrollment agent copied to a temporary directory (tests may break it) and a store."""

    agent_dir: Path
    database_url: str

    @classmethod
    def create(cls, directory: Path) -> Deployment:
        agent_dir = shutil.copytree(WORKSHEETS / "course_enrollment", directory / "courses")
        url = f"sqlite:///{directory / 'genie.sqlite3'}"
        prepare_database(url)
        return cls(agent_dir, url)

    def config(self, fake: FakeDiscord, *, admins: tuple[int, ...] = (), closing_message: str | None = None,
               **discord: Any) -> Config:
        return Config(agents={"courses": AgentConfig("courses", self.agent_dir)}, default_agent="courses",
                      database_url=self.database_url, admins={"discord": frozenset(str(a) for a in admins)},
                      platforms={"discord": {"bot_token": fake.token, **discord}},
                      scheduler=SchedulerSettings(closing_message=closing_message))


@dataclass(frozen=True)
class Bot:
    engine: Engine
    adapter: DiscordAdapter


def shop_config(fake: FakeDiscord, directory: Path, **discord: Any) -> Config:
    """The shop agent (tests.engine.support: statements typed as messages) served on ``fake``."""
    url = f"sqlite:///{directory / 'shop.sqlite3'}"
    prepare_database(url)
    return Config(agents={"shop": AgentConfig("shop", write_shop(directory / "shop"))}, default_agent="shop",
                  database_url=url, platforms={"discord": {"bot_token": fake.token, **discord}},
                  scheduler=SchedulerSettings(enabled=False))


@asynccontextmanager
async def serving(config: Config, wrap: Callable[[Engine], Any] | None = None, *,
                  record_retry_seconds: tuple[float, ...] = (0.0,), **engine_options: Any) -> AsyncIterator[Bot]:
    """Engine + adapter as ``genie-bot run`` wires them; ``wrap`` may stand between adapter and engine.
    A message the engine cannot record is tried again once, at once (see ``record_retry_seconds``)."""
    engine = Engine(config, **engine_options)
    await engine.start()
    try:
        adapter = DiscordAdapter(DiscordSettings.parse(config.platforms["discord"]), guild_ready_timeout=0.05,
                                 record_retry_seconds=record_retry_seconds)
        adapter.client.before_identify_hook = _identify_at_once
        engine.add_sink(adapter.platform, adapter.deliver, adapter.acknowledges_delivery)
        try:
            await adapter.start(wrap(engine) if wrap else engine)
            yield Bot(engine, adapter)
        finally:
            await adapter.stop()  # also after a failed start, as genie-bot run does
    finally:
        await engine.stop()


async def _identify_at_once(shard_id: int | None, *, initial: bool = False) -> None:
    """No 5 s pause between a sharded client's IDENTIFYs: that rate limit exists only on real Discord."""


class Chat:
    """A user talking in one channel, thread or DM; ``seen`` counts the bot's messages there."""

    def __init__(self, fake: FakeDiscord, channel_id: int, user: FakeUser | None = None):
        self.fake = fake
        self.channel_id = channel_id
        self.user = user or fake.tester
        self.seen = 0

    async def say(self, text: str, *, mention: bool = False) -> Payload:
        await self.fake.send_message(self.channel_id, text, author=self.user, mentions_bot=mention)
        return await self.next()

    async def next(self) -> Payload:
        """The bot's next message here (as the bot sent it)."""
        self.seen += 1
        calls = await self.fake.wait_for_request("POST", rf"/channels/{self.channel_id}/messages", count=self.seen)
        return calls[self.seen - 1].json


async def start_thread(fake: FakeDiscord, text: str, user: FakeUser | None = None,
                       channel_id: int | None = None) -> tuple[Chat, Payload]:
    """Mention the bot in #general (or ``channel_id``): the conversation moves into a thread started from
    that message."""
    message = await fake.send_message(channel_id or fake.channel_id, text, author=user or fake.tester,
                                      mentions_bot=True)
    chat = Chat(fake, int(message["id"]), user)  # a thread started from a message takes its id
    return chat, await chat.next()


async def enroll(fake: FakeDiscord, chat: Chat | None = None) -> tuple[Chat, Payload]:
    """The whole enrollment, in ``chat`` or else in a thread started from #general.

    Returns the chat and the stored summary message with its buttons.
    """
    if chat is None:
        chat, _ = await start_thread(fake, ENROLMENT[0])
    else:
        await chat.say(ENROLMENT[0])
    for text in ENROLMENT[1:]:
        reply = await chat.say(text)
    assert reply["components"], reply
    return chat, last_message_with_buttons(fake, chat.channel_id)


def last_message_with_buttons(fake: FakeDiscord, channel_id: int) -> Payload:
    return [m for m in fake.messages.values() if m["channel_id"] == str(channel_id) and m["components"]][-1]


def buttons(message: Payload) -> list[Payload]:
    return [button for row in message["components"] for button in row["components"]]


def custom_id(message: Payload, decision: str) -> str:
    return next(b["custom_id"] for b in buttons(message) if b["custom_id"].startswith(f"genie:{decision}:"))


async def original_edit(fake: FakeDiscord, token: str) -> Payload:
    """The edit of the message a clicked button is on (the interaction's original response)."""
    path = rf"/webhooks/{fake.application_id}/{re.escape(token)}/messages/@original"
    [edit] = await fake.wait_for_request("PATCH", path)
    return edit.json


async def followups(fake: FakeDiscord, token: str, count: int = 1) -> list[Payload]:
    calls = await fake.wait_for_request("POST", rf"/webhooks/{fake.application_id}/{re.escape(token)}", count=count)
    return [call.json for call in calls]
