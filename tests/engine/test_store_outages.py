"""What the user is told of a turn the store could not take is what happens to it, never both.

The store turns read-only (:class:`.faults.ReadOnly`: every write fails as the driver reports it,
on SQLite and PostgreSQL) at a chosen moment of a real engine's turn:

- during an ordinary turn, for good: the user hears the message will be finished (no "please try
  again", which would apply it twice), and once the store is back it is applied once and its
  reply delivered;
- for the commit alone: the failure is recorded, the user is told nothing changed, and the
  message never runs;
- after a confirmed call ran: the user hears it went through (not "could not handle that"), the
  outcome is recorded when the store is back, and nothing calls the API again; if the process
  is restarted before that, the next one reports the call as interrupted (a notice delivered)
  and a new confirmation of the task reuses the first attempt's idempotency key.
"""

from __future__ import annotations

from genie_bot.engine import ClickOutcome, Decision
from genie_bot.engine.turns import APOLOGY, DEFERRED, INTERRUPTED_NOTICE, RAN_UNSAVED, UNKNOWN_BEFORE_OFFER
from genie_bot.state import DialogueState
from genie_bot.store import Database, inbox, sessions, traces

from .faults import CLAIM, START, ReadOnly
from .support import KEY, ORDER, calls, make_engine, run
from .test_side_effect_outcomes import action_rows, ask, fast


def session_view(url: str) -> tuple[DialogueState, list[tuple[str | None, str]], dict[str, str]]:
    db = Database(url)
    with db.read() as conn:
        row = sessions.load(conn, str(KEY))
        turns = [(t.event_id, t.outcome) for t in traces.for_session(conn, str(KEY))]
        statuses = {e: inbox.outcome(conn, ("slack", e))[0] for e, _ in turns}
    db.dispose()
    assert row is not None and row.state is not None
    return DialogueState.from_json(row.state), turns, statuses


def notes_sink(notes: list):
    async def sink(notification):
        notes.append(notification)
    return sink


def test_a_turn_the_store_cannot_take_is_deferred_then_applied_once(store_url, shop):
    notes: list = []

    async def scenario():
        async with make_engine(store_url, shop) as engine:
            engine.add_sink("slack", notes_sink(notes))
            fast(engine)
            await engine.handle_message(KEY, "U1", ORDER[0], "m1")
            store = ReadOnly(engine.db.engine, START, status="running")
            deferred = await engine.handle_message(KEY, "U1", ORDER[1], "m2")
            still_away = await engine.resume_stalled()
            store.end()
            resumed = await engine.resume_stalled()
            redelivered = await engine.handle_message(KEY, "U1", ORDER[1], "m2")
            return store.failed, deferred, still_away, resumed, redelivered

    failed, deferred, still_away, resumed, redelivered = run(scenario())
    assert failed >= 2 and deferred[0].text == DEFERRED and deferred[0].outcome == ClickOutcome.DEFERRED
    assert "try again" not in DEFERRED
    assert (still_away, resumed) == (0, 1) and redelivered == []
    assert [n.reply.text for n in notes] == ["What is the name for the order?"]  # the real reply, delivered
    state, turns, statuses = session_view(store_url)
    assert state.instances["order_0"].values["count"] == 2
    assert turns == [("m1", "ok"), ("m2", "ok")] and statuses == {"m1": "done", "m2": "done"}


def test_a_commit_the_store_refuses_once_is_recorded_as_failed_and_never_applied(store_url, shop):
    async def scenario():
        async with make_engine(store_url, shop) as engine:
            await engine.handle_message(KEY, "U1", ORDER[0], "m1")
            ReadOnly(engine.db.engine, START, status="running", writes=1)
            failed = await engine.handle_message(KEY, "U1", ORDER[1], "m2")
            return failed, await engine.resume_stalled(), await engine.handle_message(KEY, "U1", ORDER[1], "m2")

    failed, resumed, redelivered = run(scenario())
    assert failed[0].text == APOLOGY and (resumed, redelivered) == (0, [])
    state, turns, statuses = session_view(store_url)
    assert "count" not in state.instances["order_0"].values
    assert turns == [("m1", "ok"), ("m2", "failed")] and statuses["m2"] == "failed"


def test_a_call_that_ran_while_the_store_turned_read_only_is_told_and_recorded_never_repeated(store_url, shop):
    notes: list = []

    async def scenario():
        async with make_engine(store_url, shop) as engine:
            engine.add_sink("slack", notes_sink(notes))
            action_id = await ask(fast(engine))
            store = ReadOnly(engine.db.engine, CLAIM, status="executing")
            clicked = await engine.handle_action(KEY, "U1", action_id, Decision.CONFIRM, "c1")
            during = [a.status for a in action_rows(store_url)]
            store.end()
            await engine.resume_stalled()
            after = [a.status for a in action_rows(store_url)]
            again = await engine.handle_action(KEY, "U1", action_id, Decision.CONFIRM, "c2")
            return action_id, clicked, during, after, again

    action_id, clicked, during, after, again = run(scenario())
    assert clicked[0].text == RAN_UNSAVED.format(api="place_order", id=action_id)
    assert (during, after) == (["executing"], ["done"]) and notes == []
    assert again[0].outcome == ClickOutcome.DONE and "Order Pizza-2-Ann placed" in again[0].text
    assert [c["key"] for c in calls()] == [action_id]


def test_a_process_restarted_before_the_store_is_back_reports_the_call_and_keeps_its_key(store_url, shop):
    notes: list = []

    async def outage():
        async with make_engine(store_url, shop) as engine:
            action_id = await ask(fast(engine))
            store = ReadOnly(engine.db.engine, CLAIM, status="executing")
            clicked = await engine.handle_action(KEY, "U1", action_id, Decision.CONFIRM, "c1")
            store.end()  # back, but this process stops before its heartbeat writes what it knows
            return action_id, clicked

    async def after_restart():
        engine = make_engine(store_url, shop)
        engine.add_sink("slack", notes_sink(notes))
        async with engine:  # its start-up recovers what the stopped process left
            offered = await engine.handle_message(KEY, "U1", "# and now?", "m-now")
            done = await engine.handle_action(KEY, "U1", offered[0].pending_action.id, Decision.CONFIRM, "c2")
            return offered, done

    action_id, clicked = run(outage())
    offered, done = run(after_restart())
    assert clicked[0].text == RAN_UNSAVED.format(api="place_order", id=action_id)
    assert [n.reply.text for n in notes] == [INTERRUPTED_NOTICE.format(api="place_order", id=action_id)]
    assert offered[0].text.startswith(UNKNOWN_BEFORE_OFFER.format(api="place_order", id=action_id))
    assert done[0].outcome == ClickOutcome.DONE
    assert [c["key"] for c in calls()] == [action_id, action_id]  # one intent, one key: the API can deduplicate


def test_a_conversation_started_over_does_not_take_the_key_of_an_interrupted_call(store_url, shop):
    async def outage():
        async with make_engine(store_url, shop) as engine:
            action_id = await ask(fast(engine))
            store = ReadOnly(engine.db.engine, CLAIM, status="executing")
            await engine.handle_action(KEY, "U1", action_id, Decision.CONFIRM, "c1")
            store.end()
            return action_id

    async def started_over():
        async with make_engine(store_url, shop) as engine:
            await engine.reset(KEY)
            for i, text in enumerate(ORDER):
                asked = await engine.handle_message(KEY, "U1", text, f"again-{i}")
            done = await engine.handle_action(KEY, "U1", asked[0].pending_action.id, Decision.CONFIRM, "c2")
            return asked, done

    action_id = run(outage())
    asked, done = run(started_over())
    assert "earlier attempt" not in asked[0].text and done[0].outcome == ClickOutcome.DONE
    assert [c["key"] for c in calls()] == [action_id, asked[0].pending_action.id]
