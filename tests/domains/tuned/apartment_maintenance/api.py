"""API functions of the Maple Court maintenance agent (a made-up domain of the test suite).

``submit_work_order`` has side effects: it files the request in the local submissions ledger
(``$GENIE_DATA_DIR/submissions.sqlite3``), exactly once per idempotency key.
``work_order_status`` only reads that ledger.
"""

from __future__ import annotations

from typing import Any

from genie_bot.submissions import record_submission, submissions

WINDOW_ORDER = ["Weekday Morning", "Weekday Afternoon", "Weekday Evening", "Saturday Morning"]


def submit_work_order(resident_name: str, unit: str, category: str, problem_description: str, urgent: bool,
                      permission_to_enter: bool, phone: str, appliance: str | None = None, pets: str | None = None,
                      preferred_windows: list[str] | None = None,
                      idempotency_key: str | None = None) -> dict[str, Any]:
    """File a work order; emergencies are dispatched at once, others in the first window offered."""
    windows = [w for w in WINDOW_ORDER if w in (preferred_windows or [])]
    scheduled = "within 2 hours" if urgent else (f"in the next {windows[0].lower()} slot" if windows
                                                  else "at the next free slot")
    order = {"resident_name": resident_name, "unit": unit.strip().upper(), "category": category,
             "appliance": appliance, "problem_description": problem_description, "urgent": urgent,
             "permission_to_enter": permission_to_enter, "pets": pets if pets not in (None, "NA") else None,
             "preferred_windows": windows, "phone": phone}
    work_order_id = record_submission("work_order", order, idempotency_key, prefix="WO-")
    return {"work_order_id": work_order_id, "scheduled_for": scheduled, "status": "open"}


def work_order_status(work_order_id: str) -> dict[str, Any]:
    """The status of a work order filed through this agent."""
    digits = "".join(c for c in work_order_id if c.isdigit())
    wanted = f"WO-{digits}"
    for row in submissions("work_order"):
        if row["id"] == wanted:
            urgent = row["payload"]["urgent"]
            return {"work_order_id": wanted, "status": "dispatched" if urgent else "scheduled"}
    return {"work_order_id": wanted, "status": "not found"}
