"""Numbers, ordinals and amounts of money in a message.

Numbers are written with digits ("1,250", "3.5", "-2.00"), with words ("twelve hundred", "twenty
two": text2num reads them), with a magnitude ("3k", "1.2k", "about 7 thousand") or as times ("x2",
"3x a week"). An amount is a number with a currency sign or word ("$1,250", "€49", "45 bucks",
"twelve hundred euros"): price-parser reads the number as written, with its thousands and
decimal separators, and the language module says which currency a sign or word means.
"""

from __future__ import annotations

import re
from functools import lru_cache

from ....language import english
from ....language.tokens import phrase_pattern
from ....language.words import without_pronoun_one
from .model import AMOUNT, IDENTIFIER, NUMBER, ORDINAL, Amount, Entity

_MAGNITUDE = rf"(?:{'|'.join(sorted(english.MAGNITUDES, key=len, reverse=True))})(?![\w'’])"
"""A magnitude right after a number ("3k", "7 thousand"): no word boundary before it."""
_DIGITS = re.compile(rf"(?<![\w.,:/-])(?P<sign>[-−])?(?P<number>\d{{1,3}}(?:,\d{{3}})+(?:\.\d+)?|\d+(?:\.\d+)?)"
                     rf"(?:\s?(?P<magnitude>{_MAGNITUDE}))?(?![\w:/]|\.\d|,\d{{3}})", re.I)
_TIMES = re.compile(r"(?<![\w.])(?:[x×]\s?(?P<before>\d+)|(?P<after>\d+)\s?[x×])(?![A-Za-z\d])", re.I)
_ORDINAL_DIGITS = re.compile(r"(?<![\w.])(?P<n>\d{1,3})(?:st|nd|rd|th)\b", re.I)
_ORDINAL_WORDS = re.compile(phrase_pattern(english.ORDINAL_WORDS), re.I)
_NUMBER_WORD = {**english.NUMBER_WORDS, "hundred": 100, "thousand": 1000, "million": 1_000_000}
_WORD_RUN = re.compile(rf"{phrase_pattern(w for w in _NUMBER_WORD if w not in ('a', 'an'))}"
                       rf"(?:[\s-]+(?:and\s+)?{phrase_pattern(w for w in _NUMBER_WORD if w not in ('a', 'an', 'couple', 'pair', 'single'))})*",
                       re.I)
_A_FEW = re.compile(rf"\ba\s+(?P<word>{phrase_pattern(english.VAGUE_NUMBER_WORDS)}|dozen)\b(?:\s+of\b)?", re.I)
_CURRENCY_SIGN = "|".join(re.escape(s) for s in sorted(english.CURRENCY_SYMBOLS, key=len, reverse=True))
_CURRENCY_WORD = phrase_pattern(english.CURRENCY_WORDS)
_SIGN_BEFORE = re.compile(rf"(?P<sign>{_CURRENCY_SIGN})\s?$", re.I)
_SIGN_AFTER = re.compile(rf"^\s?(?P<sign>{_CURRENCY_SIGN}|{_CURRENCY_WORD})", re.I)
_IDENTIFIER = re.compile(r"(?<![\w-])(?:[A-Za-z]{1,3}\s?\d{3,}[A-Za-z\d]*|[A-Za-z]{1,6}-?\d{3,}[A-Za-z\d]*|\d{6,})(?![\w-])")
_OCCUPANCY_BEFORE = re.compile(rf"{phrase_pattern(english.OCCUPANCY_WORDS)}\.?\s*#?\s*$", re.I)
MAX_WORD_NUMBER = 10 ** 9


def find(text: str) -> list[Entity]:
    """The numbers, ordinals, amounts and identifiers of ``text`` (overlapping: the analysis settles them)."""
    out: list[Entity] = []
    numbers_said = without_pronoun_one(text)  # "the second one", "the east one" say no number
    for match in _DIGITS.finditer(text):
        value = _digits_value(match)
        out.append(_amount_or_number(text, match.start(), match.end(), value))
        place = _OCCUPANCY_BEFORE.search(text, max(0, match.start() - 16), match.start())
        if place is not None:  # "room 204": the number of a place, also named so (the longer span wins)
            out.append(Entity(IDENTIFIER, place.start(), match.end(), text[place.start():match.end()],
                              text[place.start():match.end()]))
    for match in _TIMES.finditer(text):
        out.append(Entity(NUMBER, match.start(), match.end(), float(match.group("before") or match.group("after")),
                          match.group(0)))
    for match in _WORD_RUN.finditer(text):
        said = _words_value(match.group(0))
        if said is None or not numbers_said[match.start():match.end()].strip():
            continue
        out.append(_amount_or_number(text, match.start(), match.end(), said))
    for match in _A_FEW.finditer(text):
        word = match.group("word").lower()
        value = 12.0 if word == "dozen" else float(english.ROUGH_COUNTS.get(f"{word} of", english.NUMBER_WORDS.get(word, 1)))
        out.append(Entity(NUMBER, match.start(), match.end(), value, match.group(0), vague=word != "dozen"))
    for match in _ORDINAL_DIGITS.finditer(text):
        out.append(Entity(ORDINAL, match.start(), match.end(), float(match.group("n")), match.group(0)))
    for match in _ORDINAL_WORDS.finditer(text):
        out.append(Entity(ORDINAL, match.start(), match.end(), float(english.ORDINAL_WORDS[match.group(0).lower()]),
                          match.group(0)))
    for match in _IDENTIFIER.finditer(text):
        start = match.start()
        lead = re.match(r"[A-Za-z]+\s", match.group(0))
        if lead and lead.group(0).strip().lower() in english.STOP_WORDS:  # "for 106a": the word is no part of it
            start += lead.end()
        out.append(Entity(IDENTIFIER, start, match.end(), text[start:match.end()], text[start:match.end()]))
    return out


def _digits_value(match: re.Match[str]) -> float:
    value = float(match.group("number").replace(",", ""))
    magnitude = match.group("magnitude")
    if magnitude:
        value *= english.MAGNITUDES[magnitude.lower()]
    return -value if match.group("sign") else value


@lru_cache(maxsize=1024)
def _words_value(words: str) -> float | None:
    """The number a run of number words says ("twelve hundred", "twenty-two"), or None."""
    from text_to_num import text2num  # imported on the first number said in words

    said = re.sub(r"[\s-]+", " ", words.lower()).strip()
    if said in english.VAGUE_NUMBER_WORDS and said not in ("single",):
        return None  # "a couple" alone is read with its "a" (see ``_A_FEW``); "pair" alone is no count
    if said in english.NUMBER_WORDS:
        return float(english.NUMBER_WORDS[said])
    try:
        value = float(text2num(said, "en"))
    except ValueError:
        return None
    return value if value <= MAX_WORD_NUMBER else None


def _amount_or_number(text: str, start: int, end: int, value: float) -> Entity:
    """A number, or an amount when a currency sign is written before it or a sign or word after it."""
    before = _SIGN_BEFORE.search(text, max(0, start - 4), start)
    after = _SIGN_AFTER.search(text[end:end + 24])
    if before is None and after is None:
        return Entity(NUMBER, start, end, value, text[start:end])
    said = before.group("sign") if before else after.group("sign") if after else ""
    begin = before.start() if before else start
    finish = end + after.end() if after else end
    return Entity(AMOUNT, begin, finish, Amount(_parsed_amount(text[begin:finish], value), _currency(said), said),
                  text[begin:finish])


def _parsed_amount(written: str, value: float) -> float:
    """price-parser's reading of the amount as written ("$1,250.50", "€1.250,50"), else ``value``."""
    from price_parser import Price  # imported on the first amount of money

    parsed = Price.fromstring(written).amount
    if parsed is None or re.search(_MAGNITUDE, written, re.I) or not re.search(r"\d", written):
        return value  # "3k", "twelve hundred euros": the number read above
    return float(parsed)


def _currency(said: str) -> str | None:
    key = said.lower().strip()
    return english.CURRENCY_SYMBOLS.get(key) or english.CURRENCY_WORDS.get(key)
