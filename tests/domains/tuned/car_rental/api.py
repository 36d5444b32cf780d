"""API functions of the Bayline Car Rental agent (a made-up domain of the test suite).

``reserve_car`` has side effects: it records the reservation in the local submissions ledger
(``$GENIE_DATA_DIR/submissions.sqlite3``), exactly once per idempotency key.
``find_reservation`` only reads that ledger.
"""

from __future__ import annotations

import datetime as dt
from typing import Any

from genie_bot.submissions import record_submission, submissions

EXTRA_PER_DAY = {"GPS": 12, "Child Seat": 14, "Ski Rack": 15, "Additional Driver": 13, "Toll Pass": 9}
ONE_WAY_FEE = 75
YOUNG_DRIVER_PER_DAY = 25  # drivers under 25


def _date(value: dt.date | str) -> dt.date:
    return value if isinstance(value, dt.date) else dt.date.fromisoformat(str(value))


def reserve_car(pickup_location: str, pickup_date: dt.date | str, pickup_time: dt.time | str,
                return_date: dt.date | str, return_location: str, car: dict[str, Any] | str, driver_age: int,
                driver_name: str, email: str, extras: list[str] | None = None,
                idempotency_key: str | None = None) -> dict[str, Any]:
    """Reserve a car and return the reservation number and the estimated total."""
    record = car if isinstance(car, dict) else {"model": str(car)}
    days = max(1, (_date(return_date) - _date(pickup_date)).days)
    chosen = [e for e in (extras or []) if e in EXTRA_PER_DAY]
    per_day = float(record.get("daily_rate") or 0) + sum(EXTRA_PER_DAY[e] for e in chosen)
    per_day += YOUNG_DRIVER_PER_DAY if int(driver_age) < 25 else 0
    total = days * per_day + (ONE_WAY_FEE if return_location != pickup_location else 0)
    reservation = {"pickup_location": pickup_location, "pickup_date": str(pickup_date), "pickup_time": str(pickup_time),
                   "return_date": str(return_date), "return_location": return_location,
                   "car_id": record.get("car_id"), "car": f"{record.get('make', '')} {record.get('model', '')}".strip(),
                   "driver_age": driver_age, "extras": chosen, "driver_name": driver_name, "email": email.strip()}
    number = record_submission("car_rental", reservation, idempotency_key, prefix="BL-")
    return {"reservation_number": number, "total_price": round(total, 2), "status": "reserved"}


def find_reservation(reservation_number: str) -> dict[str, Any]:
    """The status of a reservation made through this agent."""
    wanted = "BL-" + "".join(c for c in reservation_number if c.isdigit())
    for row in submissions("car_rental"):
        if row["id"] == wanted:
            payload = row["payload"]
            return {"reservation_number": wanted, "status": "reserved", "car": payload["car"],
                    "pickup_date": payload["pickup_date"], "pickup_location": payload["pickup_location"]}
    return {"reservation_number": wanted, "status": "not found"}
