"""Drives the real Slack adapter: engine + Bolt app over signed HTTP, Web API on MockSlackWebAPI.

Requests are signed with slack_sdk's ``SignatureVerifier`` and posted to the adapter's own
HTTP server (loopback, free port), so Bolt verifies them exactly as in production. Replies
go to the mock's Web API; tests wait on what it recorded.

Users act in the mock's default workspace (:data:`TEAM_ID`) unless a ``team`` is given: one
installed with "Add to Slack" (:meth:`SlackHarness.install`), whose bot user is its own.
"""

from __future__ import annotations

import asyncio
import itertools
import json
import time
import uuid
from dataclasses import dataclass
from pathlib import Path
from typing import Any
from urllib.parse import urlencode

import html
import re

import aiohttp
from slack_sdk.signature import SignatureVerifier
from sqlalchemy import text as sql_text

from genie_bot.adapters.slack import SlackAdapter, create_adapter
from genie_bot.adapters.slack.blocks import BUTTONS_BLOCK
from genie_bot.adapters.slack.receivers import HttpReceiver
from genie_bot.config import AgentConfig, Config, ConfirmationSettings, SchedulerSettings
from genie_bot.engine import Engine
from genie_bot.store import inbox as events
from tests.engine.support import ORDER, build_agent
from tests.fakes.slack_api import BOT_USER_ID, TEAM_ID, MockSlackWebAPI, SlackCall, event_callback, \
    slash_command

SECRET = "test-signing-secret"
STATE_COOKIE = "slack-app-oauth-state"
_clicks = itertools.count(1)


def slack_settings(slack: MockSlackWebAPI, **overrides: Any) -> dict[str, Any]:
    """``platforms.slack`` for HTTP mode on a free loopback port, talking to ``slack``."""
    return {"bot_token": "xoxb-test", "signing_secret": SECRET, "host": "127.0.0.1", "port": 0,
            "api_base_url": slack.base_url, "shutdown_grace_seconds": 5, **overrides}


def make_config(url: str, agent_dir: Path, slack: dict[str, Any], *, name: str = "shop",
                destructive: frozenset[str] = frozenset(), admins: tuple[str, ...] = ("UADMIN",),
                **settings: Any) -> Config:
    confirmation = {k: settings.pop(k) for k in list(settings) if k in ConfirmationSettings.__dataclass_fields__}
    return Config(agents={name: AgentConfig(name, agent_dir, destructive)}, default_agent=name, database_url=url,
                  admins={"slack": frozenset(admins)}, platforms={"slack": slack},
                  confirmation=ConfirmationSettings(**confirmation), scheduler=SchedulerSettings(enabled=False),
                  **settings)


@dataclass(frozen=True)
class InstallVisit:
    """Where an installer's browser ended: the page's status and text; the redirect from Slack it
    followed, and the state cookie it sent with it."""

    status: int
    page: str
    redirect: str
    state: str


class SlackHarness:
    """``async with SlackHarness(slack, config) as h``: an engine and its Slack adapter, serving HTTP."""

    def __init__(self, slack: MockSlackWebAPI, config: Config, **engine_options: Any):
        self.slack = slack
        self.config = config
        self.engine_options = engine_options
        self.verifier = SignatureVerifier(SECRET)

    async def __aenter__(self) -> "SlackHarness":
        self.engine = Engine(self.config, **self.engine_options)
        await self.engine.start()
        self.adapter: SlackAdapter = create_adapter(self.config, self.config.platforms["slack"])
        self.engine.add_sink("slack", self.adapter.deliver, self.adapter.acknowledges_delivery)
        await self.adapter.start(self.engine)
        if isinstance(self.adapter.receiver, HttpReceiver):
            host, port = self.adapter.receiver.address
            self.base = f"http://{host}:{port}"
            oauth = self.adapter.settings.oauth
            if oauth is not None:  # the app's Redirect URL, as its settings in Slack would name it
                self.slack.installs.app_redirect_uri = self.base + oauth.redirect_uri_path
        self.http = aiohttp.ClientSession()
        return self

    async def __aexit__(self, *exc: Any) -> None:
        await self.http.close()
        await self.adapter.stop()
        await self.engine.stop()

    # -- "Add to Slack" ------------------------------------------------------------------------------
    async def install(self, team: str) -> "InstallVisit":
        """A member of ``team`` installs the app with a browser of their own: the install page, its
        "Add to Slack" link (the mock approves at once), back to the app's redirect with the state
        cookie the install page set (sent by hand: it is ``Secure``, and this is plain HTTP)."""
        async with aiohttp.ClientSession(cookie_jar=aiohttp.DummyCookieJar()) as browser:
            install = await browser.get(f"{self.base}/slack/install", params={"team": team})
            state = install.cookies[STATE_COOKIE].value
            link = html.unescape(re.search(r'<a href="([^"]+)"', await install.text())[1])
            approved = await browser.get(link, allow_redirects=False)
            assert approved.status == 302, await approved.text()
            redirect = approved.headers["Location"]
            back = await browser.get(redirect, allow_redirects=False, headers={"Cookie": f"{STATE_COOKIE}={state}"})
            return InstallVisit(back.status, await back.text(), redirect, state)

    def bot_user(self, team: str) -> str:
        return BOT_USER_ID if team == TEAM_ID else self.slack.installs.workspaces[team].bot_user_id

    # -- requests ------------------------------------------------------------------------------------
    async def post(self, body: str, content_type: str, *, headers: dict[str, str] | None = None,
                   signature: str | None = None, age: float = 0) -> tuple[int, float]:
        """POST a request signed like Slack does ``age`` seconds ago; returns (status, seconds to respond)."""
        timestamp = str(int(time.time() - age))
        signed = {"X-Slack-Request-Timestamp": timestamp, "Content-Type": content_type,
                  "X-Slack-Signature": signature or self.verifier.generate_signature(timestamp=timestamp, body=body)}
        started = time.monotonic()
        async with self.http.post(self.base + "/slack/events", data=body.encode(),
                                  headers={**signed, **(headers or {})}) as r:
            await r.read()
            return r.status, time.monotonic() - started

    async def event(self, event: dict[str, Any], *, event_id: str | None = None, retry_num: int | None = None,
                    team: str = TEAM_ID, **signing: Any) -> tuple[int, float]:
        """Deliver an Events API callback of ``team``; returns (status, seconds until acknowledged)."""
        body = event_callback(event, team_id=team, bot_user_id=self.bot_user(team))
        body["event_id"] = event_id or body["event_id"]
        headers = {"X-Slack-Retry-Num": str(retry_num), "X-Slack-Retry-Reason": "http_timeout"} if retry_num else {}
        return await self.post(json.dumps(body), "application/json", headers=headers, **signing)

    async def mention(self, text: str, *, user: str = "U1", thread_ts: str | None = None, team: str = TEAM_ID,
                      ts: str | None = None, **fields: Any) -> str:
        """A user @mentions the bot in C1 of ``team`` (stored in the mock's history, at ``ts`` if given);
        returns the message's ts."""
        text = f"<@{self.bot_user(team)}> {text}".rstrip()
        ts = self.slack.add_message("C1", text, user=user, thread_ts=thread_ts, team=team, ts=ts)
        assert (await self.event(mention_event(text, ts, user, thread_ts, team=team, **fields), team=team))[0] == 200
        return ts

    async def edit_mention(self, ts: str, text: str, *, user: str = "U1", thread_ts: str | None = None) -> int:
        """``user`` edits their mention ``ts``: Slack sends a new ``app_mention`` event for the same message."""
        edited = {"edited": {"user": user, "ts": f"{time.time():.6f}"}}
        return (await self.event(mention_event(f"<@{BOT_USER_ID}> {text}", ts, user, thread_ts, **edited)))[0]

    async def say(self, text: str, *, thread_ts: str | None, user: str = "U1", channel: str = "C1",
                  team: str = TEAM_ID, **fields: Any) -> str:
        """A user posts a plain message (no mention); returns its ts."""
        ts = self.slack.add_message(channel, text, user=user, thread_ts=thread_ts, team=team)
        event = {"type": "message", "user": user, "text": text, "ts": ts, "channel": channel, "event_ts": ts,
                 "team": team, "channel_type": "im" if channel.startswith("D") else "channel",
                 **({"thread_ts": thread_ts} if thread_ts else {}), **fields}
        assert (await self.event(event, team=team))[0] == 200
        return ts

    async def click(self, card: dict[str, Any], decision: str, *, user: str = "U1", response: str = "click",
                    team: str = TEAM_ID) -> int:
        """``user`` clicks Confirm or Cancel on ``card`` (see :meth:`card`); ephemerals go to ``response``."""
        return await self.send_click(self.click_payload(card, decision, user=user, response=response, team=team))

    async def send_click(self, payload: dict[str, Any]) -> int:
        """Post a ``block_actions`` payload as Slack does; returns the HTTP status."""
        status, _ = await self.post(urlencode({"payload": json.dumps(payload)}), "application/x-www-form-urlencoded")
        return status

    def click_payload(self, card: dict[str, Any], decision: str, *, user: str = "U1",
                      response: str = "click", team: str = TEAM_ID) -> dict[str, Any]:
        """The ``block_actions`` payload of a click on ``card`` (in ``team``), as Slack sends it."""
        button = next(e for b in card["blocks"] if b.get("block_id") == BUTTONS_BLOCK for e in b["elements"]
                      if e["action_id"].startswith(f"genie_{decision}:"))
        return {
            "type": "block_actions", "token": "verification-token", "api_app_id": "A1",
            "user": {"id": user, "username": user.lower(), "team_id": team},
            "team": {"id": team, "domain": "genie-test"},
            "container": {"type": "message", "message_ts": card["ts"], "channel_id": card["channel"],
                          "is_ephemeral": False, "thread_ts": card.get("thread_ts")},
            "trigger_id": f"{next(_clicks)}.{uuid.uuid4().int % 10**12}",
            "channel": {"id": card["channel"], "name": "general"},
            "message": {"type": "message", "user": card["user"], "bot_id": card["bot_id"], "text": card["text"],
                        "ts": card["ts"], "blocks": card["blocks"],
                        **({"thread_ts": card["thread_ts"]} if card.get("thread_ts") else {})},
            "response_url": self.slack.response_url(response),
            "actions": [{**button, "block_id": BUTTONS_BLOCK, "action_ts": f"{time.time():.6f}"}],
        }

    async def command(self, text: str, *, user: str = "U1", channel: str = "C1", team: str = TEAM_ID) -> list[str]:
        """``/genie text``; returns the texts posted to its response URL (ephemeral, checked)."""
        response = f"cmd-{uuid.uuid4().hex[:8]}"
        form = slash_command("/genie", text, response_url=self.slack.response_url(response), user_id=user,
                             channel_id=channel, team_id=team)
        status, _ = await self.post(urlencode(form), "application/x-www-form-urlencoded")
        assert status == 200
        bodies = await asyncio.to_thread(self.slack.wait_for_response, response)
        assert all(b["response_type"] == "ephemeral" for b in bodies)
        return [b["text"] for b in bodies]

    # -- what the bot did ----------------------------------------------------------------------------
    async def wait_for(self, method: str, count: int = 1, timeout: float = 10.0) -> list[SlackCall]:
        return await asyncio.to_thread(self.slack.wait_for, method, count, timeout)

    async def settle(self) -> None:
        """Wait until every turn acknowledged so far has posted its replies."""
        await asyncio.sleep(0.05)  # Bolt starts listeners right after the ack
        await self.adapter.tasks.drain(10)

    async def event_status(self, event_id: str) -> str | None:
        """The status of a Slack event in the engine's inbox (None: never recorded)."""
        def read() -> str | None:
            with self.engine.db.read() as conn:
                found = events.outcome(conn, ("slack", event_id))
            return found[0] if found else None
        return await self.engine.in_db(read)

    async def recorded_text(self, channel: str, ts: str) -> str | None:
        """What the engine recorded as the text of message ``ts`` of ``channel`` (None: not recorded)."""
        def read() -> str | None:
            with self.engine.db.read() as conn:
                return conn.execute(sql_text("SELECT text FROM genie_events WHERE platform = 'slack' AND "
                                             "event_id = :id"), {"id": f"{TEAM_ID}/{channel}/{ts}"}).scalar()
        return await self.engine.in_db(read)

    async def sql(self, statement: str) -> None:
        """Change the engine's database behind its back (to break it for a while)."""
        def execute() -> None:
            with self.engine.db.write() as conn:
                conn.execute(sql_text(statement))
        await self.engine.in_db(execute)

    async def thread(self, thread_ts: str, team: str = TEAM_ID) -> list[dict[str, Any]]:
        """The bot's messages in a thread of ``team``'s C1 as they are now (updates applied, deletions gone;
        read from the mock's store, past any fault injected into its Web API)."""
        return [dict(m, channel="C1") for m in self.slack.messages("C1", team)
                if thread_ts in (m["ts"], m.get("thread_ts")) and m.get("user") == self.bot_user(team)]

    async def texts(self, thread_ts: str, team: str = TEAM_ID) -> list[str]:
        return [m["text"] for m in await self.thread(thread_ts, team)]

    async def card(self, thread_ts: str, team: str = TEAM_ID) -> dict[str, Any]:
        """The last message of a thread with Confirm / Cancel buttons."""
        return next(m for m in reversed(await self.thread(thread_ts, team)) if has_buttons(m))


def mention_event(text: str, ts: str, user: str = "U1", thread_ts: str | None = None, team: str = TEAM_ID,
                  **fields: Any) -> dict[str, Any]:
    """The ``app_mention`` event of message ``ts`` of C1."""
    return {"type": "app_mention", "user": user, "text": text, "ts": ts, "channel": "C1", "event_ts": ts,
            "team": team, **({"thread_ts": thread_ts} if thread_ts else {}), **fields}


def has_buttons(message: dict[str, Any]) -> bool:
    return any(b.get("block_id") == BUTTONS_BLOCK for b in message.get("blocks") or [])


class SlowParser:
    """Takes a second over any message that says "slowly": a turn much longer than an ack may take."""

    def __init__(self, inner: Any):
        self.inner = inner

    def parse(self, spec: Any, state: Any, text: str, today: Any) -> Any:
        time.sleep(1.0 if "slowly" in text else 0)
        return self.inner.parse(spec, state, text, today)


def slow_agent(spec: Any) -> Any:
    agent = build_agent(spec)
    agent.parser = SlowParser(agent.parser)
    return agent


async def ask(h: SlackHarness, user: str = "U1", team: str = TEAM_ID, order: list[str] = ORDER,
              ts: str | None = None) -> tuple[str, dict[str, Any]]:
    """Order food (``order``) in a new thread of ``team``'s C1 (started at ``ts`` if given) up to the
    confirmation; returns (thread ts, the card)."""
    thread = await h.mention(order[0], user=user, team=team, ts=ts)
    for text in order[1:]:
        await h.say(text, thread_ts=thread, user=user, team=team)
    await h.settle()
    return thread, await h.card(thread, team)


def transcript(slack: MockSlackWebAPI, *channels: str) -> dict[tuple[str, str], list[tuple[str, bool]]]:
    """What the bot shows now in each conversation, by channel and thread (named by the text of the
    thread's first message; "" outside threads): its messages in order, each text and whether it
    has live buttons."""
    shown: dict[tuple[str, str], list[tuple[str, bool]]] = {}
    for channel in channels:
        messages = slack.messages(channel)
        first = {m["ts"]: m["text"] for m in messages}
        for message in messages:
            if message.get("user") == BOT_USER_ID:
                thread = first.get(message.get("thread_ts"), "")
                shown.setdefault((channel, thread), []).append((message["text"], has_buttons(message)))
    return shown
