"""genie.yaml's ``workspaces``: agents, default agent and admins per Slack workspace / Discord server."""

from __future__ import annotations

import pytest

from genie_bot.config import ConfigInvalid, load_config

from .support import write_shop
from .test_config import write


@pytest.fixture
def agents(tmp_path):
    return {name: write_shop(tmp_path / name) for name in ("courses", "tickets", "food")}


def test_each_workspace_gets_its_agents_default_and_admins(tmp_path, agents):
    config = load_config(write(tmp_path, f"""
        agents: {{courses: {agents['courses']}, tickets: {agents['tickets']}, food: {agents['food']}}}
        default_agent: tickets
        routing:
          - {{platform: slack, channel: C0FOOD, agent: food}}
          - {{platform: slack, workspace: T0CS, channel: C0HELP, agent: tickets}}
        admins: {{slack: [U0OPS]}}
        workspaces:
          slack:
            T0CS: {{name: Computer Science, agents: [courses, tickets], default_agent: courses, admins: [U0ALICE]}}
            T0LIB: {{agents: [tickets, food]}}
            fallback: refuse
          discord:
            112233445566778899: {{agents: [food], admins: [998877665544332211]}}
            dm: {{agents: [tickets]}}
    """), environ={})
    assert config.agent_for("slack", "T0CS", "C0ANY") == "courses"  # the workspace's default agent
    assert config.agent_for("slack", "T0CS", "C0HELP") == "tickets"
    assert config.agent_for("slack", "T0CS", "C0FOOD") == "courses"  # food does not serve T0CS: its route is ignored
    assert config.agent_for("slack", "T0LIB", "C0FOOD") == "food"
    assert config.agent_for("slack", "T0LIB", "C0ANY") == "tickets"  # the deployment's default is among its agents
    assert config.agents_of("slack", "T0CS") == ["courses", "tickets"] and config.agents_of("slack", "T0ELSE") == []
    assert [config.serves("slack", team) for team in ("T0CS", "T0LIB", "T0ELSE")] == [True, True, False]
    assert config.workspace("slack", "T0CS").name == "Computer Science"
    assert config.is_admin("slack", "U0ALICE", "T0CS") and not config.is_admin("slack", "U0ALICE", "T0LIB")
    assert config.is_admin("slack", "U0OPS", "T0LIB") and not config.is_admin("slack", "U0ALICE")
    # Discord: a server id as YAML reads it (a number), DMs under "dm"; servers not listed get every agent
    assert config.agent_for("discord", "112233445566778899", "1") == "food"
    assert config.is_admin("discord", "998877665544332211", "112233445566778899")
    assert config.agents_of("discord", "dm") == ["tickets"] and config.agents_of("discord", "4455") == [
        "courses", "tickets", "food"]


def test_without_a_workspaces_section_every_workspace_gets_everything(tmp_path, agents):
    config = load_config(write(tmp_path, f"agents: {{courses: {agents['courses']}}}\nadmins: {{slack: [U1]}}\n"),
                         environ={})
    assert config.serves("slack", "T-any") and config.agents_of("discord", "42") == ["courses"]
    assert config.is_admin("slack", "U1", "T-any") and not config.is_admin("slack", "U2", "T-any")


def test_every_workspace_problem_is_reported_with_its_position(tmp_path, agents):
    path = write(tmp_path, f"""
        agents: {{courses: {agents['courses']}, tickets: {agents['tickets']}, food: {agents['food']}}}
        default_agent: tickets
        routing:
          - {{platform: slack, workspace: T0CS, channel: C1, agent: food}}
          - {{platform: slack, workspace: T0NOPE, channel: C1, agent: tickets}}
        workspaces:
          slack:
            T0CS: {{agents: [courses, tickts], default_agent: food, admin: [U1]}}
            T0TWO: {{agents: [courses, food]}}
            T0BAD: everything
            fallback: nobody
          discord:
            "1": {{admins: U1}}
            dm: {{default_agent: corses}}
            fallback: refuse
          teams: {{}}
    """)
    with pytest.raises(ConfigInvalid) as raised:
        load_config(path, environ={})
    messages = [str(e).replace(str(path), "genie.yaml") for e in raised.value.errors]
    assert messages == [
        "genie.yaml:4:60: agent 'food' does not serve workspace 'T0CS' (see workspaces.slack)",
        "genie.yaml:8:20: unknown agent 'tickts' (did you mean 'tickets'?)",
        "genie.yaml:8:54: default agent 'food' is not among this workspace's agents",
        "genie.yaml:8:60: unknown key 'admin' in workspaces.slack.T0CS (did you mean 'admins'?)",
        "genie.yaml:9:21: 'default_agent' is required: the deployment's default agent 'tickets' is not among "
        "this workspace's agents",
        "genie.yaml:10:12: workspace 'T0BAD' must be a mapping of name, agents, default_agent, admins",
        "genie.yaml:11:15: 'fallback' must be 'refuse' or settings like a workspace's (name, agents, "
        "default_agent, admins)",
        "genie.yaml:13:19: 'admins' must be a list of user ids",
        "genie.yaml:14:25: unknown agent 'corses' (did you mean 'courses'?)",
        "genie.yaml:16:3: unknown key 'teams' in workspaces; expected one of: slack, discord",
    ]


def test_a_route_to_a_refused_workspace_is_reported(tmp_path, agents):
    path = write(tmp_path, f"""
        agents: {{courses: {agents['courses']}}}
        routing: [{{platform: slack, workspace: T0NOPE, channel: C1, agent: courses}}]
        workspaces: {{slack: {{T0CS: {{}}, fallback: refuse}}}}
    """)
    with pytest.raises(ConfigInvalid) as raised:
        load_config(path, environ={})
    assert [str(e).replace(str(path), "genie.yaml") for e in raised.value.errors] == [
        "genie.yaml:2:40: workspace 'T0NOPE' is refused (workspaces.slack.fallback: refuse)"]


def test_slack_oauth_credentials_come_from_the_environment_only_into_an_oauth_section(tmp_path, agents):
    environ = {"SLACK_CLIENT_ID": "123.456", "SLACK_CLIENT_SECRET": "s3cret", "SLACK_BOT_TOKEN": "xoxb-1"}
    with_oauth = write(tmp_path, f"agents: {{courses: {agents['courses']}}}\n"
                                 f"platforms: {{slack: {{oauth: {{client_id: null}}}}}}\n")
    assert load_config(with_oauth, environ=environ).platforms["slack"] == {
        "oauth": {"client_id": "123.456", "client_secret": "s3cret"}, "bot_token": "xoxb-1"}
    without = write(tmp_path, f"agents: {{courses: {agents['courses']}}}\nplatforms: {{slack: {{}}}}\n")
    assert load_config(without, environ=environ).platforms["slack"] == {"bot_token": "xoxb-1"}
