"""Rate limits and refused posts: every reply and card arrives exactly once, however Slack answers."""

from __future__ import annotations

import functools
import tempfile
import time
from pathlib import Path

import pytest

from genie_bot.adapters.slack.adapter import RATE_LIMIT_RETRIES
from genie_bot.adapters.slack.blocks import SECTION_LIMIT
from genie_bot.adapters.slack.pacing import ChannelPacer
from genie_bot.adapters.slack.poster import THINKING
from genie_bot.adapters.slack.sessions import Place
from genie_bot.engine import Reply, SessionKey
from tests.adapters.agents import ROWS, long_agent
from tests.engine.support import ORDER, FakeClock, build_agent, prepare_database, run, write_shop
from tests.fakes.slack_api import BOT_ID, BOT_USER_ID, TEAM_ID, MockSlackWebAPI

from .harness import SlackHarness, has_buttons, make_config, slack_settings, transcript

NAMED = "order_0.name = '<@U7>'"
"""The order's name is a user mentioned: the bot looks their name up."""
CHANNELS = ("C1", "D1")


async def busy_day(h: SlackHarness) -> None:
    """Everything the adapter calls Slack for: an order confirmed with the button, a thread the bot
    posted in long ago, and replies a killed process left (in a thread, in a DM, one with nothing to say)."""
    slack = h.slack
    thread = await h.mention(ORDER[0])
    await h.say(ORDER[1], thread_ts=thread)
    await h.say(NAMED, thread_ts=thread)
    await h.settle()
    assert await h.click(await h.card(thread), "confirm") == 200
    await h.settle()
    old = slack.add_message("C1", "An answer from last year", user=BOT_USER_ID, bot_id=BOT_ID)
    await h.say(ORDER[0], thread_ts=old)
    await h.settle()
    left = [(SessionKey("slack", TEAM_ID, "C1", old), Reply("A recovered answer")),
            (SessionKey("slack", TEAM_ID, "D1", ""), Reply("A recovered answer in the DM")),
            (SessionKey("slack", TEAM_ID, "C1", thread), Reply(""))]
    for n, (key, reply) in enumerate(left):
        await h.adapter.poster.placeholder(Place.of(key), f"killed-{n}")
        assert await h.engine.notify(key, reply, "recovered", event_id=f"killed-{n}")


def run_busy_day(directory: Path, rate_limited: str | None = None) -> tuple[dict, list[tuple[str, int]]]:
    """A busy day on a fresh store and Slack, with one 429 on the first call to ``rate_limited``; returns
    what the channels show and the (method, HTTP status) of every call."""
    url = f"sqlite:///{directory / 'engine.sqlite3'}"
    prepare_database(url)
    with MockSlackWebAPI(display_names={"U7": "bob"}) as slack:
        if rate_limited:
            slack.rate_limit(rate_limited)
        config = make_config(url, write_shop(directory / "shop"), slack_settings(slack))

        async def day():
            async with SlackHarness(slack, config, build_agent=build_agent) as h:
                await busy_day(h)

        run(day())
        return transcript(slack, *CHANNELS), [(c.method, c.status) for c in slack.calls]


@functools.cache
def quiet_day() -> tuple[dict, list[tuple[str, int]]]:
    """The busy day without faults (run once)."""
    with tempfile.TemporaryDirectory() as directory:
        return run_busy_day(Path(directory))


METHODS = {"auth.test", "chat.postMessage", "chat.update", "chat.delete", "users.info", "conversations.replies",
           "conversations.history"}


def test_a_quiet_day_calls_every_method_the_adapter_uses_and_shows_every_reply_once():
    shown, calls = quiet_day()
    assert {method for method, _ in calls} == METHODS and {status for _, status in calls} == {200}
    assert shown == {
        ("C1", f"<@{BOT_USER_ID}> {ORDER[0]}"): [
            ("Hi! Orders food.\n\nHow many?", False), ("What is the name for the order?", False),
            (":white_check_mark: *Done* (confirmed by <@U1>)\n>Order Pizza-2-@bob placed", False),
            ("Order Pizza-2-@bob placed", False)],
        ("C1", ""): [("An answer from last year", False)],
        ("C1", "An answer from last year"): [("Hi! Orders food.\n\nHow many?", False), ("A recovered answer", False)],
        ("D1", ""): [("A recovered answer in the DM", False)],
    }


@pytest.mark.parametrize("method", sorted(METHODS))
def test_one_429_on_any_method_still_delivers_every_reply_and_card_exactly_once(method, tmp_path):
    shown, calls = run_busy_day(tmp_path, rate_limited=method)
    assert [m for m, status in calls if status == 429] == [method]  # it was refused once, then retried
    assert shown == quiet_day()[0]


def test_the_adapter_waits_as_long_as_retry_after_says_before_calling_again(slack, shop_config):
    async def scenario():
        async with SlackHarness(slack, shop_config(), build_agent=build_agent) as h:
            slack.rate_limit("chat.update", retry_after=1)
            thread = await h.mention(ORDER[0])
            await h.settle()
            return await h.texts(thread)

    started = time.monotonic()
    assert run(scenario()) == ["Hi! Orders food.\n\nHow many?"]
    assert time.monotonic() - started >= 1  # a lower bound: slack_sdk sleeps Retry-After plus jitter
    assert [c.status for c in slack.calls_to("chat.update")] == [429, 200]


def test_a_reply_slack_keeps_refusing_is_posted_from_the_outbox_by_the_live_process_with_backoff(slack, shop_config):
    clock = FakeClock()

    async def scenario():
        async with SlackHarness(slack, shop_config(), build_agent=build_agent, clock=clock) as h:
            slack.rate_limit("chat.update", times=RATE_LIMIT_RETRIES + 1)  # beyond the client's own retries
            thread = await h.mention(ORDER[0])
            await h.settle()
            stuck = await h.texts(thread)
            early = await h.engine.redeliver()  # the first retry waits a few seconds
            clock.advance(seconds=5)
            later = await h.engine.redeliver()
            return thread, stuck, early, later, await h.texts(thread), await h.event_status(f"{TEAM_ID}/C1/{thread}")

    thread, stuck, early, later, texts, status = run(scenario())
    assert stuck == [THINKING] and (early, later) == (0, 1)
    assert texts == ["Hi! Orders food.\n\nHow many?"] and len(slack.calls_to("chat.postMessage")) == 1
    assert status == "done"


def test_a_card_slack_refused_after_the_summary_is_posted_alone_from_the_outbox(slack, shop_config):
    clock = FakeClock()

    async def scenario():
        async with SlackHarness(slack, shop_config(), build_agent=long_agent, clock=clock) as h:
            thread = await h.mention(ORDER[0])
            await h.say(ORDER[1], thread_ts=thread)
            await h.settle()
            # the placeholder and the summary's second message go out; its third, the card, is refused
            slack.fail("chat.postMessage", "service_unavailable", after=2)
            await h.say(ORDER[2] + " # long", thread_ts=thread)
            await h.settle()
            partial = await h.thread(thread)
            clock.advance(seconds=5)
            await h.engine.redeliver()
            return partial, await h.thread(thread)

    partial, final = run(scenario())
    assert len(partial) == 4 and not any(has_buttons(m) for m in partial)
    assert [m["text"] for m in final[:4]] == [m["text"] for m in partial]
    assert len(final) == 6 and has_buttons(final[5]) and final[5]["text"].endswith("(yes / no)")
    assert [m["metadata"]["event_payload"]["piece"] for m in final[2:]] == [0, 1, 2, 3]


class PacedClock:
    """A monotonic clock that only sleeping moves: the pacer's waits are recorded, never slept."""

    def __init__(self) -> None:
        self.now = 100.0
        self.slept: list[float] = []

    def __call__(self) -> float:
        return self.now

    async def sleep(self, seconds: float) -> None:
        self.slept.append(seconds)
        self.now += seconds


def test_a_400_row_answer_is_a_few_messages_paced_at_one_per_second(slack, shop_config):
    clock = PacedClock()

    async def scenario():
        async with SlackHarness(slack, shop_config(), build_agent=long_agent) as h:
            h.adapter.poster.pacer = ChannelPacer(clock=clock, sleep=clock.sleep)
            thread = await h.mention(ORDER[0] + " # long")
            await h.settle()
            first = list(clock.slept)
            await h.say(ORDER[1] + " # long", thread_ts=thread)
            await h.settle()
            return await h.texts(thread), first, clock.slept[len(first):]

    texts, first_waits, second_waits = run(scenario())
    assert len(texts) == 8 and all(len(text) <= SECTION_LIMIT for text in texts)  # two answers, four messages each
    assert "more lines not shown. Ask me to narrow it down._" in texts[3] and texts[3].endswith("How many?")
    assert texts[0].startswith("Hi! Orders food.\n\nI found 400 salads:\n" + ROWS[0]) and ROWS[-1] not in "".join(texts)
    assert first_waits == [] and second_waits == [1.0, 1.0, 1.0, 1.0]  # a burst of four, then one a second
