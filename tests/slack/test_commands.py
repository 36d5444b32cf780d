"""``/genie``: every subcommand with and without admin rights, ephemeral answers, a broken reload, a stuck one."""

from __future__ import annotations

import asyncio
import re

from genie_bot.engine.admin import usage
from tests.engine.support import ORDER, SHOP_YAML, build_agent, run

from .harness import SlackHarness


def link(thread: str, reply: str | None = None) -> str:
    """A message's "Copy link" (a reply's link names its thread)."""
    if reply is None:
        return f"https://genie-test.slack.com/archives/C1/p{thread.replace('.', '')}"
    return f"<https://genie-test.slack.com/archives/C1/p{reply.replace('.', '')}?thread_ts={thread}&cid=C1>"


def test_admin_subcommands_need_an_admin(slack, shop_config):
    async def scenario():
        async with SlackHarness(slack, shop_config(), build_agent=build_agent) as h:
            thread = await h.mention(ORDER[0])
            await h.settle()
            texts = {}
            for user in ("U1", "UADMIN"):
                for command in ("reload", "reload shop", "status", f"state {link(thread)}"):
                    [texts[user, command.split()[0] + ("+" if " shop" in command else "")]] = \
                        await h.command(command, user=user)
            return texts

    texts = run(scenario())
    for name in ("reload", "reload+", "status", "state"):
        assert texts["U1", name] == f"Sorry, only admins can use /genie {name.rstrip('+')}."
    assert re.fullmatch(r"shop: (\w+) -&gt; \1 \(unchanged\)", texts["UADMIN", "reload"])
    assert texts["UADMIN", "reload+"] == texts["UADMIN", "reload"]
    assert texts["UADMIN", "status"].startswith("instance ") and "live sessions: 1" in texts["UADMIN", "status"]
    state = texts["UADMIN", "state"]
    assert state.startswith("Agent `shop` (version ") and "owner U1, 1 turn(s)" in state
    assert '"dish": "Pizza"' in state and state.endswith("```")


def test_agents_and_help_are_for_everyone(slack, shop_config):
    async def scenario():
        async with SlackHarness(slack, shop_config(), build_agent=build_agent) as h:
            return [(await h.command(text))[0] for text in ("agents", "", "frobnicate")]

    agents, help_text, unknown = run(scenario())
    assert re.fullmatch(r"Agents:\n• shop \(version \w+\) - answers here", agents)
    assert help_text == usage() and unknown == f"Unknown subcommand 'frobnicate'.\n{usage()}"


def test_reset_starts_a_thread_over_for_its_owner_or_an_admin(slack, shop_config):
    async def scenario():
        async with SlackHarness(slack, shop_config(), build_agent=build_agent) as h:
            thread = await h.mention(ORDER[0])
            reply = await h.say(ORDER[1], thread_ts=thread)
            await h.settle()
            answers = {
                "no link": await h.command("reset"),
                "stranger": await h.command(f"reset {link(thread)}", user="U2"),
                "owner": await h.command(f"reset {link(thread, reply)}"),
            }
            await h.say(ORDER[0], thread_ts=thread)
            await h.settle()
            answers["admin"] = await h.command(f"reset {link(thread)}", user="UADMIN")
            return answers, await h.texts(thread)

    answers, texts = run(scenario())
    assert answers["no link"] == ["Slash commands cannot be used inside threads, so tell me which conversation: "
                                  "copy the link of a message in its thread and run `/genie reset &lt;link&gt;`."]
    assert answers["stranger"] == ["Sorry, only the person who started this conversation (or an admin) can reset it."]
    assert answers["owner"] == answers["admin"] == ["Done: this conversation starts over with your next message."]
    assert texts[-1] == texts[0] == "Hi! Orders food.\n\nHow many?"  # greeted again: a new start


def test_reset_and_state_in_a_direct_message_mean_that_dm(slack, shop_config):
    async def scenario():
        async with SlackHarness(slack, shop_config(admins=("U1",)), build_agent=build_agent) as h:
            await h.say(ORDER[0], thread_ts=None, channel="D1")
            await h.settle()
            state = await h.command("state", channel="D1")
            reset = await h.command("reset", channel="D1")
            return state, reset, await h.command("state", channel="D1")

    state, reset, after = run(scenario())
    assert '"dish": "Pizza"' in state[0] and reset == ["Done: this conversation starts over with your next message."]
    assert after == ["This conversation has no state yet."]


def test_workspace_admins_count_as_admins_only_when_configured(slack, shop_config):
    async def status(config, user):
        async with SlackHarness(slack, config, build_agent=build_agent) as h:
            return (await h.command("status", user=user))[0]

    trusted = shop_config({"workspace_admins": True})
    assert run(status(trusted, "UWSADMIN")).startswith("instance ")
    assert run(status(trusted, "U1")) == "Sorry, only admins can use /genie status."
    assert run(status(shop_config(), "UWSADMIN")) == "Sorry, only admins can use /genie status."
    slack.fail("users.info", "missing_scope")  # the app was installed without users:read
    assert run(status(trusted, "UWSADMIN")) == "Sorry, only admins can use /genie status."
    assert [c.params["user"] for c in slack.calls_to("users.info")] == ["UWSADMIN", "U1", "UWSADMIN"]


def test_a_broken_reload_is_reported_and_the_running_agent_keeps_serving(slack, shop_config, shop):
    async def scenario():
        async with SlackHarness(slack, shop_config(), build_agent=build_agent) as h:
            thread = await h.mention(ORDER[0])
            (shop / "agent.yaml").write_text(SHOP_YAML.replace("type: int", "type: integr"), encoding="utf-8")
            report = await h.command("reload", user="UADMIN")
            await h.say(ORDER[1], thread_ts=thread)
            await h.settle()
            return report, await h.texts(thread)

    [report], texts = run(scenario())
    first, *errors = report.split("\n")
    assert first == "reload failed; the running versions keep serving:"
    assert any(re.search(r"agent\.yaml:\d+:\d+: unknown type 'integr'", e) for e in errors), errors
    assert texts[-1] == "What is the name for the order?"


BLOCKS_IN_THE_BOT = """
import pathlib
import time

if __name__ != "genie_agent_api_check":  # the child that checks the import returns at once
    while not pathlib.Path(__file__).with_name("release").exists():
        time.sleep(0.01)
"""


def test_a_reload_whose_api_py_blocks_in_the_bot_is_answered_and_the_agent_keeps_serving(slack, shop_config, shop):
    async def scenario():
        async with SlackHarness(slack, shop_config(), build_agent=build_agent) as h:
            h.engine.reload_seconds = 0.5
            thread = await h.mention(ORDER[0])
            api = (shop / "api.py").read_text(encoding="utf-8")
            (shop / "api.py").write_text(api + BLOCKS_IN_THE_BOT, encoding="utf-8")
            [stuck] = await h.command("reload", user="UADMIN")
            [again] = await h.command("reload", user="UADMIN")  # while the first is still stuck
            await h.say(ORDER[1], thread_ts=thread)
            await h.settle()
            before = h.engine.registry.versions()["shop"]
            (shop / "release").touch()  # the stuck reload finishes, and switches to the new version
            for _ in range(1000):
                if h.engine.registry.versions()["shop"] != before:
                    break
                await asyncio.sleep(0.01)
            [later] = await h.command("reload", user="UADMIN")
            return stuck, again, before, later, await h.texts(thread)

    stuck, again, before, later, texts = run(scenario())
    assert stuck.split("\n") == ["reload failed; the running versions keep serving:",
                                 "loading the agents did not finish within 0.5 s (does an api.py wait for something "
                                 "at import?); it goes on, and they switch to the new versions if it finishes"]
    assert again.split("\n")[1].startswith("another reload has not finished yet")
    assert texts[-1] == "What is the name for the order?"
    now = re.fullmatch(r"shop: (\w+) -&gt; \1 \(unchanged\)", later)
    assert now is not None and now[1] != before
