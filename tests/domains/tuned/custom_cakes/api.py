"""API functions of the Sugar Hollow Bakery agent (a made-up domain of the test suite).

``place_cake_order`` has side effects: it records the order in the local submissions ledger
(``$GENIE_DATA_DIR/submissions.sqlite3``), exactly once per idempotency key.
``order_status`` only reads ``data/orders.csv`` and that ledger.
"""

from __future__ import annotations

import csv
import datetime as dt
from pathlib import Path
from typing import Any

from genie_bot.submissions import record_submission, submissions

ORDERS = Path(__file__).resolve().parent / "data" / "orders.csv"
BASE_PRICE = {"6 inch": 38.0, "8 inch": 52.0, "10 inch": 70.0, "Half Sheet": 95.0, "Full Sheet": 160.0}


def _number(order_number: str) -> str:
    return "CK-" + "".join(c for c in str(order_number) if c.isdigit())


def place_cake_order(size: str, layers: int, flavour: str, frosting: str, pickup_date: dt.date | str,
                     pickup_time: dt.time | str, customer_name: str, phone: str, dietary: list[str] | None = None,
                     inscription: str | None = None, idempotency_key: str | None = None) -> dict[str, Any]:
    """Place the order; return the order number and the price (paid at pickup)."""
    price = BASE_PRICE.get(size, 52.0) * (1 + 0.2 * max(0, int(layers) - 2))
    price += 15 if frosting == "Fondant" else 0
    needs = [d for d in (dietary or []) if d]
    price += 10 if {"Gluten Free", "Dairy Free"} & set(needs) else 0
    order = {"size": size, "layers": layers, "flavour": flavour, "frosting": frosting, "dietary": needs,
             "inscription": inscription if inscription not in (None, "NA") else None,
             "pickup_date": str(pickup_date), "pickup_time": str(pickup_time)[:5],
             "customer_name": customer_name, "phone": str(phone).strip(), "price": round(price, 2)}
    number = record_submission("custom_cake_order", order, idempotency_key, prefix="CK-")
    return {"order_number": number, "price": round(price, 2)}


def order_status(order_number: str) -> dict[str, Any]:
    """Where an order is: from the shop's order book, else from orders placed through this assistant."""
    wanted = _number(order_number)
    with ORDERS.open(newline="", encoding="utf-8") as fh:
        for row in csv.DictReader(fh):
            if row["order_number"] == wanted:
                return {"order_number": wanted, "order_status": row["order_status"], "pickup": row["pickup"]}
    for row in submissions("custom_cake_order"):
        if row["id"] == wanted:
            p = row["payload"]
            return {"order_number": wanted, "order_status": "received",
                    "pickup": f"{p['pickup_date']} at {p['pickup_time']}"}
    return {"order_number": wanted, "order_status": "not found", "pickup": "unknown"}
