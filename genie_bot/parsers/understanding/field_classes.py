"""The classes of fields, by what fills them: an option, a record, a date, an amount of money, a
count, a code, an email, a phone number, a person's name, a street address, an account, text...

A field's class comes from its type and from what its name, description and format say (a float
described as "the amount spent" is an amount of money; a text field named ``dog_name`` described
as "the dog's name" is the name of a thing, not of a person). :mod:`.slots` maps each class to
what fills it.
"""

from __future__ import annotations

import re

from ...language import english
from ...language.tokens import phrase_pattern
from ...spec import Field
from .person_fields import is_a_persons_name
from .spec_index import SpecIndex, distinctive

# -- field classes -----------------------------------------------------------------------------------------
ENUM, ENUM_LIST, RECORD_FIELD, RECORD_LIST, RECORD_NAME, BOOL, CONFIRM, DATE_FIELD, TIME_FIELD, DATETIME_FIELD, \
    MONEY, COUNT, CODE_FIELD, LOOSE_CODE, EMAIL_FIELD, PHONE_FIELD, PERSON, THING_NAME, ADDRESS_FIELD, ACCOUNT, TEXT, \
    OTHER_LIST = (
        "enum", "list of options", "record", "list of records", "record name", "yes/no", "confirmation", "date", "time",
        "date and time", "amount of money", "count", "code", "loose code", "email", "phone number", "person's name",
        "name of a thing", "street address", "account", "text", "list")

def field_class(f: Field, index: SpecIndex) -> str:
    """The class of a field (cached per spec)."""
    cache = index.cache.setdefault("class", {})
    key = id(f)
    if key not in cache:
        cache[key] = _classify(f, index)
    return cache[key]


def _classify(f: Field, index: SpecIndex) -> str:
    kind = f.type.kind
    words = f"{f.name.replace('_', ' ')} {f.description}".lower()
    if kind == "list":
        item = f.type.item
        if item is not None and item.kind == "enum":
            return ENUM_LIST
        return RECORD_LIST if index.table_of(f) else OTHER_LIST
    if kind == "enum":
        return ENUM
    if kind == "bool":
        return BOOL
    if kind == "confirm":
        return CONFIRM
    if kind in ("date", "time", "datetime"):
        return {"date": DATE_FIELD, "time": TIME_FIELD, "datetime": DATETIME_FIELD}[kind]
    if kind in ("int", "float"):
        return MONEY if _says(words, english.MONEY_WORDS) else COUNT
    table = index.table_of(f)
    if table is not None:
        return RECORD_FIELD if f.type.is_ref else RECORD_NAME
    if kind != "str":
        return TEXT
    pattern = (f.validation.pattern if f.validation else None) or ""
    if "@" in pattern or _says(f.name.replace("_", " "), english.EMAIL_WORDS):
        return EMAIL_FIELD
    if _says(words, english.PHONE_WORDS):
        return PHONE_FIELD
    if is_a_persons_name(f):
        return PERSON  # a pattern on a person's name checks its shape ("First Last"); it is still a name
    if pattern:
        return CODE_FIELD if distinctive(pattern) else LOOSE_CODE
    if "name" in f.name.lower().split("_"):
        if re.search(r"\b[a-z]+['’]s\s+(?:\w+\s+)?name\b", f.description.lower()):
            return THING_NAME  # "the dog's name"
    if _says(words, english.ADDRESS_WORDS):
        return ADDRESS_FIELD
    if _says(words, english.NARRATIVE_WORDS):
        return ACCOUNT
    return TEXT


def _says(text: str, phrases: tuple[str, ...]) -> bool:
    return re.search(phrase_pattern(phrases), text, re.I) is not None


def expects_capitalised_text(f: Field) -> bool:
    """The field's description gives a capitalised example of its text ("the message written on the cake, like
    Happy Birthday Mia"): a reply written like a name is its text, not a person's name."""
    return _CAPITALISED_EXAMPLE.search(f"{f.description} {f.ask or ''}") is not None


_CAPITALISED_EXAMPLE = re.compile(rf"\b(?:{phrase_pattern(english.EXAMPLE_LEADS)})\.?\s+[A-Z][\w'’-]*(?:\s+[A-Z][\w'’-]*)+")
