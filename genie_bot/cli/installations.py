"""``genie-bot installations list|remove|reseal|new-key``: the Slack workspaces a deployment with
"Add to Slack" is installed in, and the keys their tokens are sealed with. Registering the commands loads nothing of Slack or the database; the handlers
import :mod:`.installed` when they run.
"""

from __future__ import annotations

import argparse
from pathlib import Path


def register(commands: argparse._SubParsersAction) -> None:
    group = commands.add_parser("installations", help="the Slack workspaces the app is installed in (Add to Slack)")
    sub = group.add_subparsers(dest="installations_command", required=True)
    listing = sub.add_parser("list", help="every workspace: its name, who installed the app and when, the scopes")
    listing.add_argument("--config", type=Path, required=True, help="the deployment's genie.yaml")
    listing.set_defaults(handler=_list)
    remove = sub.add_parser("remove", help="uninstall the app from a workspace and forget its installation")
    remove.add_argument("team", help="the workspace's team id, as 'installations list' prints it")
    remove.add_argument("--config", type=Path, required=True, help="the deployment's genie.yaml")
    remove.set_defaults(handler=_remove)
    reseal = sub.add_parser("reseal", help="seal every stored token again with the first key of GENIE_SECRET_KEYS "
                                           "(after putting a new key first: docs/slack.md, rotating the key)")
    reseal.add_argument("--config", type=Path, required=True, help="the deployment's genie.yaml")
    reseal.set_defaults(handler=_reseal)
    new_key = sub.add_parser("new-key", help="print a new key for GENIE_SECRET_KEYS")
    new_key.set_defaults(handler=_new_key)


def _list(args: argparse.Namespace) -> int:
    from .installed import listing

    return listing(args)


def _remove(args: argparse.Namespace) -> int:
    from .installed import remove

    return remove(args)


def _reseal(args: argparse.Namespace) -> int:
    from .installed import reseal

    return reseal(args)


def _new_key(args: argparse.Namespace) -> int:
    from ..store.sealing import Sealer

    print(Sealer.new_key())
    return 0
