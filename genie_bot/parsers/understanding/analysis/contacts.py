"""Phone numbers, email addresses and street addresses in a message.

Phone numbers are found by phonenumbers (Google's libphonenumber), in the formats people write
("415-555-0142", "(510) 555 0177", "+44 20 7946 0958"); street addresses by usaddress, a
conditional random field trained on US addresses, which labels each word ("88" AddressNumber,
"harbor view" StreetName, "dr" StreetNamePostType). A message is handed to usaddress only where a
number is followed by a street type it knows (usaddress's own list), and only a run with a
number, a street name and a street type is an address: "3 days ago" is none.
"""

from __future__ import annotations

import re

from ....language import english
from ....language.tokens import phrase_pattern
from .model import ADDRESS, EMAIL, PHONE, Entity

_EMAIL = re.compile(r"(?<![\w.@+-])[\w.+-]+@[\w-]+(?:\.[\w-]+)*\.[A-Za-z]{2,}(?![\w@])")
_DIGIT = re.compile(r"\d")
MIN_PHONE_DIGITS = 7
DEFAULT_REGION = "US"
"""Where a number without a country code is read as from (its formats also read most others)."""
_ADDRESS_WORDS = ("AddressNumber", "StreetNamePreDirectional", "StreetNamePreModifier", "StreetNamePreType",
                  "StreetName", "StreetNamePostType", "StreetNamePostDirectional", "OccupancyType",
                  "OccupancyIdentifier", "SubaddressType", "SubaddressIdentifier")
_NUMBER_THEN_WORDS = re.compile(r"(?<![\w.:/$€£-])\d+[a-z]?\b(?=((?:[\s,]+[A-Za-z0-9.'’-]+){1,5}))")
MAX_STREET_NAME_WORDS = 3
_DATED = re.compile(rf"{phrase_pattern((*english.MONTHS, *english.MONTH_ABBREVIATIONS, 'sept'))}\.?\s*$", re.I)
"""A number right after a month is a day ("back dec 9 same place"), no house number."""
_OCCUPANCY = ("OccupancyType", "OccupancyIdentifier")


def find(text: str) -> list[Entity]:
    return _emails(text) + _phones(text) + _addresses(text)


def _emails(text: str) -> list[Entity]:
    return [Entity(EMAIL, m.start(), m.end(), m.group(0), m.group(0)) for m in _EMAIL.finditer(text)]


def _phones(text: str) -> list[Entity]:
    if len(_DIGIT.findall(text)) < MIN_PHONE_DIGITS:
        return []
    import phonenumbers  # imported on the first message with enough digits for a phone number

    return [Entity(PHONE, m.start, m.end, m.raw_string, m.raw_string)
            for m in phonenumbers.PhoneNumberMatcher(text, DEFAULT_REGION, leniency=phonenumbers.Leniency.POSSIBLE)]


def _addresses(text: str) -> list[Entity]:
    starts = [m.start() for m in _NUMBER_THEN_WORDS.finditer(text)
              if _street_type_in(m.group(1)) and not _DATED.search(text, 0, m.start())]
    if not starts:
        return []
    import usaddress  # imported on the first message that may hold a street address

    out = []
    for start in starts:
        window = text[start:start + 80]
        run = _address_run(_labelled(window, usaddress.parse(window)))
        if run is not None:
            s, e = run
            out.append(Entity(ADDRESS, start + s, start + e, window[s:e], window[s:e]))
    return out


def _street_type_in(words: str) -> bool:
    return any(street_type(w) for w in words.split())


def street_type(word: str) -> bool:
    """A street type usaddress knows ("st", "ave", "dr", "blvd") that is no common word ("is", "un")."""
    from usaddress import STREET_NAMES

    said = word.lower().strip(".,")
    return said in STREET_NAMES and said not in english.STOP_WORDS and said not in english.SENTENCE_WORDS


def _common(word: str) -> bool:
    said = word.lower().strip(".,")
    return said in english.STOP_WORDS or said in english.SENTENCE_WORDS


def _labelled(window: str, parsed: list[tuple[str, str]]) -> list[tuple[int, int, str, str]]:
    """(start, end, label, word) of each word usaddress labelled, found again in the window."""
    out, at = [], 0
    for word, label in parsed:
        found = window.find(word, at)
        if found < 0:
            break
        bare = word.rstrip(",")
        out.append((found, found + len(bare), label, bare))
        at = found + len(word)
    return out


def _address_run(labelled: list[tuple[int, int, str, str]]) -> tuple[int, int] | None:
    """The address that starts the window: a number, a street name and a street type, then the
    unit ("apt 4b") when there is one."""
    if not labelled or labelled[0][2] != "AddressNumber":
        return None
    end, seen, named = labelled[0][1], {"AddressNumber"}, 0
    for _, stop, label, word in labelled[1:]:
        if label not in _ADDRESS_WORDS or (label in _OCCUPANCY and "StreetNamePostType" not in seen):
            break
        if label == "StreetNamePostType" and not street_type(word):
            break
        named += label == "StreetName"
        if named > MAX_STREET_NAME_WORDS or (label == "StreetName" and _common(word)):
            return None  # "2 large pizzas to 12 oak st", "5 houses on our street": no street is named so
        if label == "OccupancyIdentifier" and "OccupancyType" not in seen:
            break  # "at 7:15pm" after the street is no unit
        seen.add(label)
        end = stop
        if label == "OccupancyIdentifier" or (label == "StreetNamePostType" and not any(
                lbl in _OCCUPANCY for _, _, lbl, _ in labelled)):
            break
    return (labelled[0][0], end) if {"StreetName", "StreetNamePostType"} <= seen else None
