"""Write the made-up price list of large items of Two Trucks Moving (``large_items.csv``) next
to this script: items that need extra crew, equipment or crating, with their handling fee.
Deterministic (no randomness).
"""

from __future__ import annotations

import csv
from pathlib import Path

DATA_DIR = Path(__file__).resolve().parent

# item, category, typical weight in pounds, handling fee in USD, crew needed, needs crating
ITEMS = [
    ("upright piano", "instrument", 500, 250, 3, False),
    ("baby grand piano", "instrument", 650, 450, 4, True),
    ("grand piano", "instrument", 900, 650, 4, True),
    ("pool table", "game", 800, 400, 4, False),
    ("ping pong table", "game", 250, 60, 2, False),
    ("gun safe", "safe", 750, 300, 4, False),
    ("small safe", "safe", 200, 80, 2, False),
    ("treadmill", "fitness", 300, 90, 2, False),
    ("home gym machine", "fitness", 400, 150, 3, False),
    ("elliptical trainer", "fitness", 250, 80, 2, False),
    ("sectional sofa", "furniture", 350, 75, 3, False),
    ("sleeper sofa", "furniture", 300, 60, 2, False),
    ("king bed frame", "furniture", 200, 50, 2, False),
    ("armoire", "furniture", 250, 60, 2, False),
    ("china cabinet", "furniture", 300, 120, 2, True),
    ("grandfather clock", "furniture", 200, 180, 2, True),
    ("hot tub", "outdoor", 900, 700, 5, False),
    ("riding lawn mower", "outdoor", 450, 100, 2, False),
    ("glass dining table", "furniture", 180, 110, 2, True),
    ("large aquarium", "fragile", 300, 200, 3, True),
    ("large mirror", "fragile", 60, 70, 2, True),
    ("marble statue", "fragile", 400, 300, 3, True),
    ("washer", "appliance", 170, 40, 2, False),
    ("dryer", "appliance", 130, 40, 2, False),
    ("refrigerator", "appliance", 300, 70, 2, False),
    ("chest freezer", "appliance", 200, 50, 2, False),
    ("motorcycle", "vehicle", 500, 250, 2, False),
    ("arcade cabinet", "game", 300, 120, 2, False),
]


def main() -> None:
    rows = [{"item_id": f"I{i:02d}", "item": item, "category": category, "weight_lbs": weight,
             "handling_fee": fee, "crew": crew, "crating": "yes" if crating else "no"}
            for i, (item, category, weight, fee, crew, crating) in enumerate(ITEMS, 1)]
    with (DATA_DIR / "large_items.csv").open("w", newline="", encoding="utf-8") as fh:
        writer = csv.DictWriter(fh, fieldnames=list(rows[0]))
        writer.writeheader()
        writer.writerows(rows)


if __name__ == "__main__":
    main()
