"""API functions of the Peak Fitness gym agent (a made-up domain of the test suite).

``book_class`` and ``freeze_membership`` have side effects: they write to the local submissions
ledger (``$GENIE_DATA_DIR/submissions.sqlite3``), exactly once per idempotency key.
``membership_status`` only reads ``data/members.csv``.
"""

from __future__ import annotations

import csv
import datetime as dt
from pathlib import Path
from typing import Any

from genie_bot.submissions import record_submission

MEMBERS = Path(__file__).resolve().parent / "data" / "members.csv"
FREEZE_FEE = "$5.00 a month"


def _member_number(member_id: str) -> str:
    digits = "".join(c for c in str(member_id) if c.isdigit())
    return f"PF-{digits}"


def book_class(class_session: dict[str, Any] | str, date: dt.date | str, member_id: str,
               guest_name: str | None = None, idempotency_key: str | None = None) -> dict[str, Any]:
    """Book the member (and a guest) into one meeting of a class; return the booking reference."""
    record = class_session if isinstance(class_session, dict) else {"name": str(class_session)}
    booking = {"class_id": record.get("class_id"), "class_name": record.get("name"),
               "start_time": record.get("start_time"), "date": str(date), "member_id": _member_number(member_id),
               "guest_name": guest_name if guest_name not in (None, "NA") else None}
    reference = record_submission("gym_class_booking", booking, idempotency_key, prefix="BK-")
    return {"booking_reference": reference, **booking}


def freeze_membership(member_id: str, first_day: dt.date | str, last_day: dt.date | str, reason: str,
                      note: str | None = None, idempotency_key: str | None = None) -> dict[str, Any]:
    """Freeze a membership from ``first_day`` to ``last_day`` (both included)."""
    freeze = {"member_id": _member_number(member_id), "first_day": str(first_day), "last_day": str(last_day),
              "reason": reason, "note": note if note not in (None, "NA") else None}
    reference = record_submission("gym_membership_freeze", freeze, idempotency_key, prefix="FRZ-")
    return {"freeze_id": reference, "freeze_fee": FREEZE_FEE, **freeze}


def membership_status(member_id: str) -> dict[str, Any]:
    """The status and plan of a membership, from the members file."""
    wanted = _member_number(member_id)
    with MEMBERS.open(newline="", encoding="utf-8") as fh:
        for row in csv.DictReader(fh):
            if row["member_id"] == wanted:
                return {"member_id": wanted, "status": row["status"], "plan": row["plan"],
                        "home_club": row["home_club"]}
    return {"member_id": wanted, "status": "not found", "plan": "unknown"}
