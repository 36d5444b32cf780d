"""Write the made-up fleet of Bayline Car Rental (``cars.csv``) next to this script.

One row per car model offered, with its category, seats, transmission, fuel and daily rate.
Deterministic (no randomness): re-running the script rewrites the committed file byte for byte.
"""

from __future__ import annotations

import csv
from pathlib import Path

DATA_DIR = Path(__file__).resolve().parent

# make, model, category, seats, transmission, fuel, daily rate in USD, luggage (large bags)
FLEET = [
    ("Toyota", "Corolla", "compact", 5, "automatic", "gasoline", 48, 2),
    ("Toyota", "Camry", "midsize", 5, "automatic", "hybrid", 59, 3),
    ("Toyota", "RAV4", "SUV", 5, "automatic", "hybrid", 74, 4),
    ("Toyota", "Sienna", "minivan", 8, "automatic", "hybrid", 96, 5),
    ("Toyota", "Prius", "compact", 5, "automatic", "hybrid", 52, 2),
    ("Honda", "Civic", "compact", 5, "automatic", "gasoline", 47, 2),
    ("Honda", "Accord", "midsize", 5, "automatic", "gasoline", 58, 3),
    ("Honda", "CR-V", "SUV", 5, "automatic", "gasoline", 72, 4),
    ("Honda", "Odyssey", "minivan", 8, "automatic", "gasoline", 94, 5),
    ("Nissan", "Versa", "economy", 5, "automatic", "gasoline", 39, 1),
    ("Nissan", "Sentra", "compact", 5, "automatic", "gasoline", 45, 2),
    ("Nissan", "Altima", "midsize", 5, "automatic", "gasoline", 55, 3),
    ("Nissan", "Rogue", "SUV", 5, "automatic", "gasoline", 69, 4),
    ("Kia", "Rio", "economy", 5, "automatic", "gasoline", 37, 1),
    ("Kia", "Forte", "compact", 5, "automatic", "gasoline", 44, 2),
    ("Kia", "Sorento", "SUV", 7, "automatic", "gasoline", 79, 4),
    ("Kia", "EV6", "electric", 5, "automatic", "electric", 82, 3),
    ("Hyundai", "Accent", "economy", 5, "automatic", "gasoline", 38, 1),
    ("Hyundai", "Elantra", "compact", 5, "automatic", "gasoline", 46, 2),
    ("Hyundai", "Tucson", "SUV", 5, "automatic", "gasoline", 70, 4),
    ("Hyundai", "Ioniq 5", "electric", 5, "automatic", "electric", 84, 3),
    ("Chevrolet", "Spark", "economy", 4, "manual", "gasoline", 33, 1),
    ("Chevrolet", "Malibu", "midsize", 5, "automatic", "gasoline", 54, 3),
    ("Chevrolet", "Tahoe", "SUV", 8, "automatic", "gasoline", 119, 5),
    ("Chevrolet", "Bolt", "electric", 5, "automatic", "electric", 62, 2),
    ("Ford", "Mustang Convertible", "convertible", 4, "automatic", "gasoline", 109, 1),
    ("Ford", "Explorer", "SUV", 7, "automatic", "gasoline", 92, 4),
    ("Ford", "Escape", "SUV", 5, "automatic", "hybrid", 68, 3),
    ("Ford", "F-150", "pickup", 5, "automatic", "gasoline", 99, 4),
    ("Jeep", "Wrangler", "SUV", 4, "manual", "gasoline", 98, 2),
    ("Jeep", "Grand Cherokee", "SUV", 5, "automatic", "gasoline", 104, 4),
    ("Chrysler", "Pacifica", "minivan", 7, "automatic", "hybrid", 99, 5),
    ("Volkswagen", "Jetta", "compact", 5, "manual", "gasoline", 46, 2),
    ("Volkswagen", "ID.4", "electric", 5, "automatic", "electric", 79, 3),
    ("Mazda", "MX-5 Miata", "convertible", 2, "manual", "gasoline", 89, 1),
    ("Mazda", "CX-5", "SUV", 5, "automatic", "gasoline", 71, 3),
    ("Subaru", "Outback", "SUV", 5, "automatic", "gasoline", 76, 4),
    ("Tesla", "Model 3", "electric", 5, "automatic", "electric", 95, 2),
    ("Tesla", "Model Y", "electric", 5, "automatic", "electric", 109, 3),
    ("BMW", "3 Series", "luxury", 5, "automatic", "gasoline", 129, 2),
    ("BMW", "X5", "luxury", 5, "automatic", "gasoline", 169, 4),
    ("Mercedes-Benz", "C-Class", "luxury", 5, "automatic", "gasoline", 139, 2),
    ("Mercedes-Benz", "E-Class Cabriolet", "convertible", 4, "automatic", "gasoline", 189, 1),
    ("Audi", "Q5", "luxury", 5, "automatic", "gasoline", 149, 3),
    ("Cadillac", "Escalade", "luxury", 7, "automatic", "gasoline", 229, 5),
]


def main() -> None:
    rows = [{"car_id": f"V{i:03d}", "make": make, "model": model, "category": category, "seats": seats,
             "transmission": transmission, "fuel": fuel, "daily_rate": rate, "bags": bags}
            for i, (make, model, category, seats, transmission, fuel, rate, bags) in enumerate(FLEET, 1)]
    with (DATA_DIR / "cars.csv").open("w", newline="", encoding="utf-8") as fh:
        writer = csv.DictWriter(fh, fieldnames=list(rows[0]))
        writer.writeheader()
        writer.writerows(rows)


if __name__ == "__main__":
    main()
