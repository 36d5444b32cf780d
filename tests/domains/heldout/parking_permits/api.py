"""API functions of the City of Riverton parking permit agent (a made-up domain of the test suite).

``apply_permit``, ``renew_permit`` and ``cancel_permit`` have side effects: they record the
application, renewal or cancellation in the local submissions ledger
(``$GENIE_DATA_DIR/submissions.sqlite3``), exactly once per idempotency key. Existing permits are
read from ``data/permits.csv`` and prices from ``data/zones.csv``.
"""

from __future__ import annotations

import calendar
import csv
import datetime as dt
from pathlib import Path
from typing import Any

from genie_bot.submissions import record_submission

DATA = Path(__file__).resolve().parent / "data"
MONTHS = {"1 Month": 1, "3 Months": 3, "12 Months": 12}
PRICE_MONTHS = {"1 Month": 1, "3 Months": 3, "12 Months": 10}  # a year costs ten months
VISITOR_PASS_PER_MONTH = 5.0
FIRST_PERMIT = 30421  # PP-30418..PP-30421 are in data/permits.csv


def _rows(name: str) -> list[dict[str, str]]:
    with (DATA / name).open(newline="", encoding="utf-8") as fh:
        return list(csv.DictReader(fh))


def _permit_number(value: str) -> str:
    return "PP-" + "".join(c for c in str(value) if c.isdigit())


def _add_months(day: dt.date, months: int) -> dt.date:
    month = day.month - 1 + months
    year, month = day.year + month // 12, month % 12 + 1
    return dt.date(year, month, min(day.day, calendar.monthrange(year, month)[1]))


def _zone(code: str) -> dict[str, str]:
    return next((z for z in _rows("zones.csv") if z["zone_code"] == code), {"monthly_price": "0"})


def _permit(number: str) -> dict[str, str] | None:
    wanted = _permit_number(number)
    return next((p for p in _rows("permits.csv") if p["permit_number"] == wanted), None)


def apply_permit(zone: dict[str, Any] | str, permit_length: str, start_date: dt.date | str, plate: str, vehicle: str,
                 visitor_passes: int, resident_name: str, home_address: str, household_permits: int,
                 idempotency_key: str | None = None) -> dict[str, Any]:
    """Record a permit application; return the permit number and the total price."""
    record = zone if isinstance(zone, dict) else _zone(str(zone))
    months = MONTHS.get(permit_length, 1)
    total = float(record.get("monthly_price") or 0) * PRICE_MONTHS.get(permit_length, 1)
    total += VISITOR_PASS_PER_MONTH * int(visitor_passes) * months
    application = {"zone_code": record.get("zone_code"), "permit_length": permit_length,
                   "start_date": str(start_date), "plate": "".join(plate.split()).replace("-", "").upper(),
                   "vehicle": vehicle, "visitor_passes": int(visitor_passes), "resident_name": resident_name,
                   "home_address": home_address, "household_permits": int(household_permits)}
    number = record_submission("parking_permit", application, idempotency_key, prefix="")
    return {"permit_number": f"PP-{FIRST_PERMIT + int(number)}", "total_price": round(total, 2)}


def renew_permit(permit_number: str, renewal_length: str, idempotency_key: str | None = None) -> dict[str, Any]:
    """Renew a permit from the day after it ends; return the new end date and the price."""
    permit = _permit(permit_number)
    if permit is None:
        return {"new_end_date": "not renewed: permit not found", "amount_due": 0.0}
    ends = dt.date.fromisoformat(permit["ends"])
    new_end = _add_months(ends, MONTHS.get(renewal_length, 1))
    price = float(_zone(permit["zone_code"])["monthly_price"]) * PRICE_MONTHS.get(renewal_length, 1)
    record_submission("parking_permit_renewal", {"permit_number": permit["permit_number"],
                                                 "renewal_length": renewal_length, "new_end_date": str(new_end)},
                      idempotency_key, prefix="REN-")
    return {"new_end_date": new_end.strftime("%B %d, %Y").replace(" 0", " "), "amount_due": round(price, 2)}


def cancel_permit(permit_number: str, cancel_reason: str | None = None,
                  idempotency_key: str | None = None) -> dict[str, Any]:
    """Cancel a permit; unused full months are refunded."""
    permit = _permit(permit_number)
    refund = 0.0
    if permit is not None:
        ends = dt.date.fromisoformat(permit["ends"])
        today = dt.date.today()
        full_months = max(0, (ends.year - today.year) * 12 + ends.month - today.month - 1)
        refund = full_months * float(_zone(permit["zone_code"])["monthly_price"])
    record_submission("parking_permit_cancellation", {"permit_number": _permit_number(permit_number),
                                                      "cancel_reason": cancel_reason}, idempotency_key, prefix="CAN-")
    return {"refund": round(refund, 2)}
