"""Confirm and Cancel buttons: persistent across restarts, owner-only, once-only, never late."""

from __future__ import annotations

import asyncio
import time
from typing import Any

from genie_bot.adapters.discord.clicks import ALREADY_HANDLING
from genie_bot.engine import Accepted, ClickOutcome, Engine, Reply
from genie_bot.engine.turns import APOLOGY, NOT_OWNER
from genie_bot.store import inbox as events
from genie_bot.submissions import submissions
from tests.fakes.discord_server import FakeDiscord

from .harness import (Chat, Deployment, async_test, buttons, custom_id, enroll, eventually, followups, original_edit,
                      serving)


class ClickStandIn:
    """The real engine, except for running recorded clicks (``click_replies``), which subclasses replace."""

    def __init__(self, engine: Engine):
        self.engine = engine
        self.calls = 0
        self._clicks: set[tuple[str, str]] = set()

    def __getattr__(self, name: str) -> Any:
        return getattr(self.engine, name)

    async def accept_action(self, *args: Any) -> Accepted | None:
        accepted = await self.engine.accept_action(*args)
        if accepted is not None:
            self._clicks.add(accepted.pk)
        return accepted

    async def replies_of(self, accepted: Accepted) -> list[Reply]:
        if accepted.pk not in self._clicks:
            return await self.engine.replies_of(accepted)  # a message
        self.calls += 1
        return await self.click_replies(accepted)

    async def click_replies(self, accepted: Accepted) -> list[Reply]:
        raise NotImplementedError


class HeldEngine(ClickStandIn):
    """Clicks wait until the test releases them, like a slow API call."""

    def __init__(self, engine: Engine):
        super().__init__(engine)
        self.release = asyncio.Event()

    async def click_replies(self, accepted: Accepted) -> list[Reply]:
        await self.release.wait()
        return await self.engine.replies_of(accepted)


class FailingEngine(ClickStandIn):
    """A click's turn fails: the engine apologises and changes nothing."""

    async def click_replies(self, accepted: Accepted) -> list[Reply]:
        return [Reply(APOLOGY, outcome=ClickOutcome.FAILED)]


@async_test
async def test_a_click_after_a_restart_is_answered_by_the_new_process(deployment: Deployment) -> None:
    async with FakeDiscord() as fake:
        config = deployment.config(fake)
        async with serving(config):
            chat, summary = await enroll(fake)
        async with serving(config) as restarted:
            click = await fake.click_button(custom_id(summary, "confirm"), message_id=int(summary["id"]))
            edited = await original_edit(fake, click.token)
            assert all(b["disabled"] for b in buttons(edited))
            assert "ENR-00001" in (await chat.next())["content"]
        assert restarted.engine.turns_run == 1
        assert len(fake.identifies) == 2 and len(submissions("enrollment")) == 1


@async_test
async def test_someone_elses_click_is_refused_ephemerally_and_the_owner_can_still_cancel(
        deployment: Deployment) -> None:
    async with FakeDiscord() as fake:
        bob = fake.create_user("bob", guild_id=fake.guild_id)
        async with serving(deployment.config(fake)):
            chat, summary = await enroll(fake)
            message_id = int(summary["id"])

            intruder = await fake.click_button(custom_id(summary, "confirm"), message_id=message_id, user=bob)
            [refusal] = await followups(fake, intruder.token)
            assert (refusal["content"], refusal["flags"]) == (NOT_OWNER, 64)
            assert not any(b.get("disabled") for b in buttons(fake.messages[message_id]))

            owner = await fake.click_button(custom_id(summary, "cancel"), message_id=message_id)
            edited = await original_edit(fake, owner.token)
            assert edited["embeds"][0]["fields"][0]["value"] == f"✖️ **Cancelled** by <@{fake.tester.id}>"
            await chat.next()  # the agent's answer to the cancellation
            assert not any(c.method == "PATCH" and intruder.token in c.path for c in fake.requests)
        assert submissions("enrollment") == []


@async_test
async def test_a_double_click_runs_the_action_once_and_answers_both_clicks(deployment: Deployment) -> None:
    async with FakeDiscord() as fake:
        async with serving(deployment.config(fake), wrap=HeldEngine) as bot:
            held = bot.adapter.engine
            chat, summary = await enroll(fake)
            confirm = custom_id(summary, "confirm")

            first = await fake.click_button(confirm, message_id=int(summary["id"]))
            await fake.wait_for_request("POST", first.callback_path)
            second = await fake.click_button(confirm, message_id=int(summary["id"]))
            [answer] = await fake.wait_for_request("POST", second.callback_path)
            assert answer.json["type"] == 4  # an answer of its own, not a deferral
            assert (answer.json["data"]["content"], answer.json["data"]["flags"]) == (ALREADY_HANDLING, 64)

            held.release.set()
            await original_edit(fake, first.token)
            assert "ENR-00001" in (await chat.next())["content"]
            assert held.calls == 1
        assert len(submissions("enrollment")) == 1
        assert not any(second.token in c.path for c in fake.requests if c.method == "PATCH")


@async_test
async def test_a_slow_click_is_deferred_within_three_seconds_and_settled_later(deployment: Deployment) -> None:
    async with FakeDiscord() as fake:
        async with serving(deployment.config(fake), wrap=HeldEngine) as bot:
            held = bot.adapter.engine
            chat, summary = await enroll(fake)

            clicked = time.monotonic()
            click = await fake.click_button(custom_id(summary, "confirm"), message_id=int(summary["id"]))
            [callback] = await fake.wait_for_request("POST", click.callback_path)
            assert callback.json["type"] == 6 and time.monotonic() - clicked < 3
            with bot.engine.db.read() as conn:  # recorded before the deferral: it survives this process
                assert events.outcome(conn, ("discord", str(click.id)))[0] in ("queued", "running")
            await eventually(lambda: held.calls == 1)  # acknowledged, and the engine is still working
            await fake.wait_for_request("POST", rf"/channels/{chat.channel_id}/typing", count=chat.seen + 1)

            held.release.set()
            edited = await original_edit(fake, click.token)
            assert edited["embeds"][0]["fields"][0]["value"].startswith("✅ **Done** (confirmed by")
            assert "ENR-00001" in (await chat.next())["content"]


@async_test
async def test_a_confirmation_in_a_dm_is_settled_in_the_dm(deployment: Deployment) -> None:
    async with FakeDiscord() as fake, serving(deployment.config(fake)):
        chat, summary = await enroll(fake, Chat(fake, fake.dm_channel(fake.tester)))
        click = await fake.click_button(custom_id(summary, "confirm"), message_id=int(summary["id"]))
        assert all(b["disabled"] for b in buttons(await original_edit(fake, click.token)))
        assert "ENR-00001" in (await chat.next())["content"]


@async_test
async def test_stopping_lets_a_running_click_finish_and_post_its_reply(deployment: Deployment) -> None:
    async with FakeDiscord() as fake, serving(deployment.config(fake), wrap=HeldEngine) as bot:
        held = bot.adapter.engine
        chat, summary = await enroll(fake)
        click = await fake.click_button(custom_id(summary, "confirm"), message_id=int(summary["id"]))
        await eventually(lambda: held.calls == 1)

        stopping = asyncio.create_task(bot.adapter.stop())
        await asyncio.sleep(0.1)
        assert not stopping.done()
        held.release.set()
        await stopping

        await original_edit(fake, click.token)
        assert "ENR-00001" in (await chat.next())["content"]
        assert bot.adapter.client.is_closed()


@async_test
async def test_a_click_whose_turn_failed_keeps_the_buttons_for_another_try(deployment: Deployment) -> None:
    async with FakeDiscord() as fake, serving(deployment.config(fake), wrap=FailingEngine):
        chat, summary = await enroll(fake)
        click = await fake.click_button(custom_id(summary, "confirm"), message_id=int(summary["id"]))
        [apology] = await followups(fake, click.token)
        assert (apology["content"], apology["flags"]) == (APOLOGY, 64)
        assert not any(b.get("disabled") for b in buttons(fake.messages[int(summary["id"])]))
        assert not any(c.method == "PATCH" for c in fake.requests)
        assert chat.seen == len([c for c in fake.requests if c.path == f"/channels/{chat.channel_id}/messages"])
