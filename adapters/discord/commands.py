"""The ``/genie`` application-command group and its sync at start-up.

Each subcommand only translates the interaction into the engine's platform-neutral admin
command (:func:`genie_bot.engine.admin.run_admin_command`), which owns every permission rule
and every answer. Discord adds one fact: whether the member holds Manage Server, which makes
them a platform admin when ``allow_manage_server_admins`` is on. Every answer is ephemeral,
and deferred first, because a reload may take longer than Discord's 3 seconds.
"""

from __future__ import annotations

import discord
from discord import app_commands

from genie_bot.adapters.text import split_message
from genie_bot.engine import Engine
from genie_bot.engine.admin import SUBCOMMANDS, Caller, run_admin_command

from .render import MESSAGE_LIMIT
from .sessions import PLATFORM, channel_of, session_key
from .settings import DiscordSettings


def _description(subcommand: str) -> str:
    """The engine's own help line, e.g. "load the worksheets again (admins)"."""
    return SUBCOMMANDS[subcommand].partition(" - ")[2]


class GenieCommands(app_commands.Group, name="genie", description="Genie task assistant: admin and conversation"):
    def __init__(self, engine: Engine, settings: DiscordSettings):
        super().__init__()
        self.engine = engine
        self.settings = settings

    @app_commands.command(description=_description("reload"))
    @app_commands.describe(agent="the agent to reload (default: all of them)")
    async def reload(self, interaction: discord.Interaction, agent: str | None = None) -> None:
        await self._run(interaction, f"reload {agent or ''}")

    @app_commands.command(description=_description("status"))
    async def status(self, interaction: discord.Interaction) -> None:
        await self._run(interaction, "status")

    @app_commands.command(description=_description("agents"))
    async def agents(self, interaction: discord.Interaction) -> None:
        await self._run(interaction, "agents")

    @app_commands.command(description=_description("reset"))
    async def reset(self, interaction: discord.Interaction) -> None:
        await self._run(interaction, "reset")

    @app_commands.command(description=_description("state"))
    async def state(self, interaction: discord.Interaction) -> None:
        await self._run(interaction, "state")

    async def _run(self, interaction: discord.Interaction, command: str) -> None:
        await interaction.response.defer(ephemeral=True, thinking=True)
        manages_server = interaction.permissions.manage_guild
        caller = Caller(PLATFORM, str(interaction.user.id), self.settings.allow_manage_server_admins and manages_server)
        text = await run_admin_command(self.engine, caller, session_key(channel_of(interaction)), command)
        for piece in split_message(text, MESSAGE_LIMIT):
            await interaction.followup.send(piece, ephemeral=True)


async def install(tree: app_commands.CommandTree, engine: Engine, settings: DiscordSettings) -> None:
    """Add ``/genie`` and publish it: to each configured guild (instant), else globally."""
    guilds = [discord.Object(guild_id) for guild_id in settings.command_guilds]
    tree.add_command(GenieCommands(engine, settings), guilds=guilds)  # [] is global
    if not guilds:
        await tree.sync()
        return
    for guild in guilds:
        try:
            await tree.sync(guild=guild)
        except discord.Forbidden as exc:
            raise RuntimeError(f"cannot sync /genie to guild {guild.id} (platforms.discord.command_guilds): {exc}; "
                               f"is the bot in that server, invited with the applications.commands scope?") from exc
