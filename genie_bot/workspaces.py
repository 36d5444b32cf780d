"""``workspaces`` of genie.yaml: what each Slack workspace and each Discord server gets.

One deployment may serve many Slack workspaces (installed with "Add to Slack") and Discord
servers. Each one listed, by Slack team id or Discord guild id (``dm`` for Discord direct
messages), may get its own set of agents, its own default agent and its own admins; one not
listed gets the platform's ``fallback``: the deployment's settings (every agent, the
``default_agent``, no admins but ``admins.<platform>``) unless given, or ``refuse``, which
makes the list an allow list (Slack installs from other workspaces are refused; Discord
servers not listed are not answered)::

    workspaces:
      slack:
        T0CS:   {name: Computer Science, agents: [courses, tickets], default_agent: courses, admins: [U0ALICE]}
        T0LIB:  {agents: [tickets]}
        fallback: refuse
      discord:
        "112233445566778899": {agents: [restaurants]}
        dm: {agents: [tickets]}
"""

from __future__ import annotations

from collections.abc import Collection, Mapping
from dataclasses import dataclass, field
from typing import Any

from .names import closest
from .settings_reader import SettingsReader

FALLBACK = "fallback"
REFUSE = "refuse"
ENTRY_KEYS = ("name", "agents", "default_agent", "admins")


@dataclass(frozen=True)
class WorkspaceSettings:
    """What one Slack workspace or Discord server gets."""

    agents: frozenset[str] | None = None
    """The agents that may answer there (routes to others are ignored there); None: every agent."""
    default_agent: str | None = None
    """The agent of its channels without a route; None: the deployment's ``default_agent``."""
    admins: frozenset[str] = frozenset()
    """Who may run the admin ``/genie`` subcommands there, besides ``admins.<platform>``."""
    name: str | None = None
    """A label for operators (logs, ``genie-bot installations list``)."""

    def allows(self, agent: str) -> bool:
        return self.agents is None or agent in self.agents


EVERY_AGENT = WorkspaceSettings()


@dataclass(frozen=True)
class PlatformWorkspaces:
    """The workspaces (servers) of one platform: those listed, and what the others get."""

    listed: Mapping[str, WorkspaceSettings] = field(default_factory=dict)
    fallback: WorkspaceSettings | None = EVERY_AGENT
    """The settings of a workspace not listed; None refuses it."""

    def of(self, workspace: str) -> WorkspaceSettings | None:
        """The settings of ``workspace``; None if it is refused."""
        return self.listed.get(workspace, self.fallback)


def read_workspaces(section: SettingsReader, platforms: Collection[str], agents: Collection[str],
                    default_agent: str) -> dict[str, PlatformWorkspaces]:
    """The ``workspaces`` section (platform -> its workspaces); problems go to ``section``'s list.

    ``agents`` are the configured agent names, ``default_agent`` the deployment's default.
    """
    section.check_keys(platforms)
    out = {}
    for platform in section.data:
        if platform not in platforms:
            continue
        raw = section.data[platform]
        if not isinstance(raw, Mapping):
            section.problem(platform, f"workspaces.{platform} must map workspace ids to their settings, "
                                      f"with an optional '{FALLBACK}'")
            continue
        reader = section.section(platform)
        listed = {}
        for workspace in raw:
            if workspace == FALLBACK:
                continue
            entry = _entry(reader, workspace, agents, default_agent)
            if entry is not None:
                listed[str(workspace)] = entry
        out[str(platform)] = PlatformWorkspaces(listed, _fallback(reader, agents, default_agent))
    return out


def _fallback(reader: SettingsReader, agents: Collection[str], default_agent: str) -> WorkspaceSettings | None:
    value = reader.data.get(FALLBACK)
    if value is None:
        return EVERY_AGENT
    if value == REFUSE:
        return None
    if not isinstance(value, Mapping):
        reader.problem(FALLBACK, f"'{FALLBACK}' must be '{REFUSE}' or settings like a workspace's "
                                 f"({', '.join(ENTRY_KEYS)})")
        return EVERY_AGENT
    return _entry(reader, FALLBACK, agents, default_agent)


def _entry(reader: SettingsReader, key: Any, agents: Collection[str], default_agent: str) -> WorkspaceSettings | None:
    if not isinstance(reader.data.get(key), Mapping):
        reader.problem(key, f"workspace '{key}' must be a mapping of {', '.join(ENTRY_KEYS)}")
        return None
    entry = reader.section(key, ENTRY_KEYS)
    allowed = _agent_list(entry, agents)
    default = entry.text("default_agent")
    if default is not None and default not in agents:
        entry.problem("default_agent", unknown_agent(default, agents))
    elif default is not None and allowed is not None and default not in allowed:
        entry.problem("default_agent", f"default agent '{default}' is not among this workspace's agents")
    elif default is None and allowed is not None:
        default = _implied_default(entry, allowed, default_agent)
    return WorkspaceSettings(agents=allowed, default_agent=default, admins=_ids(entry, "admins"),
                             name=entry.text("name"))


def _agent_list(entry: SettingsReader, agents: Collection[str]) -> frozenset[str] | None:
    value = entry.data.get("agents")
    if value is None:
        return None
    if not (isinstance(value, list) and value and all(isinstance(a, str) for a in value)):
        entry.problem("agents", "'agents' must be a non-empty list of agent names")
        return None
    for name in value:
        if name not in agents:
            entry.problem("agents", unknown_agent(name, agents))
    return frozenset(value)


def _implied_default(entry: SettingsReader, allowed: frozenset[str], default_agent: str) -> str | None:
    """The default agent of a workspace that names its agents but no default: its only agent, or the
    deployment's default when it is among them."""
    if len(allowed) == 1:
        return next(iter(allowed))
    if default_agent in allowed:
        return default_agent
    entry.problem("agents", f"'default_agent' is required: the deployment's default agent '{default_agent}' "
                            f"is not among this workspace's agents")
    return None


def _ids(entry: SettingsReader, key: str) -> frozenset[str]:
    value = entry.data.get(key, [])
    if not (isinstance(value, list) and all(isinstance(v, (str, int)) and not isinstance(v, bool) for v in value)):
        entry.problem(key, f"'{key}' must be a list of user ids")
        return frozenset()
    return frozenset(str(v) for v in value)


def unknown_agent(name: str, agents: Collection[str]) -> str:
    """The problem of an agent name not configured, with the closest configured name as a hint."""
    hint = closest(name, list(agents))
    return f"unknown agent '{name}'" + (f" (did you mean '{hint}'?)" if hint else
                                         f"; configured agents: {', '.join(agents) or 'none'}")
