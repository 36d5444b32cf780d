"""API functions of the Two Trucks Moving agent (a made-up domain of the test suite).

``request_quote`` has side effects: it records the quote request in the local submissions ledger
(``$GENIE_DATA_DIR/submissions.sqlite3``), exactly once per idempotency key.
``quote_lookup`` only reads that ledger.
"""

from __future__ import annotations

import datetime as dt
from typing import Any

from genie_bot.submissions import record_submission, submissions

BASE = {"Studio": 450, "1 Bedroom": 700, "2 Bedrooms": 1100, "3 Bedrooms": 1700, "4+ Bedrooms": 2600, "Office": 1500}
PACKING = {"Full Packing": 0.45, "Fragile Only": 0.15, "No Packing": 0.0}
PER_FLIGHT = 60
FLEXIBLE_DISCOUNT = 0.9


def request_quote(from_address: str, to_address: str, move_date: dt.date | str, flexible_date: bool,
                  home_size: str, flights_of_stairs: int, packing: str, customer_name: str, phone: str,
                  large_items: list[Any] | None = None, arrival_time: dt.time | str | None = None,
                  idempotency_key: str | None = None) -> dict[str, Any]:
    """Price a move and record the request; return the quote id and a price range."""
    items = [i for i in (large_items or []) if isinstance(i, dict)]
    price = BASE.get(home_size, 1000) * (1 + PACKING.get(packing, 0.0)) + PER_FLIGHT * int(flights_of_stairs)
    price += sum(float(i.get("handling_fee") or 0) for i in items)
    price *= FLEXIBLE_DISCOUNT if flexible_date else 1.0
    estimate = f"${round(price * 0.9, -1):,.0f} to ${round(price * 1.15, -1):,.0f}"
    quote = {"from_address": from_address, "to_address": to_address, "move_date": str(move_date),
             "flexible_date": flexible_date, "home_size": home_size, "flights_of_stairs": flights_of_stairs,
             "large_items": [i.get("item") for i in items], "packing": packing,
             "arrival_time": str(arrival_time) if arrival_time not in (None, "NA") else None,
             "customer_name": customer_name, "phone": phone, "estimate": estimate}
    quote_id = record_submission("moving_quote", quote, idempotency_key, prefix="MV-")
    return {"quote_id": quote_id, "estimate": estimate, "status": "quoted"}


def quote_lookup(quote_id: str) -> dict[str, Any]:
    """A quote made through this agent."""
    wanted = "MV-" + "".join(c for c in quote_id if c.isdigit())
    for row in submissions("moving_quote"):
        if row["id"] == wanted:
            return {"quote_id": wanted, "estimate": row["payload"]["estimate"], "move_date": row["payload"]["move_date"]}
    return {"quote_id": wanted, "estimate": "not found"}
