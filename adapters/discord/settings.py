"""The ``platforms.discord`` section of genie.yaml, checked once when the adapter is created.

The configuration loader keeps each platform's section as it is in the file (only the adapter
knows its settings), so this is where a mistyped Discord setting becomes a start-up error
at ``file:line:col``, rather than a bot that silently behaves differently.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, fields
from typing import Any, Literal

from genie_bot.settings_reader import SettingsInvalid, SettingsReader

AUTO = "auto"
SECTION = "platforms.discord"


class DiscordSettingsInvalid(SettingsInvalid):
    """Every problem of the section at once, one per line: ``file:line:col: message`` when read
    from genie.yaml, else ``platforms.discord.<key>: message``."""


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
        reader = SettingsReader(raw, SECTION)
        token = reader.text("bot_token")
        if not token or not token.strip():
            reader.problem("bot_token", "'bot_token' is missing; set it here or in the DISCORD_BOT_TOKEN "
                                        "environment variable")
        settings = cls(
            bot_token=(token or "").strip(),
            use_threads=reader.flag("use_threads", cls.use_threads),
            command_guilds=_ids(reader, "command_guilds") or (),
            shard_count=_shard_count(reader),
            shard_ids=_ids(reader, "shard_ids"),
            allow_manage_server_admins=reader.flag("allow_manage_server_admins", cls.allow_manage_server_admins),
        )
        _check_shards(reader, settings)
        reader.check_keys(f.name for f in fields(cls))
        reader.check(DiscordSettingsInvalid)
        return settings


def _ids(reader: SettingsReader, key: str) -> tuple[int, ...] | None:
    """A list of Discord ids or shard numbers; YAML may give them as numbers or quoted strings."""
    value = reader.data.get(key)
    if value is None:
        return None
    numbers = [_number(item) for item in value] if isinstance(value, list) else [None]
    if None in numbers:
        reader.problem(key, f"'{key}' must be a list of numbers, e.g. [\"112233445566778899\"]")
        return None
    return tuple(n for n in numbers if n is not None)


def _shard_count(reader: SettingsReader) -> int | Literal["auto"] | None:
    value = reader.data.get("shard_count")
    if value is None or value == AUTO:
        return value
    number = _number(value)
    if number is None or number < 1:
        reader.problem("shard_count", f"'shard_count' must be a number of shards (1 or more) or '{AUTO}'")
        return None
    return number


def _check_shards(reader: SettingsReader, settings: DiscordSettings) -> None:
    if settings.shard_ids is None:
        return
    if not isinstance(settings.shard_count, int):
        reader.problem("shard_ids", "needs a numeric shard_count (the total number of shards of the bot)")
    elif not all(0 <= shard < settings.shard_count for shard in settings.shard_ids):
        reader.problem("shard_ids", f"each shard id must be between 0 and {settings.shard_count - 1}")


def _number(value: Any) -> int | None:
    if isinstance(value, bool):
        return None
    if isinstance(value, int):
        return value
    if isinstance(value, str) and value.strip().isdigit():
        return int(value)
    return None
