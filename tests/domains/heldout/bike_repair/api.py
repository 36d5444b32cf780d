"""API functions of the Spoke & Sprocket Cycles agent (a made-up domain of the test suite).

``book_repair`` has side effects: it records the booking in the local submissions ledger
(``$GENIE_DATA_DIR/submissions.sqlite3``), exactly once per idempotency key.
``repair_status`` only reads ``data/repairs.csv`` and that ledger.
"""

from __future__ import annotations

import csv
import datetime as dt
from pathlib import Path
from typing import Any

from genie_bot.submissions import record_submission, submissions

REPAIRS = Path(__file__).resolve().parent / "data" / "repairs.csv"
SERVICE_PRICE = {"Basic Tune-Up": 79.0, "Full Overhaul": 249.0, "Flat Tire Repair": 20.0, "Brake Service": 45.0,
                 "Drivetrain Service": 65.0, "Wheel Truing": 35.0, "E-Bike Diagnostic": 90.0, "Other Repair": 0.0}
PICKUP_DELIVERY_FEE = 25.0
FIRST_TICKET = 4900  # tickets BR-4821.. are in data/repairs.csv; new ones start after them


def _ticket(value: str) -> str:
    return "BR-" + "".join(c for c in str(value) if c.isdigit())


def book_repair(service: str, bike_type: str, problem_description: str, dropoff_date: dt.date | str,
                dropoff_time: dt.time | str, pickup_delivery: bool, customer_name: str, phone: str, email: str,
                spending_limit: float | None = None, pickup_address: str | None = None,
                idempotency_key: str | None = None) -> dict[str, Any]:
    """Book the bike in; return the repair ticket and the estimate before parts."""
    booking = {"service": service, "bike_type": bike_type, "problem_description": problem_description,
               "dropoff_date": str(dropoff_date), "dropoff_time": str(dropoff_time)[:5],
               "spending_limit": spending_limit, "pickup_delivery": bool(pickup_delivery),
               "pickup_address": pickup_address if pickup_delivery else None,
               "customer_name": customer_name, "phone": phone.strip(), "email": email.strip()}
    number = record_submission("bike_repair", booking, idempotency_key, prefix="")
    ticket = f"BR-{FIRST_TICKET + int(number)}"
    estimate = SERVICE_PRICE.get(service, 0.0) + (PICKUP_DELIVERY_FEE if pickup_delivery else 0.0)
    return {"ticket": ticket, "estimate": estimate}


def repair_status(ticket: str) -> dict[str, Any]:
    """Where a repair is, from the shop's repair list or the bookings made through this agent."""
    wanted = _ticket(ticket)
    with REPAIRS.open(newline="", encoding="utf-8") as fh:
        for row in csv.DictReader(fh):
            if row["ticket"] == wanted:
                return {"ticket": wanted, "repair_stage": row["status"], "ready_by": row["ready_by"]}
    for row in submissions("bike_repair"):
        if f"BR-{FIRST_TICKET + int(row['id'])}" == wanted:
            return {"ticket": wanted, "repair_stage": "booked, waiting for drop-off",
                    "ready_by": "two days after drop-off"}
    return {"ticket": wanted, "repair_stage": "not found", "ready_by": "unknown"}
