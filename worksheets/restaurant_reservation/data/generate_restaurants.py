"""Generate the example restaurant table for the restaurant-reservation worksheet.

The reservation agent searches restaurants by city, cuisine, price and rating,
checks opening hours before booking, and answers free-form questions ("is it
good for kids?", "does it have vegetarian options?") from the review text. This
script writes ``restaurants.csv`` (about 300 made-up restaurants in Palo Alto,
San Francisco, New York and Seattle) into the folder that holds this script.

Every restaurant has hidden traits (kid-friendly, good for groups, date spot,
noise level, vegetarian options) that stay consistent with its price and
cuisine; each review mentions only one or two of them, so some questions are
answerable from the text and others are not.

Notes on the columns:

* ``closing_time`` earlier than ``opening_time`` means the restaurant closes
  after midnight (e.g. ``17:00``-``01:00``); ``00:00`` means midnight.
* Phone numbers use the 555-01XX range reserved for fictional use; street
  numbers are invented. Names are combinations of stock words, checked against a
  short list of well-known real restaurants.

All values are drawn from a ``random.Random`` seeded with ``SEED``, so re-running
the script reproduces the committed CSV byte for byte (CPython 3.11+, standard
library only).

Usage::

    python generate_restaurants.py                  # rewrite restaurants.csv next to this file
    python generate_restaurants.py --out-dir /tmp/x  # write somewhere else
"""

from __future__ import annotations

import argparse
import csv
import random
from dataclasses import dataclass
from pathlib import Path
from typing import Iterable, Sequence

SEED = 2024
DATA_DIR = Path(__file__).resolve().parent
RESTAURANTS_PER_CITY = 75
MAX_PER_CUISINE_PER_CITY = 8  # keeps every cuisine's name pool (>= 35 names) from running dry

COLUMNS = [
    "id",
    "name",
    "city",
    "cuisine",
    "price",
    "rating",
    "opening_time",
    "closing_time",
    "address",
    "phone",
    "review",
]

PRICES = ["cheap", "moderate", "expensive", "luxury"]


@dataclass(frozen=True)
class City:
    name: str
    state: str
    area_code: str
    zip_codes: tuple[str, ...]
    streets: tuple[str, ...]
    late_night_share: float  # probability that a place stays open past 23:00
    cuisine_boost: tuple[str, ...]  # cuisines that are more common here


# fmt: off
CITIES: list[City] = [
    City("Palo Alto", "CA", "650", ("94301", "94303", "94306"),
         ("University Ave", "Hamilton Ave", "Emerson St", "Ramona St", "California Ave", "El Camino Real",
          "Middlefield Rd", "Lytton Ave", "Alma St", "Waverley St"),
         0.05, ("Indian", "Mediterranean", "Vegan")),
    City("San Francisco", "CA", "415", ("94103", "94107", "94110", "94117", "94122", "94133"),
         ("Valencia St", "Mission St", "Divisadero St", "Fillmore St", "Irving St", "Clement St",
          "Columbus Ave", "Polk St", "Hayes St", "24th St", "Folsom St"),
         0.12, ("Chinese", "Mexican", "Vietnamese")),
    City("New York", "NY", "212", ("10002", "10003", "10009", "10011", "10013", "10014", "10024"),
         ("Bleecker St", "Mulberry St", "Ludlow St", "Bowery", "Amsterdam Ave", "Lexington Ave",
          "Orchard St", "Mott St", "Hudson St", "Avenue A", "W 10th St"),
         0.3, ("Italian", "French", "Korean")),
    City("Seattle", "WA", "206", ("98101", "98102", "98103", "98104", "98109", "98122"),
         ("Pike St", "Pine St", "Broadway E", "Stone Way N", "Jackson St", "Ballard Ave NW",
          "Fremont Ave N", "Madison St", "Roosevelt Way NE", "Eastlake Ave E"),
         0.1, ("Vietnamese", "Japanese", "Ethiopian")),
]


@dataclass(frozen=True)
class Cuisine:
    name: str
    name_templates: tuple[str, ...]  # "{a}" and "{b}" are filled from the two word lists
    words_a: tuple[str, ...]
    words_b: tuple[str, ...]
    dishes: tuple[str, ...]
    price_weights: tuple[int, int, int, int]  # cheap, moderate, expensive, luxury
    vegetarian_friendly: float  # probability of good vegetarian options
    group_bonus: float  # added to the probability of being good for groups


CUISINES: list[Cuisine] = [
    Cuisine("Italian", ("{a} {b}",),
            ("Trattoria", "Osteria", "Cucina", "Enoteca", "Pizzeria", "Caffe"),
            ("Lucia", "Bellavista", "del Ponte", "Rosso", "Alba", "Sorella", "Vigna", "Nonna Rita"),
            ("cacio e pepe", "wood-fired margherita", "osso buco", "tiramisu", "burrata", "mushroom risotto"),
            (2, 5, 3, 1), 0.7, 0.1),
    Cuisine("Chinese", ("{a} {b}",),
            ("Golden", "Jade", "Red Lantern", "Lucky Star", "Silver Crane", "Bamboo", "Twin Dragon"),
            ("Garden", "Palace", "Kitchen", "Dumpling House", "Noodle Bar", "Tea House"),
            ("soup dumplings", "mapo tofu", "Peking duck", "dan dan noodles", "salt-and-pepper squid",
             "scallion pancakes"),
            (5, 4, 2, 0), 0.55, 0.25),
    Cuisine("Japanese", ("{a} {b}",),
            ("Sushi", "Izakaya", "Ramen"),
            ("Hoshi", "Kaze", "Tsukimi", "Mori", "Hanabi", "Nami", "Kumo", "Yukiya", "Sora", "Kinoko",
             "Hikari", "Umi", "Tamago"),
            ("omakase nigiri", "tonkotsu ramen", "chicken karaage", "miso black cod", "uni hand roll",
             "agedashi tofu"),
            (2, 4, 3, 2), 0.35, 0.0),
    Cuisine("Mexican", ("{a} {b}",),
            ("Taqueria", "Cocina", "Cantina", "Casa"),
            ("Azul", "Las Palmas", "del Sol", "Luna", "Mi Tierra", "Los Arcos", "El Nopal", "Paloma", "Oaxaca",
             "Jalisco"),
            ("al pastor tacos", "mole poblano", "carnitas", "chile relleno", "elote", "Baja fish tacos"),
            (6, 4, 1, 0), 0.5, 0.2),
    Cuisine("Indian", ("{a} {b}",),
            ("Saffron", "Cardamom", "Tamarind", "Monsoon", "Jaipur", "Masala", "Kesari", "Peacock"),
            ("Tandoor", "Curry House", "Kitchen", "Table", "Darbar"),
            ("butter chicken", "lamb rogan josh", "palak paneer", "garlic naan", "chana masala",
             "masala dosa"),
            (4, 5, 2, 0), 0.9, 0.2),
    Cuisine("Thai", ("{a} {b}",),
            ("Krua", "Siam", "Lemongrass", "Orchid", "Chili Basil", "Sukhothai", "Jasmine"),
            ("Thai Kitchen", "Thai Street Eats", "Cafe", "Noodle Bar", "Thai Bistro"),
            ("khao soi", "pad see ew", "green curry", "papaya salad", "tom kha soup", "mango sticky rice"),
            (5, 5, 1, 0), 0.7, 0.1),
    Cuisine("French", ("{a} {b}",),
            ("Bistro", "Brasserie", "Cafe", "Chez", "Maison"),
            ("Marcel", "Lumiere", "Odette", "Rivage", "Colette", "Beaumont", "Celestine", "Fauvette"),
            ("steak frites", "duck confit", "coq au vin", "French onion soup", "bouillabaisse",
             "crème brûlée"),
            (0, 3, 5, 3), 0.35, 0.0),
    Cuisine("American", ("The {a} {b}",),
            ("Copper", "Rusty", "Iron", "Blue Plate", "Oak", "Salt", "Lantern", "Harbor"),
            ("Spoon", "Grill", "Tavern", "Diner", "Skillet", "Fork", "Smokehouse"),
            ("smash burger", "buttermilk fried chicken", "mac and cheese", "brisket", "lobster roll",
             "apple pie"),
            (4, 5, 3, 1), 0.3, 0.15),
    Cuisine("Mediterranean", ("{a} {b}",),
            ("Olive", "Cypress", "Levant", "Sumac", "Za'atar", "Pomegranate", "Fig Tree", "Aleppo"),
            ("Grill", "Table", "Kitchen", "Mezze Bar", "Hearth"),
            ("lamb shawarma", "falafel plate", "grilled halloumi", "hummus", "chicken kebab",
             "baba ghanoush"),
            (4, 5, 2, 0), 0.85, 0.15),
    Cuisine("Korean", ("{a} {b}",),
            ("Seoul", "Hanok", "Maru", "Gogi", "Bapsang", "Dalnim", "Namsan", "Jeju"),
            ("House", "Kitchen", "BBQ", "Table", "Pocha"),
            ("bibimbap", "galbi", "kimchi jjigae", "Korean fried chicken", "japchae", "bulgogi"),
            (3, 5, 2, 0), 0.35, 0.35),
    Cuisine("Vietnamese", ("{a} {b}",),
            ("Pho", "Saigon", "Hanoi", "Lotus", "Mekong", "Little Hue", "Hoi An", "Da Lat"),
            ("House", "Corner", "Kitchen", "Noodle Shop", "Banh Mi Bar"),
            ("pho", "banh mi", "bun cha", "shaking beef", "fresh spring rolls", "clay-pot catfish"),
            (7, 3, 1, 0), 0.55, 0.1),
    Cuisine("Spanish", ("{a} {b}",),
            ("Taberna", "Bar", "Casa", "Bodega"),
            ("Sevilla", "Azahar", "del Mar", "Iberia", "Luz", "Granada", "Cadiz", "La Rioja", "Valencia",
             "Toledo", "Malaga"),
            ("seafood paella", "patatas bravas", "jamón croquetas", "gambas al ajillo", "grilled octopus",
             "churros"),
            (1, 4, 4, 1), 0.5, 0.3),
    Cuisine("Greek", ("{a} {b}",),
            ("Taverna", "Kouzina", "Cafe"),
            ("Opa", "Santorini", "Thalassa", "Mykonos", "Kalimera", "Olympia", "Ithaca", "Naxos", "Paros",
             "Corfu", "Delphi", "Lesvos"),
            ("moussaka", "lamb souvlaki", "spanakopita", "grilled octopus", "horiatiki salad",
             "loukoumades"),
            (2, 5, 3, 0), 0.7, 0.2),
    Cuisine("Ethiopian", ("{a} {b}",),
            ("Lalibela", "Axum", "Gondar", "Addis", "Lake Tana", "Selam", "Entoto", "Harar", "Bahir Dar"),
            ("Kitchen", "Restaurant", "Cafe", "Table"),
            ("doro wat", "veggie combination platter", "kitfo", "misir wat", "beef tibs", "shiro"),
            (5, 4, 0, 0), 0.95, 0.3),
    Cuisine("Vegan", ("{a} {b}",),
            ("Green", "Sprout", "Leaf", "Root", "Fern", "Harvest", "Bloom", "Clover"),
            ("& Grain", "Kitchen", "Table", "Bowl", "Cafe", "Eatery"),
            ("jackfruit tacos", "cashew mac and cheese", "cauliflower steak", "grain bowl", "beet burger",
             "chocolate avocado mousse"),
            (4, 5, 2, 1), 1.0, 0.05),
]
# fmt: on

# Famous real restaurants whose names must never be produced.
REAL_RESTAURANT_BLOCKLIST = {
    "nobu", "chez panisse", "tartine", "zuni cafe", "per se", "le bernardin", "eleven madison park",
    "canlis", "evvia", "tamarine", "gary danko", "state bird provisions", "katz's delicatessen",
    "peter luger", "din tai fung", "momofuku", "nopa", "flour + water", "lazy bear", "benu",
    "quince", "atelier crenn", "saison", "il fornaio", "kokkari", "slanted door", "balthazar",
    "carbone", "the french laundry", "manresa", "house of prime rib", "lotus of siam", "jade garden",
}  # fmt: skip

# --- review ingredients -------------------------------------------------------------------

DISH_CLAUSES = {
    "positive": [
        "The {dish} {is} outstanding",
        "Don't skip the {dish}",
        "The {dish} alone {is} worth the trip",
        "We loved the {dish}",
        "The {dish} {was} perfectly done",
    ],
    "mixed": [
        "The {dish} {was} fine but not memorable",
        "The {dish} {was} a bit uneven",
        "The {dish} {was} good, though the portion was small",
    ],
    "negative": [
        "The {dish} arrived lukewarm",
        "The {dish} {was} disappointingly bland",
        "The {dish} {was} overpriced for what {it_was}",
    ],
}
# Dishes that take a plural verb ("the churros were ...").
PLURAL_DISHES = {
    "soup dumplings", "dan dan noodles", "scallion pancakes", "al pastor tacos", "carnitas",
    "Baja fish tacos", "steak frites", "fresh spring rolls", "patatas bravas", "jamón croquetas",
    "gambas al ajillo", "churros", "loukoumades", "beef tibs", "jackfruit tacos",
}  # fmt: skip
SERVICE_WORDS = {
    "positive": ["attentive", "warm and quick", "friendly", "polished"],
    "mixed": ["a little slow", "hit or miss", "friendly but scattered"],
    "negative": ["painfully slow", "inattentive", "curt"],
}
AMBIANCE_WORDS = {
    "cheap": ["no-frills", "casual", "bright counter-service", "tiny"],
    "moderate": ["cozy", "airy", "rustic", "lively"],
    "expensive": ["elegant", "stylish", "candlelit", "art-filled"],
    "luxury": ["sleek", "opulent", "hushed", "chandeliered"],
}
AMBIANCE_FEELINGS = {
    "positive": ["feels welcoming", "is a pleasure to sit in", "has real charm"],
    "mixed": ["is pleasant enough", "feels a bit dated"],
    "negative": ["feels tired", "could use a refresh"],
}
TRAIT_CLAUSES = {
    ("kids", True): [
        "it's great for kids, with a children's menu and crayons at the table",
        "families with young kids are clearly welcome here",
        "kids love it and there are high chairs available",
    ],
    ("kids", False): [
        "it's not a great pick for young kids",
        "there's no kids' menu and it feels too formal for children",
    ],
    ("groups", True): [
        "the big communal tables make it easy to come with a group",
        "they handle large groups well if you call ahead",
    ],
    ("groups", False): [
        "tables are small, so it's tough with a big group",
        "it's too cramped for groups larger than four",
    ],
    ("date", True): [
        "it's a lovely spot for a date",
        "the corner booths make it a good date-night choice",
    ],
    ("date", False): [
        "it's more of a quick bite than a date spot",
        "it's not especially romantic",
    ],
    ("noise", "quiet"): [
        "it's quiet enough to hold a real conversation",
        "the room stays calm and quiet even when full",
    ],
    ("noise", "moderate"): [
        "the noise level is moderate even on busy nights",
    ],
    ("noise", "loud"): [
        "it gets very loud on weekend nights",
        "expect to raise your voice when it's busy",
    ],
    ("vegetarian", True): [
        "there are plenty of vegetarian options",
        "vegetarians have lots to choose from",
    ],
    ("vegetarian", False): [
        "vegetarian options are limited",
        "there isn't much for vegetarians beyond a salad",
    ],
    ("vegan_menu", True): [
        "everything on the menu is plant-based",
    ],
}

KIDS_PROBABILITY = {"cheap": 0.75, "moderate": 0.6, "expensive": 0.25, "luxury": 0.05}
GROUPS_PROBABILITY = {"cheap": 0.55, "moderate": 0.55, "expensive": 0.4, "luxury": 0.25}
DATE_PROBABILITY = {"cheap": 0.2, "moderate": 0.5, "expensive": 0.8, "luxury": 0.95}
NOISE_WEIGHTS = {  # quiet, moderate, loud
    "cheap": (1, 2, 3),
    "moderate": (2, 3, 3),
    "expensive": (3, 3, 1),
    "luxury": (5, 1, 0),
}
RATING_SHIFT = {"cheap": -0.1, "moderate": 0.0, "expensive": 0.15, "luxury": 0.3}


@dataclass(frozen=True)
class Traits:
    kids: bool
    groups: bool
    date: bool
    noise: str
    vegetarian: bool


# --- generation ---------------------------------------------------------------------------


def clamp(value: float, low: float, high: float) -> float:
    return max(low, min(high, value))


def candidate_names(cuisine: Cuisine) -> list[str]:
    """Every name the cuisine's templates can produce, minus blocklisted real restaurants."""
    names = [
        template.format(a=a, b=b)
        for template in cuisine.name_templates
        for a in cuisine.words_a
        for b in cuisine.words_b
    ]
    return [name for name in names if name.lower() not in REAL_RESTAURANT_BLOCKLIST]


class NamePool:
    """Hands out unique names per cuisine, in a seeded random order."""

    def __init__(self, rng: random.Random) -> None:
        self._pools: dict[str, list[str]] = {}
        for cuisine in CUISINES:
            names = candidate_names(cuisine)
            rng.shuffle(names)
            self._pools[cuisine.name] = names
        self._used: set[str] = set()

    def take(self, cuisine: Cuisine) -> str:
        pool = self._pools[cuisine.name]
        while pool:
            name = pool.pop()
            if name not in self._used:
                self._used.add(name)
                return name
        raise RuntimeError(f"ran out of names for {cuisine.name}; add more words")


def pick_cuisines(rng: random.Random, city: City, count: int) -> list[Cuisine]:
    """Every cuisine at least once per city, the rest weighted toward the city's favourites."""
    chosen = list(CUISINES)
    weights = [3 if cuisine.name in city.cuisine_boost else 1 for cuisine in CUISINES]
    while len(chosen) < count:
        cuisine = rng.choices(CUISINES, weights=weights)[0]
        if chosen.count(cuisine) < MAX_PER_CUISINE_PER_CITY:
            chosen.append(cuisine)
    rng.shuffle(chosen)
    return chosen


def pick_hours(rng: random.Random, city: City, cuisine: Cuisine, price: str) -> tuple[str, str]:
    if price in ("expensive", "luxury"):
        opening = rng.choice(["17:00", "17:30", "18:00"])
    elif cuisine.name in ("American", "Vietnamese", "Vegan", "French") and rng.random() < 0.35:
        opening = rng.choice(["07:00", "07:30", "08:00"])
    else:
        opening = rng.choice(["11:00", "11:00", "11:30", "12:00", "17:00"])
    if rng.random() < city.late_night_share:
        closing = rng.choice(["23:30", "00:00", "01:00", "02:00"])
    elif opening < "09:00" and rng.random() < 0.5:
        closing = rng.choice(["15:00", "16:00"])  # breakfast-and-lunch spots
    else:
        closing = rng.choice(["21:00", "21:30", "22:00", "22:00", "22:30", "23:00"])
    return opening, closing


def pick_traits(rng: random.Random, cuisine: Cuisine, price: str) -> Traits:
    noise = rng.choices(["quiet", "moderate", "loud"], weights=NOISE_WEIGHTS[price])[0]
    return Traits(
        kids=rng.random() < KIDS_PROBABILITY[price],
        groups=rng.random() < GROUPS_PROBABILITY[price] + cuisine.group_bonus,
        date=rng.random() < DATE_PROBABILITY[price] - (0.3 if noise == "loud" else 0.0),
        noise=noise,
        vegetarian=rng.random() < cuisine.vegetarian_friendly,
    )


def sentiment_for(rating: float) -> str:
    if rating >= 4.0:
        return "positive"
    if rating >= 3.3:
        return "mixed"
    return "negative"


def verb_forms(dish: str) -> dict[str, str]:
    if dish in PLURAL_DISHES:
        return {"is": "are", "was": "were", "it_was": "they were"}
    return {"is": "is", "was": "was", "it_was": "it was"}


def first_sentence(rng: random.Random, cuisine: Cuisine, price: str, sentiment: str) -> str:
    dish = rng.choice(cuisine.dishes)
    clause = rng.choice(DISH_CLAUSES[sentiment]).format(dish=dish, **verb_forms(dish))
    if rng.random() < 0.5:
        tail = f"service was {rng.choice(SERVICE_WORDS[sentiment])}"
    else:
        ambiance = rng.choice(AMBIANCE_WORDS[price])
        tail = f"the {ambiance} dining room {rng.choice(AMBIANCE_FEELINGS[sentiment])}"
    joiner = ", while " if sentiment == "mixed" else ", and "
    return f"{clause}{joiner}{tail}."


def trait_clauses(rng: random.Random, cuisine: Cuisine, traits: Traits) -> list[str]:
    """One or two facts about the place, chosen at random from its traits."""
    options: list[tuple[str, object]] = [
        ("kids", traits.kids),
        ("groups", traits.groups),
        ("date", traits.date),
        ("noise", traits.noise),
        ("vegan_menu", True) if cuisine.name == "Vegan" else ("vegetarian", traits.vegetarian),
    ]
    picked = rng.sample(options, rng.choice([1, 2, 2]))
    return [rng.choice(TRAIT_CLAUSES[key]) for key in picked]


def make_review(rng: random.Random, cuisine: Cuisine, price: str, rating: float, traits: Traits) -> str:
    sentence = first_sentence(rng, cuisine, price, sentiment_for(rating))
    if rng.random() < 0.1:
        return sentence  # a few reviews say nothing about who the place suits
    clauses = trait_clauses(rng, cuisine, traits)
    second = "; ".join(clauses)
    return f"{sentence} {second[0].upper()}{second[1:]}."


def make_address(rng: random.Random, city: City) -> str:
    number = rng.randint(10, 2999)
    return f"{number} {rng.choice(city.streets)}, {city.name}, {city.state} {rng.choice(city.zip_codes)}"


def make_phones(rng: random.Random, city: City, count: int) -> list[str]:
    """Distinct numbers from the fictional 555-0100..555-0199 block."""
    return [f"({city.area_code}) 555-{n:04d}" for n in rng.sample(range(100, 200), count)]


def make_rating(rng: random.Random, price: str) -> float:
    return round(clamp(rng.gauss(3.95 + RATING_SHIFT[price], 0.45), 2.5, 5.0), 1)


def make_city_rows(rng: random.Random, city: City, names: NamePool) -> list[dict[str, object]]:
    cuisines = pick_cuisines(rng, city, RESTAURANTS_PER_CITY)
    phones = make_phones(rng, city, RESTAURANTS_PER_CITY)
    rows = []
    for cuisine, phone in zip(cuisines, phones):
        price = rng.choices(PRICES, weights=cuisine.price_weights)[0]
        rating = make_rating(rng, price)
        opening, closing = pick_hours(rng, city, cuisine, price)
        traits = pick_traits(rng, cuisine, price)
        rows.append(
            {
                "name": names.take(cuisine),
                "city": city.name,
                "cuisine": cuisine.name,
                "price": price,
                "rating": f"{rating:.1f}",
                "opening_time": opening,
                "closing_time": closing,
                "address": make_address(rng, city),
                "phone": phone,
                "review": make_review(rng, cuisine, price, rating, traits),
            }
        )
    return rows


def build_rows(seed: int = SEED) -> list[dict[str, object]]:
    rng = random.Random(seed)
    names = NamePool(rng)
    rows = [row for city in CITIES for row in make_city_rows(rng, city, names)]
    return [{"id": index, **row} for index, row in enumerate(rows, start=1)]


def write_csv(path: Path, columns: list[str], rows: Iterable[dict[str, object]]) -> int:
    count = 0
    with path.open("w", encoding="utf-8", newline="") as handle:
        writer = csv.DictWriter(handle, fieldnames=columns, lineterminator="\n")
        writer.writeheader()
        for row in rows:
            writer.writerow(row)
            count += 1
    return count


def generate(out_dir: Path, seed: int = SEED) -> dict[str, int]:
    """Write ``restaurants.csv`` into ``out_dir`` and return its row count."""
    out_dir.mkdir(parents=True, exist_ok=True)
    return {"restaurants.csv": write_csv(out_dir / "restaurants.csv", COLUMNS, build_rows(seed))}


def main(argv: Sequence[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--out-dir", type=Path, default=DATA_DIR, help="where to write the CSV")
    parser.add_argument("--seed", type=int, default=SEED, help="random seed (default: %(default)s)")
    args = parser.parse_args(argv)
    for name, count in generate(args.out_dir, args.seed).items():
        print(f"wrote {count:4d} rows to {args.out_dir / name}")


if __name__ == "__main__":
    main()
