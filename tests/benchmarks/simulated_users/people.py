"""Made-up people and the free text they write: names, course codes of other departments, reasons."""

from __future__ import annotations

import random

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
