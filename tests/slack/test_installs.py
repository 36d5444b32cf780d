""""Add to Slack": one running deployment installed into two workspaces through the real OAuth flow
(Bolt's install page and redirect, the mock's authorize page and oauth.v2.access), each completing
a confirmed task; what the settings refuse; forged and replayed redirects; uninstalls; token rotation."""

from __future__ import annotations

import asyncio
import datetime as dt
import re
import time
from collections.abc import AsyncIterator, Iterator
from contextlib import asynccontextmanager
from pathlib import Path
from typing import Any

import aiohttp
import pytest

from genie_bot.adapters.slack.installations import Installations
from genie_bot.adapters.slack.workspaces import InstalledWorkspaces
from genie_bot.engine.engine import utcnow
from genie_bot.engine.turns import GONE
from tests.engine.conftest import pg_url, store_url  # noqa: F401 - every test on SQLite and on PostgreSQL
from tests.engine.support import ORDER, build_agent, calls, run, write_shop
from tests.fakes.slack_api import MockSlackWebAPI

from .harness import STATE_COOKIE, SlackHarness, ask, has_buttons
from .installs import (BOB, SAME_TS, bot_tokens, installed_teams, oauth_settings, rows, sessions_of, stored_tokens,
                       two_workspaces)
from .test_confirmations import card_updates


@pytest.fixture
def slack() -> Iterator[MockSlackWebAPI]:
    """Slack with workspaces A and B, which the deployment serves, Z, which it does not, and an
    Enterprise Grid organisation."""
    with MockSlackWebAPI() as mock:
        mock.add_workspace("TA", "Workspace A", installer="UINSTALLER_A")
        mock.add_workspace("TB", "Workspace B", installer="UINSTALLER_B")
        mock.add_workspace("TZ", "Elsewhere Inc")
        mock.add_workspace("TORG", "Grid", enterprise_id="E1", org_wide=True)
        yield mock


@pytest.fixture
def deli(tmp_path: Path) -> Path:
    return write_shop(tmp_path / "deli")


@pytest.fixture
def deployment(slack: MockSlackWebAPI, store_url: str, shop: Path, deli: Path):
    """``deployment(*teams, admins=..., **oauth)``: the deployment running (A gets the shop, B the deli,
    others are refused), installed into ``teams`` through "Add to Slack"."""

    @asynccontextmanager
    async def running(*teams: str, admins: frozenset[str] = frozenset(), **oauth: Any
                      ) -> AsyncIterator[SlackHarness]:
        config = two_workspaces(store_url, shop, deli, oauth_settings(slack, **oauth), admins={"slack": admins})
        async with SlackHarness(slack, config, build_agent=build_agent) as h:
            for team in teams:
                assert (await h.install(team)).status == 200
            yield h

    return running


def test_two_workspaces_installed_with_add_to_slack_each_complete_a_confirmed_task(slack, deployment):
    async def scenario():
        async with deployment() as h:
            pages = [await h.install("TA"), await h.install("TB")]
            # the same user id, channel id and message ts in both workspaces, at the same time
            (a_thread, a_card), (b_thread, b_card) = await asyncio.gather(
                ask(h, team="TA", ts=SAME_TS), ask(h, team="TB", order=BOB, ts=SAME_TS))
            statuses = await asyncio.gather(h.click(a_card, "confirm", team="TA"),
                                            h.click(b_card, "confirm", team="TB"))
            await h.settle()
            return (pages, statuses, await h.texts(a_thread, "TA"), await h.texts(b_thread, "TB"),
                    await sessions_of(h), await installed_teams(h),
                    await rows(h, "SELECT session_key, status FROM genie_pending_actions"),
                    await rows(h, "SELECT event_id FROM genie_events WHERE kind = 'message'"), await stored_tokens(h))

    pages, statuses, a_texts, b_texts, sessions, teams, actions, events, stored = run(scenario())
    assert [p.status for p in pages] == [200, 200] and all("Thank you!" in p.page for p in pages)
    assert teams == ["TA", "TB"] and statuses == [200, 200]
    assert a_texts[-1] == "Order Pizza-2-Ann placed" and b_texts[-1] == "Order Pasta-1-Bob placed"
    assert sorted(c["name"] for c in calls()) == ["Ann", "Bob"]
    assert sessions == {("TA", "C1", SAME_TS): "shop", ("TB", "C1", SAME_TS): "deli"}
    assert sorted(actions) == [(f"slack/TA/C1/{SAME_TS}", "done"), (f"slack/TB/C1/{SAME_TS}", "done")]
    assert {f"TA/C1/{SAME_TS}", f"TB/C1/{SAME_TS}"} <= {event for (event,) in events}
    # every message went out with the token of its own workspace
    tokens = {team: set(slack.tokens_of(team)) for team in ("TA", "TB")}
    posted = [c for c in slack.calls if c.method.startswith("chat.")]
    assert posted and all(c.token in tokens["TA"] | tokens["TB"] for c in posted)
    assert all(m["user"] == slack.installs.workspaces["TA"].bot_user_id
               for m in slack.messages("C1", "TA") if "bot_id" in m)
    # the database holds every token sealed: none in clear, none readable without the key
    assert len(stored) == 4 and all(value.startswith("gAAAAA") for value in stored)
    assert not [value for value in stored for token in tokens["TA"] | tokens["TB"] if token in value]


def test_a_click_on_another_workspaces_card_changes_nothing_there(slack, deployment):
    async def scenario():
        async with deployment("TA", "TB") as h:
            a_thread, a_card = await ask(h, team="TA", ts=SAME_TS)
            await ask(h, team="TB", order=BOB, ts=SAME_TS)
            # a payload of workspace B naming the channel, thread and action of A's card
            assert await h.click(a_card, "confirm", team="TB", response="forged") == 200
            await h.settle()
            return await h.card(a_thread, "TA"), slack.responses("forged"), await rows(
                h, "SELECT session_key, status FROM genie_pending_actions ORDER BY session_key")

    card, forged, actions = run(scenario())
    assert has_buttons(card) and calls() == []
    assert [r["text"] for r in forged] == ["I can't find that action any more."]
    assert actions == [(f"slack/TA/C1/{SAME_TS}", "pending"), (f"slack/TB/C1/{SAME_TS}", "pending")]


def test_an_install_the_settings_refuse_is_undone_and_the_installer_told_why(slack, deployment):
    async def scenario():
        async with deployment() as h:
            refused = [await h.install("TZ"), await h.install("TORG")]
            installed = await h.install("TA")
            # Slack would not send TZ's events any more; one sent anyway starts nothing
            await h.mention("order_0.dish = 'Pizza'", team="TZ")
            await h.settle()
            return refused, installed, await installed_teams(h), await sessions_of(h)

    (tz, org), installed, teams, sessions = run(scenario())
    assert tz.status == 403 and "does not serve the workspace Elsewhere Inc" in tz.page
    assert org.status == 403 and "install the app into each workspace" in org.page
    assert installed.status == 200 and teams == ["TA"] and sessions == {}
    uninstalled = [c.token for c in slack.calls_to("apps.uninstall")]
    assert uninstalled == slack.tokens_of("TZ") + slack.tokens_of("TORG")
    assert all(slack.installs.tokens[token].revoked for token in uninstalled)
    assert not [c for c in slack.calls_to("chat.postMessage") if c.token in uninstalled]


def test_a_forged_a_tampered_a_replayed_and_an_expired_oauth_state_are_refused(slack, deployment):
    async def scenario():
        async with deployment() as h:
            redirect = f"{h.base}/slack/oauth_redirect"
            # no install page visited: a state of one's own, in the link and in a cookie of one's own
            forged = await _visit(h, redirect, "made-up", {"code": "code-x", "state": "made-up"})
            # a state the install page issued to someone else's browser, sent without its cookie
            page = await h.http.get(f"{h.base}/slack/install", params={"team": "TA"})
            stolen = await _visit(h, redirect, None, {"code": "code-x",
                                                      "state": page.cookies[STATE_COOKIE].value})
            # an issued state with a later expiry written in (its signature no longer fits)
            nonce, expiry, signature = page.cookies[STATE_COOKIE].value.split(".")
            tampered = f"{nonce}.{int(expiry) + 86400}.{signature}"
            later = await _visit(h, redirect, tampered, {"code": "code-x", "state": tampered})
            installed = await h.install("TA")
            replayed = await _visit(h, installed.redirect, installed.state)  # the same redirect, again
            page = await h.http.get(f"{h.base}/slack/install", params={"team": "TA"})
            state = page.cookies[STATE_COOKIE].value
            h.adapter.installs.states.clock = lambda: time.time() + 601  # state_expiration_seconds: 600
            expired = await _visit(h, redirect, state, {"code": "code-late", "state": state})
            return forged, stolen, later, installed, replayed, expired, await installed_teams(h)

    forged, stolen, later, installed, replayed, expired, teams = run(scenario())
    assert forged[0] == 401 and "invalid_state" in forged[1]
    assert stolen[0] == 400 and "invalid_browser" in stolen[1]
    assert later[0] == 401 and "invalid_state" in later[1]
    assert installed.status == 200 and replayed[0] == 401 and "invalid_state" in replayed[1]
    assert expired[0] == 401 and "invalid_state" in expired[1]
    assert teams == ["TA"] and len(slack.calls_to("oauth.v2.access")) == 1  # the one install's code only


def test_anonymous_visits_of_the_install_page_write_nothing_and_its_cookie_is_same_site(slack, deployment):
    async def scenario():
        async with deployment() as h:
            pages = [await h.http.get(f"{h.base}/slack/install") for _ in range(50)]
            states = {page.cookies[STATE_COOKIE].value for page in pages}
            written = await rows(h, "SELECT state FROM slack_oauth_states")
            installed = await h.install("TA")
            return pages, states, written, installed, await rows(h, "SELECT state FROM slack_oauth_states")

    pages, states, written, installed, used = run(scenario())
    assert all(page.status == 200 for page in pages) and len(states) == 50 and written == []
    cookie = pages[0].headers["Set-Cookie"]
    assert "SameSite=Lax" in cookie and "HttpOnly" in cookie and "Secure" in cookie
    assert installed.status == 200 and used == [(installed.state,)]  # a state is written once used


async def _visit(h: SlackHarness, url: str, cookie: str | None, params: dict[str, str] | None = None
                 ) -> tuple[int, str]:
    """GET ``url`` from a browser with no cookies but ``cookie`` as the OAuth state cookie."""
    headers = {"Cookie": f"{STATE_COOKIE}={cookie}"} if cookie else {}
    async with aiohttp.ClientSession(cookie_jar=aiohttp.DummyCookieJar()) as browser:
        async with browser.get(url, params=params, headers=headers, allow_redirects=False) as response:
            return response.status, await response.text()


@pytest.mark.parametrize("uninstalled_sessions", ["keep", "purge"])
def test_a_workspace_that_uninstalls_mid_conversation_gets_nothing_more_and_the_other_goes_on(
        uninstalled_sessions, slack, deployment):
    async def scenario():
        async with deployment("TA", "TB", uninstalled_sessions=uninstalled_sessions) as h:
            a_thread, a_card = await ask(h, team="TA")
            b_thread = await h.mention(BOB[0], team="TB")
            await h.settle()
            # A's next message is being answered when someone removes the app from workspace A
            release = slack.hold("chat.postMessage")
            late = await h.mention(ORDER[0], team="TA")
            await _until(lambda: h.event_status(f"TA/C1/{late}"), "done")
            posted_before = len(slack.calls_to("chat.postMessage"))
            slack.uninstall("TA")
            assert (await h.event({"type": "app_uninstalled"}, team="TA"))[0] == 200
            release()
            await h.settle()
            # A's card is clicked afterwards; B finishes its order
            await h.click(a_card, "confirm", team="TA", response="after")
            for text in BOB[1:]:
                await h.say(text, thread_ts=b_thread, team="TB")
            await h.settle()
            await h.click(await h.card(b_thread, "TB"), "confirm", team="TB")
            await h.settle()
            return (posted_before, late, b_thread, await h.texts(b_thread, "TB"), slack.responses("after"),
                    await installed_teams(h), await sessions_of(h),
                    await rows(h, "SELECT event_id FROM genie_events WHERE status = 'done' "
                                  "AND delivered_at IS NULL"))

    posted_before, late, b_thread, b_texts, after, teams, sessions, undelivered = run(scenario())
    revoked = set(slack.tokens_of("TA"))
    late_posts = [c for c in slack.calls_to("chat.postMessage")[posted_before:] if c.token in revoked]
    assert len(late_posts) == 1  # the placeholder held meanwhile, refused: its token was revoked
    assert [m for m in slack.messages("C1", "TA") if m.get("thread_ts") == late and "bot_id" in m] == []
    assert [c["name"] for c in calls()] == ["Bob"] and b_texts[-1] == "Order Pasta-1-Bob placed"
    assert [r["text"] for r in after] == ["Sorry, Genie is not available in this workspace. Ask the people "
                                              "who run it."]
    assert teams == ["TB"] and undelivered == []  # nothing for A is left to post again
    a_sessions = {key for key in sessions if key[0] == "TA"}
    assert len(a_sessions) == (2 if uninstalled_sessions == "keep" else 0)
    assert {key for key in sessions if key[0] == "TB"} == {("TB", "C1", b_thread)}


def test_after_a_purge_and_a_reinstall_a_click_on_an_old_card_is_answered_and_the_card_settled(slack, deployment):
    async def scenario():
        async with deployment("TA", uninstalled_sessions="purge") as h:
            thread, card = await ask(h, team="TA")
            slack.uninstall("TA")
            await h.event({"type": "app_uninstalled"}, team="TA")
            await h.settle()
            purged = await sessions_of(h)
            assert (await h.install("TA")).status == 200
            status = await h.click(card, "confirm", team="TA")
            await h.settle()
            return purged, status, card_updates(slack, card), await h.thread(thread, "TA")

    purged, status, updates, messages = run(scenario())
    assert purged == {} and status == 200 and calls() == []
    [update] = updates
    assert update["blocks"][-1]["text"]["text"] == ":hourglass: *No longer valid* (it no longer exists)"
    assert not has_buttons(update)
    assert messages[-1]["text"] == GONE


async def _until(read, expected, tries: int = 500) -> None:
    """Wait until ``read()`` answers ``expected`` (the engine ran a turn in a task of its own)."""
    for _ in range(tries):
        if await read() == expected:
            return
        await asyncio.sleep(0.01)
    raise AssertionError(f"still {await read()!r}, not {expected!r}")


def test_a_revoked_bot_token_is_an_uninstall(deployment):
    async def scenario():
        async with deployment("TA") as h:
            user_only = {"type": "tokens_revoked", "tokens": {"oauth": ["U1"], "bot": []}}
            await h.event(user_only, team="TA")
            kept = await installed_teams(h)
            await h.event({"type": "tokens_revoked", "tokens": {"oauth": [], "bot": ["UBOT1"]}}, team="TA")
            return kept, await installed_teams(h)

    assert run(scenario()) == (["TA"], [])


def _expiring(h: SlackHarness, minutes: float):
    """The installation's bot token expires in ``minutes`` (as if hours had passed since it was issued)."""
    moment = f"{utcnow() + dt.timedelta(minutes=minutes):%Y-%m-%d %H:%M:%S}"
    return asyncio.gather(*(h.sql(f"UPDATE {table} SET bot_token_expires_at = '{moment}'")
                            for table in ("slack_installations", "slack_bots")))


def _refreshes(slack: MockSlackWebAPI) -> list:
    return [c for c in slack.calls_to("oauth.v2.access") if c.params.get("grant_type") == "refresh_token"]


def test_a_bot_token_about_to_expire_is_refreshed_once_and_the_new_one_used(slack, deployment):
    slack.installs.token_rotation = True

    async def scenario():
        async with deployment("TA") as h:
            thread = await h.mention(ORDER[0], team="TA")
            await h.settle()
            before = len(slack.calls)
            fresh = await bot_tokens(h)
            await _expiring(h, minutes=30)  # within token_rotation_minutes (120)
            await asyncio.gather(h.say(ORDER[1], thread_ts=thread, team="TA"), h.mention(ORDER[0], team="TA"))
            await h.settle()
            return before, fresh, await h.texts(thread, "TA"), await bot_tokens(h)

    before, [(_, refresh, expires)], texts, [(token, new_refresh, new_expires)] = run(scenario())
    first, second = slack.tokens_of("TA")
    assert refresh.startswith("xoxe-1-TA-") and expires > utcnow() + dt.timedelta(hours=11)
    assert len(_refreshes(slack)) == 1 and _refreshes(slack)[0].params["refresh_token"] == refresh
    assert token == second and new_refresh.startswith("xoxe-1-TA-") and new_refresh != refresh
    assert new_expires > utcnow() + dt.timedelta(hours=11)
    later = [c for c in slack.calls[before:] if c.method.startswith("chat.")]
    assert later and all(c.token == second for c in later)
    assert texts[-1] == "What is the name for the order?"
    assert first != second


def test_two_processes_refreshing_one_token_at_once_end_with_the_same_fresh_token(slack, deployment):
    slack.installs.token_rotation = True

    async def scenario():
        async with deployment("TA") as h:
            await _expiring(h, minutes=30)
            oauth = h.adapter.settings.oauth
            other = InstalledWorkspaces(Installations(oauth.client_id, h.engine.db, h.adapter.sealer), oauth,
                                        h.adapter.client)
            release = slack.hold("oauth.v2.access")
            both = asyncio.gather(h.adapter.workspaces.get("TA"), other.get("TA"))
            await asyncio.to_thread(slack.wait_for_held, "oauth.v2.access", 2)  # both read the same token
            release()
            return [workspace.client.token for workspace in await both]

    tokens = run(scenario())
    assert tokens == [slack.tokens_of("TA")[-1]] * 2 and len(slack.tokens_of("TA")) == 2
    assert len(_refreshes(slack)) == 2  # the second, with the refresh token already used, was refused


def test_each_workspace_lists_its_own_agents_and_its_admins_reload_only_those(deployment):
    async def scenario():
        async with deployment("TA", "TB", admins=frozenset({"UOPS"})) as h:
            answers = {}
            for user, team, command in [("U1", "TA", "agents"), ("U1", "TB", "agents"),
                                        ("UADMIN_A", "TA", "reload"), ("UADMIN_A", "TA", "reload deli"),
                                        ("UADMIN_A", "TB", "reload"), ("UADMIN_A", "TA", "status"),
                                        ("UOPS", "TB", "reload")]:
                [answers[user, team, command]] = await h.command(command, user=user, team=team)
            return answers

    answers = run(scenario())
    assert re.fullmatch(r"Agents:\n• shop \(version \w+\) - answers here", answers["U1", "TA", "agents"])
    assert re.fullmatch(r"Agents:\n• deli \(version \w+\) - answers here", answers["U1", "TB", "agents"])
    assert re.fullmatch(r"shop: (\w+) -&gt; \1 \(unchanged\)", answers["UADMIN_A", "TA", "reload"])
    assert answers["UADMIN_A", "TA", "reload deli"] == ("Sorry, agent 'deli' does not serve this workspace, so you "
                                                       "cannot reload it.")
    assert answers["UADMIN_A", "TB", "reload"] == "Sorry, only admins can use /genie reload."
    assert answers["UADMIN_A", "TA", "status"].startswith("instance ")
    assert sorted(line.split(":")[0] for line in answers["UOPS", "TB", "reload"].splitlines()) == ["deli", "shop"]
