"""API functions of the Cedar Pharmacy agent (a made-up domain of the test suite).

``refill_prescription`` and ``transfer_prescription`` have side effects: they write to the local
submissions ledger (``$GENIE_DATA_DIR/submissions.sqlite3``), exactly once per idempotency key.
``refill_status`` only reads that ledger.
"""

from __future__ import annotations

import datetime as dt
from typing import Any

from genie_bot.submissions import record_submission, submissions

DELIVERY_FEE = 4.99


def _medication(record: dict[str, Any] | str) -> dict[str, Any]:
    return record if isinstance(record, dict) else {"brand_name": str(record)}


def refill_prescription(medication: dict[str, Any] | str, rx_number: str, supply: str, fulfillment: str,
                        ready_date: dt.date | str, patient_name: str, date_of_birth: dt.date | str,
                        delivery_address: str | None = None, notes: str | None = None,
                        idempotency_key: str | None = None) -> dict[str, Any]:
    """Place a refill order; return its number and the price to pay."""
    med = _medication(medication)
    months = 3 if supply.startswith("90") else 1
    copay = float(med.get("price_30_day") or 0) * months * (0.8 if months == 3 else 1.0)
    copay += DELIVERY_FEE if fulfillment == "Home Delivery" else 0
    order = {"med_id": med.get("med_id"), "medication": f"{med.get('brand_name', '')} {med.get('strength', '')}".strip(),
             "rx_number": "".join(c for c in rx_number if c.isdigit()), "supply": supply, "fulfillment": fulfillment,
             "ready_date": str(ready_date), "delivery_address": delivery_address, "patient_name": patient_name,
             "date_of_birth": str(date_of_birth), "notes": notes if notes not in (None, "NA") else None}
    number = record_submission("refill", order, idempotency_key, prefix="RF-")
    return {"order_number": number, "copay": round(copay, 2), "status": "received"}


def transfer_prescription(patient_name: str, date_of_birth: dt.date | str, medication: dict[str, Any] | str,
                          current_pharmacy: str, current_pharmacy_phone: str, insurance_changed: bool,
                          idempotency_key: str | None = None) -> dict[str, Any]:
    """Request a transfer from another pharmacy; return the request's number."""
    med = _medication(medication)
    request = {"patient_name": patient_name, "date_of_birth": str(date_of_birth), "med_id": med.get("med_id"),
               "current_pharmacy": current_pharmacy, "current_pharmacy_phone": current_pharmacy_phone,
               "insurance_changed": insurance_changed}
    number = record_submission("transfer", request, idempotency_key, prefix="TR-")
    return {"transfer_id": number, "status": "requested"}


def refill_status(order_number: str) -> dict[str, Any]:
    """The status of a refill order placed through this agent."""
    wanted = "RF-" + "".join(c for c in order_number if c.isdigit())
    for row in submissions("refill"):
        if row["id"] == wanted:
            return {"order_number": wanted, "status": "being filled", "ready_date": row["payload"]["ready_date"]}
    return {"order_number": wanted, "status": "not found"}
