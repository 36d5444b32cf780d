"""API functions of the DevSummit 2027 registration agent (a made-up domain of the test suite).

``register`` has side effects: it records the registration in the local submissions ledger
(``$GENIE_DATA_DIR/submissions.sqlite3``), exactly once per idempotency key.
``registration_status`` only reads that ledger.
"""

from __future__ import annotations

import datetime as dt
from typing import Any

from genie_bot.submissions import record_submission, submissions

PRICES = {"Full Pass": 899.0, "Day Pass": 399.0, "Student": 149.0, "Workshop Only": 249.0}
GROUP_DISCOUNT_FROM = 5  # people; 15% off


def register(attendee_name: str, email: str, ticket_type: str, attendees: int, dietary_need: str,
             tshirt_size: str, day: dt.date | str | None = None, workshops: list[Any] | None = None,
             allergies: str | None = None, company: str | None = None,
             idempotency_key: str | None = None) -> dict[str, Any]:
    """Register ``attendees`` people on one ticket type; return the id and the total price."""
    total = PRICES.get(ticket_type, 0.0) * int(attendees)
    if int(attendees) >= GROUP_DISCOUNT_FROM:
        total *= 0.85
    chosen = [w.get("session_id") if isinstance(w, dict) else str(w) for w in (workshops or [])]
    registration = {"attendee_name": attendee_name, "email": email.strip(), "ticket_type": ticket_type,
                    "day": str(day) if day else None, "attendees": attendees, "workshops": chosen,
                    "dietary_need": dietary_need, "allergies": allergies if allergies not in (None, "NA") else None,
                    "tshirt_size": tshirt_size, "company": company if company not in (None, "NA") else None}
    registration_id = record_submission("registration", registration, idempotency_key, prefix="DS-")
    return {"registration_id": registration_id, "total_price": round(total, 2), "status": "registered"}


def registration_status(registration_id: str) -> dict[str, Any]:
    """The status of a registration made through this agent."""
    wanted = "DS-" + "".join(c for c in registration_id if c.isdigit())
    for row in submissions("registration"):
        if row["id"] == wanted:
            return {"registration_id": wanted, "status": "registered", "ticket_type": row["payload"]["ticket_type"]}
    return {"registration_id": wanted, "status": "not found"}
