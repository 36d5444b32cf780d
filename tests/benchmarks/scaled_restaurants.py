"""The restaurant agent with its table scaled to any number of rows, for the knowledge benchmarks.

``scaled_agent(rows, directory)`` writes a copy of ``worksheets/restaurant_reservation`` whose
``data/restaurants.csv`` has ``rows`` rows: the 300 real ones first, then synthetic ones of the
same schema, drawn with a fixed seed so that a size always gives the same table. Synthetic
names are built the way the real ones are (a venue word, a distinctive word, sometimes a
kind: "Osteria Belmora Kitchen"), all distinct, with namesakes on purpose: many names are
another name with a word more ("Osteria Belmora" and "Osteria Belmora Kitchen") or differ from
another by a letter. Reviews are sentences of the real reviews recombined. The 300k table is
about 80 MB: it is generated where it is needed, never committed.

``python -m tests.benchmarks.scaled_restaurants ROWS DIRECTORY`` writes one.
"""

from __future__ import annotations

import argparse
import csv
import random
import re
import shutil
from collections.abc import Iterator
from pathlib import Path

from tests.conftest import WORKSHEETS

SOURCE = WORKSHEETS / "restaurant_reservation"
SEED = 7
_CONSONANTS = "b c d f g k l m n p r s t v z br ch dr gr kr pr st tr".split()
_VOWELS = "a e i o u ia io ea".split()
_KINDS = ["Kitchen", "Grill", "House", "Table", "Tavern", "Bistro", "Express", "Garden", "Noodle Bar", "Tea House",
          "Cafe", "Corner", "Bowl", "Eatery"]
_STREETS = ["Hamilton Ave", "Waverley St", "Ramona St", "Emerson St", "University Ave", "Valencia St", "Mission St",
            "Grand St", "Mulberry St", "Pike St", "Pine St", "Broadway", "Market St", "Clement St", "Columbus Ave"]
_PLACES = {"Palo Alto": ("CA", "943", "650"), "San Francisco": ("CA", "941", "415"),
           "New York": ("NY", "100", "212"), "Seattle": ("WA", "981", "206")}


def scaled_agent(rows: int, directory: Path, seed: int = SEED) -> Path:
    """A copy of the restaurant agent in ``directory`` whose table has ``rows`` rows (at least 300)."""
    directory.mkdir(parents=True, exist_ok=True)
    for name in ("agent.yaml", "api.py"):
        shutil.copy(SOURCE / name, directory / name)
    shutil.copytree(SOURCE / "prompts", directory / "prompts", dirs_exist_ok=True)
    (directory / "data").mkdir(exist_ok=True)
    table = directory / "data" / "restaurants.csv"
    with (SOURCE / "data" / "restaurants.csv").open(newline="", encoding="utf-8") as fh:
        real = list(csv.DictReader(fh))
    if rows < len(real):
        raise ValueError(f"a scaled table has at least the {len(real)} real rows")
    with table.open("w", newline="", encoding="utf-8") as fh:
        writer = csv.DictWriter(fh, fieldnames=list(real[0]))
        writer.writeheader()
        writer.writerows(real)
        writer.writerows(_synthetic(real, rows - len(real), random.Random(seed)))
    return directory


def names_at(agent: Path, positions: list[int]) -> list[tuple[int, str]]:
    """(id, name) of the rows at 0-based ``positions`` of the agent's table."""
    wanted = set(positions)
    found = {}
    with (agent / "data" / "restaurants.csv").open(newline="", encoding="utf-8") as fh:
        for i, row in enumerate(csv.DictReader(fh)):
            if i in wanted:
                found[i] = (int(row["id"]), row["name"])
    return [found[p] for p in positions]


def _synthetic(real: list[dict[str, str]], count: int, rng: random.Random) -> Iterator[dict[str, str]]:
    heads = sorted({r["name"].split()[0] for r in real} - {"Da", "Hoi", "Lake", "Bahir", "Little"})
    sentences = sorted({s.strip() for r in real for s in re.split(r"(?<=[.;])\s+", r["review"]) if s.strip()})
    taken = {r["name"].lower() for r in real}
    cores = _cores(rng, max(2000, count // 40))
    cuisines = sorted({r["cuisine"] for r in real})
    hours = [(r["opening_time"], r["closing_time"]) for r in real]
    next_id = max(int(r["id"]) for r in real) + 1
    made = 0
    while made < count:
        name = _name(rng, heads, cores)
        if name.lower() in taken:
            continue
        taken.add(name.lower())
        city = rng.choice(sorted(_PLACES))
        state, zip_prefix, area = _PLACES[city]
        opening, closing = rng.choice(hours)
        yield {"id": str(next_id + made), "name": name, "city": city, "cuisine": rng.choice(cuisines),
               "price": rng.choice(["cheap", "moderate", "moderate", "expensive", "luxury"]),
               "rating": f"{rng.uniform(2.5, 5.0):.1f}", "opening_time": opening, "closing_time": closing,
               "address": f"{rng.randint(1, 3999)} {rng.choice(_STREETS)}, {city}, {state} "
                          f"{zip_prefix}{rng.randint(0, 99):02d}",
               "phone": f"({area}) 555-{rng.randint(0, 9999):04d}", "review": " ".join(rng.sample(sentences, 2))}
        made += 1


def _cores(rng: random.Random, count: int) -> list[str]:
    """Distinctive made-up words ("Belmora", "Tavisa"), as many as asked."""
    words: set[str] = set()
    while len(words) < count:
        syllables = "".join(rng.choice(_CONSONANTS) + rng.choice(_VOWELS) for _ in range(rng.choice((2, 2, 3))))
        words.add((syllables + rng.choice(("", "", "n", "l", "r", "s"))).capitalize())
    return sorted(words)


def _name(rng: random.Random, heads: list[str], cores: list[str]) -> str:
    words = [rng.choice(heads), rng.choice(cores)]
    if rng.random() < 0.5:
        words.append(rng.choice(_KINDS))
    return " ".join(words)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("rows", type=int)
    parser.add_argument("directory", type=Path)
    args = parser.parse_args()
    print(scaled_agent(args.rows, args.directory))


if __name__ == "__main__":
    main()
