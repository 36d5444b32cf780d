"""API functions of the Pine Hollow State Park campground agent (a made-up domain of the test suite).

``reserve_campsite`` and ``cancel_reservation`` have side effects: they write to the local
submissions ledger (``$GENIE_DATA_DIR/submissions.sqlite3``), exactly once per idempotency key.
``find_reservation`` only reads that ledger.
"""

from __future__ import annotations

import datetime as dt
from typing import Any

from genie_bot.submissions import record_submission, submissions

EXTRA_PRICES = {  # (price, per night?)
    "Firewood": (8, True),
    "Ice": (4, True),
    "Kayak Rental": (35, True),
    "Early Check-in": (15, False),
    "Second Vehicle": (10, True),
}
CANCEL_FEE = 10.0


def _date(value: dt.date | str) -> dt.date:
    return value if isinstance(value, dt.date) else dt.date.fromisoformat(str(value))


def _code(reservation_code: str) -> str:
    return "CG-" + "".join(c for c in str(reservation_code) if c.isdigit())


def reserve_campsite(site: dict[str, Any] | str, arrival_date: dt.date | str, departure_date: dt.date | str,
                     num_people: int, bringing_pets: bool, camper_name: str, email: str,
                     extras: list[str] | None = None, idempotency_key: str | None = None) -> dict[str, Any]:
    """Reserve the site for the nights from arrival to departure; return the code and the total."""
    record = site if isinstance(site, dict) else {"site_id": str(site)}
    nights = max(1, (_date(departure_date) - _date(arrival_date)).days)
    chosen = [e for e in (extras or []) if e in EXTRA_PRICES]
    total = nights * float(record.get("nightly_price") or 0)
    for extra in chosen:
        price, per_night = EXTRA_PRICES[extra]
        total += price * nights if per_night else price
    reservation = {"site_id": record.get("site_id"), "loop": record.get("loop"),
                   "arrival_date": str(arrival_date), "departure_date": str(departure_date), "nights": nights,
                   "num_people": num_people, "bringing_pets": bool(bringing_pets), "extras": chosen,
                   "camper_name": camper_name, "email": str(email).strip(), "total_price": round(total, 2)}
    code = record_submission("campsite_reservation", reservation, idempotency_key, prefix="CG-")
    return {"reservation_code": code, "total_price": round(total, 2)}


def _cancelled_codes() -> set[str]:
    return {row["payload"].get("reservation_code") for row in submissions("campsite_cancellation")}


def find_reservation(reservation_code: str) -> dict[str, Any]:
    """The status and details of a reservation made through this agent."""
    wanted = _code(reservation_code)
    for row in submissions("campsite_reservation"):
        if row["id"] == wanted:
            p = row["payload"]
            status = "cancelled" if wanted in _cancelled_codes() else "active"
            details = (f"site {p['site_id']}, {p['nights']} nights from {p['arrival_date']} to {p['departure_date']}, "
                       f"{p['num_people']} people")
            return {"reservation_code": wanted, "reservation_status": status, "details": details}
    return {"reservation_code": wanted, "reservation_status": "not found", "details": "no reservation with this code"}


def cancel_reservation(reservation_code: str, idempotency_key: str | None = None) -> dict[str, Any]:
    """Cancel a reservation: everything is refunded but a $10 fee, and the first night when it starts within 7 days."""
    wanted = _code(reservation_code)
    refund = 0.0
    for row in submissions("campsite_reservation"):
        if row["id"] == wanted:
            p = row["payload"]
            refund = float(p.get("total_price") or 0) - CANCEL_FEE
            if (_date(p["arrival_date"]) - dt.date.today()).days < 7:
                refund -= float(p.get("total_price") or 0) / max(1, int(p.get("nights") or 1))
    record_submission("campsite_cancellation", {"reservation_code": wanted, "refund": max(0.0, round(refund, 2))},
                      idempotency_key, prefix="CX-")
    return {"refund": max(0.0, round(refund, 2))}
