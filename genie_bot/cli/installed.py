"""What ``genie-bot installations list|remove|reseal`` does (:mod:`.installations` registers it): the Slack workspaces a deployment with "Add to Slack"
(``platforms.slack.oauth``) is installed in, read from its database.

``remove TEAM`` uninstalls the app from that workspace (Slack's ``apps.uninstall``, with the app's
client id and secret, so the workspace sees it gone and Slack sends it nothing more), forgets its
installation, and, with ``uninstalled_sessions: purge``, erases its sessions, as an uninstall
from Slack's side does. When Slack cannot be told (unreachable, the token already revoked), the
installation is forgotten all the same, and the command says so.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

from slack_sdk import WebClient
from slack_sdk.errors import SlackApiError

from ..adapters.slack import SlackSettings, SlackSettingsInvalid
from ..adapters.slack.installations import Installations, InstalledWorkspace
from ..adapters.slack.settings import SlackOAuthSettings
from ..config import Config, ConfigInvalid, load_config
from ..engine.erasure import erase_workspace
from ..store.sealing import KeysMissing, SealBroken, Sealer
from .common import CommandFailed
from .database import deployment_database


def listing(args: argparse.Namespace) -> int:
    config, settings, oauth = _deployment(args.config)
    with deployment_database(args.config) as db:
        installed = Installations(oauth.client_id, db, _sealer()).listing()
    print(f"{'team':12} {'name':24} {'served':6} {'installer':12} {'installed (UTC)':19}  {'token expires':19}  scopes")
    for workspace in installed:
        print(_line(workspace, config.serves("slack", workspace.team_id)))
    print(f"{len(installed)} installation(s)", file=sys.stderr)
    return 0


def _line(workspace: InstalledWorkspace, served: bool) -> str:
    expires = f"{workspace.token_expires_at:%Y-%m-%d %H:%M:%S}" if workspace.token_expires_at else "never"
    name = workspace.team_name or "-"
    if workspace.enterprise_id:
        name += f" ({workspace.enterprise_id})"
    return (f"{workspace.team_id:12} {name:24} {'yes' if served else 'no':6} {workspace.installer:12} "
            f"{workspace.installed_at:%Y-%m-%d %H:%M:%S}  {expires:19}  {','.join(workspace.scopes)}")


def remove(args: argparse.Namespace) -> int:
    _, settings, oauth = _deployment(args.config)
    with deployment_database(args.config) as db:
        installations = Installations(oauth.client_id, db, _sealer())
        try:
            installation = installations.latest_of_team(args.team)
        except SealBroken as exc:
            raise CommandFailed(str(exc)) from None
        if installation is None:
            print(f"the app is not installed in {args.team} (see: genie-bot installations list)", file=sys.stderr)
            return 1
        told = _uninstall(settings, oauth, installation.bot_token)
        installations.remove(installation)
        if oauth.uninstalled_sessions == "purge":
            with db.write() as conn:
                sessions = f"its {erase_workspace(conn, 'slack', args.team)} session(s) erased"
        else:
            sessions = "its sessions kept (uninstalled_sessions: keep)"
    print(f"{args.team} ({installation.team_name}): {told}; installation forgotten, {sessions}")
    return 0


def reseal(args: argparse.Namespace) -> int:
    _, _, oauth = _deployment(args.config)
    with deployment_database(args.config) as db:
        try:
            count = Installations(oauth.client_id, db, _sealer()).reseal()
        except SealBroken as exc:
            raise CommandFailed(f"{exc}; nothing was sealed again") from None
    print(f"{count} installation row(s) sealed again with the first key of GENIE_SECRET_KEYS")
    return 0


def _sealer() -> Sealer:
    try:
        return Sealer.from_environment("the installations' Slack tokens are sealed")
    except KeysMissing as exc:
        raise CommandFailed(str(exc), 2) from None


def _uninstall(settings: SlackSettings, oauth: SlackOAuthSettings, token: str | None) -> str:
    """Uninstall the app from the workspace of ``token``; says how it went."""
    try:
        WebClient(base_url=settings.api_base_url).apps_uninstall(client_id=oauth.client_id,
                                                                 client_secret=oauth.client_secret, token=token)
    except SlackApiError as exc:
        return f"Slack did not uninstall the app ({exc.response.get('error')}): remove it in the workspace's settings"
    except OSError as exc:
        return f"Slack could not be reached ({exc}): remove the app in the workspace's settings"
    return "the app is uninstalled from the workspace"


def _deployment(path: Path) -> tuple[Config, SlackSettings, SlackOAuthSettings]:
    """The configuration of a deployment with "Add to Slack"; raises :class:`CommandFailed` otherwise."""
    try:
        config = load_config(path)
        settings = SlackSettings.from_mapping(config.platforms.get("slack") or {})
    except (ConfigInvalid, SlackSettingsInvalid) as exc:
        raise CommandFailed(f"{exc}\n{len(exc.errors)} problem(s) in the configuration", 2) from None
    if settings.oauth is None:
        raise CommandFailed(f"{path}: no platforms.slack.oauth: this deployment serves the one workspace of its "
                            f"bot token, and keeps no installations", 2)
    return config, settings, settings.oauth
