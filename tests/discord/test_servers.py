"""One bot in several Discord servers: each gets the agents genie.yaml's ``workspaces.discord`` give it
(its own default agent, its own admins), and a server they refuse is not answered."""

from __future__ import annotations

import logging
import re
from pathlib import Path

import pytest

from genie_bot.config import AgentConfig, Config, SchedulerSettings
from genie_bot.store import sessions
from genie_bot.submissions import submissions
from genie_bot.workspaces import PlatformWorkspaces, WorkspaceSettings
from tests.engine.support import ORDER, build_agent, calls, write_shop
from tests.fakes.discord_server import FakeDiscord

from .harness import Chat, Deployment, async_test, custom_id, enroll, eventually, last_message_with_buttons, serving, \
    start_thread
from .test_commands import genie


def two_servers(deployment: Deployment, fake: FakeDiscord, shop: Path, shop_server: int, admin: int) -> Config:
    """The default server gets the course enrollment, ``shop_server`` the shop (``admin`` is its admin);
    any other server is refused."""
    servers = PlatformWorkspaces({
        str(fake.guild_id): WorkspaceSettings(agents=frozenset({"courses"}), default_agent="courses"),
        str(shop_server): WorkspaceSettings(agents=frozenset({"shop"}), default_agent="shop",
                                            admins=frozenset({str(admin)}))}, fallback=None)
    return Config(agents={"courses": AgentConfig("courses", deployment.agent_dir), "shop": AgentConfig("shop", shop)},
                  default_agent="courses", database_url=deployment.database_url,
                  platforms={"discord": {"bot_token": fake.token}}, workspaces={"discord": servers},
                  scheduler=SchedulerSettings(enabled=False))


@pytest.fixture
def shop(tmp_path: Path) -> Path:
    return write_shop(tmp_path / "shop")


@async_test
async def test_two_servers_get_their_own_agents_and_a_third_is_not_answered(deployment: Deployment, shop: Path,
                                                                            caplog) -> None:
    caplog.set_level(logging.WARNING, "genie_bot.adapters.discord")
    async with FakeDiscord() as fake:
        shop_server = fake.world.create_guild("Shop", owner=fake.owner).id
        refused_server = fake.world.create_guild("Elsewhere", owner=fake.owner).id
        admin = fake.create_user("shopkeeper", guild_id=shop_server)
        for server in (shop_server, refused_server):
            fake.world.add_member(server, fake.tester)
        fake.world.add_member(fake.guild_id, admin)
        orders, elsewhere = fake.create_channel("orders", guild_id=shop_server), \
            fake.create_channel("general", guild_id=refused_server)
        config = two_servers(deployment, fake, shop, shop_server, admin.id)
        async with serving(config, build_agent=build_agent) as bot:
            await fake.send_message(elsewhere, "order_0.dish = 'Pizza'", mentions_bot=True)
            await eventually(lambda: f"not answering in Discord server {refused_server}" in caplog.text)

            _, summary = await enroll(fake)  # the default server: courses
            await fake.click_button(custom_id(summary, "confirm"), message_id=int(summary["id"]))
            shop_chat, greeting = await start_thread(fake, ORDER[0], channel_id=orders)
            for text in ORDER[1:]:
                await shop_chat.say(text)
            card = last_message_with_buttons(fake, shop_chat.channel_id)
            await fake.click_button(custom_id(card, "confirm"), message_id=int(card["id"]))
            placed = await shop_chat.next()
            await eventually(lambda: len(submissions("enrollment")) == 1)

            agents_here = await genie(fake, "agents", fake.tester, orders)
            admin_reload = await genie(fake, "reload", admin, orders)
            stranger_reload = await genie(fake, "reload", admin, fake.channel_id)
            refused_agents = await genie(fake, "agents", fake.tester, elsewhere)
            with bot.engine.db.read() as conn:
                agents_by_server = {(row.workspace, row.agent) for row in sessions.listing(conn)}

    assert greeting["content"].startswith("Hi! Orders food.") and placed["content"] == "Order Pizza-2-Ann placed"
    assert [c["name"] for c in calls()] == ["Ann"]
    assert agents_by_server == {(str(fake.guild_id), "courses"), (str(shop_server), "shop")}
    assert re.fullmatch(r"Agents:\n• shop \(version \w+\) - answers here", agents_here)
    assert re.fullmatch(r"shop: (\w+) -> \1 \(unchanged\)", admin_reload)
    assert stranger_reload == "Sorry, only admins can use /genie reload."  # an admin of the shop server only
    assert refused_agents == "Sorry, I am not available here (this workspace is not served)."
    assert not [c for c in fake.requests if c.method == "POST" and str(elsewhere) in c.path
                and not c.path.startswith("/interactions")]
