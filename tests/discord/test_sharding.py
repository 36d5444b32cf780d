"""Large bots: ``shard_count`` runs an AutoShardedClient, ``shard_ids`` only some of its shards."""

from __future__ import annotations

import discord

from tests.fakes.discord_gateway import shard_of
from tests.fakes.discord_server import FakeDiscord

from .harness import ENROLMENT, Deployment, async_test, serving, start_thread


@async_test
async def test_auto_shard_count_brings_up_every_shard_discord_recommends(deployment: Deployment) -> None:
    async with FakeDiscord(shard_count=2) as fake, serving(deployment.config(fake, shard_count="auto")) as bot:
        assert isinstance(bot.adapter.client, discord.AutoShardedClient)
        assert sorted((i.shard_id, i.shard_count) for i in fake.identifies) == [(0, 2), (1, 2)]
        _, greeting = await start_thread(fake, ENROLMENT[0])
        assert greeting["content"].startswith("Hi!")


@async_test
async def test_shard_ids_run_only_those_shards(deployment: Deployment) -> None:
    async with FakeDiscord(shard_count=2) as fake:
        shard = shard_of(fake.guild_id, 2)
        async with serving(deployment.config(fake, shard_count=2, shard_ids=[shard])):
            assert [(i.shard_id, i.shard_count) for i in fake.identifies] == [(shard, 2)]
            _, greeting = await start_thread(fake, ENROLMENT[0])
            assert greeting["content"].startswith("Hi!")
