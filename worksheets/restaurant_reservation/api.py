"""API functions of the restaurant reservation agent.

``book_restaurant`` has side effects: it records the booking in the local submissions ledger
(``$GENIE_DATA_DIR/submissions.sqlite3``, default ``./var``), exactly once per idempotency
key. The runtime calls it only after the user confirmed the booking.
"""

from __future__ import annotations

import datetime as dt
from typing import Any

from genie_bot.submissions import record_submission


def book_restaurant(restaurant: dict[str, Any] | str, date: dt.date | str, time: dt.time | str, num_people: int,
                    special_request: str | None = None, idempotency_key: str | None = None) -> dict[str, Any]:
    """Book a table; return the confirmation code and what was booked."""
    record = restaurant if isinstance(restaurant, dict) else {"name": str(restaurant)}
    booking = {
        "restaurant_id": record.get("id"),
        "restaurant_name": record.get("name"),
        "address": record.get("address"),
        "phone": record.get("phone"),
        "date": _iso(date),
        "time": _iso(time, minutes=True),
        "num_people": num_people,
        "special_request": special_request,
    }
    code = record_submission("restaurant_booking", booking, idempotency_key, prefix="RES-")
    return {"confirmation_code": code, "status": "booked", **booking}


def _iso(value: Any, minutes: bool = False) -> str | None:
    if value is None:
        return None
    if isinstance(value, dt.time):
        return value.isoformat(timespec="minutes") if minutes else value.isoformat()
    if isinstance(value, dt.date):
        return value.isoformat()
    return str(value)
