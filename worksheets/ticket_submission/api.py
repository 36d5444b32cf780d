"""API functions of the ticket submission agent.

``submit_ticket`` has side effects: it files a ticket in the local submissions ledger
(``$GENIE_DATA_DIR/submissions.sqlite3``), exactly once per idempotency key.
"""

from __future__ import annotations

from typing import Any

from genie_bot.submissions import record_submission, submissions


def submit_ticket(student_task: str, details: dict[str, Any] | None, extra_details: str | None, full_name: str,
                  email: str, idempotency_key: str | None = None) -> dict[str, Any]:
    """File a student services ticket and return its id."""
    payload = {"student_task": student_task, "details": details or {}, "extra_details": extra_details,
               "full_name": full_name, "email": email}
    ticket_id = record_submission("ticket", payload, idempotency_key, prefix="TKT-")
    return {"ticket_id": ticket_id, "status": "submitted"}


def ticket_status(ticket_id: str) -> dict[str, Any]:
    """Look up a previously filed ticket."""
    wanted = ticket_id.strip().upper()
    for row in submissions("ticket"):
        if row["id"] == wanted:
            return {"ticket_id": row["id"], "status": "open", "student_task": row["payload"]["student_task"],
                    "filed_at": row["created_at"]}
    return {"ticket_id": wanted, "status": "not found"}
