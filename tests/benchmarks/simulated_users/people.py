"""Made-up people and the free text they write: names, course codes of other departments, reasons."""

from __future__ import annotations

import random
import re._constants as re_constants
import re._parser as re_parser
import string
from collections.abc import Iterator
from typing import Any

FIRST = ["Ana", "Ben", "Chloe", "Dmitri", "Esther", "Farid", "Grace", "Hiro", "Ines", "Jamal", "Kira", "Liam",
         "Maya", "Nikhil", "Olga", "Pablo", "Quinn", "Rosa", "Sven", "Tara", "Umar", "Vera", "Wen", "Yusuf", "Zoe"]
LAST = ["Alvarez", "Brooks", "Chen", "Dubois", "Eze", "Fischer", "Gupta", "Haddad", "Ivanova", "Jensen", "Kowalski",
        "Lindqvist", "Moreau", "Nakamura", "Okafor", "Petrov", "Quintero", "Rossi", "Sato", "Thompson", "Umarov",
        "Varga", "Whitfield", "Xu", "Yilmaz"]
DEPARTMENTS = ["CS", "MATH", "PHYSICS", "CHEM", "ECON", "PSYCH", "HISTORY", "BIO", "STATS", "EE"]

REASONS = [
    "the lecture times clash with my job",
    "i took something similar last year",
    "my advisor suggested a lighter quarter",
    "it conflicts with another class",
    "the workload is too heavy with my lab hours",
    "i need it for my major requirements",
]
EXTRA = [
    "i already emailed the department about this",
    "i'm on a visa so please reply soon",
    "my adviser is cc'd on this",
    "this is the second time i'm asking",
    "please reply by email, i don't check the portal",
]


def person(rng: random.Random) -> tuple[str, str]:
    return rng.choice(FIRST), rng.choice(LAST)


def course_code_like(rng: random.Random) -> str:
    """A course code as students write one for a department the agent has no catalogue of."""
    number = rng.choice([str(rng.randint(1, 299)), f"{rng.randint(10, 199)}{rng.choice('ABC')}"])
    return f"{rng.choice(DEPARTMENTS)} {number}"


def free_text_for(described: str, rng: random.Random) -> str:
    """Free text a student would write for a field described by ``described``."""
    return rng.choice(REASONS if "why" in described or "reason" in described else EXTRA)


STREETS = ["Oak St", "Maple Ave", "Cedar Ln", "Mission St", "Elm Ct", "Park Blvd", "Lake Dr", "Hillside Rd"]
CITIES = ["Oakland", "Berkeley", "San Jose", "Fremont", "Sacramento", "San Mateo", "Davis", "Palo Alto"]


def street_address(rng: random.Random) -> str:
    return f"{rng.randint(10, 2999)} {rng.choice(STREETS)}, {rng.choice(CITIES)}"


def matching_text(pattern: str, rng: random.Random) -> str:
    """The shortest kind of text ``pattern`` matches in full, with random digits and letters where it
    allows a choice: ``PF-?\\d{6}`` gives ``PF`` and six digits (an id as a user would type it)."""
    return "".join(_generate(re_parser.parse(pattern), rng))


def _generate(items: Any, rng: random.Random) -> Iterator[str]:
    for op, arg in items:
        if op is re_constants.LITERAL:
            yield chr(arg)
        elif op is re_constants.IN:
            yield _one_of(arg, rng)
        elif op is re_constants.ANY:
            yield rng.choice(string.ascii_lowercase)
        elif op in (re_constants.MAX_REPEAT, re_constants.MIN_REPEAT):
            low, _, body = arg
            for _ in range(low):
                yield from _generate(body, rng)
        elif op is re_constants.SUBPATTERN:
            yield from _generate(arg[-1], rng)
        elif op is re_constants.BRANCH:
            yield from _generate(rng.choice(arg[1]), rng)
        # anchors (AT) and other zero-width items match nothing to type


def _one_of(choices: list[tuple[Any, Any]], rng: random.Random) -> str:
    """A character of a class (``[A-F]``, ``\\d``): one of its members."""
    op, arg = rng.choice(choices) if len(choices) > 1 else choices[0]
    if op is re_constants.RANGE:
        return chr(rng.randint(arg[0], arg[1]))
    if op is re_constants.CATEGORY:
        return rng.choice(CATEGORY_CHARACTERS.get(arg, string.ascii_lowercase))
    return chr(arg) if op is re_constants.LITERAL else rng.choice(string.ascii_lowercase)


CATEGORY_CHARACTERS = {re_constants.CATEGORY_DIGIT: "0123456789", re_constants.CATEGORY_SPACE: " ",
                       re_constants.CATEGORY_WORD: string.ascii_lowercase}
