"""Secrets the engine's database keeps (Slack's bot and refresh tokens), sealed with keys from the
environment.

A sealed value is a Fernet token (``cryptography``: AES-128-CBC with an HMAC-SHA256, over the
secret and the time it was sealed), so a copy of the database, a backup or a replica's log
gives no token away, and a sealed value changed in the database is refused, not used.

The keys are ``GENIE_SECRET_KEYS``: one or more Fernet keys, comma-separated, newest first
(:meth:`Sealer.new_key` makes one). Values are sealed with the first and opened with any of
them (``MultiFernet``), which is how a key is rotated: put a new key first, restart, reseal
what is stored (``genie-bot installations reseal``), then drop the old key. The keys live in
the environment only, never in genie.yaml or the database they protect.
"""

from __future__ import annotations

import os
from collections.abc import Mapping, Sequence

from cryptography.fernet import Fernet, InvalidToken, MultiFernet
from sqlalchemy import String
from sqlalchemy.engine import Dialect
from sqlalchemy.types import TypeDecorator

from ..errors import GenieError

KEYS_ENV = "GENIE_SECRET_KEYS"
MAKE_A_KEY = "genie-bot installations new-key"


class KeysMissing(GenieError, ValueError):
    """No keys, or keys that are not Fernet keys: nothing can be sealed or opened."""


class SealBroken(GenieError):
    """A sealed value none of the keys opens (sealed with a key since dropped, or altered)."""


class Sealer:
    """Seals and opens secrets with the keys given, newest first."""

    def __init__(self, keys: Sequence[str]):
        if not keys:
            raise KeysMissing(f"no keys: set {KEYS_ENV} to one or more Fernet keys (make one: {MAKE_A_KEY})")
        fernets = []
        for position, key in enumerate(keys, 1):
            try:
                fernets.append(Fernet(key.strip().encode()))
            except ValueError:
                raise KeysMissing(f"{KEYS_ENV}: key {position} is not a Fernet key (32 url-safe base64-encoded "
                                  f"bytes; make one: {MAKE_A_KEY})") from None
        self._keys = MultiFernet(fernets)

    @classmethod
    def from_environment(cls, why: str, environ: Mapping[str, str] | None = None) -> Sealer:
        """The sealer of ``GENIE_SECRET_KEYS``; :class:`KeysMissing`, saying ``why`` keys are needed, without."""
        given = (os.environ if environ is None else environ).get(KEYS_ENV, "")
        keys = [key for key in given.split(",") if key.strip()]
        if not keys:
            raise KeysMissing(f"{why}: set {KEYS_ENV} to a key (make one: {MAKE_A_KEY})")
        return cls(keys)

    @staticmethod
    def new_key() -> str:
        return Fernet.generate_key().decode()

    def seal(self, secret: str) -> str:
        return self._keys.encrypt(secret.encode()).decode()

    def open(self, sealed: str) -> str:
        try:
            return self._keys.decrypt(sealed.encode()).decode()
        except InvalidToken:
            raise SealBroken(f"a secret in the database does not open with the keys of {KEYS_ENV} (sealed with a "
                             f"key no longer listed, or altered)") from None


class SealedText(TypeDecorator[str]):
    """A text column holding a secret sealed by ``sealer``: written sealed, read open."""

    impl = String
    cache_ok = True

    def __init__(self, sealer: Sealer, length: int):
        super().__init__(length)
        self.sealer = sealer

    def process_bind_param(self, value: str | None, dialect: Dialect) -> str | None:
        return None if value is None else self.sealer.seal(value)

    def process_result_value(self, value: str | None, dialect: Dialect) -> str | None:
        return None if value is None else self.sealer.open(value)
