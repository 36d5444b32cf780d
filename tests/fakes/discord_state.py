"""The in-memory Discord "world" shared by the fake gateway and the fake REST API.

Both halves of the fake must agree on who exists and what was said: a message the
bot posts over REST has to be the one a later button click refers to, and a guild
announced in READY has to resolve the channels used by ``MESSAGE_CREATE``. Keeping
that state (and the JSON shapes discord.py parses) in one place keeps the servers
thin. Payloads are plain dicts in Discord's wire format, ids serialised as strings.
"""

from __future__ import annotations

import re
import secrets
import time
from collections.abc import Sequence
from dataclasses import dataclass, field
from datetime import datetime, timezone
from typing import Any

Payload = dict[str, Any]

DISCORD_EPOCH_MS = 1_420_070_400_000

# Permission bits (https://discord.com/developers/docs/topics/permissions).
ADMINISTRATOR = 1 << 3
ALL_PERMISSIONS = (1 << 51) - 1
EVERYONE_PERMISSIONS = (
    (1 << 6)  # add reactions
    | (1 << 10)  # view channel
    | (1 << 11)  # send messages
    | (1 << 14)  # embed links
    | (1 << 15)  # attach files
    | (1 << 16)  # read message history
    | (1 << 31)  # use application commands
    | (1 << 35)  # create public threads
    | (1 << 38)  # send messages in threads
)
BOT_PERMISSIONS = EVERYONE_PERMISSIONS | (1 << 13) | (1 << 34)  # + manage messages, manage threads

GUILD_TEXT = 0
DM = 1
PUBLIC_THREAD = 11
PRIVATE_THREAD = 12
THREAD_TYPES = (10, PUBLIC_THREAD, PRIVATE_THREAD)

EPHEMERAL = 1 << 6
LOADING = 1 << 7

_USER_MENTION = re.compile(r"<@!?(\d+)>")
_ROLE_MENTION = re.compile(r"<@&(\d+)>")


def iso_now() -> str:
    return datetime.now(timezone.utc).isoformat()


class Snowflakes:
    """Issues Discord-shaped ids: strictly increasing and timestamp-carrying.

    discord.py derives ``created_at`` (and the shard of a guild) from the id, so
    random integers would give nonsense dates and shard routing.
    """

    def __init__(self) -> None:
        self._last = 0

    def next(self) -> int:
        candidate = (int(time.time() * 1000) - DISCORD_EPOCH_MS) << 22
        self._last = max(candidate, self._last + 1)
        return self._last


@dataclass
class FakeUser:
    id: int
    username: str
    bot: bool = False

    @property
    def mention(self) -> str:
        return f"<@{self.id}>"

    def payload(self) -> Payload:
        return {
            "id": str(self.id),
            "username": self.username,
            "global_name": self.username,
            "discriminator": "0",
            "avatar": None,
            "bot": self.bot,
            "public_flags": 0,
        }


@dataclass
class FakeMember:
    user: FakeUser
    role_ids: list[int]
    joined_at: str = field(default_factory=iso_now)

    def payload(self, *, with_user: bool = True) -> Payload:
        data: Payload = {
            "nick": None,
            "avatar": None,
            "roles": [str(role_id) for role_id in self.role_ids],
            "joined_at": self.joined_at,
            "premium_since": None,
            "deaf": False,
            "mute": False,
            "flags": 0,
            "pending": False,
            "communication_disabled_until": None,
        }
        if with_user:
            data["user"] = self.user.payload()
        return data


@dataclass
class FakeGuild:
    id: int
    name: str
    owner_id: int
    roles: dict[int, Payload] = field(default_factory=dict)
    members: dict[int, FakeMember] = field(default_factory=dict)

    def permissions_of(self, user_id: int) -> int:
        """Guild-level permissions the way Discord computes them (no channel overwrites)."""
        if user_id == self.owner_id:
            return ALL_PERMISSIONS
        value = int(self.roles[self.id]["permissions"])
        for role_id in self.members[user_id].role_ids:
            value |= int(self.roles[role_id]["permissions"])
        return ALL_PERMISSIONS if value & ADMINISTRATOR else value


@dataclass
class FakeInteraction:
    """An interaction the fake dispatched; REST callbacks and follow-ups look it up by token."""

    id: int
    token: str
    type: int
    channel_id: int
    guild_id: int | None
    user: FakeUser
    message_id: int | None = None
    response_type: int | None = None
    original_message_id: int | None = None

    @property
    def callback_path(self) -> str:
        """Regex for this interaction's callback route, for ``wait_for_request``."""
        return re.escape(f"/interactions/{self.id}/{self.token}/callback")


class World:
    """Users, guilds, channels, messages, synced commands and open interactions."""

    def __init__(self, *, bot_name: str, bot_id: int | None = None, application_id: int | None = None) -> None:
        self.snowflakes = Snowflakes()
        self.bot = FakeUser(bot_id or self.snowflakes.next(), bot_name, bot=True)
        self.application_id = application_id or self.bot.id  # modern apps share the bot user's id
        self.users: dict[int, FakeUser] = {self.bot.id: self.bot}
        self.guilds: dict[int, FakeGuild] = {}
        self.channels: dict[int, Payload] = {}
        self.messages: dict[int, Payload] = {}
        self.interactions: dict[str, FakeInteraction] = {}
        self.commands: dict[int | None, list[Payload]] = {}
        self._command_ids: dict[tuple[int | None, str, int], int] = {}
        self.owner = self.create_user("owner")  # owns the application and the default guild

    # -- people and places -------------------------------------------------

    def create_user(self, username: str) -> FakeUser:
        user = FakeUser(self.snowflakes.next(), username)
        self.users[user.id] = user
        return user

    def create_guild(self, name: str, *, owner: FakeUser) -> FakeGuild:
        guild = FakeGuild(self.snowflakes.next(), name, owner.id)
        guild.roles[guild.id] = self._role_payload(guild.id, "@everyone", EVERYONE_PERMISSIONS, position=0)
        self.guilds[guild.id] = guild
        self.add_member(guild.id, owner)
        bot = self.add_member(guild.id, self.bot, permissions=BOT_PERMISSIONS, role_name=self.bot.username)
        guild.roles[bot.role_ids[0]].update(managed=True, tags={"bot_id": str(self.bot.id)})  # its integration's role
        return guild

    def add_member(
        self, guild_id: int, user: FakeUser, *, permissions: int = 0, role_name: str | None = None
    ) -> FakeMember:
        """Join ``user`` to a guild; extra ``permissions`` are granted through a role of its own."""
        guild = self.guilds[guild_id]
        role_ids = []
        if permissions:
            role_id = self.snowflakes.next()
            guild.roles[role_id] = self._role_payload(
                role_id, role_name or f"{user.username}-role", permissions, position=len(guild.roles)
            )
            role_ids.append(role_id)
        member = FakeMember(user, role_ids)
        guild.members[user.id] = member
        return member

    def create_channel(self, guild_id: int, name: str) -> Payload:
        """A text channel."""
        channel = {
            "id": str(self.snowflakes.next()),
            "type": GUILD_TEXT,
            "guild_id": str(guild_id),
            "name": name,
            "position": sum(1 for c in self.channels.values() if c.get("guild_id") == str(guild_id)),
            "permission_overwrites": [],
            "nsfw": False,
            "parent_id": None,
            "topic": None,
            "last_message_id": None,
            "rate_limit_per_user": 0,
            "flags": 0,
        }
        self.channels[int(channel["id"])] = channel
        return channel

    def create_thread(
        self,
        parent_id: int,
        name: str,
        *,
        thread_id: int | None = None,
        type: int = PUBLIC_THREAD,
        auto_archive_duration: int = 1440,
    ) -> Payload:
        """A thread under ``parent_id``; threads started from a message reuse the message id, like Discord."""
        parent = self.channels[parent_id]
        now = iso_now()
        thread = {
            "id": str(thread_id or self.snowflakes.next()),
            "type": type,
            "guild_id": parent["guild_id"],
            "parent_id": parent["id"],
            "owner_id": str(self.bot.id),
            "name": name,
            "last_message_id": None,
            "rate_limit_per_user": 0,
            "message_count": 0,
            "member_count": 1,
            "total_message_sent": 0,
            "flags": 0,
            "thread_metadata": {
                "archived": False,
                "auto_archive_duration": auto_archive_duration,
                "archive_timestamp": now,
                "locked": False,
                "create_timestamp": now,
            },
        }
        self.channels[int(thread["id"])] = thread
        return thread

    def dm_channel(self, user: FakeUser) -> Payload:
        """The bot's DM channel with ``user`` (one per user, as on Discord)."""
        for channel in self.channels.values():
            if channel["type"] == DM and channel["recipients"][0]["id"] == str(user.id):
                return channel
        channel = {
            "id": str(self.snowflakes.next()),
            "type": DM,
            "recipients": [user.payload()],
            "last_message_id": None,
            "flags": 0,
        }
        self.channels[int(channel["id"])] = channel
        return channel

    def guild_of(self, channel_id: int) -> FakeGuild | None:
        guild_id = self.channels[channel_id].get("guild_id")
        return self.guilds[int(guild_id)] if guild_id else None

    # -- messages ----------------------------------------------------------

    def create_message(
        self,
        channel_id: int,
        author: FakeUser,
        body: Payload,
        *,
        attachments: Sequence[Payload] = (),
        extra: Payload | None = None,
    ) -> Payload:
        """Store a message built from a create-message request body (or an equivalent dict).

        With ``enforce_nonce``, a message the same author already sent with that nonce is
        returned instead (Discord checks the last few minutes; this fake, all of them).
        """
        if body.get("nonce") is not None and body.get("enforce_nonce"):
            sent = next((m for m in self.messages.values() if m.get("nonce") == str(body["nonce"])
                         and m["author"]["id"] == author.payload()["id"]), None)
            if sent is not None:
                return sent
        channel = self.channels[channel_id]
        content = body.get("content") or ""
        reference = body.get("message_reference")
        message: Payload = {
            "id": str(self.snowflakes.next()),
            "channel_id": str(channel_id),
            "author": author.payload(),
            "content": content,
            "timestamp": iso_now(),
            "edited_timestamp": None,
            "tts": bool(body.get("tts")),
            "mention_everyone": False,
            "mentions": self._mentions(content),
            "mention_roles": [raw for raw in _ROLE_MENTION.findall(content)
                              if "guild_id" in channel and int(raw) in self.guilds[int(channel["guild_id"])].roles],
            "attachments": list(attachments),
            "embeds": body.get("embeds") or [],
            "components": body.get("components") or [],
            "pinned": False,
            "type": body.get("type", 19 if reference else 0),
            "flags": body.get("flags") or 0,
        }
        if "guild_id" in channel:
            message["guild_id"] = channel["guild_id"]
        if body.get("nonce") is not None:
            message["nonce"] = body["nonce"]
        if reference:
            message["message_reference"] = {"channel_id": str(channel_id), **reference}
            message["referenced_message"] = self.messages.get(int(reference["message_id"]))
        message.update(extra or {})
        self.messages[int(message["id"])] = message
        channel["last_message_id"] = message["id"]
        return message

    def edit_message(self, message_id: int, body: Payload) -> Payload:
        message = self.messages[message_id]
        for key in ("content", "embeds", "components", "attachments", "flags"):
            if body.get(key) is not None:
                message[key] = body[key]
        if "content" in body:
            message["mentions"] = self._mentions(message["content"])
        message["edited_timestamp"] = iso_now()
        return message

    def gateway_message(self, message: Payload) -> Payload:
        """A stored message as MESSAGE_CREATE carries it: guild messages add the author's member."""
        guild = self.guild_of(int(message["channel_id"]))
        author_id = int(message["author"]["id"])
        if guild is None or author_id not in guild.members:
            return message
        return {**message, "member": guild.members[author_id].payload(with_user=False)}

    def _mentions(self, content: str) -> list[Payload]:
        ids = dict.fromkeys(int(raw) for raw in _USER_MENTION.findall(content))
        return [self.users[user_id].payload() for user_id in ids if user_id in self.users]

    # -- application commands -----------------------------------------------

    def sync_commands(self, guild_id: int | None, commands: list[Payload]) -> list[Payload]:
        """Replace a scope's commands; ids stay stable per (scope, name, type), as on Discord."""
        synced = []
        for command in commands:
            kind = command.get("type", 1)
            key = (guild_id, command["name"], kind)
            command_id = self._command_ids.setdefault(key, self.snowflakes.next())
            echoed = {
                "description": "",
                "options": [],
                "default_member_permissions": None,
                "nsfw": False,
                **command,
                "id": str(command_id),
                "application_id": str(self.application_id),
                "type": kind,
                "version": str(self.snowflakes.next()),
            }
            if guild_id is not None:
                echoed["guild_id"] = str(guild_id)
            synced.append(echoed)
        self.commands[guild_id] = synced
        return synced

    def find_command(self, name: str, guild_id: int | None) -> Payload:
        scopes = [guild_id, None] if guild_id is not None else [None]
        for scope in scopes:
            for command in self.commands.get(scope, []):
                if command["name"] == name and command["type"] == 1:
                    return command
        synced = {scope: [c["name"] for c in cmds] for scope, cmds in self.commands.items()}
        raise AssertionError(f"/{name} was never synced to guild {guild_id} or globally; synced: {synced}")

    # -- interactions ----------------------------------------------------------

    def open_interaction(
        self, type: int, channel_id: int, user: FakeUser, *, message_id: int | None = None
    ) -> FakeInteraction:
        guild = self.guild_of(channel_id)
        interaction = FakeInteraction(
            id=self.snowflakes.next(),
            token=secrets.token_urlsafe(24),
            type=type,
            channel_id=channel_id,
            guild_id=guild.id if guild else None,
            user=user,
            message_id=message_id,
        )
        self.interactions[interaction.token] = interaction
        return interaction

    def interaction_payload(self, interaction: FakeInteraction, data: Payload) -> Payload:
        """INTERACTION_CREATE data; guild interactions carry ``member.permissions`` like Discord's."""
        channel = self.channels[interaction.channel_id]
        payload: Payload = {
            "id": str(interaction.id),
            "application_id": str(self.application_id),
            "type": interaction.type,
            "data": data,
            "channel": channel,
            "channel_id": channel["id"],
            "token": interaction.token,
            "version": 1,
            "locale": "en-US",
            "entitlements": [],
            "attachment_size_limit": 10 * 1024 * 1024,
        }
        guild = self.guilds.get(interaction.guild_id) if interaction.guild_id else None
        if guild is not None:
            member = guild.members[interaction.user.id]
            payload.update(
                guild_id=str(guild.id),
                guild={"id": str(guild.id), "locale": "en-US", "features": []},
                guild_locale="en-US",
                member={**member.payload(), "permissions": str(guild.permissions_of(interaction.user.id))},
                app_permissions=str(guild.permissions_of(self.bot.id)),
                authorizing_integration_owners={"0": str(guild.id)},
                context=0,
            )
        else:
            payload.update(
                user=interaction.user.payload(),
                app_permissions=str(EVERYONE_PERMISSIONS),
                authorizing_integration_owners={"0": "0"},  # guild install, used in the bot's DMs
                context=1,
            )
        if interaction.message_id is not None:
            payload["message"] = self.messages[interaction.message_id]
        return payload

    # -- gateway snapshots -------------------------------------------------

    def guild_create_payload(self, guild: FakeGuild, *, all_members: bool) -> Payload:
        """GUILD_CREATE: like Discord, only the bot's own member unless presences make it send all."""
        channels = [c for c in self.channels.values() if c.get("guild_id") == str(guild.id)]
        members = guild.members.values() if all_members else [guild.members[self.bot.id]]
        bot_member = guild.members[self.bot.id]
        return {
            "id": str(guild.id),
            "name": guild.name,
            "icon": None,
            "owner_id": str(guild.owner_id),
            "unavailable": False,
            "large": False,
            "member_count": len(guild.members),
            "joined_at": bot_member.joined_at,
            "roles": list(guild.roles.values()),
            "emojis": [],
            "stickers": [],
            "features": [],
            "channels": [c for c in channels if c["type"] not in THREAD_TYPES],
            "threads": [c for c in channels if c["type"] in THREAD_TYPES],
            "members": [m.payload() for m in members],
            "presences": [],
            "voice_states": [],
            "stage_instances": [],
            "guild_scheduled_events": [],
            "soundboard_sounds": [],
            "verification_level": 0,
            "default_message_notifications": 0,
            "explicit_content_filter": 0,
            "mfa_level": 0,
            "nsfw_level": 0,
            "premium_tier": 0,
            "preferred_locale": "en-US",
            "system_channel_id": None,
            "afk_timeout": 300,
        }

    @staticmethod
    def _role_payload(role_id: int, name: str, permissions: int, *, position: int) -> Payload:
        return {
            "id": str(role_id),
            "name": name,
            "color": 0,
            "hoist": False,
            "icon": None,
            "unicode_emoji": None,
            "position": position,
            "permissions": str(permissions),
            "managed": False,
            "mentionable": False,
            "flags": 0,
        }
