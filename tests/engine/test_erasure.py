"""Erasing a workspace: its sessions, events, turn traces and pending actions go; other workspaces' stay."""

from __future__ import annotations

import asyncio

from sqlalchemy import text

from genie_bot.engine import SessionKey

from .support import ORDER, make_engine, run

TABLES = ("genie_sessions", "genie_events", "genie_turns", "genie_pending_actions")
A = SessionKey("slack", "TA", "C1", "1700000000.000100")
B = SessionKey("slack", "TB", "C1", "1700000000.000100")  # the same channel and thread in another workspace


def rows_by_workspace(engine) -> dict[str, dict[str, int]]:
    counts: dict[str, dict[str, int]] = {}
    with engine.db.read() as conn:
        for table in TABLES:
            column = "key" if table == "genie_sessions" else "session_key"
            for key, in conn.execute(text(f"SELECT {column} FROM {table}")):
                workspace = SessionKey.parse(key).workspace
                counts.setdefault(workspace, {}).setdefault(table, 0)
                counts[workspace][table] += 1
    return counts


def test_erasing_a_workspace_leaves_the_others_and_a_second_erase_finds_nothing(store_url, shop):
    async def scenario():
        async with make_engine(store_url, shop) as engine:
            for key in (A, B):
                for number, message in enumerate(ORDER):
                    await engine.handle_message(key, "U1", message, f"{key.workspace}-{number}")
            before = rows_by_workspace(engine)
            erased = await asyncio.gather(engine.erase_workspace("slack", "TA"), engine.erase_workspace("slack", "TA"))
            again = await engine.erase_workspace("slack", "TA")
            return before, erased, again, rows_by_workspace(engine)

    before, erased, again, after = run(scenario())
    assert before["TA"] == before["TB"] == {"genie_sessions": 1, "genie_events": 3, "genie_turns": 3,
                                            "genie_pending_actions": 1}
    assert sorted(erased) == [0, 1] and again == 0  # two erasures at once: one erases, the other finds it gone
    assert after == {"TB": before["TB"]}
