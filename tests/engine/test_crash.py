"""Killing an engine process in the middle of a turn, and in the middle of a confirmed API call.

Each test runs the turn in a child process, kills it (SIGKILL) while it is blocked inside an
API function, restarts an engine on the same database and checks what the user and the store
see afterwards:

- killed mid-turn: the turn never committed, so the session is as before it; on restart the
  message runs again and its reply reaches the user as a notification (its original caller
  died with the process);
- killed mid-call of a confirmed, side-effecting API: the action stays ``executing``; on restart
  it becomes ``interrupted``, the user is told the call may or may not have gone through, and
  it is never run again on its own. A later "yes" is refused until a fresh confirmation.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
import time
from pathlib import Path

from genie_bot.engine import ClickOutcome, Decision
from genie_bot.engine.turns import INTERRUPTED_REASON, UNKNOWN_BEFORE_OFFER
from genie_bot.state import DialogueState
from genie_bot.store import Database, inbox, sessions, traces
from genie_bot.store import pending as actions

from .conftest import REPO
from .support import KEY, ORDER, calls, make_engine, run


def start_child(url: str, shop: Path, event: dict, block: str, marker: Path) -> subprocess.Popen:
    env = {**os.environ, block: str(marker)}
    return subprocess.Popen([sys.executable, "-m", "tests.engine.child", url, str(shop), json.dumps(event)],
                            cwd=REPO, env=env, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)


def kill_when_blocked(child: subprocess.Popen, marker: Path, timeout: float = 60) -> None:
    deadline = time.monotonic() + timeout
    while not marker.exists():
        assert child.poll() is None, child.communicate()
        assert time.monotonic() < deadline, "the child never reached the blocking API"
        time.sleep(0.02)
    child.kill()
    child.wait()


def restart(url: str, shop: Path) -> list:
    notes = []

    async def scenario():
        engine = make_engine(url, shop)

        async def sink(notification):
            notes.append(notification)

        engine.add_sink("slack", sink)
        async with engine:
            pass

    run(scenario())
    return notes


def store_view(url: str, event_id: str):
    db = Database(url)
    with db.read() as conn:
        view = (sessions.load(conn, str(KEY)), inbox.outcome(conn, ("slack", event_id)),
                actions.of_session(conn, str(KEY), tuple(actions.ActionStatus)),
                traces.for_session(conn, str(KEY)))
    db.dispose()
    return view


def test_a_process_killed_mid_turn_loses_nothing(store_url, shop, tmp_path):
    run(_fill(store_url, shop, ORDER[:1]))
    before = store_view(store_url, "menu")[0]
    child = start_child(store_url, shop, {"message": "menu_0 = Menu(section='Mains')", "event_id": "menu"},
                        "SHOP_BLOCK_IN_MENU", tmp_path / "in-menu")
    kill_when_blocked(child, tmp_path / "in-menu")

    crashed = store_view(store_url, "menu")
    assert crashed[0].state == before.state and crashed[1][0] == "running"  # nothing of the turn was saved
    assert crashed[0].lease_owner is not None  # still locked by the dead process

    notes = restart(store_url, shop)
    session, (status, reply), _, turns = store_view(store_url, "menu")
    assert [n.reason for n in notes] == ["recovered"]
    assert "Margherita" in notes[0].reply.text  # the user gets the answer after all
    assert status == "done" and json.loads(reply)[0]["text"] == notes[0].reply.text
    assert DialogueState.from_json(session.state).instances["menu_0"].status == "completed"
    assert session.lease_owner is None and [t.event_id for t in turns] == ["fill-0", "menu"]


def test_a_process_killed_during_a_confirmed_call_reports_it_and_never_retries(store_url, shop, tmp_path):
    action_id = run(_fill(store_url, shop, ORDER))
    before = store_view(store_url, "click")[0]
    child = start_child(store_url, shop, {"click": action_id, "event_id": "click"}, "SHOP_BLOCK_IN_ORDER",
                        tmp_path / "in-order")
    kill_when_blocked(child, tmp_path / "in-order")

    crashed = store_view(store_url, "click")
    assert [a.status for a in crashed[2]] == ["executing"] and len(calls()) == 1

    notes = restart(store_url, shop)
    session, (status, reply), pending, _ = store_view(store_url, "click")
    assert [n.reason for n in notes] == ["recovered"]
    assert notes[0].reply.text == (f"I was interrupted while running place_order (reference {action_id}) and cannot "
                                   "tell whether it went through. I will not retry it on my own: please check "
                                   "before asking me again.")
    assert status == "failed" and [a.status for a in pending] == ["interrupted"]
    assert session.state == before.state and len(calls()) == 1  # the API was not called again

    async def user_says_yes():
        async with make_engine(store_url, shop) as engine:
            refused = await engine.handle_message(KEY, "U1", "order_0.confirmed = True", "yes-again")
            fresh = await engine.handle_message(KEY, "U1", "# what now?", "what-now")
            return refused, fresh

    refused, fresh = run(user_says_yes())
    assert "it needs a fresh confirmation" in refused[0].text and len(calls()) == 1
    assert fresh[0].pending_action is not None and fresh[0].pending_action.id != action_id
    assert fresh[0].text.startswith(UNKNOWN_BEFORE_OFFER.format(api="place_order", id=action_id))


def test_the_stale_card_of_an_interrupted_call_asks_again_under_the_same_idempotency_key(store_url, shop, tmp_path):
    """kill -9 during the call, then the user clicks the old card: told the outcome is unknown before the
    new card, and confirming it calls the API with the first attempt's key, so the API can deduplicate."""
    action_id = run(_fill(store_url, shop, ORDER))
    child = start_child(store_url, shop, {"click": action_id, "event_id": "click"}, "SHOP_BLOCK_IN_ORDER",
                        tmp_path / "in-order")
    kill_when_blocked(child, tmp_path / "in-order")
    restart(store_url, shop)

    async def clicks_again():
        async with make_engine(store_url, shop) as engine:
            stale = await engine.handle_action(KEY, "U1", action_id, Decision.CONFIRM, "stale-click")
            done = await engine.handle_action(KEY, "U1", stale[0].pending_action.id, Decision.CONFIRM, "click-2")
            return stale, done

    stale, done = run(clicks_again())
    assert stale[0].outcome == ClickOutcome.STALE and stale[0].outcome_detail == INTERRUPTED_REASON
    assert UNKNOWN_BEFORE_OFFER.format(api="place_order", id=action_id) in stale[0].text
    assert stale[0].pending_action.id != action_id
    assert done[0].outcome == ClickOutcome.DONE and "Order Pizza-2-Ann placed" in done[0].text
    assert [c["key"] for c in calls()] == [action_id, action_id]


async def _fill(url: str, shop: Path, messages: list[str]) -> str | None:
    async with make_engine(url, shop) as engine:
        for i, text in enumerate(messages):
            replies = await engine.handle_message(KEY, "U1", text, f"fill-{i}")
    return replies[0].pending_action.id if replies[0].pending_action else None
