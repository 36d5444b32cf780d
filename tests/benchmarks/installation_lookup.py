"""What "Add to Slack" adds to every Slack call: ``python -m tests.benchmarks.installation_lookup
[--workspaces N] [--lookups N] [--url URL]``.

With many workspaces, every request from Slack (Bolt's authorization) and every Web API call the
adapter makes on a workspace's behalf reads that workspace's installation from the engine's
database (``InstalledWorkspaces.get``: the latest installation of the team, its token, the bot
user, its tokens opened). This installs N workspaces (rows as slack_sdk's store writes them, tokens
that do not expire, sealed) and times ``get`` for random workspaces, one at a time and 16 at once. SQLite by default.
"""

from __future__ import annotations

import argparse
import asyncio
import random
import time

from slack_sdk.oauth.installation_store import Installation
from slack_sdk.web.async_client import AsyncWebClient

from genie_bot.adapters.slack.installations import Installations
from genie_bot.adapters.slack.settings import SlackOAuthSettings
from genie_bot.adapters.slack.workspaces import InstalledWorkspaces
from genie_bot.store import Database
from genie_bot.store.sealing import Sealer

from .common import percentiles, scratch

SEALER = Sealer([Sealer.new_key()])


def install(installations: Installations, workspaces: int) -> None:
    for n in range(workspaces):
        installations.writes.save(Installation(app_id="A1", enterprise_id=None, team_id=f"T{n:05d}",
                                               team_name=f"Workspace {n}", bot_token=f"xoxb-{n}", bot_id=f"B{n}",
                                               bot_user_id=f"UBOT{n}", bot_scopes="chat:write", user_id="U1"))


async def measure(db: Database, workspaces: int, lookups: int, concurrency: int) -> list[float]:
    installations = Installations("111.222", db, SEALER)
    settings = SlackOAuthSettings(client_id="111.222", client_secret="s")
    known = InstalledWorkspaces(installations, settings, lambda token: AsyncWebClient(token=token))
    teams = [f"T{random.randrange(workspaces):05d}" for _ in range(lookups)]
    timings: list[float] = []

    async def one(team: str) -> None:
        started = time.perf_counter()
        assert (await known.get(team)).team == team
        timings.append((time.perf_counter() - started) * 1000)

    for batch in range(0, lookups, concurrency):
        await asyncio.gather(*(one(team) for team in teams[batch:batch + concurrency]))
    return timings


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--workspaces", type=int, default=1000)
    parser.add_argument("--lookups", type=int, default=2000)
    parser.add_argument("--url", help="a migrated database without installations (default: a fresh SQLite file)")
    args = parser.parse_args()
    db = Database(scratch(args.url)[0])
    try:
        install(Installations("111.222", db, SEALER), args.workspaces)
        for concurrency in (1, 16):
            timings = asyncio.run(measure(db, args.workspaces, args.lookups, concurrency))
            print(f"{args.workspaces} workspaces, {concurrency} lookup(s) at once: {percentiles(timings)}")
    finally:
        db.dispose()


if __name__ == "__main__":
    main()
