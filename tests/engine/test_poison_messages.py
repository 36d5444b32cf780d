"""A message whose statements would run away is parked, and the engine keeps serving meanwhile.

The statements a parser writes are applied in sandbox worker processes with hard limits
(genie_bot.runtime.sandbox). The poison here is one no price list can see coming: a worksheet's
validation pattern that backtracks catastrophically on the value given (``(x+)+y`` against fifty
x's, 2**50 steps in one C call holding the GIL). Its worker is stopped by the kernel at the CPU
limit, the message is parked with a reply, the session is as before, other sessions are answered
while it runs, and the same message delivered again runs nothing. A message whose turn was cut
short twice (its process killed each time) is parked too, never handed to a third process. A user
whose statements used their share of the sandbox's CPU time has their next messages parked, while
the others are answered.
"""

from __future__ import annotations

import asyncio

from genie_bot.engine import SessionKey
from genie_bot.engine.turns import PARKED, PARKED_AFTER_INTERRUPTIONS, PARKED_OVER_BUDGET
from genie_bot.runtime.sandbox import SandboxLimits
from genie_bot.state import DialogueState
from genie_bot.store import Database, inbox, sessions, traces

from .support import KEY, ORDER, SHOP_YAML, make_engine, run, write_shop
from .test_crash import kill_when_blocked, restart, start_child, store_view

POISONED_YAML = SHOP_YAML.replace(
    "      - {name: note, type: str, required: false, dont_ask: true}",
    "      - {name: note, type: str, required: false, dont_ask: true}\n"
    "      - {name: code, type: str, required: false, dont_ask: true, validation: {pattern: '(x+)+y'}}")
POISON = "order_0.code = '" + "x" * 50 + "'"
"""Matching it against the pattern takes 2**50 steps: only the sandbox's limit ends it."""
OTHER = SessionKey("slack", "T1", "C2", "1700000000.000200")


def test_a_runaway_statement_is_parked_while_other_sessions_are_answered(store_url, tmp_path):
    shop = write_shop(tmp_path / "poisoned", POISONED_YAML)

    async def scenario():
        async with make_engine(store_url, shop, statement_cpu_seconds=1.0) as engine:
            assert engine.sandbox.limits == SandboxLimits(cpu_seconds=1.0)
            await engine.handle_message(KEY, "U1", ORDER[0], "m1")
            poisoned = asyncio.create_task(engine.handle_message(KEY, "U1", POISON, "poison"))
            while (await engine.in_db(_status, engine, "poison")) != "running":
                await asyncio.sleep(0.01)
            other = await engine.handle_message(OTHER, "U2", ORDER[0], "other")
            still_running = await engine.in_db(_status, engine, "poison")
            parked = await poisoned
            again = await engine.handle_message(KEY, "U1", POISON, "poison")  # delivered again: runs nothing
            after = await engine.handle_message(KEY, "U1", ORDER[1], "m2")
            return other, still_running, parked, again, after

    other, still_running, parked, again, after = run(scenario())
    assert other[0].text == "Hi! Orders food.\n\nHow many?" and still_running == "running"
    assert parked[0].text == PARKED and again == []
    assert after[0].text == "What is the name for the order?"
    db = Database(store_url)
    with db.read() as conn:
        rows = [t for t in traces.for_session(conn, str(KEY)) if t.event_id == "poison"]
        status = inbox.outcome(conn, ("slack", "poison"))[0]
        session = sessions.load(conn, str(KEY))
    db.dispose()
    assert status == "parked" and [t.outcome for t in rows] == ["parked"]
    assert "CPU time" in rows[0].errors[0] and '"code"' not in (session.state or "")


def test_a_user_past_their_cpu_budget_has_messages_parked_while_others_are_answered(store_url, tmp_path):
    shop = write_shop(tmp_path / "poisoned", POISONED_YAML)

    async def scenario():
        async with make_engine(store_url, shop, statement_cpu_seconds=0.5, statement_cpu_budget_seconds=0.5) as engine:
            await engine.handle_message(KEY, "U1", ORDER[0], "m1")
            poisoned = await engine.handle_message(KEY, "U1", POISON, "poison")
            refused = await engine.handle_message(KEY, "U1", ORDER[1], "m2")
            other = await engine.handle_message(OTHER, "U2", ORDER[0], "other")
            return poisoned, refused, other, await engine.in_db(_status, engine, "m2")

    poisoned, refused, other, status = run(scenario())
    assert poisoned[0].text == PARKED and refused[0].text == PARKED_OVER_BUDGET and status == "parked"
    assert other[0].text == "Hi! Orders food.\n\nHow many?"
    db = Database(store_url)
    with db.read() as conn:
        trace = next(t for t in traces.for_session(conn, str(KEY)) if t.event_id == "m2")
        session = sessions.load(conn, str(KEY))
    db.dispose()
    assert trace.outcome == "parked" and "used 0.5 s of CPU time" in trace.errors[0]
    assert DialogueState.from_json(session.state).instances["order_0"].values == {"dish": "Pizza"}


def _status(engine, event_id: str) -> str | None:
    with engine.db.read() as conn:
        found = inbox.outcome(conn, ("slack", event_id))
    return found[0] if found else None


def test_a_message_cut_short_twice_is_parked_not_handed_to_a_third_process(store_url, shop, tmp_path):
    run(_fill(store_url, shop))
    for attempt in (1, 2):  # killed mid-turn (blocked in an API), twice: the second process runs it again
        child = start_child(store_url, shop, {"message": "menu_0 = Menu(section='Mains')", "event_id": "menu"},
                            "SHOP_BLOCK_IN_MENU", tmp_path / f"in-menu-{attempt}")
        kill_when_blocked(child, tmp_path / f"in-menu-{attempt}")
    notes = restart(store_url, shop)
    _, (status, _), _, turns = store_view(store_url, "menu")
    assert [n.reply.text for n in notes] == [PARKED_AFTER_INTERRUPTIONS] and status == "parked"
    assert [(t.event_id, t.outcome) for t in turns][-1] == ("menu", "parked")


async def _fill(url, shop) -> None:
    async with make_engine(url, shop) as engine:
        await engine.handle_message(KEY, "U1", ORDER[0], "fill-0")
