"""The ``platforms.discord`` section of genie.yaml, checked once when the adapter is created.

The configuration loader keeps each platform's section as a plain mapping (only the adapter
knows its settings), so this is where a mistyped Discord setting becomes a start-up error
that names the setting, rather than a bot that silently behaves differently.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, fields
from typing import Any, Literal

from genie_bot.errors import GenieError


AUTO = "auto"
SECTION = "platforms.discord"


class DiscordSettingsInvalid(GenieError, ValueError):
    """Every problem of the section at once, one ``platforms.discord.<key>: message`` per line."""

    def __init__(self, problems: list[str]):
        self.problems = problems
        super().__init__("\n".join(problems))


@dataclass(frozen=True)
class DiscordSettings:
    bot_token: str
    """The bot's token (or the DISCORD_BOT_TOKEN environment variable)."""
    use_threads: bool = True
    """A conversation started by a mention in a channel moves into a thread the bot creates."""
    command_guilds: tuple[int, ...] = ()
    """Guilds that get ``/genie`` at start-up (instantly); none means one global sync."""
    shard_count: int | Literal["auto"] | None = None
    """None runs one gateway connection; a number, or ``auto`` (Discord's recommendation), shards it."""
    shard_ids: tuple[int, ...] | None = None
    """The shards this process runs, for bots split over processes; needs a numeric shard_count."""
    allow_manage_server_admins: bool = True
    """Members with Manage Server count as admins for ``/genie``, besides the configured admins."""

    @classmethod
    def parse(cls, raw: Mapping[str, Any]) -> DiscordSettings:
        """Settings from the raw section; raises :class:`DiscordSettingsInvalid` listing every problem."""
        reader = _Reader(raw)
        settings = cls(
            bot_token=reader.token(),
            use_threads=reader.flag("use_threads", cls.use_threads),
            command_guilds=reader.ids("command_guilds") or (),
            shard_count=reader.shard_count(),
            shard_ids=reader.ids("shard_ids"),
            allow_manage_server_admins=reader.flag("allow_manage_server_admins", cls.allow_manage_server_admins),
        )
        reader.check_shards(settings)
        reader.check_keys({f.name for f in fields(cls)})
        if reader.problems:
            raise DiscordSettingsInvalid(reader.problems)
        return settings


class _Reader:
    """Typed reads of the raw section that collect problems instead of stopping at the first."""

    def __init__(self, raw: Mapping[str, Any]):
        self.raw = raw
        self.problems: list[str] = []

    def problem(self, key: str, message: str) -> None:
        self.problems.append(f"{SECTION}.{key}: {message}")

    def token(self) -> str:
        value = self.raw.get("bot_token")
        if not isinstance(value, str) or not value.strip():
            self.problem("bot_token", "missing; set it here or in the DISCORD_BOT_TOKEN environment variable")
            return ""
        return value.strip()

    def flag(self, key: str, default: bool) -> bool:
        value = self.raw.get(key, default)
        if not isinstance(value, bool):
            self.problem(key, "must be true or false")
            return default
        return value

    def ids(self, key: str) -> tuple[int, ...] | None:
        """A list of Discord ids or shard numbers; YAML may give them as numbers or quoted strings."""
        value = self.raw.get(key)
        if value is None:
            return None
        numbers = [_number(item) for item in value] if isinstance(value, list) else [None]
        if None in numbers:
            self.problem(key, "must be a list of numbers, e.g. [\"112233445566778899\"]")
            return None
        return tuple(numbers)

    def shard_count(self) -> int | Literal["auto"] | None:
        value = self.raw.get("shard_count")
        if value is None or value == AUTO:
            return value
        number = _number(value)
        if number is None or number < 1:
            self.problem("shard_count", f"must be a number of shards (1 or more) or '{AUTO}'")
            return None
        return number

    def check_shards(self, settings: DiscordSettings) -> None:
        if settings.shard_ids is None:
            return
        if not isinstance(settings.shard_count, int):
            self.problem("shard_ids", "needs a numeric shard_count (the total number of shards of the bot)")
        elif not all(0 <= shard < settings.shard_count for shard in settings.shard_ids):
            self.problem("shard_ids", f"each shard id must be between 0 and {settings.shard_count - 1}")

    def check_keys(self, known: set[str]) -> None:
        for key in self.raw:
            if key not in known:
                self.problem(str(key), f"unknown setting; expected one of: {', '.join(sorted(known))}")


def _number(value: Any) -> int | None:
    if isinstance(value, bool):
        return None
    if isinstance(value, int):
        return value
    if isinstance(value, str) and value.strip().isdigit():
        return int(value)
    return None
