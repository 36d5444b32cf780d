"""Where "Add to Slack" keeps each workspace's installation and each install under way: slack_sdk's
SQLAlchemy stores, on the engine's own database (tables of revision 0005, ``genie-bot db upgrade``).

slack_sdk's stores are synchronous, like the engine's database access; Bolt's asyncio app wants
its async interfaces, so every call runs in a worker thread. Reads use the engine's pool as it is;
writes go through :meth:`~genie_bot.store.Database.writing_engine`, so on SQLite an install or a
token rotation takes the write lock up front instead of failing half-way beside the engine's turns.
"""

from __future__ import annotations

import asyncio
import datetime as dt
import logging
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from slack_sdk.oauth.installation_store import Bot, Installation
from slack_sdk.oauth.installation_store.async_installation_store import AsyncInstallationStore
from slack_sdk.oauth.installation_store.sqlalchemy import SQLAlchemyInstallationStore
from slack_sdk.oauth.state_store.async_state_store import AsyncOAuthStateStore
from slack_sdk.oauth.state_store.sqlalchemy import SQLAlchemyOAuthStateStore
from sqlalchemy import delete, desc, select

from genie_bot.store import Database

log = logging.getLogger(__name__)


@dataclass(frozen=True)
class InstalledWorkspace:
    """One workspace's installation, as operators see it (``genie-bot installations list``)."""

    team_id: str
    team_name: str | None
    enterprise_id: str | None
    installer: str
    """The member who installed the app."""
    installed_at: dt.datetime
    scopes: tuple[str, ...]
    token_expires_at: dt.datetime | None
    """When the bot token expires (token rotation), UTC; None: it does not."""


class Installations(AsyncInstallationStore):
    """Installations of the app whose client id is ``client_id``, in the engine's database."""

    def __init__(self, client_id: str, db: Database):
        self.reads = SQLAlchemyInstallationStore(client_id, db.engine, logger=log)
        self.writes = SQLAlchemyInstallationStore(client_id, db.writing_engine(), logger=log)

    @property
    def logger(self) -> logging.Logger:
        return log

    # -- slack_sdk's interface, for Bolt ---------------------------------------------------------------
    async def async_save(self, installation: Installation) -> None:
        await asyncio.to_thread(self.writes.save, installation)

    async def async_save_bot(self, bot: Bot) -> None:
        await asyncio.to_thread(self.writes.save_bot, bot)

    async def async_find_bot(self, *, enterprise_id: str | None, team_id: str | None,
                             is_enterprise_install: bool | None = False) -> Bot | None:
        return await asyncio.to_thread(self.reads.find_bot, enterprise_id=enterprise_id, team_id=team_id,
                                is_enterprise_install=is_enterprise_install)

    async def async_find_installation(self, *, enterprise_id: str | None, team_id: str | None,
                                      user_id: str | None = None,
                                      is_enterprise_install: bool | None = False) -> Installation | None:
        return await asyncio.to_thread(self.reads.find_installation, enterprise_id=enterprise_id, team_id=team_id,
                                user_id=user_id, is_enterprise_install=is_enterprise_install)

    async def async_delete_bot(self, *, enterprise_id: str | None, team_id: str | None) -> None:
        await asyncio.to_thread(self.writes.delete_bot, enterprise_id=enterprise_id, team_id=team_id)

    async def async_delete_installation(self, *, enterprise_id: str | None, team_id: str | None,
                                        user_id: str | None = None) -> None:
        await asyncio.to_thread(self.writes.delete_installation, enterprise_id=enterprise_id, team_id=team_id,
                         user_id=user_id)

    # -- by workspace --------------------------------------------------------------------------------
    async def of_team(self, team_id: str) -> Installation | None:
        """The latest installation in workspace ``team_id`` (a team id is unique across Enterprise Grid
        organisations, so events, which name the team, need not know its enterprise)."""
        return await asyncio.to_thread(self.latest_of_team, team_id)

    def latest_of_team(self, team_id: str) -> Installation | None:
        table = self.reads.installations
        query = table.select().where(table.c.client_id == self.reads.client_id, table.c.team_id == team_id) \
            .order_by(desc(table.c.installed_at)).limit(1)
        with self.reads.engine.connect() as conn:
            row = conn.execute(query).mappings().first()
        return None if row is None else SQLAlchemyInstallationStore.build_installation_entity(row)

    def remove(self, installation: Installation) -> None:
        """Forget every installation and bot of ``installation``'s workspace."""
        self.writes.delete_bot(enterprise_id=installation.enterprise_id, team_id=installation.team_id)
        self.writes.delete_installation(enterprise_id=installation.enterprise_id, team_id=installation.team_id)

    def listing(self) -> list[InstalledWorkspace]:
        """The workspaces the app is installed in, each as its latest installation, by team id."""
        table = self.reads.installations
        query = select(table).where(table.c.client_id == self.reads.client_id).order_by(desc(table.c.installed_at))
        latest: dict[str, InstalledWorkspace] = {}
        with self.reads.engine.connect() as conn:
            for row in conn.execute(query).mappings():
                if row["team_id"] is not None and row["team_id"] not in latest:
                    latest[row["team_id"]] = InstalledWorkspace(
                        row["team_id"], row["team_name"], row["enterprise_id"], row["user_id"], row["installed_at"],
                        tuple(s for s in (row["bot_scopes"] or "").split(",") if s), row["bot_token_expires_at"])
        return [latest[team] for team in sorted(latest)]


class OAuthStates(AsyncOAuthStateStore):
    """The ``state`` of each install under way: issued with the install page, consumed (once) by the
    redirect back from Slack, so a forged or replayed redirect is refused. Issuing one also drops
    those of installs abandoned long enough ago to have expired."""

    def __init__(self, db: Database, expiration_seconds: int, clock: Callable[[], dt.datetime] | None = None):
        self.store = SQLAlchemyOAuthStateStore(expiration_seconds, db.writing_engine(), logger=log)
        self.clock = clock or (lambda: dt.datetime.now(dt.timezone.utc).replace(tzinfo=None))

    @property
    def logger(self) -> logging.Logger:
        return log

    async def async_issue(self, *args: Any, **kwargs: Any) -> str:
        return await asyncio.to_thread(self._issue)

    async def async_consume(self, state: str) -> bool:
        return await asyncio.to_thread(self.store.consume, state)

    def _issue(self) -> str:
        table = self.store.oauth_states
        with self.store.engine.begin() as conn:
            conn.execute(delete(table).where(table.c.expire_at < self.clock()))
        return self.store.issue()

