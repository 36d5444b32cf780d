"""Where "Add to Slack" keeps each workspace's installation and the OAuth states already used:
slack_sdk's SQLAlchemy installation store, on the engine's own database (tables of revisions 0005
and 0006, ``genie-bot db upgrade``).

Tokens are sealed (:mod:`genie_bot.store.sealing`): the store's token columns seal what is
written and open what is read, so a token is in clear only in the process that uses it, and
this store is the one way to read it.

The install page issues its OAuth ``state`` without writing anything (:class:`OAuthStates`: a
nonce and an expiry, signed with the app's client secret, which every replica shares), so
anonymous visits cost no database write; the redirect back from Slack consumes it by writing
it once (a unique index), so a replayed redirect is refused.

slack_sdk's stores are synchronous, like the engine's database access; Bolt's asyncio app wants
its async interfaces, so every call runs in a worker thread. Reads use the engine's pool as it is;
writes go through :meth:`~genie_bot.store.Database.writing_engine`, so on SQLite an install or a
token rotation takes the write lock up front instead of failing half-way beside the engine's turns.
"""

from __future__ import annotations

import asyncio
import base64
import datetime as dt
import hashlib
import hmac
import logging
import secrets
import time
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from slack_sdk.oauth.installation_store import Bot, Installation
from slack_sdk.oauth.installation_store.async_installation_store import AsyncInstallationStore
from slack_sdk.oauth.installation_store.sqlalchemy import SQLAlchemyInstallationStore
from slack_sdk.oauth.state_store.async_state_store import AsyncOAuthStateStore
from sqlalchemy import MetaData, Table, delete, desc, insert, select
from sqlalchemy.engine import Engine
from sqlalchemy.exc import IntegrityError

from genie_bot.store import Database, schema
from genie_bot.store.sealing import SealedText, Sealer

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

    def __init__(self, client_id: str, db: Database, sealer: Sealer):
        self.reads = _SealedStore(client_id, db.engine, sealer)
        self.writes = _SealedStore(client_id, db.writing_engine(), sealer)

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

    def reseal(self) -> int:
        """Seal every stored token again with the first key (after a new one was put first); how many rows."""
        resealed = 0
        with self.writes.engine.begin() as conn:
            for table in (self.writes.installations, self.writes.bots):
                columns = [table.c[name] for name in schema.SEALED_TOKENS if name in table.c]
                for row in conn.execute(select(table.c.id, *columns)).mappings().all():
                    conn.execute(table.update().where(table.c.id == row["id"]).values(
                        {c.name: row[c.name] for c in columns}))
                    resealed += 1
        return resealed


class _SealedStore(SQLAlchemyInstallationStore):
    """slack_sdk's store on the engine's tables, its token columns sealed."""

    def __init__(self, client_id: str, engine: Engine, sealer: Sealer):
        super().__init__(client_id, engine, logger=log)
        self.installations = _sealing(schema.slack_installations, sealer)
        self.bots = _sealing(schema.slack_bots, sealer)


def _sealing(table: Table, sealer: Sealer) -> Table:
    """A copy of ``table`` whose token columns seal what is written and open what is read."""
    copy = table.to_metadata(MetaData())
    for name in schema.SEALED_TOKENS:
        if name in copy.c:
            copy.c[name].type = SealedText(sealer, schema.SEALED.length or 0)
    return copy


class OAuthStates(AsyncOAuthStateStore):
    """The ``state`` of each install under way: issued with the install page, consumed (once) by the
    redirect back from Slack, so a forged, expired or replayed redirect is refused.

    A state is ``nonce.expiry.signature``: issuing one writes nothing. Consuming one checks the
    signature and the expiry, then writes it (``slack_oauth_states`` has a unique index on it): the
    second redirect with the same state finds it written. Used states are dropped once expired."""

    def __init__(self, db: Database, client_secret: str, expiration_seconds: int,
                 clock: Callable[[], float] = time.time):
        self.engine = db.writing_engine()
        self.key = hmac.new(client_secret.encode(), b"genie-bot oauth state", hashlib.sha256).digest()
        self.expiration_seconds = expiration_seconds
        self.clock = clock

    @property
    def logger(self) -> logging.Logger:
        return log

    async def async_issue(self, *args: Any, **kwargs: Any) -> str:
        return self.issue()

    async def async_consume(self, state: str) -> bool:
        return await asyncio.to_thread(self.consume, state)

    def issue(self) -> str:
        signed = f"{secrets.token_urlsafe(16)}.{int(self.clock()) + self.expiration_seconds}"
        return f"{signed}.{self._signature(signed)}"

    def consume(self, state: str) -> bool:
        """Whether ``state`` was issued here, has not expired, and was not consumed before (it is now)."""
        signed, _, signature = state.rpartition(".")
        expiry = signed.rpartition(".")[2]
        if not (hmac.compare_digest(signature, self._signature(signed)) and expiry.isdigit()):
            return False
        now = self.clock()
        if int(expiry) <= now:
            return False
        table = schema.slack_oauth_states
        try:
            with self.engine.begin() as conn:
                conn.execute(delete(table).where(table.c.expire_at < _utc(now)))
                conn.execute(insert(table).values(state=state, expire_at=_utc(int(expiry))))
        except IntegrityError:
            return False  # consumed before: a replayed redirect
        return True

    def _signature(self, signed: str) -> str:
        digest = hmac.new(self.key, signed.encode(), hashlib.sha256).digest()
        return base64.urlsafe_b64encode(digest).decode().rstrip("=")


def _utc(seconds: float) -> dt.datetime:
    """A moment as the engine's tables keep it: naive UTC."""
    return dt.datetime.fromtimestamp(seconds, dt.timezone.utc).replace(tzinfo=None)
