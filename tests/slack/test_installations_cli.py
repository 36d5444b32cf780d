"""``genie-bot installations list|remove`` on a deployment installed into two workspaces."""

from __future__ import annotations

from pathlib import Path

from genie_bot.cli import main
from genie_bot.config import load_config
from tests.engine.support import ORDER, build_agent, run, write_shop
from tests.fakes.slack_api import MockSlackWebAPI
from tests.fakes.slack_oauth import CLIENT_ID, CLIENT_SECRET

from .harness import SECRET, SlackHarness
from .installs import sessions_of


def genie_yaml(directory: Path, url: str, slack: MockSlackWebAPI, served: str = "TA, TB") -> Path:
    """A deployment whose workspaces TA (the shop) and TB (the deli), of those ``served``, are served."""
    shop, deli = write_shop(directory / "shop"), write_shop(directory / "deli")
    entries = {"TA": "{agents: [shop], admins: [UADMIN_A]}", "TB": "{agents: [deli]}"}
    workspaces = "".join(f"      {team}: {entries[team]}\n" for team in served.split(", ") if team)
    path = directory / "genie.yaml"
    path.write_text(f"""\
agents: {{shop: {shop}, deli: {deli}}}
default_agent: shop
database: {{url: "{url}"}}
scheduler: {{enabled: false}}
workspaces:
  slack:
{workspaces}      fallback: refuse
platforms:
  slack:
    signing_secret: {SECRET}
    host: 127.0.0.1
    port: 0
    api_base_url: {slack.base_url}
    oauth:
      client_id: "{CLIENT_ID}"
      client_secret: {CLIENT_SECRET}
      authorization_url: {slack.authorize_url}
      uninstalled_sessions: purge
""", encoding="utf-8")
    return path


def test_installations_are_listed_and_one_removed_with_its_sessions(tmp_path, store_url, capsys):
    with MockSlackWebAPI() as slack:
        slack.add_workspace("TA", "Computer Science", installer="UANN")
        slack.add_workspace("TB", "Library", installer="UBOB")
        path = genie_yaml(tmp_path, store_url, slack)

        async def install_and_talk():
            async with SlackHarness(slack, load_config(path, environ={}), build_agent=build_agent) as h:
                await h.install("TA")
                await h.install("TB")
                for team in ("TA", "TB"):
                    await h.mention(ORDER[0], team=team)
                await h.settle()

        async def sessions_left():
            async with SlackHarness(slack, load_config(path, environ={}), build_agent=build_agent) as h:
                return await sessions_of(h)

        run(install_and_talk())
        genie_yaml(tmp_path, store_url, slack, served="TA")  # the operator stops serving TB
        assert main(["installations", "list", "--config", str(path)]) == 0
        listed = capsys.readouterr()
        assert main(["installations", "remove", "TB", "--config", str(path)]) == 0
        removed = capsys.readouterr().out
        assert main(["installations", "remove", "TB", "--config", str(path)]) == 1
        again = capsys.readouterr().err
        assert main(["installations", "list", "--config", str(path)]) == 0
        after = capsys.readouterr().out
        left = run(sessions_left())

    header, ta, tb = listed.out.splitlines()
    assert header.split() == ["team", "name", "served", "installer", "installed", "(UTC)", "token", "expires",
                              "scopes"]
    assert ta.split()[:5] == ["TA", "Computer", "Science", "yes", "UANN"] and ta.split()[-2] == "never"
    assert tb.split()[:4] == ["TB", "Library", "no", "UBOB"] and "chat:write" in tb.split()[-1]
    assert listed.err.strip() == "2 installation(s)"
    assert removed.strip() == ("TB (Library): the app is uninstalled from the workspace; installation forgotten, "
                               "its 1 session(s) erased")
    assert [c.token for c in slack.calls_to("apps.uninstall")] == slack.tokens_of("TB")
    assert again.strip() == "the app is not installed in TB (see: genie-bot installations list)"
    assert [line.split()[0] for line in after.splitlines()[1:]] == ["TA"]
    assert {team for team, _, _ in left} == {"TA"}


def test_a_deployment_without_add_to_slack_has_no_installations(tmp_path, capsys, shop):
    path = tmp_path / "genie.yaml"
    path.write_text(f"agents: {{shop: {shop}}}\nplatforms: {{slack: {{bot_token: xoxb-1, app_token: xapp-1}}}}\n",
                    encoding="utf-8")
    assert main(["installations", "list", "--config", str(path)]) == 2
    assert capsys.readouterr().err.strip() == (f"{path}: no platforms.slack.oauth: this deployment serves the one "
                                               f"workspace of its bot token, and keeps no installations")
