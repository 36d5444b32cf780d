"""Hot reload: a broken spec changes nothing; a good one serves new turns and migrates live sessions."""

from __future__ import annotations

import asyncio
import re

from genie_bot.engine import Decision
from genie_bot.spec import api_module
from genie_bot.state import DialogueState
from genie_bot.store import Database, sessions, traces
from genie_bot.store import pending as actions

from .support import KEY, ORDER, SHOP_API, SHOP_YAML, calls, make_engine, run, write_shop


def session_state(url: str) -> DialogueState:
    db = Database(url)
    with db.read() as conn:
        row = sessions.load(conn, str(KEY))
    db.dispose()
    return DialogueState.from_json(row.state)


def test_a_broken_spec_is_reported_with_file_and_line_and_the_old_version_keeps_serving(store_url, shop):
    async def scenario():
        async with make_engine(store_url, shop) as engine:
            await engine.handle_message(KEY, "U1", ORDER[0], "m1")
            version = engine.registry.get("shop").version
            (shop / "agent.yaml").write_text(SHOP_YAML.replace("type: int", "type: integr"), encoding="utf-8")
            report = await engine.reload()
            reply = await engine.handle_message(KEY, "U1", ORDER[1], "m2")
            return version, report, reply, engine.registry.get("shop").version

    version, report, reply, serving = run(scenario())
    assert not report.ok and serving == version
    assert any(re.search(r"agent\.yaml:\d+:\d+: unknown type 'integr'", e) for e in report.errors), report.errors
    assert report.lines()[0].startswith("reload failed")
    assert "name for the order" in reply[0].text


def test_a_good_reload_migrates_live_sessions_on_their_next_turn(store_url, shop):
    new_yaml = (SHOP_YAML.replace("{name: name, type: str, description: the name for the order}",
                                  "{name: name, type: int, description: the customer number}")
                .replace("      - {name: note, type: str, required: false, dont_ask: true}\n", ""))
    new_api = SHOP_API.replace('return {"order_id": f"{dish}-{count}-{name}"}', 'return {"order_id": f"v2-{name}"}')

    async def scenario():
        async with make_engine(store_url, shop) as engine:
            for i, text in enumerate([*ORDER[:2], "order_0.note = 'extra cheese'", ORDER[2]]):
                asked = await engine.handle_message(KEY, "U1", text, f"m{i}")
            old = engine.registry.get("shop").version
            write_shop(shop, new_yaml, new_api)
            report = await engine.reload()
            stale_click = await engine.handle_action(KEY, "U1", asked[0].pending_action.id, Decision.CONFIRM, "c1")
            after = await engine.handle_message(KEY, "U1", "order_0.name = 42", "m9")
            status = await engine.status()
            return old, report, stale_click, after, status

    old, report, stale_click, after, status = run(scenario())
    new = report.versions["shop"][1]
    assert report.ok and report.versions == {"shop": (old, new)} and old != new
    assert report.sessions_to_migrate == {"shop": 1}
    # the migrating turn: 'note' was removed, 'Ann' is no customer number, the API changed
    assert "no longer valid (the agent was updated)" in stale_click[0].text
    assert "customer number" in stale_click[0].text
    assert after[0].pending_action is not None and ("Customer number", "42") in after[0].pending_action.summary
    assert status.sessions_migrated == 1 and status.sessions_by_version == {f"shop@{new}": 1}
    assert session_state(store_url).instances["order_0"].values == {"dish": "Pizza", "count": 2, "name": 42}
    db = Database(store_url)
    with db.read() as conn:
        migrating = traces.for_session(conn, str(KEY))[-2]
        rows = actions.of_session(conn, str(KEY), (*actions.FINAL, actions.ActionStatus.PENDING))
        statuses = [a.status for a in rows]
    db.dispose()
    assert migrating.spec_version == new
    assert {e.split(": ")[1] for e in migrating.errors} == {"dropped order_0.note", "dropped order_0.name"}
    assert statuses == ["invalidated", "pending"] and calls() == []


def test_reloading_an_unknown_agent_is_an_error(store_url, shop):
    async def scenario():
        async with make_engine(store_url, shop) as engine:
            return await engine.reload("nope")

    report = run(scenario())
    assert not report.ok and report.errors == ["unknown agent 'nope'; configured agents: shop"]


BLOCKING_API = SHOP_API + '''
import os as _os, time as _time
from pathlib import Path as _Path
_Path(_os.environ["SHOP_IMPORT_MARKER"]).touch()
_time.sleep(3600)
'''


def test_an_api_that_blocks_at_import_is_reported_and_the_engine_keeps_serving(store_url, shop, tmp_path,
                                                                                monkeypatch):
    """The import is bounded by its deadline, in a child process: meanwhile turns and status
    (the database threads) answer, and the admin gets a reply naming the problem."""
    marker = tmp_path / "importing"
    monkeypatch.setenv("SHOP_IMPORT_MARKER", str(marker))
    monkeypatch.setattr(api_module, "IMPORT_TIMEOUT_SECONDS", 5.0)

    async def scenario():
        async with make_engine(store_url, shop) as engine:
            version = engine.registry.get("shop").version
            write_shop(shop, api=BLOCKING_API)
            reloading = asyncio.create_task(engine.reload())
            while not marker.exists():  # the import has started and blocks
                assert not reloading.done(), reloading.result()
                await asyncio.sleep(0.01)
            during = await engine.handle_message(KEY, "U1", ORDER[0], "m1")
            status = await engine.status()
            blocked = not reloading.done()
            report = await reloading
            return version, during, status, blocked, report, engine.registry.get("shop").version

    version, during, status, blocked, report, serving = run(scenario())
    assert blocked and "How many?" in during[0].text and status is not None
    assert not report.ok and serving == version
    assert any("importing api.py did not finish within 5 s" in e for e in report.errors), report.errors


def test_an_api_that_exits_at_import_is_reported(store_url, shop):
    async def scenario():
        async with make_engine(store_url, shop) as engine:
            write_shop(shop, api=SHOP_API + "\nimport sys as _sys\n_sys.exit(3)\n")
            report = await engine.reload()
            reply = await engine.handle_message(KEY, "U1", ORDER[0], "m1")
            return report, reply

    report, reply = run(scenario())
    assert not report.ok and any("importing api.py exited (status 3)" in e for e in report.errors), report.errors
    assert report.lines()[0].startswith("reload failed") and "How many?" in reply[0].text
