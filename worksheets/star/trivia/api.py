"""The trivia API of STAR's trivia task over STAR's questions (data/questions.json), and the answer check.

``trivia`` returns question ``question_number``; ``genie-bot eval star`` replaces its result
with the one recorded in the dialogue being replayed. ``check_answer`` runs locally.
"""

from __future__ import annotations

import json
import re
from pathlib import Path

from rapidfuzz import fuzz

QUESTIONS = json.loads((Path(__file__).parent / "data" / "questions.json").read_text(encoding="utf-8"))
_NUMBERS = {str(n): word for n, word in enumerate(
    "zero one two three four five six seven eight nine ten eleven twelve".split())}
_FILLER = {"a", "an", "the", "it", "is", "its", "i", "think", "maybe", "guess", "answer", "my", "was", "be", "must"}
CLOSE_ENOUGH = 80
"""Fuzzy similarity (0-100) at which a word counts as the answer despite a typo ("brickette", "wnd")."""


def trivia(question_number: int) -> dict[str, str] | None:
    """Question ``question_number`` (1-based) and its answer, or None past the last question."""
    if not 1 <= question_number <= len(QUESTIONS):
        return None
    return dict(QUESTIONS[question_number - 1])


def check_answer(guess: str, answer: str) -> str:
    """``correct`` when the guess contains the answer's words (digits and number words alike, "don't"
    and "do not" alike, "air lock" and "airlock" alike, small typos forgiven), else ``incorrect``."""
    said = _words(guess)
    wanted = [w for w in _words(answer) if w not in _FILLER] or _words(answer)
    hits = sum(any(_same(w, s) for s in said + _joined_pairs(said)) for w in wanted)
    return "correct" if hits == len(wanted) else "incorrect"


_CHOOSING = {"question", "number", "no", "please", "lets", "let's", "go", "to", "with", "start", "play", "how", "about",
             "try", "do", "ok", "okay", "yes", "one", "more", "can", "i", "have", "the", "next", "is", "at"}


def question_number(text: str, answer: str | None = None) -> int | None:
    """The question number a message picks ("8 please", "question 9", "#3"), or None when it says
    anything more than that ("two in the bush" is an answer, not a number) or when the question
    being played has a number for its answer (then "8" is a guess)."""
    if answer is not None and any(w in _NUMBERS.values() for w in _words(answer)):
        return None
    words = re.findall(r"[a-z0-9']+", text.lower())
    numbers = [w for w in words if w.isdigit()]
    if len(numbers) != 1 or any(w not in _CHOOSING and not w.isdigit() for w in words):
        return None
    return int(numbers[0])


def _same(wanted: str, said: str) -> bool:
    return wanted == said or (len(wanted) > 3 and fuzz.ratio(wanted, said) >= CLOSE_ENOUGH)


def _joined_pairs(words: list[str]) -> list[str]:
    return [a + b for a, b in zip(words, words[1:])]


def _words(text: str) -> list[str]:
    text = re.sub(r"n[’']t\b", " not", text.lower())
    return [_NUMBERS.get(w, w) for w in re.findall(r"[a-z0-9]+", text)]
